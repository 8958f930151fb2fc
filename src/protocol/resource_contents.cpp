#include "mcp/protocol/resource_contents.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

json::value to_json(const TextResourceContents& c) {
  json::object o;
  o["uri"] = c.uri;
  if (c.mime_type) o["mimeType"] = *c.mime_type;
  o["text"] = c.text;
  write_extra(o, c.extra, c.meta);
  return o;
}

template <>
Result<TextResourceContents> from_json<TextResourceContents>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "TextResourceContents"));
  MCP_TRY(uri, r.str("uri"));
  MCP_TRY(mime, r.opt_str("mimeType"));
  MCP_TRY(text, r.str("text"));
  MCP_TRY(meta, r.meta());
  TextResourceContents c;
  c.uri = std::move(uri);
  c.mime_type = std::move(mime);
  c.text = std::move(text);
  c.meta = std::move(meta);
  c.extra = r.rest();
  return c;
}

json::value to_json(const BlobResourceContents& c) {
  json::object o;
  o["uri"] = c.uri;
  if (c.mime_type) o["mimeType"] = *c.mime_type;
  o["blob"] = c.blob;
  write_extra(o, c.extra, c.meta);
  return o;
}

template <>
Result<BlobResourceContents> from_json<BlobResourceContents>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "BlobResourceContents"));
  MCP_TRY(uri, r.str("uri"));
  MCP_TRY(mime, r.opt_str("mimeType"));
  MCP_TRY(blob, r.str("blob"));
  MCP_TRY(meta, r.meta());
  BlobResourceContents c;
  c.uri = std::move(uri);
  c.mime_type = std::move(mime);
  c.blob = std::move(blob);
  c.meta = std::move(meta);
  c.extra = r.rest();
  return c;
}

json::value to_json(const ResourceContents& c) {
  return std::visit([](const auto& alt) { return to_json(alt); }, c);
}

template <>
Result<ResourceContents> from_json<ResourceContents>(const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return fail(Error::invalid_params("ResourceContents: expected an object"));
  const bool text = o->contains("text");
  const bool blob = o->contains("blob");
  if (text == blob)
    return fail(Error::invalid_params("ResourceContents: expected exactly one of \"text\" and \"blob\""));
  if (text) {
    MCP_TRY(t, from_json<TextResourceContents>(v));
    return ResourceContents(std::move(t));
  }
  MCP_TRY(b, from_json<BlobResourceContents>(v));
  return ResourceContents(std::move(b));
}

}  // namespace mcp
