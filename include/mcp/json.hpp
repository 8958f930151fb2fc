// mcp/json.hpp — the JSON vocabulary of the SDK and the conversion convention of protocol types.
//
// The DOM is Boost.JSON. Every protocol type T (see mcp/protocol/) converts both ways with
//
//   json::value    to_json(const T&);                  // never fails
//   Result<T>      from_json<T>(const json::value&);   // explicit specialisation per type
//
// `from_json` never throws and never crashes on peer input: a wrong type, a missing required field or
// an out-of-range value comes back as an Error (code -32602, message naming the field path).
// Unknown fields are tolerated and kept in the type's `extra` object so that a round trip loses
// nothing; `_meta` has its own `meta` member.
#pragma once

#include <boost/json.hpp>

#include "mcp/error.hpp"

namespace mcp {

template <class T>
[[nodiscard]] Result<T> from_json(const json::value& v);  // specialised in each protocol type's source file

// Serialises compactly (no whitespace). Boost.JSON's own serializer; not canonical (see trust/jcs.hpp).
std::string to_string(const json::value& v);

// Parses JSON text from a peer: RFC 8259 only (no comments, no trailing commas, valid UTF-8),
// nesting at most `max_depth` deep, and an object with a repeated member name is refused instead of
// keeping its last value. One reading of every message matters: a proxy that saw the first "method"
// and a server that ran the second would disagree about what was asked. Errors (code -32700) say
// what is wrong; a repeated name is quoted through peer_text.
[[nodiscard]] Result<json::value> parse_json_strict(std::string_view text, std::size_t max_depth = 64);

}  // namespace mcp
