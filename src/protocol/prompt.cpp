// Declared in the header; the generic codec does the rest.
#include "mcp/protocol/prompt.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_CODEC(PromptArgument)
MCP_WIRE_CODEC(Prompt)
MCP_WIRE_CODEC(PromptMessage)
MCP_WIRE_CODEC(GetPromptRequestParams)
MCP_WIRE_CODEC(GetPromptResult)
MCP_WIRE_CODEC(ListPromptsResult)

}  // namespace mcp
