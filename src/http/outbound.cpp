#include "http/outbound.hpp"

#include "http/frame_peek.hpp"
#include "mcp/protocol/methods.hpp"

namespace mcp::http {

Outbound Outbound::read(const std::string& frame) {
  FramePeek peek = peek_frame(frame);
  Outbound out;
  if (peek.id) out.id = std::move(*peek.id);
  if (peek.method) out.method = std::move(*peek.method);
  out.stateless_version = std::move(peek.meta_version);
  if (const std::string_view key = mcp::method::item_param(out.method); key == "name") out.name = std::move(peek.name);
  else if (key == "uri") out.name = std::move(peek.uri);
  if (out.method == mcp::method::kCancelled) out.cancels = std::move(peek.request_id);
  return out;
}

}  // namespace mcp::http
