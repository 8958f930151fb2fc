#include "gateway/call_record.hpp"

#include <charconv>

#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::gateway {

std::string arguments_digest(const Result<std::string>& canonical) {
  return canonical ? trust::sha256_tag(*canonical) : std::string("(not canonicalisable)");
}

Result<std::string> call_record_text(const CallRecord& r) {
  std::string out;
  out.reserve(192 + r.item.size() + r.client.size() + r.client_info.size() + (r.error ? r.error->size() : 0));
  bool ok = true;
  // Members in RFC 8785 order (by UTF-16 code units; these names are ASCII, so alphabetical).
  auto member = [&](std::string_view name, std::string_view value) {
    out.append(out.empty() ? "{\"" : ",\"").append(name).append("\":");
    ok = ok && trust::append_string(out, value);
  };
  member("arguments", r.arguments);
  member("client", r.client);
  if (!r.client_info.empty()) member("clientInfo", r.client_info);
  if (r.error) member("error", *r.error);
  member("item", r.item);
  out.append(",\"latencyUs\":");
  // JCS writes an integer within ±2^53 as its digits (any real latency), beyond as a double.
  constexpr std::int64_t kExact = std::int64_t{1} << 53;
  if (r.latency_us >= -kExact && r.latency_us <= kExact) {
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, r.latency_us).ptr);
  } else {
    trust::append_number(out, static_cast<double>(r.latency_us));
  }
  member("method", r.method);
  member("outcome", r.outcome);
  member("server", r.server);
  out.push_back('}');
  if (!ok) return fail(Error::internal("the call record cannot be recorded: a field is not valid UTF-8"));
  return out;
}

}  // namespace mcp::gateway
