#include "mcp/protocol/annotations.hpp"

#include "protocol/codec.hpp"

namespace mcp {

using detail::ObjectReader;

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

json::value to_json(const Annotations& a) {
  json::object o;
  if (!a.audience.empty()) o["audience"] = detail::to_json_array(a.audience);
  if (a.priority) o["priority"] = detail::number_to_json(*a.priority);
  if (a.last_modified) o["lastModified"] = *a.last_modified;
  detail::write_extra(o, a.extra, std::nullopt);
  return o;
}

template <>
Result<Annotations> from_json<Annotations>(const json::value& v) {
  MCP_TRY(r, ObjectReader::open(v, "Annotations"));
  MCP_TRY(audience, r.opt_list<Role>("audience"));
  MCP_TRY(priority, detail::opt_unit_interval(r, "Annotations", "priority"));
  MCP_TRY(last_modified, r.opt_str("lastModified"));
  Annotations a;
  a.audience = std::move(audience);
  a.priority = priority;
  a.last_modified = std::move(last_modified);
  a.extra = r.rest();
  return a;
}

}  // namespace mcp
