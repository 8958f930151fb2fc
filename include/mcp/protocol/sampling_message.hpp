// mcp/protocol/sampling_message.hpp — the messages of sampling, including tool use
// (schema 2025-11-25: "ToolUseContent", "ToolResultContent", "SamplingMessageContentBlock",
// "SamplingMessage").
//
// Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/content.hpp"

namespace mcp {

// The model asks to call a tool (only in assistant messages).  "type": "tool_use"
struct ToolUseContent {
  std::string id{};  // matched by ToolResultContent::tool_use_id
  std::string name{};
  json::object input{};
  std::optional<json::object> meta{};
  json::object extra{};
};

// The outcome of a tool use, sent back in the next user message.  "type": "tool_result"
struct ToolResultContent {
  std::string tool_use_id{};  // "toolUseId"
  std::vector<ContentBlock> content{};
  std::optional<json::object> structured_content{};  // "structuredContent"
  std::optional<bool> is_error{};                     // "isError"
  std::optional<json::object> meta{};
  json::object extra{};
};

// Dispatched on "type"; resource links and embedded resources are not allowed in sampling.
using SamplingMessageContentBlock =
    std::variant<TextContent, ImageContent, AudioContent, ToolUseContent, ToolResultContent>;

// `content` is one block or an array of blocks on the wire (arrays since 2025-11-25). It is always a
// vector here; `content_as_array` remembers the wire shape so that a lone block sent as an array
// goes back as one, and a lone block otherwise goes out bare, which older peers understand.
struct SamplingMessage {
  Role role = Role::user;
  std::vector<SamplingMessageContentBlock> content{};
  bool content_as_array = false;
  std::optional<json::object> meta{};
  json::object extra{};
};

// The wire "type" of a block: "text", "image", "audio", "tool_use" or "tool_result".
std::string_view content_type(const SamplingMessageContentBlock&);

// Checks the specification's pairing rule over a conversation: every assistant message with tool
// uses is followed by a user message made only of tool results, one per tool use, by id; and no
// tool result answers anything else. Errors are -32602 naming the message index.
Result<void> check_tool_use_pairing(const std::vector<SamplingMessage>& messages);

json::value to_json(const ToolUseContent&);
json::value to_json(const ToolResultContent&);
json::value to_json(const SamplingMessageContentBlock&);
json::value to_json(const SamplingMessage&);
template <> Result<ToolUseContent> from_json<ToolUseContent>(const json::value&);
template <> Result<ToolResultContent> from_json<ToolResultContent>(const json::value&);
template <> Result<SamplingMessageContentBlock> from_json<SamplingMessageContentBlock>(const json::value&);
// Also rejects a message mixing tool results with other content, which the specification forbids.
template <> Result<SamplingMessage> from_json<SamplingMessage>(const json::value&);

}  // namespace mcp
