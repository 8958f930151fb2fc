// Content blocks are generic and tagged; the union is read by its "type".
#include "mcp/protocol/content.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

// The schema's size is a byte count: never negative.
Result<void> wire_check(const ResourceLink& r) { return wire::check_non_negative("ResourceLink", "size", r.size); }

MCP_WIRE_CODEC(TextContent)
MCP_WIRE_CODEC(ImageContent)
MCP_WIRE_CODEC(AudioContent)
MCP_WIRE_CODEC(ResourceLink)
MCP_WIRE_CODEC(EmbeddedResource)

std::string_view content_type(const ContentBlock& c) {
  static constexpr std::string_view kTypes[] = {"text", "image", "audio", "resource_link", "resource"};
  return kTypes[c.index()];
}

json::value to_json(const ContentBlock& c) {
  return std::visit([](const auto& alt) { return to_json(alt); }, c);
}

template <>
Result<ContentBlock> from_json<ContentBlock>(const json::value& v) {
  return wire::decode_union<ContentBlock>(v, "ContentBlock", "content type");
}

}  // namespace mcp
