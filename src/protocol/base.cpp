// The progress-token helpers, and the generic codec of the three open shapes.
#include "mcp/protocol/base.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

bool is_string_or_integer(const json::value& v) {
  return v.is_string() || v.is_uint64() || wire::as_integer(v).has_value();
}

std::optional<ProgressToken> progress_token(const std::optional<json::object>& meta) {
  if (!meta) return std::nullopt;
  const auto* t = meta->if_contains("progressToken");
  if (!t || !is_string_or_integer(*t)) return std::nullopt;
  return *t;
}

void set_progress_token(std::optional<json::object>& meta, const ProgressToken& token) {
  if (!meta) meta.emplace();
  (*meta)["progressToken"] = token;
}

MCP_WIRE_CODEC(RequestParams)
MCP_WIRE_CODEC(NotificationParams)
MCP_WIRE_CODEC(EmptyResult)

}  // namespace mcp
