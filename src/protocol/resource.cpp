// Declared in the header; the generic codec does the rest.
#include "mcp/protocol/resource.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

// The schema's size is a byte count: never negative.
Result<void> wire_check(const Resource& r) { return wire::check_non_negative("Resource", "size", r.size); }

MCP_WIRE_CODEC(Resource)
MCP_WIRE_CODEC(ResourceTemplate)
MCP_WIRE_CODEC(ListResourcesResult)
MCP_WIRE_CODEC(ListResourceTemplatesResult)
MCP_WIRE_CODEC(ResourceRequestParams)
MCP_WIRE_CODEC(ReadResourceResult)
MCP_WIRE_CODEC(ResourceUpdatedNotificationParams)

}  // namespace mcp
