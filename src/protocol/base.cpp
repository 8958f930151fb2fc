// The progress-token helpers.
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

}  // namespace mcp
