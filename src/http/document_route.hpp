// Private: what the well-known routes share (the server card, the profiles document): a JSON
// document answered to GET and HEAD only, with its strong ETag, Cache-Control, and 304 for a
// matching If-None-Match.
#pragma once

#include <optional>
#include <string_view>

#include "mcp/http/server.hpp"
#include "mcp/signature/card.hpp"

namespace mcp::http {

// 405 (with Allow) for a method other than GET and HEAD; nothing for those.
std::optional<PlainResponse> refuse_unless_get(const PlainRequest& req);
// 404 with `json_body`: the server has no such document.
PlainResponse document_not_found(std::string_view json_body);
// The document `rep` as served: its ETag and Cache-Control; 304 with no body when the client's copy
// is current, else the body on GET (none on HEAD). 500 when `rep` could not be made (logged with
// `what`).
PlainResponse serve_document(const PlainRequest& req, Result<CardRepresentation> rep, std::string_view what);

}  // namespace mcp::http
