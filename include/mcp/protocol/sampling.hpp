// mcp/protocol/sampling.hpp — sampling/createMessage (schema 2025-11-25: "ModelHint",
// "ModelPreferences", "ToolChoice", "CreateMessageRequestParams", "CreateMessageResult").
//
// Conventions: see mcp/protocol/tool.hpp. A task-augmented request's "task" stays in `extra`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mcp/json.hpp"
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
  std::optional<double> cost_priority{};          // "costPriority"
  std::optional<double> speed_priority{};         // "speedPriority"
  std::optional<double> intelligence_priority{};  // "intelligencePriority"
  json::object extra{};
};
MCP_WIRE_TYPE(ModelPreferences, hints, cost_priority, speed_priority, intelligence_priority, extra)

// `auto` is a C++ keyword, hence `automatic` for the wire's "auto".
enum class ToolChoiceMode { automatic, required, none };
std::string_view to_string(ToolChoiceMode);
std::optional<ToolChoiceMode> parse_tool_choice_mode(std::string_view);

struct ToolChoice {
  std::optional<ToolChoiceMode> mode{};  // absent means automatic
  json::object extra{};
};
MCP_WIRE_TYPE(ToolChoice, mode, extra)

// Soft-deprecated: "thisServer" and "allServers" only when the client declares sampling.context.
enum class IncludeContext { none, this_server, all_servers };
std::string_view to_string(IncludeContext);
std::optional<IncludeContext> parse_include_context(std::string_view);

struct CreateMessageRequestParams {
  std::vector<SamplingMessage> messages{};
  std::optional<ModelPreferences> model_preferences{};  // "modelPreferences"
  std::optional<std::string> system_prompt{};           // "systemPrompt"
  std::optional<IncludeContext> include_context{};      // "includeContext"
  std::optional<double> temperature{};
  std::int64_t max_tokens = 0;  // "maxTokens", required
  OptionalArray<std::string> stop_sequences{};  // "stopSequences"
  std::optional<json::object> metadata{};       // provider-specific, passed through
  OptionalArray<Tool> tools{};                  // requires the client's sampling.tools capability
  std::optional<ToolChoice> tool_choice{};      // "toolChoice"
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
  std::optional<std::string> stop_reason{};  // "stopReason"
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(CreateMessageResult, role, content, model, stop_reason, meta, extra)

json::value to_json(ToolChoiceMode);
json::value to_json(IncludeContext);
template <> Result<ToolChoiceMode> from_json<ToolChoiceMode>(const json::value&);
template <> Result<IncludeContext> from_json<IncludeContext>(const json::value&);

}  // namespace mcp
