// mcp/jsonrpc/codec.hpp — bytes <-> JSON-RPC messages, with limits on by default.
//
// The decoder takes untrusted bytes from a peer. It never throws and never crashes; what it cannot
// accept comes back as a DecodeFailure carrying the JSON-RPC error to answer with and, when it could
// be read, the offending message's id, so the caller can reply and carry on with the next message.
//
// Limits (each on by default; 0 never means "unlimited"):
//   max_message_bytes  4 MiB   a frame longer than this is refused before parsing (-32600)
//   max_depth          64      nesting of arrays/objects deeper than this is refused (-32700)
// Errors: -32700 not JSON or too deep; -32600 JSON but not a JSON-RPC 2.0 message (wrong
// "jsonrpc", a batch array, bad id type, missing method, result and error both present, ...);
// -32602 params present but not an object.
//
// Thread-safety: free functions on values; safe from any thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcp/jsonrpc/message.hpp"

namespace mcp::jsonrpc {

struct Limits {
  std::size_t max_message_bytes = 4 * 1024 * 1024;
  std::size_t max_depth = 64;
};

struct DecodeFailure {
  Error error{};
  Id id{};        // null unless the message's id could be read
  bool answer;  // false when the message looked like a response: JSON-RPC never answers those
};

std::expected<Message, DecodeFailure> decode(std::string_view bytes, const Limits& limits = {});

// Decodes an already-parsed value (used by transports that parse themselves, e.g. HTTP bodies).
std::expected<Message, DecodeFailure> decode_value(json::value v);

// Compact JSON text of a message, without a trailing newline.
std::string encode(const Message& m);
std::string encode_request(const Id& id, std::string_view method, const json::object* params);

// Members a sender adds to a request's params._meta as it writes it, instead of copying them into
// every request's params (a 2026-07-28 client's envelope, made once per connection). They come
// first in _meta; a member of the params' own _meta with the same key is left out. A _meta that
// is not an object is replaced.
struct MetaMember {
  std::string key;
  json::value value;  // for transports that carry values (Transport::carries_values)
  std::string text;   // the same value as JSON text, written into requests as it is
};
using MetaMembers = std::vector<MetaMember>;
MetaMember meta_member(std::string key, json::value value);
// `progress_token`: written into _meta as "progressToken", replacing the params' own.
std::string encode_request(const Id& id, std::string_view method, const json::object& params, const MetaMembers* meta,
                           std::optional<std::int64_t> progress_token);
// The params the request encode_request writes carries, as a value: what decoding that text
// would give (the same members; _meta's in the same order).
json::object request_params(const json::object& params, const MetaMembers* meta, std::optional<std::int64_t> progress_token);
std::string encode_notification(std::string_view method, const json::object* params);
std::string encode_result(const Id& id, const json::value& result);
std::string encode_error(const Id& id, const Error& error);

}  // namespace mcp::jsonrpc
