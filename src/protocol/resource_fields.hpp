// Private: the fields Resource and ResourceLink share (the schema defines ResourceLink as a Resource
// plus "type"), read and written once for both.
#pragma once

#include <string_view>

#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/icon.hpp"
#include "protocol/codec.hpp"

namespace mcp::detail {

template <class T>
void write_resource_fields(json::object& o, const T& r) {
  o["uri"] = r.uri;
  o["name"] = r.name;
  if (r.title) o["title"] = *r.title;
  if (r.description) o["description"] = *r.description;
  if (r.mime_type) o["mimeType"] = *r.mime_type;
  if (r.annotations) o["annotations"] = to_json(*r.annotations);
  if (r.size) o["size"] = *r.size;
  if (!r.icons.empty()) o["icons"] = to_json_array(r.icons);
}

template <class T>
Result<void> read_resource_fields(ObjectReader& r, std::string_view what, T& out) {
  MCP_TRY(uri, r.str("uri"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(title, r.opt_str("title"));
  MCP_TRY(description, r.opt_str("description"));
  MCP_TRY(mime, r.opt_str("mimeType"));
  MCP_TRY(annotations, r.opt<Annotations>("annotations"));
  MCP_TRY(size, r.opt_int("size"));
  MCP_TRY(icons, r.opt_list<Icon>("icons"));
  if (size && *size < 0) return fail(field_error(what, "size", "expected a non-negative integer"));
  out.uri = std::move(uri);
  out.name = std::move(name);
  out.title = std::move(title);
  out.description = std::move(description);
  out.mime_type = std::move(mime);
  out.annotations = std::move(annotations);
  out.size = size;
  out.icons = std::move(icons);
  return {};
}

}  // namespace mcp::detail
