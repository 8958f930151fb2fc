// mcp/protocol/completion.hpp — argument autocompletion (schema 2025-11-25: "PromptReference",
// "ResourceTemplateReference", "CompleteRequestParams", "CompleteResult").
// Conventions: mcp/protocol/wire.hpp.
#pragma once

#include "mcp/protocol/wire.hpp"

namespace mcp {

struct PromptReference {
  std::string name{};
  std::optional<std::string> title{};
  json::object extra{};
};
MCP_WIRE_TAGGED(PromptReference, "ref/prompt", name, title, extra)

struct ResourceTemplateReference {
  std::string uri{};  // a URI or URI template
  json::object extra{};
};
MCP_WIRE_TAGGED(ResourceTemplateReference, "ref/resource", uri, extra)

// What is being completed, dispatched on "type".
using CompletionReference = std::variant<PromptReference, ResourceTemplateReference>;
MCP_WIRE_UNION(CompletionReference)

struct CompletionArgument {
  std::string name{};
  std::string value{};  // typed so far
  json::object extra{};
};
MCP_WIRE_TYPE(CompletionArgument, name, value, extra)

struct CompletionContext {
  std::map<std::string, std::string> arguments{};  // already resolved arguments
  json::object extra{};
};
MCP_WIRE_TYPE(CompletionContext, arguments, extra)

struct CompleteRequestParams {
  CompletionReference ref{};
  CompletionArgument argument{};
  std::optional<CompletionContext> context{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_REQUEST_PARAMS(CompleteRequestParams, ref, argument, context, meta, extra)

struct Completion {
  // The specification caps this at 100 values per response; a server with more sets has_more.
  static constexpr std::size_t kMaxValues = 100;

  std::vector<std::string> values{};
  std::optional<std::int64_t> total{};  // total matches, possibly more than sent
  std::optional<bool> has_more{};
  json::object extra{};
};
MCP_WIRE_TYPE(Completion, values, total, has_more, extra)

struct CompleteResult {
  Completion completion{};
  std::optional<json::object> meta{};
  json::object extra{};
};
MCP_WIRE_TYPE(CompleteResult, completion, meta, extra)

}  // namespace mcp
