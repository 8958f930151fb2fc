#include "http/outbound.hpp"

#include "http/frame_peek.hpp"
#include "mcp/protocol/methods.hpp"

namespace mcp::http {

Outbound Outbound::read(const std::string& frame) {
  // Our own frame, however deep the caller nested it: its id must be read, so that the peer's
  // refusal (nesting past its limit, say) is routed back to the request.
  constexpr std::size_t kOwnFrameDepth = 1024;
  FramePeek peek = peek_frame(frame, kOwnFrameDepth);
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
