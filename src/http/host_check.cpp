#include "http/host_check.hpp"

#include <algorithm>
#include <cctype>

#include "mcp/error.hpp"

namespace mcp::http {

namespace {
bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}
bool is_port(std::string_view s) {
  return !s.empty() && s.size() <= 5 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}
}  // namespace

std::string_view host_without_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    auto close = host.find(']');
    if (close == std::string_view::npos) return host;
    // After "]" only ":port" may follow; anything else ("[::1]evil.com") is not a loopback host.
    auto rest = host.substr(close + 1);
    if (!rest.empty() && (rest.front() != ':' || !is_port(rest.substr(1)))) return host;
    return host.substr(0, close + 1);
  }
  auto colon = host.rfind(':');
  if (colon == std::string_view::npos) return host;
  // "localhost:@evil.com" is not localhost with a port.
  return is_port(host.substr(colon + 1)) ? host.substr(0, colon) : host;
}

bool is_loopback_host(std::string_view h) {
  return iequals(h, "localhost") || h == "127.0.0.1" || h == "[::1]";
}

std::optional<std::string> check_host_and_origin(const HostPolicy& policy, std::string_view host, std::string_view origin) {
  if (policy.check_host) {
    auto h = host_without_port(host);
    bool host_ok = is_loopback_host(h) || std::any_of(policy.allowed_hosts.begin(), policy.allowed_hosts.end(),
                                                      [&](const auto& a) { return iequals(a, h); });
    if (!host_ok) return "Invalid Host: " + peer_text(host);
  }
  if (!policy.check_origin || origin.empty()) return std::nullopt;
  if (std::find(policy.allowed_origins.begin(), policy.allowed_origins.end(), origin) != policy.allowed_origins.end()) {
    return std::nullopt;
  }
  for (std::string_view scheme : {"http://", "https://"}) {
    if (!origin.starts_with(scheme)) continue;
    std::string_view authority = origin.substr(scheme.size());
    // A loopback origin of any port: what local browser tools send.
    if (is_loopback_host(host_without_port(authority))) return std::nullopt;
    // The request's own origin: a page this server served itself.
    if (!host.empty() && iequals(authority, host)) return std::nullopt;
    break;
  }
  return "Invalid Origin: " + peer_text(origin);
}

}  // namespace mcp::http
