// mcp/protocol/tool.hpp — Tool, ToolAnnotations and ToolExecution (schema 2025-11-25: "Tool", "ToolAnnotations",
// "ToolExecution"). Icon moved to mcp/protocol/icon.hpp, included here so existing users still compile.
//
// Convention of every protocol type (see mcp/json.hpp): fields in C++ snake_case mirror the wire's
// camelCase; optional wire fields are std::optional or empty vectors; `meta` is `_meta`; `extra`
// keeps unknown fields so a round trip through the SDK loses nothing. Plain values, no invariants.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/wire.hpp"
#include "mcp/protocol/icon.hpp"

namespace mcp {

// Hints about a tool's behaviour (schema "ToolAnnotations"). Untrusted unless the server is trusted;
// the capability-signature extension is what makes them enforceable.
struct ToolAnnotations {
  std::optional<std::string> title{};
  std::optional<bool> read_only_hint{};     // "readOnlyHint", default false
  std::optional<bool> destructive_hint{};   // "destructiveHint", default true
  std::optional<bool> idempotent_hint{};    // "idempotentHint", default false
  std::optional<bool> open_world_hint{};    // "openWorldHint", default true
  json::object extra{};
};
MCP_WIRE_TYPE(ToolAnnotations, title, read_only_hint, destructive_hint, idempotent_hint, open_world_hint, extra)

// Per-tool execution settings (schema "ToolExecution", 2025-11-25 tasks).
struct ToolExecution {
  std::optional<std::string> task_support{};  // "taskSupport": "forbidden" | "optional" | "required"
  json::object extra{};
};
MCP_WIRE_TYPE(ToolExecution, task_support, extra)

struct Tool {
  std::string name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  json::object input_schema{{"type", "object"}};  // "inputSchema"; must be a JSON Schema object
  std::optional<json::object> output_schema{};        // "outputSchema"
  std::optional<ToolAnnotations> annotations{};
  std::optional<ToolExecution> execution{};
  OptionalArray<Icon> icons{};
  std::optional<json::object> meta{};  // "_meta"
  json::object extra{};
};
MCP_WIRE_TYPE(Tool, name, title, description, input_schema, output_schema, annotations, execution, icons, meta, extra)


}  // namespace mcp
