// mcp/protocol/completion.hpp — argument autocompletion (schema 2025-11-25: "PromptReference",
// "ResourceTemplateReference", "CompleteRequestParams", "CompleteResult").
//
// Conventions: see mcp/protocol/tool.hpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "mcp/json.hpp"

namespace mcp {

struct PromptReference {  // "type": "ref/prompt"
  std::string name;
  std::optional<std::string> title;
  json::object extra;
};

struct ResourceTemplateReference {  // "type": "ref/resource"
  std::string uri;  // a URI or URI template
  json::object extra;
};

// What is being completed, dispatched on "type".
using CompletionReference = std::variant<PromptReference, ResourceTemplateReference>;

struct CompletionArgument {
  std::string name;
  std::string value;  // typed so far
  json::object extra;
};

struct CompletionContext {
  std::map<std::string, std::string> arguments;  // already resolved arguments
  json::object extra;
};

struct CompleteRequestParams {
  CompletionReference ref;
  CompletionArgument argument;
  std::optional<CompletionContext> context;
  std::optional<json::object> meta;
  json::object extra;
};

struct Completion {
  // The specification caps this at 100 values per response; a server with more sets has_more.
  static constexpr std::size_t kMaxValues = 100;

  std::vector<std::string> values;
  std::optional<std::int64_t> total;  // total matches, possibly more than sent
  std::optional<bool> has_more;       // "hasMore"
  json::object extra;
};

struct CompleteResult {
  Completion completion;
  std::optional<json::object> meta;
  json::object extra;
};

json::value to_json(const PromptReference&);
json::value to_json(const ResourceTemplateReference&);
json::value to_json(const CompletionReference&);
json::value to_json(const CompletionArgument&);
json::value to_json(const CompletionContext&);
json::value to_json(const CompleteRequestParams&);
json::value to_json(const Completion&);
json::value to_json(const CompleteResult&);
template <> Result<PromptReference> from_json<PromptReference>(const json::value&);
template <> Result<ResourceTemplateReference> from_json<ResourceTemplateReference>(const json::value&);
template <> Result<CompletionReference> from_json<CompletionReference>(const json::value&);
template <> Result<CompletionArgument> from_json<CompletionArgument>(const json::value&);
template <> Result<CompletionContext> from_json<CompletionContext>(const json::value&);
template <> Result<CompleteRequestParams> from_json<CompleteRequestParams>(const json::value&);
template <> Result<Completion> from_json<Completion>(const json::value&);
template <> Result<CompleteResult> from_json<CompleteResult>(const json::value&);

}  // namespace mcp
