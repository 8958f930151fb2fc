// Declared in the header; the generic codec does the rest.
#include "mcp/protocol/initialize.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_CODEC(Implementation)
MCP_WIRE_CODEC(InitializeRequestParams)
MCP_WIRE_CODEC(InitializeResult)

}  // namespace mcp
