#include "http/host_check.hpp"

#include <algorithm>
#include <cctype>

namespace mcp::http {

namespace {
bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower(x) == std::tolower(y); });
}
}  // namespace

std::string_view host_without_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    auto close = host.find(']');
    if (close == std::string_view::npos) return host;
    // After "]" only ":port" may follow; anything else ("[::1]evil.com") is not a loopback host.
    auto rest = host.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return host;
    return host.substr(0, close + 1);
  }
  auto colon = host.rfind(':');
  return colon == std::string_view::npos ? host : host.substr(0, colon);
}

bool is_loopback_host(std::string_view h) {
  return iequals(h, "localhost") || h == "127.0.0.1" || h == "[::1]";
}

std::optional<std::string> check_host_and_origin(const HostPolicy& policy, std::string_view host, std::string_view origin) {
  if (!policy.enforce) return std::nullopt;
  auto h = host_without_port(host);
  bool host_ok = is_loopback_host(h) ||
                 std::any_of(policy.allowed_hosts.begin(), policy.allowed_hosts.end(), [&](const auto& a) { return iequals(a, h); });
  if (!host_ok) return "Invalid Host: " + std::string(host);
  if (origin.empty()) return std::nullopt;
  if (std::find(policy.allowed_origins.begin(), policy.allowed_origins.end(), origin) != policy.allowed_origins.end()) {
    return std::nullopt;
  }
  // A loopback origin of any port and scheme http/https: what local browser tools send.
  std::string_view rest = origin;
  for (std::string_view scheme : {"http://", "https://"}) {
    if (rest.substr(0, scheme.size()) == scheme) {
      rest.remove_prefix(scheme.size());
      if (is_loopback_host(host_without_port(rest))) return std::nullopt;
      break;
    }
  }
  return "Invalid Origin: " + std::string(origin);
}

}  // namespace mcp::http
