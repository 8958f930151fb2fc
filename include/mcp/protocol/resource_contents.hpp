// mcp/protocol/resource_contents.hpp — the contents of a resource, as read or embedded
// (schema 2025-11-25: "TextResourceContents", "BlobResourceContents"; the schema's base
// "ResourceContents" is never sent on its own, so here the name means "one of the two").
//
// Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <optional>
#include <string>
#include <variant>

#include "mcp/json.hpp"

namespace mcp {

struct TextResourceContents {
  std::string uri;
  std::optional<std::string> mime_type;  // "mimeType"
  std::string text;
  std::optional<json::object> meta;
  json::object extra;
};

struct BlobResourceContents {
  std::string uri;
  std::optional<std::string> mime_type;
  std::string blob;  // base64, kept encoded: the SDK does not need the bytes to forward them
  std::optional<json::object> meta;
  json::object extra;
};

// Told apart on the wire by which of "text" / "blob" is present; an object with both or neither is
// rejected as ambiguous.
using ResourceContents = std::variant<TextResourceContents, BlobResourceContents>;

json::value to_json(const TextResourceContents&);
json::value to_json(const BlobResourceContents&);
json::value to_json(const ResourceContents&);
template <> Result<TextResourceContents> from_json<TextResourceContents>(const json::value&);
template <> Result<BlobResourceContents> from_json<BlobResourceContents>(const json::value&);
template <> Result<ResourceContents> from_json<ResourceContents>(const json::value&);

}  // namespace mcp
