// Private: the values of the headers MCP 2026-07-28 mirrors from a request's body (Mcp-Name,
// Mcp-Param-*; basic/transports/streamable-http.mdx "Value Encoding"). A value is sent as is,
// unless it could not travel in a header (non-ASCII, control characters, leading or trailing
// space or tab) or looks like the sentinel itself: then it is "=?base64?" + Base64(UTF-8) + "?=".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace mcp::http {

// The header value that carries `value`.
std::string encode_header_value(std::string_view value);
// The value a received header carries: optional whitespace around it dropped, a sentinel value
// decoded. Empty optional when the Base64 inside a sentinel is malformed (bad characters, bad
// padding, a length that is not a multiple of 4): the request is refused, never guessed at.
std::optional<std::string> decode_header_value(std::string_view raw);

}  // namespace mcp::http
