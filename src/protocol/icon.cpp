// Declared in the header; the generic codec does the rest.
#include "mcp/protocol/icon.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_CODEC(Icon)

}  // namespace mcp
