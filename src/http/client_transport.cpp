#include "mcp/http/client_transport.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>

#include "http/client_impl.hpp"
#include "http/frame_peek.hpp"
#include "http/header_value.hpp"
#include "http/tls_client.hpp"
#include "session/inside.hpp"
#include "mcp/jsonrpc/codec.hpp"

namespace mcp::http {

namespace client_impl {

Result<void> Client::send(std::string frame, const SendInfo& info) {
  if (info.kind != SendInfo::Kind::request) {
    {
      std::lock_guard lock(mu_);
      if (closed_) return fail(Error::connection_closed("transport closed"));
    }
    Outbound out = Outbound::read(frame);
    // 2026-07-28 over HTTP cancels a request by closing its connection (the revision has no
    // session a notifications/cancelled could name it in).
    if (out.cancels && abort_stateless(jsonrpc::id_key(*out.cancels))) return {};
    return post_sync(std::move(frame), std::move(out));
  }
  // A request's answer may stream for a long time; at most max_concurrent_requests are in
  // flight at once (a flood of calls must not become unbounded connections and buffers). Read
  // before the lock, which a request then takes once.
  Outbound out = Outbound::read(frame);
  std::lock_guard lock(mu_);
  if (closed_) return fail(Error::connection_closed("transport closed"));
  if (requests_running_ >= opts_.max_concurrent_requests) {
    return fail(Error::internal("too many requests in flight to " + ep_.url + " (" + std::to_string(requests_running_) +
                                ", max_concurrent_requests); send it again once some are answered"));
  }
  if (out.stateless_version) stateless_inflight_.emplace(jsonrpc::id_key(out.id), nullptr);
  ++requests_running_;
  spawn_request(request_task(shared_from_this(), std::move(frame), std::move(out), info.headers));
  return {};
}

bool Client::on_host_thread() const {
  const auto* here = LoopHost::here();
  return here && here->host == host_id_.load();
}

std::size_t Client::place_index_here() const {
  const auto* here = LoopHost::here();
  return here && here->host == host_id_.load() ? 1 + here->index : 0;
}

void Client::host_task_done() {
  std::lock_guard lock(mu_);
  if (--host_tasks_ == 0) host_cv_.notify_all();
}

void Client::clear_host_places() {
  if (!host_ || host_gone_) return;
  auto self = weak_from_this().lock();
  if (!self) return;
  for (std::size_t i = 0; i < host_->size(); ++i) {
    ++host_tasks_;
    clear_place(i + 1, [self] { self->host_task_done(); });
  }
}

void Client::spawn_request(Task<> task) {
  const auto* here = opts_.run_on_server_loops ? LoopHost::here() : nullptr;
  if (here && !host_gone_ && (host_ ? host_.get() == here->host : here->host->lend(shared_from_this()))) {
    if (!host_) {
      host_ = here->host->shared_from_this();
      host_places_ = std::make_unique<Place[]>(host_->size());
      for (std::size_t i = 0; i < host_->size(); ++i) host_places_[i].ex = host_->loop(i).get_executor();
      host_id_ = host_.get();
    }
    ++host_tasks_;
    auto ex = host_places_[here->index].ex;
    // Posted, not started here: on this very thread co_spawn would run it at once, inside the
    // caller's delivery and under mu_. The same thread takes it up next, with no wake-up.
    net::post(ex, [ex, t = run_on_host(OnHost(shared_from_this()), std::move(task))]() mutable {
      net::co_spawn(ex, std::move(t), net::detached);
    });
    return;
  }
  spawn(std::move(task), net::detached);
}

void Client::clear_place(std::size_t index, std::function<void()> then) {
  auto self = weak_from_this().lock();
  if (!self) return;
  net::post(place(index).ex, [self, index, then = std::move(then)] {
    IdleConns dropped;  // closed after the lock
    {
      Place& p = self->place(index);
      for (auto* w : p.waits) w->cancel();
      std::lock_guard lock(self->mu_);
      for (auto& [c, at] : self->conns_)
        if (at == index) c->cancel();  // registered, so alive: released on this thread
      std::swap(dropped, p.idle);
    }
    dropped.clear();
    if (then) then();
  });
}

void Client::wait_for_host_tasks() {
  // The exchanges on a host's loops end as the ones on ours do (their connections aborted by
  // close()). On one of those loops this thread would wait on itself: they end after it returns,
  // each holding the transport.
  if (on_host_thread()) return;
  std::unique_lock lock(mu_);
  host_cv_.wait(lock, [&] { return host_tasks_ == 0; });
}

void Client::evacuate(LoopHost& host) {
  std::unique_lock lock(mu_);
  if (host_.get() != &host || host_gone_) return;
  for (auto& [c, at] : conns_)
    if (at != 0) c->abort();
  clear_host_places();
  host_gone_ = true;  // no exchange goes there from now on, nor a connection back to its pools
  host_cv_.wait(lock, [&] { return host_tasks_ == 0; });
}

void Client::close() {
  std::function<void(std::optional<Error>)> on_close;
  std::optional<std::string> sid;
  bool first;
  {
    std::lock_guard lock(mu_);
    first = !std::exchange(closed_, true);
    if (first) {
      sid = session_id_;
      for (auto& [c, at] : conns_) c->abort();
      if (started_) on_close = cb_.on_close;
    }
  }
  const bool inside = detail::Inside::here(this);
  if (!first) {
    // Closed already, perhaps from inside a delivery, which had to leave the loop running: from
    // outside it is finished now, so an owner that closes the transport (or releases it:
    // create()) is left with none of its exchanges or its thread.
    if (!inside) {
      loop_->finish();
      wait_for_host_tasks();
    }
    return;
  }
  // What waits on the loop goes now: a pause before resuming a stream, the kept connections, and
  // a connect or name resolution in progress, which the shutdown above cannot reach (no
  // descriptor yet) and would hold the close for up to connect_timeout.
  clear_place(0);
  {
    std::lock_guard lock(mu_);
    clear_host_places();  // and on each loop of a host lent to us
  }
  if (sid) delete_session(*sid);
  if (inside) {
    // Called from one of our own deliveries, on the loop's thread: finishing the loop here would
    // wait on this very thread (a later close from outside, or the destructor, finishes it).
    // Nothing more is delivered from now on; on_close follows as this delivery returns.
    delivering_done_ = true;
    close_after_delivery_ = std::move(on_close);
    return;
  }
  loop_->finish();
  wait_for_host_tasks();
  std::lock_guard d(deliver_mu_);
  delivering_done_ = true;
  if (on_close) on_close(std::nullopt);
}

bhttp::request<bhttp::string_body> Client::make_request(bhttp::verb verb, const Outbound* out,
                                                const std::vector<std::pair<std::string, std::string>>& extra) {
  bhttp::request<bhttp::string_body> req{verb, ep_.target, 11};
  req.set(bhttp::field::host, host_header(ep_));
  req.set(bhttp::field::user_agent, "mcp-trust");
  for (const auto& [k, v] : opts_.headers) req.set(k, v);
  if (out && out->stateless_version) {
    req.set("MCP-Protocol-Version", *out->stateless_version);
    req.set("Mcp-Method", out->method);
    if (out->name) req.set("Mcp-Name", encode_header_value(*out->name));
    for (const auto& [k, v] : extra) req.set(k, encode_header_value(v));
    return req;
  }
  std::lock_guard lock(mu_);
  if (session_id_) req.set("Mcp-Session-Id", *session_id_);
  if (protocol_version_) req.set("MCP-Protocol-Version", *protocol_version_);
  return req;
}

bool Client::abort_stateless(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = stateless_inflight_.find(key);
  if (it == stateless_inflight_.end()) return false;
  if (!it->second) {
    cancelled_before_open_.insert(key);
    return true;
  }
  it->second->abort();
  // A connect in progress too, on its loop, if the request still holds that connection then.
  auto where = conns_.find(it->second);
  const std::size_t index = where == conns_.end() ? 0 : where->second;
  if (index != 0 && host_gone_) return true;  // evacuated: its loop may be gone
  if (auto self = weak_from_this().lock()) {
    net::post(place(index).ex, [self, key, index] {
      std::lock_guard held(self->mu_);
      auto at = self->stateless_inflight_.find(key);
      if (at == self->stateless_inflight_.end() || !at->second) return;
      // Only one on this loop: by now the request may have moved to a connection elsewhere.
      if (auto c = self->conns_.find(at->second); c != self->conns_.end() && c->second == index) at->second->cancel();
    });
  }
  return true;
}

std::unique_ptr<ClientConn> Client::open_conn(bool& reused, bool fresh) {
  const std::size_t index = place_index_here();
  Place& p = place(index);
  std::lock_guard lock(mu_);
  reused = false;
  if (closed_ || (index != 0 && host_gone_)) return nullptr;
  if (fresh) p.idle.clear();
  std::unique_ptr<ClientConn> c = p.idle.take(Clock::now());
  reused = c != nullptr;
  if (c) c->reset_timeouts(conn_timeouts());  // not the drain deadline its last answer left on it
  else c = std::make_unique<ClientConn>(p.ex, tls_.get(), conn_timeouts());
  conns_.emplace(c.get(), index);
  return c;
}

void Client::release_conn(std::unique_ptr<ClientConn> c, bool reusable) {
  std::unique_ptr<ClientConn> dropped;  // closed after the lock, like those the pool lets go
  std::vector<std::unique_ptr<ClientConn>> stale;
  {
    std::lock_guard lock(mu_);
    auto at = conns_.find(c.get());
    const std::size_t index = at == conns_.end() ? 0 : at->second;
    if (at != conns_.end()) conns_.erase(at);
    // A cancel of a stateless request must never reach the connection once it serves another.
    for (auto& [key, conn] : stateless_inflight_)
      if (conn == c.get()) conn = nullptr;
    if (!reusable || closed_ || !c->reusable() || (index != 0 && host_gone_))
      dropped = std::move(c);
    else
      stale = place(index).idle.put(std::move(c), Clock::now(), opts_.max_concurrent_requests);
  }
}

Task<Result<std::unique_ptr<Client::Exchange>>> Client::exchange(bhttp::request<bhttp::string_body> req,
                                                 const std::string* stateless_key) {
  req.prepare_payload();
  std::unique_ptr<Exchange> x;
  // A kept-alive connection the server closed meanwhile fails at once, before any answer: the
  // request went nowhere, so it is sent again, once, on a new connection (not another kept one,
  // which the same server closed as well).
  for (int attempt = 0;; ++attempt) {
    x = std::make_unique<Exchange>();
    x->owner = this;
    bool reused = false;
    x->conn = open_conn(reused, /*fresh=*/attempt > 0);
    if (!x->conn && closed()) co_return fail(Error::connection_closed("transport closed"));
    if (!x->conn) co_return fail(host_stopping());
    if (stateless_key) {
      std::lock_guard lock(mu_);
      if (cancelled_before_open_.erase(*stateless_key) > 0) co_return fail(Error::cancelled("cancelled"));
      stateless_inflight_[*stateless_key] = x->conn.get();
    }
    x->parser.body_limit(boost::none);
    if (!reused) {
      if (auto r = co_await x->conn->connect(ep_); !r) co_return fail(r.error());
    }
    auto sent = co_await x->conn->write(req);
    if (sent) sent = co_await x->conn->read_header(x->parser);
    if (sent) break;
    // Sent again only when the server closed the kept connection before answering at all: a
    // timeout, or an answer cut short, may mean the server ran the request.
    if (!reused || attempt > 0 || closed() || x->conn->aborted() || !x->conn->closed_by_peer()) co_return fail(sent.error());
  }
  if (auto sid = x->parser.get()["mcp-session-id"]; !sid.empty() && !stateless_key) {
    std::lock_guard lock(mu_);
    session_id_ = std::string(sid);
  }
  co_return x;
}

Error Client::http_error(Exchange& x, std::string_view what, std::string body) {
  auto status = x.parser.get().result_int();
  if (body.size() > 300) body.resize(300);
  std::string msg = std::string(what) + ": HTTP " + std::to_string(status) + " " +
                    std::string(x.parser.get().reason()) + " from " + ep_.url;
  if (status == 404 && session_id()) msg += " (the session has ended or is unknown to the server)";
  if (!body.empty()) msg += ": " + body;
  return Error::connection_closed(msg);
}

std::optional<std::string> Client::deliver(std::string frame, Counted* counted) {
  std::optional<std::string> response_id;
  FramePeek peek = peek_frame(frame);
  if (!peek.has_method && peek.id) {
    response_id = jsonrpc::id_key(*peek.id);
    if (counted && counted->key == *response_id) counted->answered();
    // The negotiated version goes into every later request's MCP-Protocol-Version header. Only a
    // result with a protocolVersion can be initialize's: other answers take no lock here.
    if (peek.result_version) {
      std::lock_guard lock(mu_);
      if (init_id_ && *init_id_ == *response_id) protocol_version_ = std::move(peek.result_version);
    }
  }
  std::lock_guard d(deliver_mu_);
  if (delivering_done_ || !cb_.on_message) return response_id;
  {
    detail::Inside mark(this);
    cb_.on_message(std::move(frame));
  }
  finish_close_from_inside();
  return response_id;
}

void Client::fail_request(const jsonrpc::Id& id, const Error& failure, Counted& counted) {
  counted.answered();
  // An exchange on a host's loop that its evacuation ended (its connection aborted) fails saying
  // why, not with what the aborted read saw ("end of stream").
  Error e = failure;
  if (place_index_here() != 0) {
    std::lock_guard lock(mu_);
    if (host_gone_) e = host_stopping();
  }
  std::lock_guard d(deliver_mu_);
  if (delivering_done_) return;
  {
    detail::Inside mark(this);
    if (cb_.on_request_failed) cb_.on_request_failed(id, e);
    else if (cb_.on_message) cb_.on_message(jsonrpc::encode_error(id, e));
  }
  finish_close_from_inside();
}

Task<bool> Client::pause(std::chrono::milliseconds d) {
  const std::size_t index = place_index_here();
  Place& p = place(index);
  net::steady_timer timer(p.ex, d);
  p.waits.insert(&timer);
  struct Unlist {
    std::set<net::steady_timer*>& waits;
    net::steady_timer* t;
    ~Unlist() { waits.erase(t); }
  } unlist{p.waits, &timer};
  if (closed()) co_return false;  // close() cancelled the waits before this one was listed
  if (index != 0) {
    std::lock_guard lock(mu_);
    if (host_gone_) co_return false;  // its host retired: the exchange ends
  }
  (void)co_await timer.async_wait(nothrow);
  co_return !closed();
}

void Client::delete_session(const std::string& sid) {
  (void)sid;  // make_request() adds the session header
  const auto two = std::chrono::milliseconds(2000);
  BlockingConn c(tls_.get(), ConnTimeouts{two, two, two, two});
  auto req = make_request(bhttp::verb::delete_);
  req.prepare_payload();
  if (c.connect(ep_) && c.write(req)) {
    ResponseParser p;
    (void)c.read_header(p);
  }
}

}  // namespace client_impl


Result<std::shared_ptr<HttpClientTransport>> HttpClientTransport::create(HttpClientOptions options) {
  auto ep = parse_endpoint(options.url);
  if (!ep) return fail(ep.error());
  auto tls = tls_client_context(options, ep->tls);
  if (!tls) return fail(tls.error());
  auto loop = ClientLoop::start();
  if (!loop) return fail(loop.error());
  auto c = std::make_shared<client_impl::Client>(std::move(*ep), std::move(options), std::move(*tls), std::move(*loop));
  // The owner's references are counted apart from the exchanges' own (`self`, which keeps the
  // transport alive while an exchange uses it): when the owner's last one goes, the transport is
  // closed and its loop finished. Sharing one count, a request whose stream the server kept open
  // kept a released transport and its connection alive for as long as the server liked.
  HttpClientTransport* raw = c.get();
  return std::shared_ptr<HttpClientTransport>(raw, [core = std::move(c)](HttpClientTransport*) mutable {
    core->close();
    core.reset();  // destroyed here unless released inside its own delivery: then by its last exchange
  });
}

}  // namespace mcp::http
