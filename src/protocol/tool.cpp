#include "mcp/protocol/tool.hpp"

#include "protocol/object_reader.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

json::value to_json(const ToolAnnotations& a) {
  json::object o;
  if (a.title) o["title"] = *a.title;
  if (a.read_only_hint) o["readOnlyHint"] = *a.read_only_hint;
  if (a.destructive_hint) o["destructiveHint"] = *a.destructive_hint;
  if (a.idempotent_hint) o["idempotentHint"] = *a.idempotent_hint;
  if (a.open_world_hint) o["openWorldHint"] = *a.open_world_hint;
  write_extra(o, a.extra, std::nullopt);
  return o;
}

template <>
Result<ToolAnnotations> from_json<ToolAnnotations>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ToolAnnotations"));
  ToolAnnotations a;
  MCP_TRY(title, r.opt_str("title"));
  MCP_TRY(ro, r.opt_bool("readOnlyHint"));
  MCP_TRY(de, r.opt_bool("destructiveHint"));
  MCP_TRY(id, r.opt_bool("idempotentHint"));
  MCP_TRY(ow, r.opt_bool("openWorldHint"));
  a.title = std::move(title);
  a.read_only_hint = ro;
  a.destructive_hint = de;
  a.idempotent_hint = id;
  a.open_world_hint = ow;
  a.extra = r.rest();
  return a;
}

json::value to_json(const ToolExecution& e) {
  json::object o;
  if (e.task_support) o["taskSupport"] = *e.task_support;
  write_extra(o, e.extra, std::nullopt);
  return o;
}

template <>
Result<ToolExecution> from_json<ToolExecution>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ToolExecution"));
  ToolExecution e;
  MCP_TRY(ts, r.opt_str("taskSupport"));
  e.task_support = std::move(ts);
  e.extra = r.rest();
  return e;
}

json::value to_json(const Tool& t) {
  json::object o;
  o["name"] = t.name;
  if (t.title) o["title"] = *t.title;
  if (t.description) o["description"] = *t.description;
  o["inputSchema"] = t.input_schema;
  if (t.output_schema) o["outputSchema"] = *t.output_schema;
  if (t.annotations) o["annotations"] = to_json(*t.annotations);
  if (t.execution) o["execution"] = to_json(*t.execution);
  if (!t.icons.empty()) {
    json::array a;
    for (const auto& i : t.icons) a.push_back(to_json(i));
    o["icons"] = std::move(a);
  }
  write_extra(o, t.extra, t.meta);
  return o;
}

template <>
Result<Tool> from_json<Tool>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "Tool"));
  Tool t;
  MCP_TRY(name, r.str("name"));
  MCP_TRY(title, r.opt_str("title"));
  MCP_TRY(desc, r.opt_str("description"));
  MCP_TRY(in, r.object("inputSchema"));
  MCP_TRY(out, r.opt_object("outputSchema"));
  MCP_TRY(ann, r.opt<ToolAnnotations>("annotations"));
  MCP_TRY(exe, r.opt<ToolExecution>("execution"));
  MCP_TRY(icons, r.opt_list<Icon>("icons"));
  MCP_TRY(meta, r.meta());
  t.name = std::move(name);
  t.title = std::move(title);
  t.description = std::move(desc);
  t.input_schema = std::move(in);
  t.output_schema = std::move(out);
  t.annotations = std::move(ann);
  t.execution = std::move(exe);
  t.icons = std::move(icons);
  t.meta = std::move(meta);
  t.extra = r.rest();
  return t;
}

}  // namespace mcp
