// Private: the few members of a JSON-RPC frame the HTTP client transport routes by, read without
// building the frame.
//
// The transport looks at every frame it sends and receives: an answer's id tells which request's
// stream it ends, initialize's answer settles the version later requests carry in a header, and a
// 2026-07-28 request's method, name and version become headers of their own. Parsing each frame
// into a document for that built a DOM of the whole frame (a megabyte's result, before the session
// parsed it again) to read a handful of members. peek_frame reads the frame once with Boost.JSON's
// event parser and keeps only those members.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "mcp/jsonrpc/codec.hpp"
#include "mcp/jsonrpc/message.hpp"

namespace mcp::http {

struct FramePeek {
  bool is_object = false;                   // the frame is one JSON object (not a batch, not invalid)
  bool has_method = false, has_error = false;  // top-level members present, of any type
  std::optional<jsonrpc::Id> id;            // top-level "id" when a string, number, boolean or null
  std::optional<std::string> method;        // top-level "method" when a string
  // Of "params", when it is an object:
  std::optional<std::string> name, uri;     // "name", "uri" when strings
  std::optional<jsonrpc::Id> request_id;    // "requestId" (notifications/cancelled), as "id"
  std::optional<std::string> meta_version;  // "_meta"'s protocol version (2026-07-28) when a string
  // Of "result", when it is an object: "protocolVersion" when a string (initialize's answer).
  std::optional<std::string> result_version;
};

// Reads `frame`. Invalid JSON, or nesting deeper than `max_depth`, reads as an empty FramePeek. The
// default is the session decoder's own: a frame the session would refuse routes as no answer, so
// its request fails at once instead of waiting for an answer the session never takes.
// When a member is repeated, its last value is kept. Members nested anywhere else (a tool's
// arguments named "id", say) are not read.
FramePeek peek_frame(std::string_view frame, std::size_t max_depth = jsonrpc::Limits{}.max_depth);

}  // namespace mcp::http
