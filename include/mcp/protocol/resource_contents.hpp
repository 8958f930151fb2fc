// mcp/protocol/resource_contents.hpp — the contents of a resource, as read or embedded
// (schema 2025-11-25: "TextResourceContents", "BlobResourceContents"; the schema's base
// "ResourceContents" is never sent on its own, so here the name means "one of the two").
// Conventions: mcp/protocol/wire.hpp.
//
// SEP-2093 (docs/wire/resource-metadata.md): contents also carry the resource's metadata (what
// `Resource` has: name, title, description, annotations, size, icons, capabilities), so a read
// needs no list to be understood. All of it is optional here, since peers that predate the proposal
// send only uri, mimeType and the content; a server fills in what its handler left out (the
// registered definition, for the element whose URI is the one read).
#pragma once

#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/icon.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

// SEP-2093 (docs/wire/resource-metadata.md): what one resource supports. Absent: neither.
struct ResourceCapabilities {
  std::optional<bool> list{};       // resources/list with its uri enumerates its direct children
  std::optional<bool> subscribe{};  // it sends notifications/resources/updated to subscribers
  json::object extra{};
};
MCP_WIRE_TYPE(ResourceCapabilities, list, subscribe, extra)

struct TextResourceContents {
  std::string uri{};
  std::optional<std::string> mime_type{};
  std::string text{};
  // The resource's metadata (SEP-2093); `size` is that of this representation.
  std::optional<std::string> name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  std::optional<Annotations> annotations{};
  std::optional<std::int64_t> size{};
  OptionalArray<Icon> icons{};
  std::optional<ResourceCapabilities> capabilities{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(TextResourceContents, uri, mime_type, text, name, title, description, annotations, size, icons, capabilities, meta,
              extra)

struct BlobResourceContents {
  std::string uri{};
  std::optional<std::string> mime_type{};
  std::string blob{};  // base64, kept encoded: the SDK does not need the bytes to forward them
  // The resource's metadata (SEP-2093); `size` is that of this representation.
  std::optional<std::string> name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  std::optional<Annotations> annotations{};
  std::optional<std::int64_t> size{};
  OptionalArray<Icon> icons{};
  std::optional<ResourceCapabilities> capabilities{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(BlobResourceContents, uri, mime_type, blob, name, title, description, annotations, size, icons, capabilities, meta,
              extra)

// Told apart on the wire by which of "text" / "blob" is present; an object with both or neither is
// rejected as ambiguous.
using ResourceContents = std::variant<TextResourceContents, BlobResourceContents>;
MCP_WIRE_UNION(ResourceContents)

// What either kind of contents says of itself.
inline const std::string& uri_of(const ResourceContents& c) {
  return std::visit([](const auto& x) -> const std::string& { return x.uri; }, c);
}
inline const std::optional<ResourceCapabilities>& capabilities_of(const ResourceContents& c) {
  return std::visit([](const auto& x) -> const std::optional<ResourceCapabilities>& { return x.capabilities; }, c);
}

}  // namespace mcp
