// mcp/http/client_transport.hpp — the client side of Streamable HTTP (MCP 2025-11-25 transports).
//
// Each outbound message is POSTed to the endpoint. Answers come back as JSON or as an SSE stream;
// when an SSE stream ends before the answer it carries, the transport waits the server's `retry`
// and resumes with GET + Last-Event-ID (bounded attempts). After notifications/initialized it opens
// the standalone GET stream for server-initiated messages (405 means the server has none: fine).
// The Mcp-Session-Id and MCP-Protocol-Version headers are kept and sent automatically; close()
// sends DELETE to end the session.
//
// Errors are specific and final, never an endless retry: a 4xx/5xx, a non-MCP Content-Type or an
// unreachable host fails the request it concerns with a message naming the URL and what came back.
//
// Thread-safety: as Transport. Every exchange runs on the transport's one event-loop thread, and
// its messages are delivered from there, one at a time. send() of a request returns at once; of a
// notification or a response, it waits for the server's 202, except on that thread itself (inside
// a delivery), where it is sent in turn without waiting and a refusal is logged.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "mcp/transport/transport.hpp"

namespace mcp::http {

struct HttpClientOptions {
  std::string url{};                             // http:// or https://
  std::map<std::string, std::string> headers{};  // extra headers on every request (e.g. Authorization)
  // Deadlines of each HTTP exchange, all enforced (a server that stops mid-way cannot hang a call;
  // the session's request_timeout and cancellation also end an exchange at once):
  std::chrono::milliseconds connect_timeout{10'000};     // resolve, connect, TLS handshake
  std::chrono::milliseconds write_timeout{30'000};       // sending one request
  std::chrono::milliseconds response_timeout{300'000};   // from the request sent to the response head
  std::chrono::milliseconds stream_idle_timeout{120'000};  // between two reads of a body (SSE keep-alives come every 15 s)
  std::chrono::milliseconds default_retry{1'000};  // until the server sends a retry: field
  int max_reconnect_attempts = 5;                  // per stream, consecutive failures
  bool standalone_stream = true;                   // open the GET stream after initialization
  bool verify_tls = true;                          // certificate and host name checks
  std::string ca_file{};                             // extra trust anchors (PEM); system store otherwise
  std::size_t max_message_bytes = 4 * 1024 * 1024;
  // Requests in flight at once, each with its connection and buffers until its answer is in: one
  // more is refused (-32603, saying so) rather than queued without bound.
  std::size_t max_concurrent_requests = 256;
  // A request sent from one of an HttpServer's I/O threads (a handler relaying a call, as the
  // gateway does) runs its exchange on that thread's own event loop, over connections kept for
  // that loop, instead of being handed to the transport's loop thread and its answer handed back:
  // two thread wake-ups fewer per call. The answer is then delivered on that I/O thread. The
  // server, stopping, first ends such exchanges still running (their requests fail, saying so).
  // Requests sent from any other thread, notifications and the standalone stream always use the
  // transport's own loop.
  bool run_on_server_loops = false;
};

class HttpClientTransport : public Transport {
 public:
  // Fails with -32602 if the URL is not an http(s) URL.
  [[nodiscard]] static Result<std::shared_ptr<HttpClientTransport>> create(HttpClientOptions options);
  virtual std::optional<std::string> session_id() const = 0;
};

}  // namespace mcp::http
