// SEP-2093's multi-content rules (mcp/protocol/resource.hpp), one statement for both roles.
#include "mcp/protocol/resource.hpp"

namespace mcp {

std::optional<std::string> multi_content_violation(const std::string& uri, const ReadResourceResult& r,
                                                   std::optional<bool> listable) {
  if (r.contents.empty()) return "it returned no contents (a read returns at least one)";
  for (const auto& c : r.contents) {
    if (uri_of(c) == uri && capabilities_of(c)) {
      listable = capabilities_of(c)->list.value_or(false);
      break;
    }
  }
  if (listable != false) return std::nullopt;
  for (const auto& c : r.contents) {
    if (uri_of(c) != uri) {
      return "it is not listable, yet returned contents for another URI (" + peer_text(uri_of(c)) +
             "); a non-listable resource's contents all carry its own URI";
    }
  }
  return std::nullopt;
}

}  // namespace mcp
