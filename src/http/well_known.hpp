// Private: GET of a document at a well-known path on an MCP endpoint's origin (the server card,
// the profiles list), bounded in time (the options' timeouts) and in bytes.
//
// An endpoint with a path of its own (a gateway's /servers/NAME/mcp) may have its own document:
// it is looked for first at the well-known path followed by the endpoint's path, as RFC 9728
// places a protected resource's metadata (/.well-known/mcp.json/servers/NAME/mcp), and at the
// origin's well-known path when that answers anything but 2xx. So one host can serve several MCP servers,
// each with its own card, and a client never takes the origin's for an endpoint that has its own.
#pragma once

#include <string>
#include <string_view>

#include "mcp/http/client_transport.hpp"

namespace mcp::http {

struct WellKnownDocument {
  std::string url;   // where it was fetched from
  unsigned status = 0;
  std::string body;  // the body, complete unless too_big
  std::string etag;
  bool too_big = false;
};

// The URL of `path` on the origin of `mcp_url` ("" if mcp_url is not an http(s) URL).
std::string well_known_url(const std::string& mcp_url, std::string_view path);
// The URL of the endpoint's own: `path` followed by mcp_url's path ("" if it has none but "/").
std::string endpoint_well_known_url(const std::string& mcp_url, std::string_view path);
// GETs the endpoint's own, then (not 2xx) the origin's (Accept: application/json, the options' extra headers and TLS settings), reading at most
// `max_bytes` of body. Fails only when no HTTP answer came (connection, TLS, timeout).
[[nodiscard]] Result<WellKnownDocument> get_well_known(const std::string& mcp_url, std::string_view path,
                                                       const HttpClientOptions& options, std::size_t max_bytes);

}  // namespace mcp::http
