#include "mcp/http/server_card.hpp"

#include "log/log.hpp"

namespace mcp::http {

RouteHandler server_card_route(std::shared_ptr<Server> server, ServerCardOptions options) {
  return [server = std::move(server), options = std::move(options)](const PlainRequest& req) -> PlainResponse {
    PlainResponse res;
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.headers["Allow"] = "GET, HEAD";
      return res;
    }
    auto signature = server->signature();
    if (!signature) {
      res.status = 404;
      res.headers["Content-Type"] = "application/json";
      res.body = R"({"error":"this server declares no capability signature, so it has no card"})";
      return res;
    }
    auto card = make_server_card(server->options().info, *signature, options.key.get(), options.key_id, options.extra);
    auto rep = card ? card_representation(*card) : Result<CardRepresentation>(fail(card.error()));
    if (!rep) {
      MCP_LOG_ERROR("http: cannot build the server card: {}", rep.error().message);
      res.status = 500;
      return res;
    }
    res.headers["ETag"] = rep->etag;
    res.headers["Cache-Control"] = std::string(kServerCardCacheControl);
    if (auto it = req.headers.find("if-none-match"); it != req.headers.end() && if_none_match(it->second, rep->etag)) {
      res.status = 304;  // the client's copy is current: no body
      return res;
    }
    res.headers["Content-Type"] = "application/json";
    if (req.method == "GET") res.body = std::move(rep->body);
    return res;
  };
}

}  // namespace mcp::http
