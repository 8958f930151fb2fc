// mcp/protocol/annotations.hpp — Role and Annotations (schema 2025-11-25: "Role", "Annotations"),
// shared by content blocks, resources and messages. Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

// The speaker of a message or the intended reader of content. A closed set in the schema, so an
// unknown role is a peer error rather than something to carry along.
enum class Role { user, assistant };
MCP_WIRE_ENUM(Role, parse_role)

// Client-facing hints on content and resources.
struct Annotations {
  OptionalArray<Role> audience{};
  std::optional<double> priority{};            // 0 (least important) .. 1 (effectively required)
  std::optional<std::string> last_modified{};  // ISO 8601; kept verbatim
  json::object extra{};
};
MCP_WIRE_TYPE(Annotations, audience, priority, last_modified, extra)

}  // namespace mcp
