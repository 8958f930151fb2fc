// mcp/protocol/prompt.hpp — prompts (schema 2025-11-25: "Prompt", "PromptArgument", "PromptMessage",
// "GetPromptRequestParams", "GetPromptResult", "ListPromptsResult"). Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/content.hpp"
#include "mcp/protocol/icon.hpp"
#include "mcp/protocol/wire.hpp"

namespace mcp {

struct PromptArgument {
  std::string name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  std::optional<bool> required{};
  json::object extra{};
};
MCP_WIRE_TYPE(PromptArgument, name, title, description, required, extra)

struct Prompt {
  std::string name{};
  std::optional<std::string> title{};
  std::optional<std::string> description{};
  OptionalArray<PromptArgument> arguments{};
  OptionalArray<Icon> icons{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(Prompt, name, title, description, arguments, icons, meta, extra)

// Unlike a sampling message, a prompt message holds exactly one block and has no `_meta`.
struct PromptMessage {
  Role role = Role::user;
  ContentBlock content{};
  json::object extra{};
};
MCP_WIRE_TYPE(PromptMessage, role, content, extra)

struct GetPromptRequestParams {
  std::string name{};
  std::map<std::string, std::string> arguments{};  // values are strings on the wire, always
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(GetPromptRequestParams, name, arguments, meta, extra)

struct GetPromptResult {
  std::optional<std::string> description{};
  std::vector<PromptMessage> messages{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(GetPromptResult, description, messages, meta, extra)

struct ListPromptsResult {
  std::vector<Prompt> prompts{};
  std::optional<std::string> next_cursor{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(ListPromptsResult, prompts, next_cursor, meta, extra)

}  // namespace mcp
