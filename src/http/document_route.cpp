// Well-known JSON documents over HTTP (http/document_route.hpp).
#include "http/document_route.hpp"

#include "log/log.hpp"

namespace mcp::http {

std::optional<PlainResponse> refuse_unless_get(const PlainRequest& req) {
  if (req.method == "GET" || req.method == "HEAD") return std::nullopt;
  PlainResponse res;
  res.status = 405;
  res.headers["Allow"] = "GET, HEAD";
  return res;
}

PlainResponse document_not_found(std::string_view json_body) {
  PlainResponse res;
  res.status = 404;
  res.headers["Content-Type"] = "application/json";
  res.body = std::string(json_body);
  return res;
}

PlainResponse serve_document(const PlainRequest& req, Result<CardRepresentation> rep, std::string_view what) {
  PlainResponse res;
  if (!rep) {
    MCP_LOG_ERROR("http: cannot build the {}: {}", what, rep.error().message);
    res.status = 500;
    return res;
  }
  res.headers["ETag"] = rep->etag;
  // Cacheable, revalidated after five minutes (the server card's policy, kept for every document).
  res.headers["Cache-Control"] = std::string(kServerCardCacheControl);
  if (auto it = req.headers.find("if-none-match"); it != req.headers.end() && if_none_match(it->second, rep->etag)) {
    res.status = 304;  // the client's copy is current: no body
    return res;
  }
  res.headers["Content-Type"] = "application/json";
  if (req.method == "GET") res.body = std::move(rep->body);
  return res;
}

}  // namespace mcp::http
