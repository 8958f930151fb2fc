#include "protocol/codec.hpp"

namespace mcp::detail {

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

Result<std::optional<double>> opt_unit_interval(ObjectReader& r, std::string_view what, std::string_view key) {
  MCP_TRY(n, r.opt_number(key));
  MCP_CHECK(wire::check_unit_interval(what, key, n));
  return n;
}

Result<void> expect_type(ObjectReader& r, std::string_view what, std::string_view expected) {
  MCP_TRY(type, r.str("type"));
  if (type != expected) return fail(field_error(what, "type", "expected \"" + std::string(expected) + "\""));
  return {};
}

Result<std::optional<json::object>> request_meta(ObjectReader& r, std::string_view what) {
  MCP_TRY(meta, r.meta());
  if (auto e = wire::check_request_meta(what, meta)) return fail(std::move(*e));
  return meta;
}

const json::string* type_tag(const json::value& v) {
  const auto* o = v.if_object();
  if (!o) return nullptr;
  const auto* t = o->if_contains("type");
  return t ? t->if_string() : nullptr;
}

}  // namespace mcp::detail
