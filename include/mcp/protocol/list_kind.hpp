// mcp/protocol/list_kind.hpp — the four lists a server offers, and the names each goes by on the wire.
//
// In the protocol layer because every layer above names lists: the server's chain and registry, the
// signature checker, the client's enforcers.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace mcp {

enum class ListKind { tools, prompts, resources, resource_templates };
// Every kind, in that order, for code that goes through all four lists.
inline constexpr std::array<ListKind, 4> kListKinds = {ListKind::tools, ListKind::prompts, ListKind::resources,
                                                       ListKind::resource_templates};

std::string_view list_method(ListKind kind);  // "tools/list", ..., "resources/templates/list"
std::string_view result_key(ListKind kind);   // "tools", "prompts", "resources", "resourceTemplates"
std::string_view item_noun(ListKind kind);    // "tool", "prompt", "resource", "resource template"
std::string_view key_field(ListKind kind);    // "name", "name", "uri", "uriTemplate"
// The list a list method, or a notifications/<x>/list_changed, is about (resources' covers both
// resource lists).
std::optional<ListKind> list_kind_of_method(std::string_view method);
// The kind whose result_key is `key` ("tools", ..., "resourceTemplates"); none for anything else.
std::optional<ListKind> list_kind_of_result_key(std::string_view key);

}  // namespace mcp
