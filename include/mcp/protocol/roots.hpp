// mcp/protocol/roots.hpp — filesystem roots the client exposes (schema 2025-11-25: "Root",
// "ListRootsResult"). roots/list takes RequestParams (mcp/protocol/base.hpp).
// Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

struct Root {
  std::string uri{};  // file:// in this revision; not enforced on input, so later schemes still parse
  std::optional<std::string> name{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(Root, uri, name, meta, extra)

struct ListRootsResult {
  std::vector<Root> roots{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ListRootsResult, roots, meta, extra)

}  // namespace mcp
