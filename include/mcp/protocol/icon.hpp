// mcp/protocol/icon.hpp — Icon (schema 2025-11-25: "Icon"), used by tools, resources, prompts and
// implementations. Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"

namespace mcp {

// An icon for display (schema "Icon").
struct Icon {
  std::string src;                       // URI: https: or data:
  std::optional<std::string> mime_type;  // "mimeType"
  std::vector<std::string> sizes;        // e.g. "48x48", "any"
  std::optional<std::string> theme;      // "light" | "dark"
  json::object extra;
};

json::value to_json(const Icon&);
template <> Result<Icon> from_json<Icon>(const json::value&);

}  // namespace mcp
