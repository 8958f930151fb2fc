// mcp/protocol/sampling_message.hpp — the messages of sampling, including tool use
// (schema 2025-11-25: "ToolUseContent", "ToolResultContent", "SamplingMessageContentBlock",
// "SamplingMessage"). Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/content.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

// The model asks to call a tool (only in assistant messages).
struct ToolUseContent {
  std::string id{};  // matched by ToolResultContent::tool_use_id
  std::string name{};
  json::object input{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TAGGED(ToolUseContent, "tool_use", id, name, input, meta, extra)

// The outcome of a tool use, sent back in the next user message.
struct ToolResultContent {
  std::string tool_use_id{};
  std::vector<ContentBlock> content{};
  std::optional<json::object> structured_content{};
  std::optional<bool> is_error{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TAGGED(ToolResultContent, "tool_result", tool_use_id, content, structured_content, is_error, meta, extra)

// Dispatched on "type"; resource links and embedded resources are not allowed in sampling.
using SamplingMessageContentBlock =
    std::variant<TextContent, ImageContent, AudioContent, ToolUseContent, ToolResultContent>;
MCP_WIRE_UNION(SamplingMessageContentBlock)

// The wire "type" of a block: "text", "image", "audio", "tool_use" or "tool_result".
std::string_view content_type(const SamplingMessageContentBlock&);

// `content` is one block or an array of blocks on the wire (arrays since 2025-11-25); either way it
// reads as a vector, and content.as_array keeps the shape (see OneOrMany in mcp/protocol/wire.hpp).
// from_json rejects a message mixing tool results with other content, which the specification forbids.
struct SamplingMessage {
  Role role = Role::user;
  OneOrMany<SamplingMessageContentBlock> content{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(SamplingMessage, role, content, meta, extra)

// Checks the specification's pairing rule over a conversation: every assistant message with tool
// uses is followed by a user message made only of tool results, one per tool use, by id; and no
// tool result answers anything else. Errors are -32602 naming the message index.
Result<void> check_tool_use_pairing(const std::vector<SamplingMessage>& messages);

}  // namespace mcp
