#include "mcp/http/server_card.hpp"

#include "http/document_route.hpp"

namespace mcp::http {

RouteHandler server_card_route(std::shared_ptr<Server> server, ServerCardOptions options) {
  return [server = std::move(server), options = std::move(options)](const PlainRequest& req) -> PlainResponse {
    if (auto refused = refuse_unless_get(req)) return *refused;
    auto signature = server->signature();
    if (!signature) return document_not_found(R"({"error":"this server declares no capability signature, so it has no card"})");
    auto card = make_server_card(server->options().info, *signature, options.key.get(), options.key_id, options.extra);
    return serve_document(req, card ? card_representation(*card) : Result<CardRepresentation>(fail(card.error())),
                          "server card");
  };
}

}  // namespace mcp::http
