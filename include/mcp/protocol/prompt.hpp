// mcp/protocol/prompt.hpp — prompts (schema 2025-11-25: "Prompt", "PromptArgument", "PromptMessage",
// "GetPromptRequestParams", "GetPromptResult", "ListPromptsResult").
//
// Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mcp/json.hpp"
#include "mcp/protocol/annotations.hpp"
#include "mcp/protocol/content.hpp"
#include "mcp/protocol/icon.hpp"

namespace mcp {

struct PromptArgument {
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::optional<bool> required;
  json::object extra;
};

struct Prompt {
  std::string name;
  std::optional<std::string> title;
  std::optional<std::string> description;
  std::vector<PromptArgument> arguments;
  std::vector<Icon> icons;
  std::optional<json::object> meta;
  json::object extra;
};

// Unlike a sampling message, a prompt message holds exactly one block and has no `_meta`.
struct PromptMessage {
  Role role = Role::user;
  ContentBlock content;
  json::object extra;
};

struct GetPromptRequestParams {
  std::string name;
  std::map<std::string, std::string> arguments;  // values are strings on the wire, always
  std::optional<json::object> meta;
  json::object extra;
};

struct GetPromptResult {
  std::optional<std::string> description;
  std::vector<PromptMessage> messages;
  std::optional<json::object> meta;
  json::object extra;
};

struct ListPromptsResult {
  std::vector<Prompt> prompts;
  std::optional<std::string> next_cursor;  // "nextCursor"
  std::optional<json::object> meta;
  json::object extra;
};

json::value to_json(const PromptArgument&);
json::value to_json(const Prompt&);
json::value to_json(const PromptMessage&);
json::value to_json(const GetPromptRequestParams&);
json::value to_json(const GetPromptResult&);
json::value to_json(const ListPromptsResult&);
template <> Result<PromptArgument> from_json<PromptArgument>(const json::value&);
template <> Result<Prompt> from_json<Prompt>(const json::value&);
template <> Result<PromptMessage> from_json<PromptMessage>(const json::value&);
template <> Result<GetPromptRequestParams> from_json<GetPromptRequestParams>(const json::value&);
template <> Result<GetPromptResult> from_json<GetPromptResult>(const json::value&);
template <> Result<ListPromptsResult> from_json<ListPromptsResult>(const json::value&);

}  // namespace mcp
