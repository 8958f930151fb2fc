// mcp/transport/transport.hpp — what a transport is: something that moves whole JSON-RPC messages.
//
// A transport knows nothing of MCP. It delivers each inbound frame to `on_message` and writes each
// outbound frame it is given. Framing (newline-delimited on stdio, HTTP bodies and SSE events on
// Streamable HTTP) is its business; meaning is the session's.
//
// Contract:
//  - `start` is called once; afterwards the transport calls `on_message` from its own thread(s),
//    one frame at a time and in arrival order, and `on_close` exactly once when it can deliver no more
//    (peer gone, I/O error, or `close()`); the reason is empty for an orderly close. One exception:
//    where the wire gives messages no order (Streamable HTTP: each POST is its own exchange), a
//    transport may deliver requests through `on_decoded` concurrently with each other, never with
//    a notification or a response; the session engine accepts that.
//  - `send` is thread-safe and may be called concurrently from any thread; it returns an error if the
//    transport is closed. The `SendInfo` tells transports that route messages (HTTP puts a handler's
//    progress and nested requests on the SSE stream of the request being served) where a message belongs.
//  - `close` is idempotent and may be called from any thread, including from inside a callback.
//  - Callbacks must not block for long: they run on the transport's reader thread.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mcp/error.hpp"
#include "mcp/jsonrpc/codec.hpp"
#include "mcp/jsonrpc/message.hpp"

namespace mcp {

struct SendInfo {
  enum class Kind { request, notification, response };
  Kind kind = Kind::notification;
  // For a response: the id it answers. For a request or notification sent while serving an inbound
  // request: that request's id. Null otherwise.
  jsonrpc::Id related_id;
  // Headers a transport with headers sends with this message (Streamable HTTP: the Mcp-Param-*
  // headers of a 2026-07-28 tools/call), as name and raw value: the transport encodes the value
  // for a header. Transports without headers ignore them.
  std::vector<std::pair<std::string, std::string>> headers{};
};

class Transport {
 public:
  struct Callbacks {
    std::function<void(std::string frame)> on_message;
    std::function<void(std::optional<Error> reason)> on_close;
    // Optional: the peer has ended its input in order (end of file) while the transport can still
    // send. Called on the reader thread before on_close; it may block briefly, e.g. to let requests
    // already received be answered (`echo '{...}' | server` must still print the answer).
    std::function<void()> on_input_end;
    // Optional: a message the transport has already decoded (Streamable HTTP decodes each POST to
    // route it), with its frame's size, so that the session does not decode it again. A transport
    // using it applies the limits it was configured with. Unset: the transport calls on_message.
    // A transport that carries values (below) delivers them here with a size of 0: no text was
    // made, and what the other end of this process built had no frame to bound.
    std::function<void(jsonrpc::Message message, std::size_t frame_bytes)> on_decoded;
    // Optional: a request of ours the transport could not carry to an answer (an HTTP status, a
    // broken stream): the session fails it with `error` as a local error, not as if the peer had
    // answered. Unset: the transport delivers an error response instead.
    std::function<void(const jsonrpc::Id& request_id, Error error)> on_request_failed;
  };

  virtual ~Transport() = default;
  [[nodiscard]] virtual Result<void> start(Callbacks callbacks) = 0;
  [[nodiscard]] virtual Result<void> send(std::string frame, const SendInfo& info) = 0;

  // Whether the other end is in this process and takes messages as values (the direct
  // transport): a session then sends with send_value and neither writes nor reads their text,
  // which is most of a short call's work on an in-process link.
  [[nodiscard]] virtual bool carries_values() const { return false; }
  // Sends a message as a value. One that does not carry values sends its text.
  [[nodiscard]] virtual Result<void> send_value(jsonrpc::Message message, const SendInfo& info) {
    return send(jsonrpc::encode(message), info);
  }
  virtual void close() = 0;

  // Ends the stream carrying `request_id`'s answer without answering it (Streamable HTTP's SSE
  // polling, SEP-1699): the client reconnects with Last-Event-ID and the answer arrives there.
  // Transports without such streams ignore it.
  virtual void close_request_stream(const jsonrpc::Id& request_id) { (void)request_id; }

  // `request_id` will never be answered (the peer cancelled it): a transport that keeps per-request
  // state (HTTP answer streams) releases it. Others ignore it.
  virtual void request_dropped(const jsonrpc::Id& request_id) { (void)request_id; }
};

}  // namespace mcp
