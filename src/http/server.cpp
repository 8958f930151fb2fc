#include "mcp/http/server.hpp"

#include "http/profiles_route.hpp"

#include <openssl/rand.h>
#include <sys/resource.h>

#include <csignal>
#include <random>

#include "mcp/session/thread_pool.hpp"

#include "http/server_impl.hpp"
#include "log/log.hpp"
#include "session/thread_name.hpp"

namespace mcp::http {

using tcp = net::ip::tcp;

namespace {

// 128 random bits as hex: visible ASCII, unguessable (the session id is a bearer of the session).
std::string new_session_id() {
  unsigned char bytes[16];
  if (RAND_bytes(bytes, sizeof bytes) != 1) {
    std::random_device rd;
    for (auto& b : bytes) b = static_cast<unsigned char>(rd());
  }
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out.push_back(hex[b >> 4]);
    out.push_back(hex[b & 15]);
  }
  return out;
}

}  // namespace

std::shared_ptr<const McpEndpoint> ServerState::endpoint_for(std::string_view path) const {
  std::shared_lock lock(endpoints_mu);
  auto it = endpoints.find(path);
  return it != endpoints.end() ? it->second : main_endpoint;
}

std::optional<RouteHandler> ServerState::route_for(std::string_view path) const {
  std::shared_lock lock(endpoints_mu);
  auto it = routes.find(path);
  if (it == routes.end()) return std::nullopt;
  return it->second;
}

std::shared_ptr<const McpEndpoint> ServerState::make_endpoint(const std::string& path, std::shared_ptr<Server> served) const {
  boost::system::error_code ec;
  const auto addr = net::ip::make_address(opts.host, ec);  // checked by start()
  EndpointPolicy policy;
  policy.path = path;
  policy.max_body_bytes = opts.max_body_bytes;
  policy.limits = served->options().session.limits;
  // The endpoint owns the server and the policy both: the server outlives every check.
  policy.tool_header_params = [raw = served.get()](std::string_view tool) { return raw->tool_header_params(tool); };
  policy.host.check_host = opts.validate_host_and_origin && ((!ec && addr.is_loopback()) || !opts.allowed_hosts.empty());
  policy.host.check_origin = opts.validate_host_and_origin;
  policy.host.allowed_hosts = opts.allowed_hosts;
  policy.host.allowed_origins = opts.allowed_origins;
  return std::make_shared<const McpEndpoint>(std::move(served), std::move(policy));
}

void ServerState::end_sessions_of(const McpEndpoint& endpoint) {
  std::vector<std::string> ids;
  std::vector<std::shared_ptr<ServerSession>> stateless;
  {
    std::lock_guard lock(mu);
    for (const auto& [id, e] : sessions)
      if (e.endpoint.get() == &endpoint) ids.push_back(id);
    // A connection's stateless session outlives its requests: closed here, its connection makes a
    // new one for its next request (to whichever endpoint then serves the path).
    std::erase_if(stateless_sessions, [&](const auto& kv) {
      if (kv.second.endpoint != &endpoint) return false;
      if (auto s = kv.second.session.lock()) stateless.push_back(std::move(s));
      return true;
    });
  }
  for (const auto& id : ids) end_session(id);
  for (auto& s : stateless) s->close();
}

Result<HttpSessionEntry> ServerState::create_session(std::shared_ptr<const McpEndpoint> endpoint) {
  for (int attempt = 0;; ++attempt) {
    std::string victim;
    {
      // Count sessions being created too, so concurrent initializes cannot pass the limit together.
      std::lock_guard lock(mu);
      if (sessions.size() + creating < opts.max_sessions) {
        ++creating;
        break;
      }
      // Full. A flood of sessions must not lock legitimate clients out: end the session that
      // matters least. First the oldest that never completed its handshake, then the one idle the
      // longest; a session with a request in progress is never chosen.
      Clock::time_point best_when{};
      bool best_uninitialized = false;
      for (const auto& [id, e] : sessions) {
        const auto& t = *e.transport;
        if (t.open_requests() != 0) continue;
        const bool uninitialized = !t.initialized();
        const auto when = uninitialized ? t.created() : t.last_activity();
        const bool better = victim.empty() || (uninitialized && !best_uninitialized) ||
                            (uninitialized == best_uninitialized && when < best_when);
        if (better) {
          victim = id;
          best_uninitialized = uninitialized;
          best_when = when;
        }
      }
    }
    if (victim.empty() || attempt >= 8) {
      return fail(Error::internal("too many sessions, all of them busy (" + std::to_string(opts.max_sessions) +
                                  ", max_sessions)"));
    }
    MCP_LOG_INFO("http: max_sessions reached; ending session {} to make room", victim);
    end_session(victim);
  }
  struct Unreserve { ServerState& s; ~Unreserve() { std::lock_guard l(s.mu); --s.creating; } } unreserve{*this};
  auto transport = std::make_shared<SessionTransport>(new_session_id(), session_limits());
  auto session = endpoint->server->connect(transport);
  if (!session) return fail(session.error());
  HttpSessionEntry e{transport, *session, std::move(endpoint)};
  std::lock_guard lock(mu);
  // Checked under the lock end_sessions_of takes: either it sees this session, or this sees the flag.
  if (e.endpoint->removed) {
    e.session->close();
    return fail(Error::internal("the endpoint is no longer served"));
  }
  sessions[transport->session_id()] = e;
  return e;
}

SessionTransport::Limits ServerState::session_limits() const {
  SessionTransport::Limits limits;
  limits.max_streams = opts.max_streams_per_session;
  limits.max_events_per_stream = opts.max_events_per_stream;
  limits.max_stored_bytes = opts.max_stored_bytes_per_session;
  return limits;
}

std::optional<HttpSessionEntry> ServerState::find_session(const std::string& id, const McpEndpoint& endpoint) {
  std::lock_guard lock(mu);
  auto it = sessions.find(id);
  if (it == sessions.end() || it->second.endpoint.get() != &endpoint) return std::nullopt;
  return it->second;
}

bool ServerState::end_session(const std::string& id) {
  HttpSessionEntry e;
  {
    std::lock_guard lock(mu);
    auto it = sessions.find(id);
    if (it == sessions.end()) return false;
    e = std::move(it->second);
    sessions.erase(it);
  }
  close_and_release(std::move(e.session));
  return true;
}

void ServerState::close_and_release(std::shared_ptr<ServerSession> session) {
  session->close();
  auto holder = std::make_shared<std::shared_ptr<ServerSession>>(std::move(session));
  if (!ThreadPool::shared()->post([holder] { holder->reset(); })) holder->reset();
}

Admission ServerState::admit_connection() {
  std::function<void()> shed;
  auto c = std::make_shared<ConnectionControl>();
  {
    std::lock_guard lock(conn_mu);
    if (connections.size() >= connection_cap) {
      if (shedding >= kMaxShedding) return {nullptr, true};
      // Full: close the connection that has waited longest for a request (an idle keep-alive
      // connection, or a slow sender: slowloris). Connections busy with a request or stream stay.
      auto oldest = connections.end();
      for (auto it = connections.begin(); it != connections.end(); ++it) {
        if ((*it)->phase != ConnectionControl::Phase::reading || !(*it)->shed) continue;
        if (oldest == connections.end() || (*it)->since < (*oldest)->since) oldest = it;
      }
      if (oldest == connections.end()) return {nullptr, shedding > 0};
      shed = (*oldest)->shed;
      (*oldest)->chosen = true;
      ++shedding;
      connections.erase(oldest);  // counted out of the cap now, in `shedding` until its socket closes
    }
    connections.push_back(c);
  }
  if (shed) shed();
  return {c, false};
}

void ServerState::forget_connection(const std::shared_ptr<ConnectionControl>& c) {
  std::lock_guard lock(conn_mu);
  if (c->chosen) {
    c->chosen = false;
    --shedding;
  } else {
    connections.remove(c);
  }
}

void ServerState::set_phase(ConnectionControl& c, ConnectionControl::Phase phase) {
  std::lock_guard lock(conn_mu);
  c.phase = phase;
  c.since = Clock::now();
}

std::size_t ServerState::connection_count() {
  std::lock_guard lock(conn_mu);
  return connections.size();
}

struct HttpServer::Impl {
  Impl(std::shared_ptr<Server> s, HttpServerOptions o) : state(std::move(s), std::move(o)), acceptor(state.ioc), reaper(state.ioc) {}

  ServerState state;
  tcp::acceptor acceptor;
  net::steady_timer reaper;
  std::vector<std::thread> threads;
  unsigned short port = 0;
  std::mutex mu;
  std::condition_variable cv;
  bool running = false;

  net::awaitable<void> accept_loop() {
    for (;;) {
      // Accepted straight onto the io_context (and so the thread) that will serve it.
      auto [ec, socket] = co_await acceptor.async_accept(state.connection_context(), net::as_tuple(net::use_awaitable));
      if (ec) {
        if (ec == net::error::operation_aborted || state.stopping) co_return;
        // Out of descriptors (EMFILE) leaves the connection queued: back off instead of spinning.
        MCP_LOG_WARN("http: accept failed: {}", ec.message());
        net::steady_timer pause(acceptor.get_executor(), std::chrono::milliseconds(100));
        co_await pause.async_wait(net::as_tuple(net::use_awaitable));
        continue;
      }
      ++state.accepted;
      auto admission = state.admit_connection();
      // Shed connections are closing on their own threads: wait for their descriptors (bounded).
      for (int tries = 0; admission.later && tries < 500; ++tries) {
        net::steady_timer pause(acceptor.get_executor(), std::chrono::milliseconds(2));
        co_await pause.async_wait(net::as_tuple(net::use_awaitable));
        if (state.stopping) co_return;
        admission = state.admit_connection();
      }
      auto control = std::move(admission.control);
      if (!control) {
        // Every connection is busy with a request (or the shed ones did not close within ~1 s):
        // refuse this one, without blocking on it.
        static constexpr std::string_view busy =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\nRetry-After: 1\r\n\r\n";
        boost::system::error_code ignored;
        socket.non_blocking(true, ignored);
        socket.write_some(net::buffer(busy), ignored);
        socket.close(ignored);
        continue;
      }
      socket.set_option(tcp::no_delay(true));
      spawn_connection(state, std::move(socket), std::move(control));
    }
  }

  // Ends sessions idle for longer than session_idle_timeout, and sessions that have not completed
  // their handshake within initialize_timeout.
  net::awaitable<void> reap_loop() {
    Clock::duration period = std::min<Clock::duration>(
        {state.opts.session_idle_timeout / 4, state.opts.initialize_timeout / 2, std::chrono::seconds(30)});
    if (period < std::chrono::milliseconds(100)) period = std::chrono::milliseconds(100);
    for (;;) {
      reaper.expires_after(period);
      auto [ec] = co_await reaper.async_wait(net::as_tuple(net::use_awaitable));
      if (ec || state.stopping) co_return;
      auto now = std::chrono::steady_clock::now();
      std::vector<std::string> idle;
      {
        std::lock_guard lock(state.mu);
        for (const auto& [id, e] : state.sessions) {
          const auto& t = *e.transport;
          if (t.open_requests() != 0) continue;
          if (!t.initialized() ? now - t.created() > state.opts.initialize_timeout
                               : now - t.last_activity() > state.opts.session_idle_timeout) {
            idle.push_back(id);
          }
        }
      }
      for (const auto& id : idle) {
        MCP_LOG_INFO("http: ending session {}: idle, or its handshake never completed", id);
        state.end_session(id);
      }
    }
  }
};

namespace {
// The routes every server has unless its application routes the path itself.
HttpServerOptions with_builtin_routes(const std::shared_ptr<Server>& server, HttpServerOptions options) {
  options.routes.try_emplace(std::string(kProfilesPath), profiles_route(server));
  return options;
}
}  // namespace

HttpServer::HttpServer(std::shared_ptr<Server> server, HttpServerOptions options)
    : impl_(std::make_unique<Impl>(server, with_builtin_routes(server, std::move(options)))) {}

HttpServer::~HttpServer() { stop(); }

Result<void> HttpServer::start() {
  // The logger is made here, before any I/O thread exists: made lazily, its first use could be an
  // accept loop's warning (a descriptor flood) racing the process's exit and its static
  // destructors (UBSan: invalid vptr in the sink's construction, HttpFdLimit test).
  (void)detail::logger();
  auto& st = impl_->state;
  const auto& o = st.opts;
  boost::system::error_code ec;
  auto addr = net::ip::make_address(o.host, ec);
  if (ec) return fail(Error::invalid_params("invalid bind address '" + o.host + "': " + ec.message()));
  if (!st.main_endpoint) {
    std::unique_lock lock(st.endpoints_mu);
    st.routes.insert(o.routes.begin(), o.routes.end());
    for (const auto& [path, server] : o.more_endpoints) {
      if (path == o.path || !server) return fail(Error::invalid_params("MCP endpoint " + path + ": a path served twice, or no server"));
      st.endpoints.insert_or_assign(path, st.make_endpoint(path, server));
    }
    st.main_endpoint = st.make_endpoint(o.path, st.server);
    st.endpoints.insert_or_assign(o.path, st.main_endpoint);
  }
  // Connections stay below the descriptor limit, with room for the process's other descriptors
  // (sessions' files, pipes, logs), so a flood meets the cap and its shedding instead of EMFILE.
  st.connection_cap = std::max<std::size_t>(1, o.max_connections);
  if (rlimit rl{}; ::getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
    auto limit = static_cast<std::size_t>(rl.rlim_cur);
    auto reserve = std::max<std::size_t>(32, limit / 8);
    st.connection_cap = std::min(st.connection_cap, limit > reserve + 1 ? limit - reserve : 1);
  }

  if (!o.tls_certificate_file.empty() || !o.tls_private_key_file.empty()) {
    st.tls.emplace(net::ssl::context::tls_server);
    st.tls->set_options(net::ssl::context::default_workarounds | net::ssl::context::no_sslv2 |
                        net::ssl::context::no_sslv3 | net::ssl::context::no_tlsv1 | net::ssl::context::no_tlsv1_1);
    st.tls->use_certificate_chain_file(o.tls_certificate_file, ec);
    if (ec) return fail(Error::invalid_params("TLS certificate " + o.tls_certificate_file + ": " + ec.message()));
    st.tls->use_private_key_file(o.tls_private_key_file, net::ssl::context::pem, ec);
    if (ec) return fail(Error::invalid_params("TLS private key " + o.tls_private_key_file + ": " + ec.message()));
  }

  tcp::endpoint ep(addr, o.port);
  impl_->acceptor.open(ep.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(ep, ec);
  if (!ec) impl_->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return fail(Error::internal("cannot listen on " + o.host + ":" + std::to_string(o.port) + ": " + ec.message()));
  impl_->port = impl_->acceptor.local_endpoint().port();

  net::co_spawn(st.ioc, impl_->accept_loop(), net::detached);
  net::co_spawn(st.ioc, impl_->reap_loop(), net::detached);
  {
    std::lock_guard lock(impl_->mu);
    impl_->running = true;
  }
  const std::size_t threads = std::max<std::size_t>(1, o.io_threads);
  for (std::size_t i = 1; i < threads; ++i) {
    st.more_iocs.push_back(std::make_unique<net::io_context>(1));
    // Idle until its first connection: run() must not return for want of work.
    st.keep_running.push_back(net::make_work_guard(*st.more_iocs.back()));
  }
  // The first loop runs while its accept and reap loops do; lent to clients, it must run until
  // they have left it (retire() in stop()), whatever ends first.
  st.keep_running.push_back(net::make_work_guard(st.ioc));
  std::vector<net::io_context*> loops{&st.ioc};
  for (auto& ctx : st.more_iocs) loops.push_back(ctx.get());
  st.loop_host = std::make_shared<LoopHost>(loops);
  for (std::size_t i = 0; i < loops.size(); ++i) {
    impl_->threads.emplace_back([host = st.loop_host, i] {
      detail::name_this_thread("mcp-http-io");
      host->enter(i);
      host->loop(i).run();
    });
  }
  return {};
}

unsigned short HttpServer::port() const { return impl_->port; }

Result<void> HttpServer::add_endpoint(const std::string& path, std::shared_ptr<Server> server,
                                      std::map<std::string, RouteHandler> routes) {
  auto& st = impl_->state;
  if (!server) return fail(Error::invalid_params("MCP endpoint " + path + ": no server"));
  auto endpoint = st.make_endpoint(path, std::move(server));
  std::unique_lock lock(st.endpoints_mu);
  if (!st.main_endpoint) return fail(Error::invalid_params("MCP endpoint " + path + ": the server is not started"));
  if (st.endpoints.contains(path) || st.routes.contains(path)) {
    return fail(Error::invalid_params("MCP endpoint " + path + ": the path is served already"));
  }
  for (const auto& [route, handler] : routes) {
    if (st.routes.contains(route) || st.endpoints.contains(route)) {
      return fail(Error::invalid_params("route " + route + ": the path is served already"));
    }
  }
  st.endpoints.emplace(path, std::move(endpoint));
  st.routes.merge(routes);
  return {};
}

bool HttpServer::remove_endpoint(const std::string& path, const std::vector<std::string>& routes) {
  auto& st = impl_->state;
  std::shared_ptr<const McpEndpoint> removed;
  {
    std::unique_lock lock(st.endpoints_mu);
    auto it = st.endpoints.find(path);
    if (it == st.endpoints.end() || it->second == st.main_endpoint) return false;
    for (const auto& route : routes) st.routes.erase(route);
    removed = std::move(it->second);
    st.endpoints.erase(it);
  }
  // Its requests in progress hold it and finish; its sessions end (their ids now answer 404).
  removed->removed = true;
  st.end_sessions_of(*removed);
  return true;
}

std::size_t HttpServer::accepted_connections() const { return impl_->state.accepted.load(); }

std::size_t HttpServer::session_count() const {
  std::lock_guard lock(impl_->state.mu);
  return impl_->state.sessions.size();
}

std::size_t HttpServer::stateless_session_count() const {
  std::lock_guard lock(impl_->state.mu);
  return impl_->state.stateless_sessions.size();
}

std::size_t HttpServer::connection_count() const { return impl_->state.connection_count(); }

std::size_t HttpServer::stored_event_bytes() const {
  std::lock_guard lock(impl_->state.mu);
  std::size_t total = 0;
  for (const auto& [id, e] : impl_->state.sessions) total += e.transport->stored_bytes();
  return total;
}
std::size_t HttpServer::connection_cap() const { return impl_->state.connection_cap; }

void HttpServer::stop() {
  auto& st = impl_->state;
  if (impl_->threads.empty() || st.stopping.exchange(true)) return;
  net::post(st.ioc, [this] {
    boost::system::error_code ignored;
    impl_->acceptor.close(ignored);
    impl_->reaper.cancel();
  });
  // Graceful: requests already running get shutdown_grace to finish and be answered.
  auto deadline = std::chrono::steady_clock::now() + st.opts.shutdown_grace;
  while (st.active_requests.load() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::vector<std::string> ids;
  {
    std::lock_guard lock(st.mu);
    for (const auto& [id, e] : st.sessions) ids.push_back(id);
  }
  for (const auto& id : ids) st.end_session(id);
  // Stateless requests still open (subscriptions/listen) end with their sessions: their streams
  // finish and their connections are released.
  std::vector<std::shared_ptr<ServerSession>> stateless;
  {
    std::lock_guard lock(st.mu);
    for (const auto& [slot, entry] : st.stateless_sessions)
      if (auto s = entry.session.lock()) stateless.push_back(std::move(s));
  }
  for (auto& s : stateless) s->close();  // each open listen answered (listen.cpp)
  // Let connections write their last chunks (those answers too), then stop the loop.
  deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (st.active_requests.load() + st.open_listens.load() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // The HTTP clients that ran exchanges on our loops end them while the loops still run: nothing
  // of theirs is left there once the loops stop (loop_host.hpp).
  st.loop_host->retire();
  st.ioc.stop();
  st.keep_running.clear();
  for (auto& ctx : st.more_iocs) ctx->stop();
  for (auto& t : impl_->threads) t.join();
  impl_->threads.clear();
  {
    std::lock_guard lock(impl_->mu);
    impl_->running = false;
  }
  impl_->cv.notify_all();
}

Result<void> HttpServer::serve_until_signalled(const std::function<void(unsigned short port)>& on_listening) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  if (auto r = start(); !r) return r;
  if (on_listening) on_listening(port());
  int sig = 0;
  sigwait(&set, &sig);
  stop();
  return {};
}

void HttpServer::wait() {
  std::unique_lock lock(impl_->mu);
  impl_->cv.wait(lock, [this] { return !impl_->running; });
}

}  // namespace mcp::http
