#include "mcp/protocol/content.hpp"

#include "protocol/codec.hpp"
#include "protocol/resource_fields.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

namespace {

void write_annotations(json::object& o, const std::optional<Annotations>& a) {
  if (a) o["annotations"] = to_json(*a);
}

// Image and audio blocks differ only in their "type".
template <class T>
json::value media_to_json(std::string_view type, const T& c) {
  json::object o;
  o["type"] = type;
  o["data"] = c.data;
  o["mimeType"] = c.mime_type;
  write_annotations(o, c.annotations);
  write_extra(o, c.extra, c.meta);
  return o;
}

template <class T>
Result<T> media_from_json(const json::value& v, std::string_view what, std::string_view type) {
  MCP_TRY(r, ObjectReader::open(v, what));
  MCP_CHECK(detail::expect_type(r, what, type));
  MCP_TRY(data, r.str("data"));
  MCP_TRY(mime, r.str("mimeType"));
  MCP_TRY(annotations, r.opt<Annotations>("annotations"));
  MCP_TRY(meta, r.meta());
  T c;
  c.data = std::move(data);
  c.mime_type = std::move(mime);
  c.annotations = std::move(annotations);
  c.meta = std::move(meta);
  c.extra = r.rest();
  return c;
}

}  // namespace

json::value to_json(const TextContent& c) {
  json::object o;
  o["type"] = "text";
  o["text"] = c.text;
  write_annotations(o, c.annotations);
  write_extra(o, c.extra, c.meta);
  return o;
}

template <>
Result<TextContent> from_json<TextContent>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "TextContent"));
  MCP_CHECK(detail::expect_type(r, "TextContent", "text"));
  MCP_TRY(text, r.str("text"));
  MCP_TRY(annotations, r.opt<Annotations>("annotations"));
  MCP_TRY(meta, r.meta());
  TextContent c;
  c.text = std::move(text);
  c.annotations = std::move(annotations);
  c.meta = std::move(meta);
  c.extra = r.rest();
  return c;
}

json::value to_json(const ImageContent& c) { return media_to_json("image", c); }
json::value to_json(const AudioContent& c) { return media_to_json("audio", c); }

template <>
Result<ImageContent> from_json<ImageContent>(const json::value& v) {
  return media_from_json<ImageContent>(v, "ImageContent", "image");
}
template <>
Result<AudioContent> from_json<AudioContent>(const json::value& v) {
  return media_from_json<AudioContent>(v, "AudioContent", "audio");
}

json::value to_json(const ResourceLink& l) {
  json::object o;
  o["type"] = "resource_link";
  detail::write_resource_fields(o, l);
  write_extra(o, l.extra, l.meta);
  return o;
}

template <>
Result<ResourceLink> from_json<ResourceLink>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ResourceLink"));
  MCP_CHECK(detail::expect_type(r, "ResourceLink", "resource_link"));
  ResourceLink l;
  MCP_CHECK(detail::read_resource_fields(r, "ResourceLink", l));
  MCP_TRY(meta, r.meta());
  l.meta = std::move(meta);
  l.extra = r.rest();
  return l;
}

json::value to_json(const EmbeddedResource& e) {
  json::object o;
  o["type"] = "resource";
  o["resource"] = to_json(e.resource);
  write_annotations(o, e.annotations);
  write_extra(o, e.extra, e.meta);
  return o;
}

template <>
Result<EmbeddedResource> from_json<EmbeddedResource>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "EmbeddedResource"));
  MCP_CHECK(detail::expect_type(r, "EmbeddedResource", "resource"));
  MCP_TRY(resource, r.req<ResourceContents>("resource"));
  MCP_TRY(annotations, r.opt<Annotations>("annotations"));
  MCP_TRY(meta, r.meta());
  EmbeddedResource e{std::move(resource), std::move(annotations), std::move(meta), r.rest()};
  return e;
}

std::string_view content_type(const ContentBlock& c) {
  static constexpr std::string_view kTypes[] = {"text", "image", "audio", "resource_link", "resource"};
  return kTypes[c.index()];
}

json::value to_json(const ContentBlock& c) {
  return std::visit([](const auto& alt) { return to_json(alt); }, c);
}

template <>
Result<ContentBlock> from_json<ContentBlock>(const json::value& v) {
  if (!v.is_object()) return fail(Error::invalid_params("ContentBlock: expected an object"));
  const json::string* type = detail::type_tag(v);
  if (!type) return fail(Error::invalid_params("ContentBlock.type: expected a string"));
  // Converts the alternative's Result into the variant's.
  auto as_block = [](auto r) -> Result<ContentBlock> {
    if (!r) return fail(std::move(r.error()));
    return ContentBlock(std::move(*r));
  };
  if (*type == "text") return as_block(from_json<TextContent>(v));
  if (*type == "image") return as_block(from_json<ImageContent>(v));
  if (*type == "audio") return as_block(from_json<AudioContent>(v));
  if (*type == "resource_link") return as_block(from_json<ResourceLink>(v));
  if (*type == "resource") return as_block(from_json<EmbeddedResource>(v));
  return fail(Error::invalid_params("ContentBlock.type: unknown content type \"" + peer_text(*type) + "\""));
}

}  // namespace mcp
