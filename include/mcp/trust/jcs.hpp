// mcp/trust/jcs.hpp — RFC 8785 JSON Canonicalization Scheme (JCS): the bytes every signature and
// digest in mcp-trust is computed over.
//
// Canonical form (grammar in docs/wire/signed-manifest.md): no whitespace; object members sorted by
// the UTF-16 code units of their names; numbers as ECMAScript's Number.prototype.toString prints an
// IEEE-754 double (libdouble-conversion's EcmaScriptConverter); strings escaped as JSON.stringify
// does (\" \\ \b \f \n \r \t, other controls as \u00xx, everything else literal UTF-8).
//
// Two entry points, because the input can be trusted to different degrees:
//   - parse_strict / canonicalize_text take raw text from a peer. Their own parser rejects what
//     Boost.JSON would accept or silently resolve: duplicate member names (compared after
//     unescaping), lone surrogates (raw or as \u escapes), invalid UTF-8 (overlong, surrogate or
//     out-of-range code points), numbers that are not finite as doubles, a byte-order mark,
//     trailing bytes. Numbers are rounded correctly (double-conversion's Strtod).
//   - canonicalize(json::value) takes a DOM built by the program (or by Boost.JSON's parser). It
//     still rejects invalid UTF-8 and non-finite doubles. Integers beyond 2^53 are rounded to the
//     nearest double, as JCS (I-JSON) requires and as JSON.parse would.
//
// Limits are on by default (JcsLimits) so hostile input fails with a clear error, never a stack
// overflow. Errors are mcp::Error with code -32700 (parse error) and a message naming the byte
// offset, or -32602 for a DOM that cannot be canonicalized.
//
// Thread-safety: free functions without shared state; call concurrently.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "mcp/json.hpp"

namespace mcp::trust {

struct JcsLimits {
  // Maximum nesting of arrays and objects. Default 256: tool schemas nest far less, and 256
  // recursive frames are safe on any thread stack.
  std::size_t max_depth = 256;
  // Maximum input size for the text entry points. Default 64 MiB.
  std::size_t max_bytes = std::size_t{64} << 20;
};

// Parses `text` as one JSON value under the strict rules above. Integers with at most 18 digits and
// no fraction or exponent become int64 (exact); every other number becomes a correctly rounded double.
// `sp` owns the returned value's memory (default: the default heap resource).
[[nodiscard]] Result<json::value> parse_strict(std::string_view text, const JcsLimits& limits = {},
                                 json::storage_ptr sp = {});

// The canonical bytes of `v`. Fails on non-finite doubles, invalid UTF-8 in strings or member
// names, and nesting beyond limits.max_depth.
[[nodiscard]] Result<std::string> canonicalize(const json::value& v, const JcsLimits& limits = {});
// The same, of an object held as one (a tool call's arguments), without copying it into a value.
[[nodiscard]] Result<std::string> canonicalize(const json::object& o, const JcsLimits& limits = {});

// Appends the canonical bytes of `v` to `out` (left unspecified on failure). Lets callers reuse a buffer.
[[nodiscard]] Result<void> canonicalize_into(const json::value& v, std::string& out, const JcsLimits& limits = {});

// parse_strict followed by canonicalize: the canonical bytes of a JSON text.
[[nodiscard]] Result<std::string> canonicalize_text(std::string_view text, const JcsLimits& limits = {});

// Appends the ECMAScript serialization of `d` (RFC 8785 section 3.2.2.3). Returns false, appending
// nothing, when `d` is NaN or infinite. -0 prints as "0".
bool append_number(std::string& out, double d);

// Appends `s` as a JCS string (quotes and JSON.stringify's escapes), for a caller writing a
// document's canonical text itself. Returns false when `s` is not valid UTF-8 (`out` then holds
// part of it).
bool append_string(std::string& out, std::string_view s);

// True when `a` sorts before `b` comparing UTF-16 code units (RFC 8785 section 3.2.3). Both must be
// valid UTF-8; the result then differs from a byte comparison only between a code point above
// U+FFFF and one in U+E000..U+FFFF.
bool utf16_less(std::string_view a, std::string_view b) noexcept;

}  // namespace mcp::trust
