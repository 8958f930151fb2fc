// mcp/http/card_fetch.hpp — fetching a server card before connecting (SEP-2091 "inServerCard").
//
// In the HTTP client library (mcp_http_client), which does not link the server: a client fetches a
// card with this alone. Serving one is mcp/http/server_card.hpp.
//
// `fetch_server_card` GETs /.well-known/mcp.json on the MCP endpoint's origin, parses it strictly
// under the signature limits, and returns it with its ETag for revalidation.
#pragma once

#include <string>

#include "mcp/http/client_transport.hpp"
#include "mcp/signature/card.hpp"

namespace mcp::http {

struct FetchedCard {
  ServerCard card{};
  std::string etag{};
  std::string body{};  // as received, for verification or pinning
};

// Where the card of the MCP endpoint `mcp_url` is: its origin plus kServerCardPath ("" if not a URL).
std::string server_card_url(const std::string& mcp_url);

// The card of the MCP endpoint `mcp_url` (same scheme, host and port; path kServerCardPath).
// Errors name the URL and what came back (status, content type, parse error).
[[nodiscard]] Result<FetchedCard> fetch_server_card(const std::string& mcp_url, const HttpClientOptions& options = {},
                                      const SignatureLimits& limits = {});

}  // namespace mcp::http
