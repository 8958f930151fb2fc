// mcp/protocol/icon.hpp — Icon (schema 2025-11-25: "Icon"), used by tools, resources, prompts and
// implementations. Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

// An icon for display (schema "Icon").
struct Icon {
  std::string src{};                       // URI: https: or data:
  std::optional<std::string> mime_type{};  // "mimeType"
  OptionalArray<std::string> sizes{};        // e.g. "48x48", "any"
  std::optional<std::string> theme{};      // "light" | "dark"
  json::object extra{};
};
MCP_WIRE_TYPE(Icon, src, mime_type, sizes, theme, extra)


}  // namespace mcp
