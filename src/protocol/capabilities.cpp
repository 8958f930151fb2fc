// Capability lookup by path, and the generic codec (plus: "experimental" maps names to objects).
#include "mcp/protocol/capabilities.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

namespace {
Result<void> check_experimental(std::string_view what, const std::optional<json::object>& exp) {
  if (exp)
    for (const auto& kv : *exp)
      if (!kv.value().is_object())
        return fail(wire::field_error(what, "experimental." + peer_text(kv.key()), "expected an object"));
  return {};
}
}  // namespace

Result<void> wire_check(const ClientCapabilities& c) { return check_experimental("ClientCapabilities", c.experimental); }
Result<void> wire_check(const ServerCapabilities& c) { return check_experimental("ServerCapabilities", c.experimental); }

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

MCP_WIRE_CODEC(ListChangedCapability)
MCP_WIRE_CODEC(ResourcesCapability)
MCP_WIRE_CODEC(SamplingCapability)
MCP_WIRE_CODEC(ElicitationCapability)
MCP_WIRE_CODEC(ClientCapabilities)
MCP_WIRE_CODEC(ServerCapabilities)

}  // namespace mcp
