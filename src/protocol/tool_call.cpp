// The CallToolResult helpers.
#include "mcp/protocol/tool_call.hpp"

namespace mcp {

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

CallToolResult CallToolResult::structured(json::object content) {
  auto r = text(json::serialize(content));
  r.structured_content = std::move(content);
  return r;
}

}  // namespace mcp
