// /.well-known/mcp-profiles (http/profiles_route.hpp).
#include "http/profiles_route.hpp"

#include "http/document_route.hpp"

namespace mcp::http {

RouteHandler profiles_route(std::shared_ptr<Server> server) {
  return [server = std::move(server)](const PlainRequest& req) -> PlainResponse {
    if (auto refused = refuse_unless_get(req)) return *refused;
    auto profiles = server->profiles();
    if (profiles.empty()) return document_not_found(R"({"error":"this server declares no profiles"})");
    return serve_document(req, canonical_representation(json::value(profiles_document(profiles))), "profiles document");
  };
}

}  // namespace mcp::http
