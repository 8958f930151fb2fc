// mcp/protocol/content.hpp — content blocks of tool results and prompt messages (schema 2025-11-25:
// "TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource", "ContentBlock").
//
// Conventions: mcp/protocol/wire.hpp. Each block's from_json insists on its own "type", so a block
// read through the wrong struct fails instead of quietly becoming another kind.
#pragma once

#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/icon.hpp"
#include "mcp/protocol/resource_contents.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

struct TextContent {
  std::string text{};
  std::optional<Annotations> annotations{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TAGGED(TextContent, "text", text, annotations, meta, extra)

struct ImageContent {
  std::string data{};  // base64, kept encoded
  std::string mime_type{};
  std::optional<Annotations> annotations{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TAGGED(ImageContent, "image", data, mime_type, annotations, meta, extra)

struct AudioContent {
  std::string data{};  // base64, kept encoded
  std::string mime_type{};
  std::optional<Annotations> annotations{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TAGGED(AudioContent, "audio", data, mime_type, annotations, meta, extra)

// A pointer to a resource the client may read (or subscribe to); not necessarily listed by
// resources/list. Same fields as Resource (mcp/protocol/resource.hpp).
struct ResourceLink {
  std::string uri{};
  std::string name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  std::optional<std::string> mime_type{};
  std::optional<Annotations> annotations{};
  std::optional<std::int64_t> size{};  // bytes, before any encoding
  OptionalArray<Icon> icons{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TAGGED(ResourceLink, "resource_link", uri, name, title, description, mime_type, annotations, size, icons, meta,
                extra)

// SEP-2093 removes the block's own `annotations`: they are the resource's (`resource.annotations`).
// A peer that still sends the old form is understood: read, a top-level `annotations` moves into the
// resource unless it has its own (docs/wire/resource-metadata.md).
struct EmbeddedResource {
  ResourceContents resource{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TAGGED(EmbeddedResource, "resource", resource, meta, extra)

// Dispatched on "type"; an unknown type is an error (-32602), since a block the SDK cannot represent
// would otherwise be dropped from a result without anyone noticing.
using ContentBlock = std::variant<TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource>;
MCP_WIRE_UNION(ContentBlock)

// The wire "type" of a block: "text", "image", "audio", "resource_link" or "resource".
std::string_view content_type(const ContentBlock&);

}  // namespace mcp
