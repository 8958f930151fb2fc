#include "mcp/protocol/prompt.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::to_json_array;
using detail::write_extra;

json::value to_json(const PromptArgument& a) {
  json::object o;
  o["name"] = a.name;
  if (a.title) o["title"] = *a.title;
  if (a.description) o["description"] = *a.description;
  if (a.required) o["required"] = *a.required;
  write_extra(o, a.extra, std::nullopt);
  return o;
}

template <>
Result<PromptArgument> from_json<PromptArgument>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "PromptArgument"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(title, r.opt_str("title"));
  MCP_TRY(description, r.opt_str("description"));
  MCP_TRY(required, r.opt_bool("required"));
  return PromptArgument{std::move(name), std::move(title), std::move(description), required, r.rest()};
}

json::value to_json(const Prompt& p) {
  json::object o;
  o["name"] = p.name;
  if (p.title) o["title"] = *p.title;
  if (p.description) o["description"] = *p.description;
  if (!p.arguments.empty()) o["arguments"] = to_json_array(p.arguments);
  if (!p.icons.empty()) o["icons"] = to_json_array(p.icons);
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<Prompt> from_json<Prompt>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "Prompt"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(title, r.opt_str("title"));
  MCP_TRY(description, r.opt_str("description"));
  MCP_TRY(arguments, r.opt_list<PromptArgument>("arguments"));
  MCP_TRY(icons, r.opt_list<Icon>("icons"));
  MCP_TRY(meta, r.meta());
  Prompt p;
  p.name = std::move(name);
  p.title = std::move(title);
  p.description = std::move(description);
  p.arguments = std::move(arguments);
  p.icons = std::move(icons);
  p.meta = std::move(meta);
  p.extra = r.rest();
  return p;
}

json::value to_json(const PromptMessage& m) {
  json::object o;
  o["role"] = to_json(m.role);
  o["content"] = to_json(m.content);
  write_extra(o, m.extra, std::nullopt);
  return o;
}

template <>
Result<PromptMessage> from_json<PromptMessage>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "PromptMessage"));
  MCP_TRY(role, r.req<Role>("role"));
  MCP_TRY(content, r.req<ContentBlock>("content"));
  return PromptMessage{role, std::move(content), r.rest()};
}

json::value to_json(const GetPromptRequestParams& p) {
  json::object o;
  o["name"] = p.name;
  if (!p.arguments.empty()) o["arguments"] = detail::to_json_object(p.arguments);
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<GetPromptRequestParams> from_json<GetPromptRequestParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "GetPromptRequestParams"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(arguments, detail::opt_string_map(r, "GetPromptRequestParams", "arguments"));
  MCP_TRY(meta, detail::request_meta(r, "GetPromptRequestParams"));
  return GetPromptRequestParams{std::move(name), std::move(arguments), std::move(meta), r.rest()};
}

json::value to_json(const GetPromptResult& g) {
  json::object o;
  if (g.description) o["description"] = *g.description;
  o["messages"] = to_json_array(g.messages);
  write_extra(o, g.extra, g.meta);
  return o;
}

template <>
Result<GetPromptResult> from_json<GetPromptResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "GetPromptResult"));
  MCP_TRY(description, r.opt_str("description"));
  MCP_TRY(messages, r.list<PromptMessage>("messages"));
  MCP_TRY(meta, r.meta());
  return GetPromptResult{std::move(description), std::move(messages), std::move(meta), r.rest()};
}

json::value to_json(const ListPromptsResult& l) {
  json::object o;
  o["prompts"] = to_json_array(l.prompts);
  if (l.next_cursor) o["nextCursor"] = *l.next_cursor;
  write_extra(o, l.extra, l.meta);
  return o;
}

template <>
Result<ListPromptsResult> from_json<ListPromptsResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ListPromptsResult"));
  MCP_TRY(prompts, r.list<Prompt>("prompts"));
  MCP_TRY(next, r.opt_str("nextCursor"));
  MCP_TRY(meta, r.meta());
  return ListPromptsResult{std::move(prompts), std::move(next), std::move(meta), r.rest()};
}

}  // namespace mcp
