#include "mcp/protocol/resource.hpp"

#include "protocol/codec.hpp"
#include "protocol/resource_fields.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::to_json_array;
using detail::write_extra;

json::value to_json(const Resource& r) {
  json::object o;
  detail::write_resource_fields(o, r);
  write_extra(o, r.extra, r.meta);
  return o;
}

template <>
Result<Resource> from_json<Resource>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "Resource"));
  Resource out;
  MCP_CHECK(detail::read_resource_fields(r, "Resource", out));
  MCP_TRY(meta, r.meta());
  out.meta = std::move(meta);
  out.extra = r.rest();
  return out;
}

json::value to_json(const ResourceTemplate& t) {
  json::object o;
  o["uriTemplate"] = t.uri_template;
  o["name"] = t.name;
  if (t.title) o["title"] = *t.title;
  if (t.description) o["description"] = *t.description;
  if (t.mime_type) o["mimeType"] = *t.mime_type;
  if (t.annotations) o["annotations"] = to_json(*t.annotations);
  if (!t.icons.empty()) o["icons"] = to_json_array(t.icons);
  write_extra(o, t.extra, t.meta);
  return o;
}

template <>
Result<ResourceTemplate> from_json<ResourceTemplate>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ResourceTemplate"));
  MCP_TRY(uri_template, r.str("uriTemplate"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(title, r.opt_str("title"));
  MCP_TRY(description, r.opt_str("description"));
  MCP_TRY(mime, r.opt_str("mimeType"));
  MCP_TRY(annotations, r.opt<Annotations>("annotations"));
  MCP_TRY(icons, r.opt_list<Icon>("icons"));
  MCP_TRY(meta, r.meta());
  ResourceTemplate t;
  t.uri_template = std::move(uri_template);
  t.name = std::move(name);
  t.title = std::move(title);
  t.description = std::move(description);
  t.mime_type = std::move(mime);
  t.annotations = std::move(annotations);
  t.icons = std::move(icons);
  t.meta = std::move(meta);
  t.extra = r.rest();
  return t;
}

json::value to_json(const ListResourcesResult& l) {
  json::object o;
  o["resources"] = to_json_array(l.resources);
  if (l.next_cursor) o["nextCursor"] = *l.next_cursor;
  write_extra(o, l.extra, l.meta);
  return o;
}

template <>
Result<ListResourcesResult> from_json<ListResourcesResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ListResourcesResult"));
  MCP_TRY(resources, r.list<Resource>("resources"));
  MCP_TRY(next, r.opt_str("nextCursor"));
  MCP_TRY(meta, r.meta());
  return ListResourcesResult{std::move(resources), std::move(next), std::move(meta), r.rest()};
}

json::value to_json(const ListResourceTemplatesResult& l) {
  json::object o;
  o["resourceTemplates"] = to_json_array(l.resource_templates);
  if (l.next_cursor) o["nextCursor"] = *l.next_cursor;
  write_extra(o, l.extra, l.meta);
  return o;
}

template <>
Result<ListResourceTemplatesResult> from_json<ListResourceTemplatesResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ListResourceTemplatesResult"));
  MCP_TRY(templates, r.list<ResourceTemplate>("resourceTemplates"));
  MCP_TRY(next, r.opt_str("nextCursor"));
  MCP_TRY(meta, r.meta());
  return ListResourceTemplatesResult{std::move(templates), std::move(next), std::move(meta), r.rest()};
}

json::value to_json(const ResourceRequestParams& p) {
  json::object o;
  o["uri"] = p.uri;
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<ResourceRequestParams> from_json<ResourceRequestParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ResourceRequestParams"));
  MCP_TRY(uri, r.str("uri"));
  MCP_TRY(meta, detail::request_meta(r, "ResourceRequestParams"));
  return ResourceRequestParams{std::move(uri), std::move(meta), r.rest()};
}

json::value to_json(const ReadResourceResult& res) {
  json::object o;
  o["contents"] = to_json_array(res.contents);
  write_extra(o, res.extra, res.meta);
  return o;
}

template <>
Result<ReadResourceResult> from_json<ReadResourceResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ReadResourceResult"));
  MCP_TRY(contents, r.list<ResourceContents>("contents"));
  MCP_TRY(meta, r.meta());
  return ReadResourceResult{std::move(contents), std::move(meta), r.rest()};
}

json::value to_json(const ResourceUpdatedNotificationParams& p) {
  json::object o;
  o["uri"] = p.uri;
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<ResourceUpdatedNotificationParams> from_json<ResourceUpdatedNotificationParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ResourceUpdatedNotificationParams"));
  MCP_TRY(uri, r.str("uri"));
  MCP_TRY(meta, r.meta());
  return ResourceUpdatedNotificationParams{std::move(uri), std::move(meta), r.rest()};
}

}  // namespace mcp
