// mcp/error.hpp — errors as values on every protocol path.
//
// Every fallible protocol operation returns `mcp::Result<T>` (a std::expected). An `Error` carries
// a JSON-RPC error code, a human-readable message and optional structured `data`, exactly what
// goes on the wire in a JSON-RPC error response, so a handler's error reaches the peer unchanged.
//
// Thread-safety: plain values; copy freely.
#pragma once

#include <cstddef>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/value.hpp>

namespace mcp {

namespace json = boost::json;

// JSON-RPC 2.0 and MCP error codes. Values are fixed by the specifications; the SDK-local codes
// (-32000, -32001) follow the reference TypeScript SDK so logs read the same across SDKs.
namespace error_code {
inline constexpr int kParseError = -32700;      // invalid JSON
inline constexpr int kInvalidRequest = -32600;  // JSON, but not a valid JSON-RPC message
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
inline constexpr int kConnectionClosed = -32000;  // SDK-local: the transport closed
inline constexpr int kRequestTimeout = -32001;    // SDK-local: no response in time
inline constexpr int kResourceNotFound = -32002;  // MCP: resources/read of an unknown URI
inline constexpr int kUrlElicitationRequired = -32042;  // MCP 2025-11-25
inline constexpr int kRequestCancelled = -32800;  // SDK-local: cancelled before completion
// SDK-local, never sent: what RequestContext::input_required returns, so that a handler's "I need
// the client's input" travels its Result<T> to the server, which answers it (multi round-trip).
inline constexpr int kInputRequired = -32099;
// MCP 2026-07-28 (basic/index.mdx, "Error Codes").
inline constexpr int kHeaderMismatch = -32020;                  // an HTTP header disagrees with the body
inline constexpr int kMissingRequiredClientCapability = -32021;  // data.requiredCapabilities
inline constexpr int kUnsupportedProtocolVersion = -32022;      // data.supported, data.requested
}  // namespace error_code

// How much of a string a peer chose we ever echo back or log (see peer_text).
inline constexpr std::size_t kMaxEchoedBytes = 256;
// How much of an error that may quote a peer at length (how a connection ended, with a child's
// last stderr lines) is logged or shown: more than a name, still a few lines.
inline constexpr std::size_t kMaxQuotedReasonBytes = 1024;

// A string a peer sent, made safe to quote in an error message, a log line or a terminal: at most
// `max` bytes of it (cut on a UTF-8 character boundary and followed by "...(N bytes)"), with
// control characters written as escapes (\n, \t, \x1b, ...) so that it cannot forge a line or
// drive a terminal. Echoing peer strings whole would let one request make us keep, send or print
// megabytes.
std::string peer_text(std::string_view s, std::size_t max = kMaxEchoedBytes);

struct Error {
  int code = error_code::kInternalError;
  std::string message{};
  std::optional<json::value> data{};
  // True only for an error response the peer sent. Everything this SDK reports itself (a timeout,
  // a closed connection, a refused capability, a policy's verdict, an HTTP failure) is local, even
  // when a peer could send the same code: a server answering -32001 is not our timeout.
  bool from_peer = false;

  static Error parse_error(std::string msg) { return {error_code::kParseError, std::move(msg), {}}; }
  static Error invalid_request(std::string msg) { return {error_code::kInvalidRequest, std::move(msg), {}}; }
  static Error method_not_found(std::string_view method) {
    return {error_code::kMethodNotFound, "Method not found: " + peer_text(method), {}};
  }
  static Error invalid_params(std::string msg) { return {error_code::kInvalidParams, std::move(msg), {}}; }
  static Error internal(std::string msg) { return {error_code::kInternalError, std::move(msg), {}}; }
  static Error connection_closed(std::string msg) { return {error_code::kConnectionClosed, std::move(msg), {}}; }
  static Error timeout(std::string msg) { return {error_code::kRequestTimeout, std::move(msg), {}}; }
  static Error cancelled(std::string msg) { return {error_code::kRequestCancelled, std::move(msg), {}}; }

  // "code: message", for logs and command-line output.
  [[nodiscard]] std::string describe() const;
};

template <class T>
using Result = std::expected<T, Error>;

// Shorthand for returning an error from a function whose return type is Result<T>.
inline std::unexpected<Error> fail(Error e) { return std::unexpected<Error>(std::move(e)); }
inline std::unexpected<Error> fail(int code, std::string message) {
  return std::unexpected<Error>(Error{code, std::move(message), {}});
}

}  // namespace mcp
