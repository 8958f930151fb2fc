// mcp/protocol/resource_contents.hpp — the contents of a resource, as read or embedded
// (schema 2025-11-25: "TextResourceContents", "BlobResourceContents"; the schema's base
// "ResourceContents" is never sent on its own, so here the name means "one of the two").
// Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

struct TextResourceContents {
  std::string uri{};
  std::optional<std::string> mime_type{};
  std::string text{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(TextResourceContents, uri, mime_type, text, meta, extra)

struct BlobResourceContents {
  std::string uri{};
  std::optional<std::string> mime_type{};
  std::string blob{};  // base64, kept encoded: the SDK does not need the bytes to forward them
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(BlobResourceContents, uri, mime_type, blob, meta, extra)

// Told apart on the wire by which of "text" / "blob" is present; an object with both or neither is
// rejected as ambiguous.
using ResourceContents = std::variant<TextResourceContents, BlobResourceContents>;
MCP_WIRE_UNION(ResourceContents)

}  // namespace mcp
