// /.well-known/mcp-profiles (http/profiles_route.hpp).
#include "http/profiles_route.hpp"

#include "log/log.hpp"
#include "mcp/signature/card.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::http {

RouteHandler profiles_route(std::shared_ptr<Server> server) {
  return [server = std::move(server)](const PlainRequest& req) -> PlainResponse {
    PlainResponse res;
    if (req.method != "GET" && req.method != "HEAD") {
      res.status = 405;
      res.headers["Allow"] = "GET, HEAD";
      return res;
    }
    auto profiles = server->profiles();
    res.headers["Content-Type"] = "application/json";
    if (profiles.empty()) {
      res.status = 404;
      res.body = R"({"error":"this server declares no profiles"})";
      return res;
    }
    auto body = trust::canonicalize(json::value(profiles_document(profiles)));
    if (!body) {
      MCP_LOG_ERROR("http: cannot serialise the profiles document: {}", body.error().message);
      res.status = 500;
      return res;
    }
    const std::string etag = "\"" + trust::sha256_tag(*body) + "\"";
    res.headers["ETag"] = etag;
    // The same policy as the server card: cacheable, revalidated after five minutes.
    res.headers["Cache-Control"] = std::string(kServerCardCacheControl);
    if (auto it = req.headers.find("if-none-match"); it != req.headers.end() && if_none_match(it->second, etag)) {
      res.status = 304;
      res.headers.erase("Content-Type");
      return res;
    }
    if (req.method == "GET") res.body = std::move(*body);
    return res;
  };
}

}  // namespace mcp::http
