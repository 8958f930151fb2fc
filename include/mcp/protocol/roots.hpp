// mcp/protocol/roots.hpp — filesystem roots the client exposes (schema 2025-11-25: "Root",
// "ListRootsResult"). roots/list takes RequestParams (mcp/protocol/base.hpp).
//
// Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"

namespace mcp {

struct Root {
  std::string uri;  // file:// in this revision; not enforced on input, so later schemes still parse
  std::optional<std::string> name;
  std::optional<json::object> meta;
  json::object extra;
};

struct ListRootsResult {
  std::vector<Root> roots;
  std::optional<json::object> meta;
  json::object extra;
};

json::value to_json(const Root&);
json::value to_json(const ListRootsResult&);
template <> Result<Root> from_json<Root>(const json::value&);
template <> Result<ListRootsResult> from_json<ListRootsResult>(const json::value&);

}  // namespace mcp
