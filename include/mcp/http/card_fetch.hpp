// mcp/http/card_fetch.hpp — fetching a server card before connecting (SEP-2091 "inServerCard").
//
// In the HTTP client library (mcp_http_client), which does not link the server: a client fetches a
// card with this alone. Serving one is mcp/http/server_card.hpp.
//
// `fetch_server_card` GETs the MCP endpoint's card, parses it strictly under the signature limits,
// and returns it with its ETag for revalidation. Where: /.well-known/mcp.json followed by the
// endpoint's path (/.well-known/mcp.json/servers/NAME/mcp: one host serving several MCP servers,
// such as mcp-trust's gateway, gives each its card, as RFC 9728 places resource metadata), then,
// when that answers anything but 2xx, /.well-known/mcp.json on the origin.
#pragma once

#include <string>

#include "mcp/http/client_transport.hpp"
#include "mcp/signature/card.hpp"

namespace mcp::http {

struct FetchedCard {
  ServerCard card{};
  std::string etag{};
  std::string body{};  // as received, for verification or pinning
  std::string url{};   // where it was found
};

// The origin's card URL for the MCP endpoint `mcp_url`: its origin plus kServerCardPath ("" if not
// a URL). fetch_server_card looks at the endpoint's own first (FetchedCard::url says where it was).
std::string server_card_url(const std::string& mcp_url);

// The card of the MCP endpoint `mcp_url` (same scheme, host and port).
// Errors name the URL and what came back (status, content type, parse error).
[[nodiscard]] Result<FetchedCard> fetch_server_card(const std::string& mcp_url, const HttpClientOptions& options = {},
                                      const SignatureLimits& limits = {});

}  // namespace mcp::http
