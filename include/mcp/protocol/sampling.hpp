// mcp/protocol/sampling.hpp — sampling/createMessage (schema 2025-11-25: "ModelHint",
// "ModelPreferences", "ToolChoice", "CreateMessageRequestParams", "CreateMessageResult").
//
// Conventions: mcp/protocol/wire.hpp. A task-augmented request's "task" stays in `extra`.
#pragma once

#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/sampling_message.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

struct ModelHint {
  std::optional<std::string> name{};  // a substring of a model name, e.g. "claude-3-5-sonnet"
  json::object extra{};
};
MCP_WIRE_TYPE(ModelHint, name, extra)

// Priorities are in [0, 1]; from_json rejects anything else.
struct ModelPreferences {
  OptionalArray<ModelHint> hints{};  // in order of preference
  std::optional<double> cost_priority{};
  std::optional<double> speed_priority{};
  std::optional<double> intelligence_priority{};
  json::object extra{};
};
MCP_WIRE_TYPE(ModelPreferences, hints, cost_priority, speed_priority, intelligence_priority, extra)

// `auto` is a C++ keyword, hence `automatic` for the wire's "auto".
enum class ToolChoiceMode { automatic, required, none };
MCP_WIRE_ENUM(ToolChoiceMode, parse_tool_choice_mode)

struct ToolChoice {
  std::optional<ToolChoiceMode> mode{};  // absent means automatic
  json::object extra{};
};
MCP_WIRE_TYPE(ToolChoice, mode, extra)

// Soft-deprecated: "thisServer" and "allServers" only when the client declares sampling.context.
enum class IncludeContext { none, this_server, all_servers };
MCP_WIRE_ENUM(IncludeContext, parse_include_context)

struct CreateMessageRequestParams {
  std::vector<SamplingMessage> messages{};
  std::optional<ModelPreferences> model_preferences{};
  std::optional<std::string> system_prompt{};
  std::optional<IncludeContext> include_context{};
  std::optional<double> temperature{};
  std::int64_t max_tokens = 0;  // required
  OptionalArray<std::string> stop_sequences{};
  std::optional<json::object> metadata{};  // provider-specific, passed through
  OptionalArray<Tool> tools{};             // requires the client's sampling.tools capability
  std::optional<ToolChoice> tool_choice{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(CreateMessageRequestParams, messages, model_preferences, system_prompt, include_context,
                        temperature, max_tokens, stop_sequences, metadata, tools, tool_choice, meta, extra)

// Well-known stop reasons; the field is an open string.
namespace stop_reason {
inline constexpr std::string_view kEndTurn = "endTurn";
inline constexpr std::string_view kStopSequence = "stopSequence";
inline constexpr std::string_view kMaxTokens = "maxTokens";
inline constexpr std::string_view kToolUse = "toolUse";
}  // namespace stop_reason

// `content` has the same one-or-many shape as SamplingMessage's.
struct CreateMessageResult {
  Role role = Role::assistant;
  OneOrMany<SamplingMessageContentBlock> content{};
  std::string model{};
  std::optional<std::string> stop_reason{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(CreateMessageResult, role, content, model, stop_reason, meta, extra)

}  // namespace mcp
