#include "mcp/protocol/list_kind.hpp"

#include <array>

#include "mcp/protocol/methods.hpp"

namespace mcp {

namespace {
constexpr std::array<std::string_view, 4> kMethods = {method::kToolsList, method::kPromptsList,
                                                      method::kResourcesList, method::kResourcesTemplatesList};
constexpr std::array<std::string_view, 4> kResultKeys = {"tools", "prompts", "resources", "resourceTemplates"};
constexpr std::array<std::string_view, 4> kNouns = {"tool", "prompt", "resource", "resource template"};
constexpr std::array<std::string_view, 4> kKeyFields = {"name", "name", "uri", "uriTemplate"};

std::size_t at(ListKind k) { return static_cast<std::size_t>(k); }
}  // namespace

std::string_view list_method(ListKind kind) { return kMethods[at(kind)]; }
std::string_view result_key(ListKind kind) { return kResultKeys[at(kind)]; }
std::string_view item_noun(ListKind kind) { return kNouns[at(kind)]; }
std::string_view key_field(ListKind kind) { return kKeyFields[at(kind)]; }

std::optional<ListKind> list_kind_of_result_key(std::string_view key) {
  for (ListKind k : kListKinds)
    if (result_key(k) == key) return k;
  return std::nullopt;
}

std::optional<ListKind> list_kind_of_method(std::string_view m) {
  if (m == method::kToolsListChanged || m == method::kToolsList) return ListKind::tools;
  if (m == method::kPromptsListChanged || m == method::kPromptsList) return ListKind::prompts;
  if (m == method::kResourcesListChanged || m == method::kResourcesList) return ListKind::resources;
  if (m == method::kResourcesTemplatesList) return ListKind::resource_templates;
  return std::nullopt;
}

}  // namespace mcp
