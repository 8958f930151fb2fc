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
  {
    std::lock_guard lock(mu_);
    if (closed_) return fail(Error::connection_closed("transport closed"));
  }
  Outbound out = Outbound::read(frame);
  if (info.kind != SendInfo::Kind::request) {
    // 2026-07-28 over HTTP cancels a request by closing its connection (the revision has no
    // session a notifications/cancelled could name it in).
    if (out.cancels && abort_stateless(jsonrpc::id_key(*out.cancels))) return {};
    return post_sync(std::move(frame), std::move(out));
  }
  // A request's answer may stream for a long time; at most max_concurrent_requests are in
  // flight at once (a flood of calls must not become unbounded connections and buffers).
  std::lock_guard lock(mu_);
  if (closed_) return fail(Error::connection_closed("transport closed"));
  if (requests_running_ >= opts_.max_concurrent_requests) {
    return fail(Error::internal("too many requests in flight to " + ep_.url + " (" + std::to_string(requests_running_) +
                                ", max_concurrent_requests); send it again once some are answered"));
  }
  if (out.stateless_version) stateless_inflight_.emplace(jsonrpc::id_key(out.id), nullptr);
  ++requests_running_;
  spawn(request_task(shared_from_this(), std::move(frame), std::move(out), info.headers), net::detached);
  return {};
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
      for (auto* c : conns_) c->abort();
      if (started_) on_close = cb_.on_close;
    }
  }
  const bool inside = detail::Inside::here(this);
  if (!first) {
    // Closed already, perhaps from inside a delivery, which had to leave the loop running: from
    // outside it is finished now, so an owner that closes the transport (or releases it:
    // create()) is left with none of its exchanges or its thread.
    if (!inside) loop_->finish();
    return;
  }
  // What waits on the loop goes now: a pause before resuming a stream, the kept connections, and
  // a connect or name resolution in progress, which the shutdown above cannot reach (no
  // descriptor yet) and would hold the close for up to connect_timeout.
  if (auto self = weak_from_this().lock()) {
    net::post(loop_->executor(), [self] {
      for (auto* w : self->waits_) w->cancel();
      std::lock_guard lock(self->mu_);
      for (auto* c : self->conns_) c->cancel();  // registered, so alive: released on this thread
      self->idle_.clear();
    });
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
  // A connect in progress too, on the loop, if the request still holds that connection then.
  if (auto self = weak_from_this().lock()) {
    net::post(loop_->executor(), [self, key] {
      std::lock_guard lock(self->mu_);
      if (auto at = self->stateless_inflight_.find(key); at != self->stateless_inflight_.end() && at->second)
        at->second->cancel();
    });
  }
  return true;
}

std::unique_ptr<ClientConn> Client::open_conn(bool& reused, bool fresh) {
  std::lock_guard lock(mu_);
  reused = false;
  if (closed_) return nullptr;
  if (fresh) idle_.clear();
  std::unique_ptr<ClientConn> c = idle_.take(Clock::now());
  reused = c != nullptr;
  if (c) c->reset_timeouts(conn_timeouts());  // not the drain deadline its last answer left on it
  else c = std::make_unique<ClientConn>(loop_->executor(), tls_.get(), conn_timeouts());
  conns_.insert(c.get());
  return c;
}

void Client::release_conn(std::unique_ptr<ClientConn> c, bool reusable) {
  std::unique_ptr<ClientConn> dropped;  // closed after the lock, like those the pool lets go
  std::vector<std::unique_ptr<ClientConn>> stale;
  {
    std::lock_guard lock(mu_);
    conns_.erase(c.get());
    // A cancel of a stateless request must never reach the connection once it serves another.
    for (auto& [key, conn] : stateless_inflight_)
      if (conn == c.get()) conn = nullptr;
    if (!reusable || closed_ || !c->reusable())
      dropped = std::move(c);
    else
      stale = idle_.put(std::move(c), Clock::now(), opts_.max_concurrent_requests);
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
    if (!x->conn) co_return fail(Error::connection_closed("transport closed"));
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
    // The negotiated version goes into every later request's MCP-Protocol-Version header.
    std::lock_guard lock(mu_);
    if (init_id_ && *init_id_ == *response_id && peek.result_version) protocol_version_ = std::move(peek.result_version);
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

void Client::fail_request(const jsonrpc::Id& id, const Error& e, Counted& counted) {
  counted.answered();
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
  net::steady_timer timer(loop_->executor(), d);
  waits_.insert(&timer);
  struct Unlist {
    std::set<net::steady_timer*>& waits;
    net::steady_timer* t;
    ~Unlist() { waits.erase(t); }
  } unlist{waits_, &timer};
  if (closed()) co_return false;  // close() cancelled the waits before this one was listed
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
