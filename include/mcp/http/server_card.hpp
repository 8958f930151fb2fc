// mcp/http/server_card.hpp — serving the server card over HTTP beside the MCP endpoint
// (mcp/signature/card.hpp has the format; fetching one is mcp/http/card_fetch.hpp).
//
// Serving: `server_card_route` is a RouteHandler for HttpServerOptions::routes[kServerCardPath].
// Each GET builds the card from the server's current signature (Server::signature()), so it is
// always canonically identical to what initialize returns; the body is the card's RFC 8785 bytes,
// with a strong ETag over them, Cache-Control, and 304 Not Modified for a matching If-None-Match.
// A server without a signature answers 404 (it has no card to offer).
//
// Thread-safety: the route handler may run concurrently on the server's I/O threads.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mcp/http/card_fetch.hpp"
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

}  // namespace mcp::http
