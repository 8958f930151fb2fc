// Private: the server session that serves one connection's stateless (MCP 2026-07-28) requests.
//
// A stateless request carries everything it is judged by in its own _meta, so any session serves
// it the same way; what a session per request bought was that nothing could outlive the request.
// A connection's requests come one at a time (its answer is written before the next request is
// read), so one session per connection keeps that: a request is over before the next one starts,
// answers go only to their own request's stream (nothing else has one: no GET stream, and no
// resumption in this revision), and closing the connection closes the session, which cancels
// what still runs. Made per request, the session and its engine had been about a quarter of a
// stateless call's instructions (bench/RESULTS.md, "stateless tools/call over HTTP").
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "http/server_impl.hpp"

namespace mcp::http {

class StatelessConn {
 public:
  explicit StatelessConn(ServerState& state) : state_(state) {}
  // Closes the session and lets it go on the pool (ServerState::close_and_release): this runs on
  // an I/O thread.
  ~StatelessConn() { drop(); }
  StatelessConn(const StatelessConn&) = delete;
  StatelessConn& operator=(const StatelessConn&) = delete;

  // The transport to serve a request to `ep` on: this connection's, made on its first stateless
  // request to `ep`, or made again when the last one was for another endpoint or was closed (the
  // endpoint removed, the server stopping). Fails when the endpoint's server takes no session.
  Result<std::shared_ptr<SessionTransport>> transport_for(const McpEndpoint& ep);
  // Closes the session now, cancelling what it still runs.
  void drop();

 private:
  ServerState& state_;
  std::weak_ptr<const McpEndpoint> endpoint_;
  std::shared_ptr<SessionTransport> transport_;
  std::shared_ptr<ServerSession> session_;
  std::optional<std::uint64_t> slot_;  // in ServerState::stateless_sessions, while recorded there
};

}  // namespace mcp::http
