// Declared in the header; the generic codec does the rest.
#include "mcp/protocol/roots.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_CODEC(Root)
MCP_WIRE_CODEC(ListRootsResult)

}  // namespace mcp
