// Private: the state of an HttpServer, shared by the accept loop and its connections.
#pragma once

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <condition_variable>
#include <list>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "http/host_check.hpp"
#include "http/loop_host.hpp"
#include "http/request_checks.hpp"
#include "http/session_transport.hpp"
#include "mcp/http/server.hpp"

namespace mcp::http {

namespace net = boost::asio;
using Clock = std::chrono::steady_clock;

// One MCP endpoint: a path, the Server behind it, and what its requests are checked against. Held
// by each request to it and by each session it made, so removing it (HttpServer::remove_endpoint)
// frees it only once they are done.
struct McpEndpoint : std::enable_shared_from_this<McpEndpoint> {
  McpEndpoint(std::shared_ptr<Server> s, EndpointPolicy p) : server(std::move(s)), policy(std::move(p)) {}
  std::shared_ptr<Server> server;
  EndpointPolicy policy;
  // Set by remove_endpoint: an initialize still running on it makes no session.
  mutable std::atomic<bool> removed{false};
};

// The session serving one connection's stateless requests (stateless_conn.hpp), and the endpoint
// it serves: removing the endpoint closes it.
struct StatelessEntry {
  std::weak_ptr<ServerSession> session;
  const McpEndpoint* endpoint = nullptr;
};

struct HttpSessionEntry {
  std::shared_ptr<SessionTransport> transport;
  std::shared_ptr<ServerSession> session;
  std::shared_ptr<const McpEndpoint> endpoint;  // the one that created it; its id means nothing elsewhere
};

// One accepted connection, as the server sees it for its connection cap. The connection's own
// coroutine updates `phase` and `since`; the accept loop may shed it (`shed`, which posts a close
// to the connection's io_context) to make room.
struct ConnectionControl {
  enum class Phase { reading, busy };  // waiting for / reading a request; handling or streaming one
  Phase phase = Phase::reading;        // guarded by ServerState::conn_mu
  Clock::time_point since = Clock::now();
  std::function<void()> shed;
  bool chosen = false;  // picked to be shed, its socket not yet closed (guarded by conn_mu)
};

// What the accept loop does with a connection it accepted.
struct Admission {
  std::shared_ptr<ConnectionControl> control;  // admitted
  bool later = false;  // not yet: connections being shed still hold their descriptors
};

struct ServerState {
  ServerState(std::shared_ptr<Server> s, HttpServerOptions o) : server(std::move(s)), opts(std::move(o)) {}

  std::shared_ptr<Server> server;  // the one at opts.path (its profiles are the well-known document)
  HttpServerOptions opts;
  // Every MCP endpoint by path: opts.path and opts.more_endpoints (made by start()), and those
  // added since; and the extra GET routes (opts.routes, and those added with an endpoint).
  mutable std::shared_mutex endpoints_mu;
  std::map<std::string, std::shared_ptr<const McpEndpoint>, std::less<>> endpoints;
  std::map<std::string, RouteHandler, std::less<>> routes;
  std::shared_ptr<const McpEndpoint> main_endpoint;
  // The endpoint at `path`, or the main one when none is (whose checks then answer 404).
  std::shared_ptr<const McpEndpoint> endpoint_for(std::string_view path) const;
  // The route at `path`, if any (a copy: it runs outside the lock).
  std::optional<RouteHandler> route_for(std::string_view path) const;
  // A new endpoint at `path` for `server`, checked as the options say.
  std::shared_ptr<const McpEndpoint> make_endpoint(const std::string& path, std::shared_ptr<Server> served) const;
  std::optional<net::ssl::context> tls;
  std::atomic<bool> stopping{false};
  std::atomic<int> active_requests{0};
  // Open subscriptions/listen requests: not waited for at shutdown, but given the time to write
  // the answer that ends them (stop()).
  std::atomic<int> open_listens{0};
  std::atomic<std::size_t> accepted{0};  // connections accepted since start, for monitoring

  std::mutex mu;
  std::map<std::string, HttpSessionEntry> sessions;
  std::size_t creating = 0;  // sessions between the max_sessions check and their insertion
  // The sessions serving connections' stateless requests (one per connection that sent one, for as
  // long as it stays open: stateless_conn.hpp), so that stop() can end the long requests
  // (subscriptions/listen) instead of waiting for them, and removing an endpoint ends its own.
  std::map<std::uint64_t, StatelessEntry> stateless_sessions;
  std::uint64_t next_stateless = 0;

  // Connections, for the cap: at most `connection_cap` (max_connections, lowered below the
  // process's descriptor limit at start()).
  std::mutex conn_mu;
  std::list<std::shared_ptr<ConnectionControl>> connections;
  std::size_t connection_cap = 0;
  // Connections chosen to be shed whose sockets are not closed yet: out of `connections` but still
  // holding a descriptor each. Admission waits while there are kMaxShedding of them, so a flood
  // accepted faster than the connections' threads close the shed ones cannot run the process out
  // of descriptors (the cap's reserve covers kMaxShedding).
  static constexpr std::size_t kMaxShedding = 16;
  std::size_t shedding = 0;

  // New session for a valid initialize request. At max_sessions, the session that matters least is
  // ended to make room: the oldest one that never completed its handshake, else the one idle the
  // longest; error only if every session is busy.
  Result<HttpSessionEntry> create_session(std::shared_ptr<const McpEndpoint> endpoint);
  // The bounds of one session's transport (streams, events, stored bytes), from the options.
  SessionTransport::Limits session_limits() const;
  // The session `id` of `endpoint` (none for an id of another endpoint's session).
  std::optional<HttpSessionEntry> find_session(const std::string& id, const McpEndpoint& endpoint);
  // Ends a session (DELETE, idle timeout, shedding, shutdown). Returns false if unknown.
  bool end_session(const std::string& id);
  // Closes `session` (cancelling its handlers, ending its streams) and lets it go on the thread
  // pool: its destructor waits for running handlers, never on an I/O thread (inline only if the
  // system will not give the pool a thread).
  static void close_and_release(std::shared_ptr<ServerSession> session);
  // Ends every session `endpoint` made (it is no longer served).
  void end_sessions_of(const McpEndpoint& endpoint);

  // Registers a new connection; at the cap, sheds the connection that has waited longest for a
  // request. No control if the cap is reached and nothing can be shed (the caller refuses it), or
  // `later` while too many shed connections still hold their descriptors (the caller retries).
  Admission admit_connection();
  void forget_connection(const std::shared_ptr<ConnectionControl>& c);
  void set_phase(ConnectionControl& c, ConnectionControl::Phase phase);
  std::size_t connection_count();

  // Last, so destroyed first: destroying an io_context destroys the coroutines still suspended on
  // it (a subscriptions/listen at shutdown), whose cleanup uses the members above.
  // One io_context per I/O thread, each run by one thread (io_threads of them): a connection lives
  // on one (round robin, chosen when it is accepted), so its coroutine needs no strand and the
  // threads share no handler queue. `ioc`, the first, also runs the accept loop and the reaper.
  // `ioc` after the others, so destroyed before them: its pending accept holds a socket of the
  // context it accepts onto (ASan: heap-use-after-free when the other context went first).
  std::vector<std::unique_ptr<net::io_context>> more_iocs;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> keep_running;  // of every loop
  net::io_context ioc{1};
  // The loops above, lent to the HTTP clients our handlers use (loop_host.hpp); made by start().
  std::shared_ptr<LoopHost> loop_host;
  std::size_t next_ioc = 0;  // only the accept loop reads and writes it
  // The context the next accepted connection will live on.
  net::io_context& connection_context() {
    const std::size_t i = next_ioc++ % (more_iocs.size() + 1);
    return i == 0 ? ioc : *more_iocs[i - 1];
  }
};

// Serves one accepted connection until it closes (connection.cpp).
void spawn_connection(ServerState& state, net::ip::tcp::socket socket, std::shared_ptr<ConnectionControl> control);

}  // namespace mcp::http
