// Private: DNS-rebinding and cross-origin protection — are this Host and Origin acceptable?
//
// The Origin check applies whenever a request carries an Origin (browsers send it; a page on
// another site must never reach an MCP server, whatever address it is bound to): the origin must
// be a loopback one, the request's own (its authority equals the Host header), or listed. The Host
// check applies to servers bound to a loopback address (or given allowed_hosts): a rebound DNS name
// pointing at 127.0.0.1 arrives with a foreign Host.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::http {

struct HostPolicy {
  bool check_host = true;
  bool check_origin = true;
  std::vector<std::string> allowed_hosts;    // host names without port
  std::vector<std::string> allowed_origins;  // exact origins
};

// The host part of a Host header value ("localhost:3000" -> "localhost", "[::1]:80" -> "[::1]").
// Anything after the host that is not ":<digits>" leaves the value whole (so it matches nothing).
std::string_view host_without_port(std::string_view host);
bool is_loopback_host(std::string_view host_no_port);

// An error message if the request must be refused (403), nothing if it may proceed.
// `origin` is empty when the request had no Origin header (non-browser clients).
std::optional<std::string> check_host_and_origin(const HostPolicy& policy, std::string_view host, std::string_view origin);

}  // namespace mcp::http
