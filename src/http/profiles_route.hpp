// Private: /.well-known/mcp-profiles (the seed server-profiles.md, "Profile Declaration"), served
// by every HttpServer whose application did not route that path itself.
#pragma once

#include <memory>

#include "mcp/http/server.hpp"

namespace mcp::http {

// GET and HEAD: the server's profiles as the proposal's JSON array (RFC 8785 bytes, default first),
// with a strong ETag over them, Cache-Control, and 304 for a matching If-None-Match; 404 when the
// server has no profiles (a client then assumes it supports none); 405 for other methods.
RouteHandler profiles_route(std::shared_ptr<Server> server);

}  // namespace mcp::http
