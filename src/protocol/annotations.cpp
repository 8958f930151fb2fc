// Role keeps its own codec (its errors name the two values); Annotations is generic, plus the
// schema's bound on priority.
#include "mcp/protocol/annotations.hpp"

#include "mcp/protocol/wire_codec.hpp"

namespace mcp {

std::string_view to_string(Role r) { return r == Role::user ? "user" : "assistant"; }

std::optional<Role> parse_role(std::string_view s) {
  if (s == "user") return Role::user;
  if (s == "assistant") return Role::assistant;
  return std::nullopt;
}

json::value to_json(Role r) { return json::string(to_string(r)); }

template <>
Result<Role> from_json<Role>(const json::value& v) {
  const auto* s = v.if_string();
  auto role = s ? parse_role(*s) : std::nullopt;
  if (!role) return fail(Error::invalid_params("Role: expected \"user\" or \"assistant\""));
  return *role;
}

// The schema bounds priority to [0, 1].
Result<void> wire_check(const Annotations& a) { return wire::check_unit_interval("Annotations", "priority", a.priority); }

MCP_WIRE_CODEC(Annotations)

}  // namespace mcp
