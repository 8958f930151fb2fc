// Private: DNS-rebinding protection — is this Host / Origin acceptable for this server?
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http {

struct HostPolicy {
  bool enforce = true;
  std::vector<std::string> allowed_hosts;    // host names without port
  std::vector<std::string> allowed_origins;  // exact origins
};

// The host part of a Host header value ("localhost:3000" -> "localhost", "[::1]:80" -> "[::1]").
std::string_view host_without_port(std::string_view host);
bool is_loopback_host(std::string_view host_no_port);

// An error message if the request must be refused (403), nothing if it may proceed.
// `origin` is empty when the request had no Origin header (non-browser clients).
std::optional<std::string> check_host_and_origin(const HostPolicy& policy, std::string_view host, std::string_view origin);

}  // namespace mcp::http
