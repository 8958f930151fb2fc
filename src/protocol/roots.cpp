#include "mcp/protocol/roots.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

json::value to_json(const Root& root) {
  json::object o;
  o["uri"] = root.uri;
  if (root.name) o["name"] = *root.name;
  write_extra(o, root.extra, root.meta);
  return o;
}

template <>
Result<Root> from_json<Root>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "Root"));
  MCP_TRY(uri, r.str("uri"));
  MCP_TRY(name, r.opt_str("name"));
  MCP_TRY(meta, r.meta());
  return Root{std::move(uri), std::move(name), std::move(meta), r.rest()};
}

json::value to_json(const ListRootsResult& l) {
  json::object o;
  o["roots"] = detail::to_json_array(l.roots);
  write_extra(o, l.extra, l.meta);
  return o;
}

template <>
Result<ListRootsResult> from_json<ListRootsResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ListRootsResult"));
  MCP_TRY(roots, r.list<Root>("roots"));
  MCP_TRY(meta, r.meta());
  return ListRootsResult{std::move(roots), std::move(meta), r.rest()};
}

}  // namespace mcp
