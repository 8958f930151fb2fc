// mcp/protocol/tool.hpp — Tool, ToolAnnotations and ToolExecution (schema 2025-11-25: "Tool",
// "ToolAnnotations", "ToolExecution"). Conventions: mcp/protocol/wire.hpp. Icon moved to
// mcp/protocol/icon.hpp, included here so existing users still compile.
#pragma once

#include "mcp/protocol/icon.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

// Hints about a tool's behaviour. Untrusted unless the server is trusted; the capability-signature
// extension is what makes them enforceable.
struct ToolAnnotations {
  std::optional<std::string> title{};
  std::optional<bool> read_only_hint{};    // default false
  std::optional<bool> destructive_hint{};  // default true
  std::optional<bool> idempotent_hint{};   // default false
  std::optional<bool> open_world_hint{};   // default true
  json::object extra{};
};
MCP_WIRE_TYPE(ToolAnnotations, title, read_only_hint, destructive_hint, idempotent_hint, open_world_hint, extra)

// Per-tool execution settings (2025-11-25 tasks).
struct ToolExecution {
  std::optional<std::string> task_support{};  // "forbidden" | "optional" | "required"
  json::object extra{};
};
MCP_WIRE_TYPE(ToolExecution, task_support, extra)

struct Tool {
  std::string name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  json::object input_schema{{"type", "object"}};  // must be a JSON Schema object
  std::optional<json::object> output_schema{};
  std::optional<ToolAnnotations> annotations{};
  std::optional<ToolExecution> execution{};
  OptionalArray<Icon> icons{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(Tool, name, title, description, input_schema, output_schema, annotations, execution, icons, meta, extra)

}  // namespace mcp
