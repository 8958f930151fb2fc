// Capability lookup by path.
#include "mcp/protocol/capabilities.hpp"

namespace mcp {

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

namespace {
bool declared(const json::value* v) { return v && !v->is_null() && !(v->is_bool() && !v->get_bool()); }
}  // namespace

json::object missing_capabilities(const json::object& required, const json::object& declared_caps) {
  json::object missing;
  for (const auto& [key, need] : required) {
    const json::value* have = declared_caps.if_contains(key);
    if (!declared(have)) {
      missing[key] = need;
      continue;
    }
    const json::object* sub_need = need.if_object();
    const json::object* sub_have = have->if_object();
    if (!sub_need) continue;
    json::object sub_missing;
    for (const auto& [sub, flag] : *sub_need) {
      if (!sub_have || !declared(sub_have->if_contains(sub))) sub_missing[sub] = flag;
    }
    if (!sub_missing.empty()) missing[key] = std::move(sub_missing);
  }
  return missing;
}

json::object merge_capabilities(json::object a, const json::object& b) {
  for (const auto& [key, value] : b) {
    json::value& mine = a[key];
    if (mine.is_object() && value.is_object()) {
      for (const auto& [sub, flag] : value.get_object()) mine.as_object()[sub] = flag;
    } else if (!declared(&mine)) {
      mine = value;
    }
  }
  return a;
}

}  // namespace mcp
