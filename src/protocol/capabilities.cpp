#include "mcp/protocol/capabilities.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;
using detail::write_extra;

namespace {

void put(json::object& o, std::string_view key, const std::optional<json::object>& v) {
  if (v) o[key] = *v;
}

template <class T>
void put(json::object& o, std::string_view key, const std::optional<T>& v) {
  if (v) o[key] = to_json(*v);
}

// "experimental" maps capability names to objects.
Result<std::optional<json::object>> read_experimental(ObjectReader& r, std::string_view what) {
  MCP_TRY(exp, r.opt_object("experimental"));
  if (exp) {
    for (const auto& kv : *exp)
      if (!kv.value().is_object())
        return fail(detail::field_error(what, "experimental." + std::string(kv.key()), "expected an object"));
  }
  return exp;
}

}  // namespace

const json::value* find_capability(const json::object& capabilities, std::string_view path) {
  if (const json::value* v = capabilities.if_contains(path)) return v;
  // Keys may themselves contain dots (reverse-DNS extension names), so every dot is a candidate
  // boundary between a key and the rest of the path.
  for (auto dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.', dot + 1)) {
    const json::value* v = capabilities.if_contains(path.substr(0, dot));
    if (!v || !v->is_object()) continue;
    if (const json::value* found = find_capability(v->get_object(), path.substr(dot + 1))) return found;
  }
  return nullptr;
}

bool declares_capability(const json::object& capabilities, std::string_view path) {
  const json::value* v = find_capability(capabilities, path);
  return v && !v->is_null() && !(v->is_bool() && !v->get_bool());
}

json::value to_json(const ListChangedCapability& c) {
  json::object o;
  if (c.list_changed) o["listChanged"] = *c.list_changed;
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<ListChangedCapability> from_json<ListChangedCapability>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ListChangedCapability"));
  MCP_TRY(list_changed, r.opt_bool("listChanged"));
  return ListChangedCapability{list_changed, r.rest()};
}

json::value to_json(const ResourcesCapability& c) {
  json::object o;
  if (c.subscribe) o["subscribe"] = *c.subscribe;
  if (c.list_changed) o["listChanged"] = *c.list_changed;
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<ResourcesCapability> from_json<ResourcesCapability>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ResourcesCapability"));
  MCP_TRY(subscribe, r.opt_bool("subscribe"));
  MCP_TRY(list_changed, r.opt_bool("listChanged"));
  return ResourcesCapability{subscribe, list_changed, r.rest()};
}

json::value to_json(const SamplingCapability& c) {
  json::object o;
  put(o, "context", c.context);
  put(o, "tools", c.tools);
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<SamplingCapability> from_json<SamplingCapability>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "SamplingCapability"));
  MCP_TRY(context, r.opt_object("context"));
  MCP_TRY(tools, r.opt_object("tools"));
  return SamplingCapability{std::move(context), std::move(tools), r.rest()};
}

json::value to_json(const ElicitationCapability& c) {
  json::object o;
  put(o, "form", c.form);
  put(o, "url", c.url);
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<ElicitationCapability> from_json<ElicitationCapability>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ElicitationCapability"));
  MCP_TRY(form, r.opt_object("form"));
  MCP_TRY(url, r.opt_object("url"));
  return ElicitationCapability{std::move(form), std::move(url), r.rest()};
}

json::value to_json(const ClientCapabilities& c) {
  json::object o;
  put(o, "experimental", c.experimental);
  put(o, "roots", c.roots);
  put(o, "sampling", c.sampling);
  put(o, "elicitation", c.elicitation);
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<ClientCapabilities> from_json<ClientCapabilities>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ClientCapabilities"));
  MCP_TRY(experimental, read_experimental(r, "ClientCapabilities"));
  MCP_TRY(roots, r.opt<ListChangedCapability>("roots"));
  MCP_TRY(sampling, r.opt<SamplingCapability>("sampling"));
  MCP_TRY(elicitation, r.opt<ElicitationCapability>("elicitation"));
  return ClientCapabilities{std::move(experimental), std::move(roots), std::move(sampling), std::move(elicitation),
                            r.rest()};
}

json::value to_json(const ServerCapabilities& c) {
  json::object o;
  put(o, "experimental", c.experimental);
  put(o, "logging", c.logging);
  put(o, "completions", c.completions);
  put(o, "prompts", c.prompts);
  put(o, "resources", c.resources);
  put(o, "tools", c.tools);
  write_extra(o, c.extra, std::nullopt);
  return o;
}

template <>
Result<ServerCapabilities> from_json<ServerCapabilities>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "ServerCapabilities"));
  MCP_TRY(experimental, read_experimental(r, "ServerCapabilities"));
  MCP_TRY(logging, r.opt_object("logging"));
  MCP_TRY(completions, r.opt_object("completions"));
  MCP_TRY(prompts, r.opt<ListChangedCapability>("prompts"));
  MCP_TRY(resources, r.opt<ResourcesCapability>("resources"));
  MCP_TRY(tools, r.opt<ListChangedCapability>("tools"));
  return ServerCapabilities{std::move(experimental),
                            std::move(logging),
                            std::move(completions),
                            std::move(prompts),
                            std::move(resources),
                            std::move(tools),
                            r.rest()};
}

}  // namespace mcp
