// Text and blob contents are generic; the union is told apart by its fields, so it keeps its own codec.
#include "mcp/protocol/resource_contents.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_CODEC(TextResourceContents)
MCP_WIRE_CODEC(BlobResourceContents)

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
    auto t = from_json<TextResourceContents>(v);
    if (!t) return fail(t.error());
    return ResourceContents(std::move(*t));
  }
  auto b = from_json<BlobResourceContents>(v);
  if (!b) return fail(b.error());
  return ResourceContents(std::move(*b));
}

}  // namespace mcp
