// mcp/http/server_card.hpp — the server card over HTTP: serving it beside the MCP endpoint and
// fetching it before connecting (mcp/signature/card.hpp has the format).
//
// Serving: `server_card_route` is a RouteHandler for HttpServerOptions::routes[kServerCardPath].
// Each GET builds the card from the server's current signature (Server::signature()), so it is
// always canonically identical to what initialize returns; the body is the card's RFC 8785 bytes,
// with a strong ETag over them, Cache-Control, and 304 Not Modified for a matching If-None-Match.
// A server without a signature answers 404 (it has no card to offer).
//
// Fetching: `fetch_server_card` GETs /.well-known/mcp.json on the MCP endpoint's origin, parses it
// strictly under the signature limits, and returns it with its ETag for revalidation.
//
// Thread-safety: the route handler may run concurrently on the server's I/O threads.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mcp/http/client_transport.hpp"
#include "mcp/http/server.hpp"
#include "mcp/signature/card.hpp"

namespace mcp::http {

struct ServerCardOptions {
  // Signs the card's signature (the detached proof); null: an unsigned card.
  std::shared_ptr<const trust::Ed25519SecretKey> key{};
  std::optional<std::string> key_id{};  // default: the key's sha256 fingerprint
  json::object extra{};                 // more SEP-1649 members, carried verbatim
};

RouteHandler server_card_route(std::shared_ptr<Server> server, ServerCardOptions options = {});

struct FetchedCard {
  ServerCard card{};
  std::string etag{};
  std::string body{};  // as received, for verification or pinning
};

// Where the card of the MCP endpoint `mcp_url` is: its origin plus kServerCardPath ("" if not a URL).
std::string server_card_url(const std::string& mcp_url);

// The card of the MCP endpoint `mcp_url` (same scheme, host and port; path kServerCardPath).
// Errors name the URL and what came back (status, content type, parse error).
Result<FetchedCard> fetch_server_card(const std::string& mcp_url, const HttpClientOptions& options = {},
                                      const SignatureLimits& limits = {});

}  // namespace mcp::http
