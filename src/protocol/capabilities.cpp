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

}  // namespace mcp
