// mcp/protocol/annotations.hpp — Role and Annotations (schema 2025-11-25: "Role", "Annotations").
//
// Shared by content blocks, resources and messages. Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

// The speaker of a message or the intended reader of content. A closed set in the schema, so an
// unknown role is a peer error rather than something to carry along.
enum class Role { user, assistant };

std::string_view to_string(Role);
std::optional<Role> parse_role(std::string_view);

// Client-facing hints on content and resources (schema "Annotations").
struct Annotations {
  OptionalArray<Role> audience{};
  std::optional<double> priority{};             // 0 (least important) .. 1 (effectively required)
  std::optional<std::string> last_modified{};   // "lastModified", ISO 8601; kept verbatim
  json::object extra{};
};
MCP_WIRE_TYPE(Annotations, audience, priority, last_modified, extra)

json::value to_json(Role);
template <> Result<Role> from_json<Role>(const json::value&);

}  // namespace mcp
