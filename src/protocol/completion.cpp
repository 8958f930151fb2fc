// The generic codec, and the reference union read by its "type".
#include "mcp/protocol/completion.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_CODEC(PromptReference)
MCP_WIRE_CODEC(ResourceTemplateReference)
MCP_WIRE_CODEC(CompletionArgument)
MCP_WIRE_CODEC(CompletionContext)
MCP_WIRE_CODEC(CompleteRequestParams)
MCP_WIRE_CODEC(Completion)
MCP_WIRE_CODEC(CompleteResult)

json::value to_json(const CompletionReference& ref) {
  return std::visit([](const auto& alt) { return to_json(alt); }, ref);
}

template <>
Result<CompletionReference> from_json<CompletionReference>(const json::value& v) {
  return wire::decode_union<CompletionReference>(v, "CompletionReference", "reference type");
}

}  // namespace mcp
