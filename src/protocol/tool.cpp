// Declared in the header; the generic codec does the rest.
#include "mcp/protocol/tool.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_CODEC(ToolAnnotations)
MCP_WIRE_CODEC(ToolExecution)
MCP_WIRE_CODEC(Tool)

}  // namespace mcp
