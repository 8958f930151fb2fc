// The codec is generic; the result helpers are here.
#include "mcp/protocol/tool_call.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

MCP_WIRE_CODEC(ListToolsResult)
MCP_WIRE_CODEC(CallToolRequestParams)
MCP_WIRE_CODEC(CallToolResult)

CallToolResult CallToolResult::text(std::string text) {
  TextContent block;
  block.text = std::move(text);
  CallToolResult r;
  r.content.emplace_back(std::move(block));
  return r;
}

CallToolResult CallToolResult::error(std::string message) {
  auto r = text(std::move(message));
  r.is_error = true;
  return r;
}

}  // namespace mcp
