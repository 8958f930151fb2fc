#include "protocol/codec.hpp"

#include "mcp/protocol/base.hpp"

namespace mcp::detail {

json::object to_json_object(const std::map<std::string, std::string>& m) {
  json::object o;
  for (const auto& [k, v] : m) o[k] = v;
  return o;
}

Result<std::vector<std::string>> opt_strings(ObjectReader& r, std::string_view what, std::string_view key) {
  MCP_TRY(arr, r.opt_array(key));
  std::vector<std::string> out;
  if (!arr) return out;
  out.reserve(arr->size());
  for (std::size_t i = 0; i < arr->size(); ++i) {
    const auto& s = (*arr)[i];
    if (!s.is_string())
      return fail(field_error(what, std::string(key) + "[" + std::to_string(i) + "]", "expected a string"));
    out.emplace_back(s.get_string());
  }
  return out;
}

Result<std::map<std::string, std::string>> opt_string_map(ObjectReader& r, std::string_view what,
                                                          std::string_view key) {
  MCP_TRY(obj, r.opt_object(key));
  std::map<std::string, std::string> out;
  if (!obj) return out;
  for (const auto& kv : *obj) {
    if (!kv.value().is_string())
      return fail(field_error(what, std::string(key) + "." + std::string(kv.key()), "expected a string"));
    out.emplace(std::string(kv.key()), std::string(kv.value().get_string()));
  }
  return out;
}

Result<std::optional<double>> opt_unit_interval(ObjectReader& r, std::string_view what, std::string_view key) {
  MCP_TRY(n, r.opt_number(key));
  if (n && !(*n >= 0.0 && *n <= 1.0)) return fail(field_error(what, key, "expected a number between 0 and 1"));
  return n;
}

Result<void> expect_type(ObjectReader& r, std::string_view what, std::string_view expected) {
  MCP_TRY(type, r.str("type"));
  if (type != expected) return fail(field_error(what, "type", "expected \"" + std::string(expected) + "\""));
  return {};
}

Result<std::optional<json::object>> request_meta(ObjectReader& r, std::string_view what) {
  MCP_TRY(meta, r.meta());
  if (meta) {
    if (const auto* t = meta->if_contains("progressToken"); t && !is_string_or_integer(*t))
      return fail(field_error(what, "_meta.progressToken", "expected a string or an integer"));
  }
  return meta;
}

const json::string* type_tag(const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return nullptr;
  const auto* t = o->if_contains("type");
  return t ? t->if_string() : nullptr;
}

}  // namespace mcp::detail
