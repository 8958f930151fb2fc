// mcp/protocol/tool_call.hpp — listing and calling tools (schema 2025-11-25: "ListToolsResult",
// "CallToolRequestParams", "CallToolResult").
//
// Conventions: mcp/protocol/wire.hpp. A task-augmented call's "task" member is not modelled; it
// stays in `extra`.
#pragma once

#include "mcp/protocol/content.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

struct ListToolsResult {
  std::vector<Tool> tools{};
  std::optional<std::string> next_cursor{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ListToolsResult, tools, next_cursor, meta, extra)

struct CallToolRequestParams {
  std::string name{};
  std::optional<json::object> arguments{};
  std::optional<json::object> meta{};  // may carry "progressToken" (see progress_token() in base.hpp)
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(CallToolRequestParams, name, arguments, meta, extra)

// A tool's own failure is a result with is_error = true, not a JSON-RPC error, so that the model
// can see it and recover; JSON-RPC errors are for calls that never reached the tool.
struct CallToolResult {
  std::vector<ContentBlock> content{};
  std::optional<json::object> structured_content{};  // should match the tool's outputSchema
  std::optional<bool> is_error{};                    // absent means false
  std::optional<json::object> meta{};
  json::object extra{};

  // The common answers, without spelling out a content block: one text block; one text block
  // marked isError (a tool failure the model should see, not a protocol error).
  static CallToolResult text(std::string text);
  static CallToolResult error(std::string message);
  // Structured content, with its serialised JSON as the one text block, as the specification
  // asks of tools with an outputSchema (for clients that read only content).
  static CallToolResult structured(json::object content);
};
MCP_WIRE_TYPE(CallToolResult, content, structured_content, is_error, meta, extra)

}  // namespace mcp
