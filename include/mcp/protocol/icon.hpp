// mcp/protocol/icon.hpp — Icon (schema 2025-11-25: "Icon"), for display beside tools, resources,
// prompts and implementations. Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

struct Icon {
  std::string src{};  // URI: https: or data:
  std::optional<std::string> mime_type{};
  OptionalArray<std::string> sizes{};  // e.g. "48x48", "any"
  std::optional<std::string> theme{};  // "light" | "dark"
  json::object extra{};
};
MCP_WIRE_TYPE(Icon, src, mime_type, sizes, theme, extra)

}  // namespace mcp
