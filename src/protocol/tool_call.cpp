#include "mcp/protocol/tool_call.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::to_json_array;
using detail::write_extra;

json::value to_json(const ListToolsResult& l) {
  json::object o;
  o["tools"] = to_json_array(l.tools);
  if (l.next_cursor) o["nextCursor"] = *l.next_cursor;
  write_extra(o, l.extra, l.meta);
  return o;
}

template <>
Result<ListToolsResult> from_json<ListToolsResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ListToolsResult"));
  MCP_TRY(tools, r.list<Tool>("tools"));
  MCP_TRY(next, r.opt_str("nextCursor"));
  MCP_TRY(meta, r.meta());
  return ListToolsResult{std::move(tools), std::move(next), std::move(meta), r.rest()};
}

json::value to_json(const CallToolRequestParams& p) {
  json::object o;
  o["name"] = p.name;
  if (p.arguments) o["arguments"] = *p.arguments;
  write_extra(o, p.extra, p.meta);
  return o;
}

template <>
Result<CallToolRequestParams> from_json<CallToolRequestParams>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "CallToolRequestParams"));
  MCP_TRY(name, r.str("name"));
  MCP_TRY(arguments, r.opt_object("arguments"));
  MCP_TRY(meta, detail::request_meta(r, "CallToolRequestParams"));
  return CallToolRequestParams{std::move(name), std::move(arguments), std::move(meta), r.rest()};
}

json::value to_json(const CallToolResult& c) {
  json::object o;
  o["content"] = to_json_array(c.content);
  if (c.structured_content) o["structuredContent"] = *c.structured_content;
  if (c.is_error) o["isError"] = *c.is_error;
  write_extra(o, c.extra, c.meta);
  return o;
}

template <>
Result<CallToolResult> from_json<CallToolResult>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "CallToolResult"));
  MCP_TRY(content, r.list<ContentBlock>("content"));
  MCP_TRY(structured, r.opt_object("structuredContent"));
  MCP_TRY(is_error, r.opt_bool("isError"));
  MCP_TRY(meta, r.meta());
  return CallToolResult{std::move(content), std::move(structured), is_error, std::move(meta), r.rest()};
}

}  // namespace mcp
