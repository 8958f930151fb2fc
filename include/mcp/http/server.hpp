// mcp/http/server.hpp — serve an mcp::Server over Streamable HTTP (MCP 2025-11-25 transports).
//
// One endpoint path takes POST (client messages; answers as an SSE stream, or as JSON when the
// client accepts only JSON), GET (the standalone SSE stream, or resumption with Last-Event-ID) and
// DELETE (ends the session). Each session gets its own ServerSession of the given Server. A
// connection's stateless (2026-07-28) requests share one ServerSession, made at the first, serving
// one request at a time, and closed with the connection (the session count does not include them).
//
// Security defaults (DNS rebinding, browsers): an Origin header, whenever a request carries one and
// whatever the bind address, must be a loopback origin, the request's own origin (same Host), or
// one of `allowed_origins` (403 otherwise). A server bound to a loopback address also accepts only
// loopback Host values, or `allowed_hosts`.
//
// Hostile peers: every resource a peer can make the server hold is bounded, and each limit is
// answered with a clear HTTP or JSON-RPC error while the server stays up for everyone else:
//   max_body_bytes 4 MiB (413) · max_header_bytes 8 KiB (431)
//   max_connections 1024, lowered below the descriptor limit; when full, the connection that has
//     waited longest for a request is closed to make room (503 only if none is waiting)
//   idle_timeout 30 s before a request's first byte · request_timeout 10 s to receive the whole
//     request (a slow sender's connection is closed) · write_timeout 30 s for each write of a response or SSE
//     stream (a client that stops reading is disconnected)
//   max_sessions 1024: when full, the oldest session that never completed its handshake, else the
//     longest-idle one, is ended to make room (503 only if every session is busy);
//     initialize_timeout 10 s for a new session to send notifications/initialized;
//     session_idle_timeout 30 min (the session is ended; later requests get 404)
//   max_streams_per_session 32 (429) · max_events_per_stream 256 and max_stored_bytes_per_session
//     4 MiB of events kept for resumption.
// A session exists only once a valid initialize request arrives (bad params: 400, no session).
// An idle connection that sent a stateless request keeps its session (~12 KB with the connection)
// until it closes or reaches idle_timeout: max_connections bounds them.
//
// Thread-safety: start/stop from one thread; the server runs on its own I/O threads.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcp/error.hpp"
#include "mcp/server/server.hpp"

namespace mcp::http {

// A plain HTTP exchange for extra routes (e.g. /.well-known/mcp.json).
struct PlainRequest {
  std::string method{};
  std::string target{};                         // path and query
  std::map<std::string, std::string> headers{};  // names lower-cased
  std::string body{};                            // at most max_body_bytes
  std::string peer{};                            // the client's IP address ("127.0.0.1", "::1")
};
struct PlainResponse {
  int status = 200;
  std::map<std::string, std::string> headers{};
  std::string body{};
};
using RouteHandler = std::function<PlainResponse(const PlainRequest&)>;

struct HttpServerOptions {
  std::string host = "127.0.0.1";  // bind address
  unsigned short port = 0;          // 0: pick a free port (see HttpServer::port())
  std::string path = "/mcp";
  std::size_t io_threads = 2;       // event-loop threads, named mcp-http-io (at least one)

  std::vector<std::string> allowed_hosts{};    // Host values (without port) accepted besides loopback ones
  std::vector<std::string> allowed_origins{};  // exact Origin values accepted besides loopback and same-origin ones
  bool validate_host_and_origin = true;      // false: neither check (a proxy in front does them)

  std::size_t max_body_bytes = 4 * 1024 * 1024;
  std::size_t max_header_bytes = 8 * 1024;
  std::size_t max_connections = 1024;
  std::chrono::milliseconds idle_timeout{30'000};
  std::chrono::milliseconds request_timeout{10'000};
  std::chrono::milliseconds write_timeout{30'000};
  std::size_t max_sessions = 1024;
  std::chrono::milliseconds initialize_timeout{10'000};
  std::size_t max_streams_per_session = 32;
  std::size_t max_events_per_stream = 256;
  std::size_t max_stored_bytes_per_session = 4 * 1024 * 1024;
  std::chrono::seconds session_idle_timeout{30 * 60};
  std::chrono::milliseconds sse_retry{1000};        // the retry: field of priming events
  std::chrono::seconds sse_keepalive{15};           // comment lines on idle streams
  std::chrono::milliseconds shutdown_grace{5000};   // stop(): in-flight requests get this long

  // Answer with application/json instead of SSE when the client accepts both (no progress or nested
  // requests reach such a client on the request's stream then).
  bool prefer_json_response = false;

  // TLS: PEM files. Both empty: plain HTTP.
  std::string tls_certificate_file{};
  std::string tls_private_key_file{};

  // Extra routes by exact path (any method: the handler answers 405 to those it does not take),
  // served before MCP handling, on an I/O thread (keep them quick). /.well-known/mcp-profiles is
  // always served (the Server's profiles, 404 without) unless routed here.
  std::map<std::string, RouteHandler> routes{};
  // More MCP endpoints by exact path, each served by its own Server (the gateway serves one per
  // upstream). A session belongs to the endpoint that created it: its id at another path answers
  // 404. The limits above are the HttpServer's, shared by every endpoint.
  std::map<std::string, std::shared_ptr<Server>> more_endpoints{};
};

class HttpServer {
 public:
  HttpServer(std::shared_ptr<Server> server, HttpServerOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds and starts serving. Errors: the address cannot be bound, TLS files unreadable.
  [[nodiscard]] Result<void> start();
  unsigned short port() const;
  // Stops accepting, lets in-flight requests finish for shutdown_grace, then cancels the rest.
  void stop();
  // After start(): serves one more MCP endpoint, and more GET routes with it, from now on (the
  // gateway adds an upstream when its configuration is reloaded). Errors: a path served already.
  [[nodiscard]] Result<void> add_endpoint(const std::string& path, std::shared_ptr<Server> server,
                                          std::map<std::string, RouteHandler> routes = {});
  // Stops serving the endpoint at `path` (and `routes`): its sessions end, so their ids answer 404
  // and their clients may start again; requests in progress on it finish. False if `path` was not
  // an endpoint, or is the main one (which stays until stop()).
  bool remove_endpoint(const std::string& path, const std::vector<std::string>& routes = {});
  // Blocks until stop() (from another thread or a signal handler thread).
  void wait();
  std::size_t session_count() const;
  // Connections holding a session for their stateless (2026-07-28) requests: one each, made at the
  // first such request and closed with the connection (or when the endpoint it serves is removed).
  std::size_t stateless_session_count() const;
  // TCP connections accepted since start (a client that keeps connections alive opens few).
  std::size_t accepted_connections() const;
  std::size_t connection_count() const;
  // Bytes of events kept for resumption, all sessions together (bounded by sessions times
  // max_stored_bytes_per_session; for monitoring and tests).
  std::size_t stored_event_bytes() const;
  // The connection cap in force (max_connections, or lower to stay under the descriptor limit).
  std::size_t connection_cap() const;

  // For programs: starts the server, calls `on_listening(port)`, and serves until SIGINT or SIGTERM,
  // then stops gracefully. Blocks those signals in the calling thread first, so every thread the
  // server starts inherits the mask and only this call receives them. Returns start()'s error.
  [[nodiscard]] Result<void> serve_until_signalled(const std::function<void(unsigned short port)>& on_listening);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace mcp::http
