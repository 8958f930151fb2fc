#include "mcp/http/client_transport.hpp"
#include "mcp/protocol/methods.hpp"

#include <atomic>
#include <condition_variable>
#include <future>
#include <set>

#include "http/client_conn.hpp"
#include "http/frame_peek.hpp"
#include "http/header_value.hpp"
#include "http/idle_conns.hpp"
#include "http/outbound.hpp"
#include "http/workers.hpp"
#include "http/sse.hpp"
#include "http/tls_client.hpp"
#include "log/log.hpp"
#include "session/inside.hpp"
#include "mcp/jsonrpc/codec.hpp"
#include "mcp/protocol/stateless.hpp"

namespace mcp::http {

namespace {

using Clock = std::chrono::steady_clock;

// What an SSE exchange saw, for resumption.
struct StreamState {
  std::optional<std::string> last_event_id;
  std::chrono::milliseconds retry;
  bool answered = false;  // the response to the request this stream carries was delivered
};

class Client final : public HttpClientTransport, public std::enable_shared_from_this<Client> {
 public:
  Client(Endpoint ep, HttpClientOptions o, std::shared_ptr<net::ssl::context> tls)
      : ep_(std::move(ep)), opts_(std::move(o)), tls_(std::move(tls)) {}
  ~Client() override { close(); }  // joins the request threads, even those an inside close left

  std::optional<std::string> session_id() const override {
    std::lock_guard lock(mu_);
    return session_id_;
  }

  Result<void> start(Callbacks cb) override {
    std::lock_guard lock(mu_);
    if (started_) return fail(Error::internal("transport already started"));
    started_ = true;
    cb_ = std::move(cb);
    return {};
  }

  Result<void> send(std::string frame, const SendInfo& info) override {
    {
      std::lock_guard lock(mu_);
      if (closed_) return fail(Error::connection_closed("transport closed"));
    }
    Outbound out = Outbound::read(frame);
    if (info.kind != SendInfo::Kind::request) {
      // 2026-07-28 over HTTP cancels a request by closing its connection (the revision has no
      // session a notifications/cancelled could name it in).
      if (out.cancels && abort_stateless(jsonrpc::id_key(*out.cancels))) return {};
      return post_sync(frame, out);
    }
    // A request's answer may stream for a long time: serve it on its own thread, at most
    // max_concurrent_requests at once (a flood of calls must not become a flood of threads).
    auto self = shared_from_this();
    std::lock_guard lock(mu_);
    workers_.reap();
    if (requests_running_ >= opts_.max_concurrent_requests) {
      return fail(Error::internal("too many requests in flight to " + ep_.url + " (" + std::to_string(requests_running_) +
                                  ", max_concurrent_requests); send it again once some are answered"));
    }
    auto stateless_key = out.stateless_version ? std::optional(jsonrpc::id_key(out.id)) : std::nullopt;
    auto no_thread = workers_.spawn([self, frame = std::move(frame), out = std::move(out), headers = info.headers]() mutable {
      Counted counted{self.get(), jsonrpc::id_key(out.id)};
      t_counted = &counted;
      self->post_request(std::move(frame), out, counted.key, headers);
      t_counted = nullptr;
      counted.answered();  // never answered (closed meanwhile): it stops counting here
    });
    if (no_thread) return fail(Error::internal("cannot start a thread for a request to " + ep_.url + ": " + *no_thread));
    ++requests_running_;
    if (stateless_key) stateless_inflight_.emplace(std::move(*stateless_key), nullptr);
    return {};
  }

  void close() override {
    std::function<void(std::optional<Error>)> on_close;
    std::optional<std::string> sid;
    bool first;
    {
      std::lock_guard lock(mu_);
      first = !std::exchange(closed_, true);
      if (first) {
        sid = session_id_;
        for (auto* c : conns_) c->abort();
        idle_.clear();
        if (started_) on_close = cb_.on_close;
      }
    }
    const bool inside = detail::Inside::here(this);
    if (!first) {
      // Closed already, perhaps from inside a delivery, which had to leave the request threads
      // running: from outside they are joined now, so an owner that closes the transport (or
      // releases it: create()) is left with none of its threads.
      if (!inside) join_workers();
      return;
    }
    cv_.notify_all();
    if (sid) delete_session(*sid);
    if (inside) {
      // Called from one of our own deliveries: this thread holds deliver_mu_, and the other request
      // threads may be waiting for it, so joining them here would wait forever (a later close from
      // outside, or the destructor, joins them). Nothing more is delivered from now on; on_close
      // follows as this delivery returns.
      delivering_done_ = true;
      close_after_delivery_ = std::move(on_close);
      return;
    }
    join_workers();
    std::lock_guard d(deliver_mu_);
    delivering_done_ = true;
    if (on_close) on_close(std::nullopt);
  }

 private:
  // --- HTTP plumbing -------------------------------------------------------------------------
  // A request's head. A 2026-07-28 message (`out` stateless) carries no session and the headers
  // that mirror its body (basic/transports/streamable-http.mdx "Standard MCP Request Headers"),
  // plus `extra` (its Mcp-Param-* headers), each value encoded for a header.
  bhttp::request<bhttp::string_body> make_request(bhttp::verb verb, const Outbound* out = nullptr,
                                                  const std::vector<std::pair<std::string, std::string>>& extra = {}) {
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

  // Closes the connection of stateless request `key` if it is in flight; false if it is not one.
  bool abort_stateless(const std::string& key) {
    std::lock_guard lock(mu_);
    auto it = stateless_inflight_.find(key);
    if (it == stateless_inflight_.end()) return false;
    if (it->second) it->second->abort();
    else cancelled_before_open_.insert(key);
    return true;
  }

  ConnTimeouts conn_timeouts() const {
    return ConnTimeouts{opts_.connect_timeout, opts_.write_timeout, opts_.response_timeout, opts_.stream_idle_timeout};
  }

  // Registers a connection so close() can abort it; nullptr once closed. An idle kept-alive one
  // is taken if there is one (`reused` says so), else a new, unconnected one. `fresh`: a kept one
  // just proved dead, so the others kept to the same server are dropped too, and a new one is made.
  std::unique_ptr<ClientConn> open_conn(bool& reused, bool fresh = false) {
    std::lock_guard lock(mu_);
    reused = false;
    if (closed_) return nullptr;
    if (fresh) idle_.clear();
    std::unique_ptr<ClientConn> c = idle_.take(Clock::now());
    reused = c != nullptr;
    if (c) c->reset_timeouts(conn_timeouts());  // not the drain deadline its last answer left on it
    else c = std::make_unique<ClientConn>(tls_.get(), conn_timeouts());
    conns_.insert(c.get());
    return c;
  }
  // Done with a connection: kept for the next request (idle_conns.hpp: as many as requests ran
  // at once) if its response was read to the end and both sides keep it alive, else closed.
  void release_conn(std::unique_ptr<ClientConn> c, bool reusable) {
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

  // One request/response; its connection stays registered (abortable by close()) exactly as long
  // as the exchange lives, then goes back to the idle pool if another request may use it.
  struct Exchange {
    Client* owner = nullptr;
    std::unique_ptr<ClientConn> conn;
    bhttp::response_parser<bhttp::buffer_body> parser;
    ~Exchange() {
      if (!conn) return;
      const bool done = parser.is_done() && parser.get().keep_alive();
      owner->release_conn(std::move(conn), done);
    }
  };

  // Connects, sends, reads the header. The caller reads the body.
  // `stateless_key`: the request is a 2026-07-28 one; its connection is recorded for cancellation
  // (abort_stateless), and no session id it is answered with is kept.
  Result<std::unique_ptr<Exchange>> exchange(bhttp::request<bhttp::string_body> req,
                                             const std::string* stateless_key = nullptr) {
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
      if (!x->conn) return fail(Error::connection_closed("transport closed"));
      if (stateless_key) {
        std::lock_guard lock(mu_);
        if (cancelled_before_open_.erase(*stateless_key) > 0) return fail(Error::cancelled("cancelled"));
        stateless_inflight_[*stateless_key] = x->conn.get();
      }
      x->parser.body_limit(boost::none);
      if (!reused) {
        if (auto r = x->conn->connect(ep_); !r) return fail(r.error());
      }
      auto sent = x->conn->write(req);
      if (sent) sent = x->conn->read_header(x->parser);
      if (sent) break;
      // Sent again only when the server closed the kept connection before answering at all: a
      // timeout, or an answer cut short, may mean the server ran the request.
      if (!reused || attempt > 0 || closed() || x->conn->aborted() || !x->conn->closed_by_peer()) return fail(sent.error());
    }
    if (auto sid = x->parser.get()["mcp-session-id"]; !sid.empty() && !stateless_key) {
      std::lock_guard lock(mu_);
      session_id_ = std::string(sid);
    }
    return x;
  }

  Error http_error(Exchange& x, std::string_view what) { return http_error(x, what, x.conn->read_body_upto(x.parser, 300)); }
  Error http_error(Exchange& x, std::string_view what, std::string body) {
    auto status = x.parser.get().result_int();
    if (body.size() > 300) body.resize(300);
    std::string msg = std::string(what) + ": HTTP " + std::to_string(status) + " " +
                      std::string(x.parser.get().reason()) + " from " + ep_.url;
    if (status == 404 && session_id()) msg += " (the session has ended or is unknown to the server)";
    if (!body.empty()) msg += ": " + body;
    return Error::connection_closed(msg);
  }

  // --- delivery ------------------------------------------------------------------------------
  // Hands a frame to the session, one at a time, never after close. Returns the frame's id if it
  // was a response (so a stream can tell that its answer arrived).
  std::optional<std::string> deliver(std::string frame) {
    std::optional<std::string> response_id;
    FramePeek peek = peek_frame(frame);
    if (!peek.has_method && peek.id) {
      response_id = jsonrpc::id_key(*peek.id);
      if (t_counted && t_counted->key == *response_id) t_counted->answered();
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

  // A failure of ours, reported as such (Error::from_peer stays false), not as a peer's answer.
  void fail_request(const jsonrpc::Id& id, const Error& e) {
    if (t_counted && t_counted->key == jsonrpc::id_key(id)) t_counted->answered();
    std::lock_guard d(deliver_mu_);
    if (delivering_done_) return;
    {
      detail::Inside mark(this);
      if (cb_.on_request_failed) cb_.on_request_failed(id, e);
      else if (cb_.on_message) cb_.on_message(jsonrpc::encode_error(id, e));
    }
    finish_close_from_inside();
  }

  // After a delivery (deliver_mu_ held): the on_close of a close() called inside it.
  void finish_close_from_inside() {
    if (auto on_close = std::exchange(close_after_delivery_, nullptr)) on_close(std::nullopt);
  }

  // Reads an SSE body, delivering each message; records ids and retry for resumption.
  // Returns false if an event exceeded max_message_bytes (the stream is abandoned).
  bool read_sse(Exchange& x, StreamState& st, const std::optional<std::string>& awaited) {
    SseParser parser(opts_.max_message_bytes);
    (void)x.conn->read_body(x.parser, [&](std::string_view d) {
      parser.feed(d, [&](SseEvent e) {
        if (e.id) st.last_event_id = e.id;
        if (e.retry_ms) st.retry = std::chrono::milliseconds(*e.retry_ms);
        if (e.event == "__meta" || (!e.event.empty() && e.event != "message")) return;
        if (e.data.find_first_not_of(" \t\r\n") == std::string::npos) return;  // priming event
        auto rid = deliver(std::move(e.data));
        if (awaited && rid == awaited) st.answered = true;
      });
      if (parser.too_large()) return false;
      // Once a request's answer is in, the server should end its stream: read on to the end for a
      // moment, so the connection can serve the next request (kept alive), else leave it.
      if (st.answered && awaited) x.conn->set_idle_timeout(kDrainAfterAnswer);
      return true;
    });
    return !parser.too_large();
  }

  // --- POST ------------------------------------------------------------------------------------
  Result<void> post_sync(const std::string& frame, const Outbound& out) {
    auto req = make_request(bhttp::verb::post, &out);
    req.set(bhttp::field::content_type, "application/json");
    req.set(bhttp::field::accept, "application/json, text/event-stream");
    req.body() = frame;
    auto x = exchange(std::move(req));
    if (!x) return fail(x.error());
    auto status = (*x)->parser.get().result_int();
    if (status / 100 != 2) return fail(http_error(**x, "notification or response refused"));
    // After notifications/initialized the session is established: open the standalone stream and
    // wait until it is really open, so server-initiated messages cannot be missed.
    if (out.method == mcp::method::kInitialized && opts_.standalone_stream) open_get_stream();
    return {};
  }

  // The JSON-RPC error a refusing server put in its body (400 for a 2026-07-28 envelope error,
  // -32022 with the versions it speaks, say): delivered as the answer it is, so the caller sees
  // the code and data. False if the body is not that.
  bool deliver_error_body(Exchange& x, const std::string& key, std::string& body) {
    body = x.conn->read_body_upto(x.parser, kMaxErrorBody);
    if (!std::string_view(x.parser.get()[bhttp::field::content_type]).starts_with("application/json")) return false;
    const FramePeek peek = peek_frame(body);
    if (!peek.has_error || !peek.id || jsonrpc::id_key(*peek.id) != key) return false;
    deliver(std::move(body));
    return true;
  }

  // `key`: the request's id as jsonrpc::id_key writes it.
  void post_request(std::string frame, const Outbound& out, const std::string& key,
                    const std::vector<std::pair<std::string, std::string>>& headers) {
    const jsonrpc::Id& id = out.id;
    if (out.method == mcp::method::kInitialize) {
      std::lock_guard lock(mu_);
      init_id_ = key;
    }
    struct Forget {  // a stateless request leaves the in-flight table however it ends
      Client* self;
      const std::string* key;
      ~Forget() {
        if (!key) return;
        std::lock_guard lock(self->mu_);
        self->stateless_inflight_.erase(*key);
        self->cancelled_before_open_.erase(*key);
      }
    } forget{this, out.stateless_version ? &key : nullptr};
    auto req = make_request(bhttp::verb::post, &out, headers);
    req.set(bhttp::field::content_type, "application/json");
    req.set(bhttp::field::accept, "application/json, text/event-stream");
    req.body() = std::move(frame);
    auto x = exchange(std::move(req), out.stateless_version ? &key : nullptr);
    if (!x) return fail_request(id, x.error());
    auto& ex = **x;
    auto status = ex.parser.get().result_int();
    if (status / 100 != 2) {
      // A 404 of a session request means the session is gone; of a stateless one, an unknown method.
      const bool may_be_rpc = status / 100 == 4 && (status != 404 || out.stateless_version);
      std::string body;
      if (may_be_rpc && deliver_error_body(ex, key, body)) return;
      if (!may_be_rpc) body = ex.conn->read_body_upto(ex.parser, 300);
      return fail_request(id, http_error(ex, "request refused", std::move(body)));
    }
    std::string ctype(ex.parser.get()[bhttp::field::content_type]);
    if (ctype.starts_with("application/json")) {
      std::string body;
      bool too_big = false;
      auto read = ex.conn->read_body(ex.parser, [&](std::string_view d) {
        if (body.size() + d.size() > opts_.max_message_bytes) { too_big = true; return false; }
        body.append(d);
        return true;
      });
      if (too_big) return fail_request(id, Error::invalid_request("response from " + ep_.url + " exceeds max_message_bytes"));
      // Said as what it is (a deadline, a reset, an answer cut short), not as the unreadable
      // fragment it left, which no request's answer could be.
      if (!read) return fail_request(id, read.error());
      if (!ex.parser.is_done()) {
        return fail_request(id, Error::connection_closed("the JSON response from " + ep_.url + " was cut short after " +
                                                         std::to_string(body.size()) + " bytes of its body"));
      }
      auto rid = deliver(std::move(body));
      if (rid != key) fail_request(id, Error::invalid_request("the JSON response from " + ep_.url + " did not answer request " + key));
      return;
    }
    if (!ctype.starts_with("text/event-stream")) {
      return fail_request(id, Error::connection_closed("unexpected Content-Type '" + ctype + "' from " + ep_.url +
                                                       ": not an MCP endpoint"));
    }
    StreamState st{std::nullopt, opts_.default_retry, false};
    if (!read_sse(ex, st, key)) {
      return fail_request(id, Error::invalid_request("an SSE event from " + ep_.url + " exceeds max_message_bytes (" +
                                                     std::to_string(opts_.max_message_bytes) + ")"));
    }
    x->reset();  // done with this connection before waiting to resume
    // The stream ended without the answer: resume it (SSE polling) unless we are closing.
    int failures = 0;
    while (!st.answered && !closed()) {
      if (!st.last_event_id) {
        return fail_request(id, Error::connection_closed("the SSE stream from " + ep_.url +
                                                         " ended without an answer and without an event id to resume from"));
      }
      if (!wait_for(st.retry)) return;
      auto got = get_stream(st, key);
      if (got) failures = 0;
      else if (++failures >= opts_.max_reconnect_attempts) {
        return fail_request(id, Error::connection_closed("could not resume the answer stream from " + ep_.url + " after " +
                                                         std::to_string(failures) + " attempts: " + got.error().message));
      }
    }
  }

  // --- GET -------------------------------------------------------------------------------------
  // One GET exchange reading SSE until it ends. `awaited`: stop once that answer arrived.
  Result<void> get_stream(StreamState& st, const std::optional<std::string>& awaited,
                          std::function<void()> on_open = nullptr) {
    auto req = make_request(bhttp::verb::get);
    req.set(bhttp::field::accept, "text/event-stream");
    if (st.last_event_id) req.set("Last-Event-ID", *st.last_event_id);
    auto x = exchange(std::move(req));
    if (on_open) on_open();
    if (!x) return fail(x.error());
    auto& ex = **x;
    auto status = ex.parser.get().result_int();
    if (status / 100 != 2) {
      auto e = http_error(ex, "GET stream refused");
      e.code = static_cast<int>(status);  // lets the caller tell 405 (no stream offered) apart
      return fail(e);
    }
    if (!read_sse(ex, st, awaited)) {
      return fail(Error::invalid_request("an SSE event from " + ep_.url + " exceeds max_message_bytes"));
    }
    return {};
  }

  void open_get_stream() {
    auto opened = std::make_shared<std::promise<void>>();
    auto fut = opened->get_future();
    auto self = shared_from_this();
    {
      std::lock_guard lock(mu_);
      if (closed_) return;
      auto no_thread = workers_.spawn([self, opened] {
        StreamState st{std::nullopt, self->opts_.default_retry, false};
        int failures = 0;
        bool first = true;
        while (!self->closed()) {
          auto r = self->get_stream(st, std::nullopt, first ? std::function<void()>([&] { opened->set_value(); }) : nullptr);
          first = false;
          if (!r) {
            if (r.error().code == 405) return;  // the server offers no standalone stream
            if (r.error().code == 404 || ++failures >= self->opts_.max_reconnect_attempts) {
              MCP_LOG_WARN("http client: standalone GET stream given up: {}",
                           peer_text(r.error().message, kMaxQuotedReasonBytes));
              return;
            }
          } else {
            failures = 0;
          }
          if (!self->wait_for(st.retry)) return;
        }
      });
      if (no_thread) {
        MCP_LOG_WARN("http client: no thread for the standalone GET stream: {}", *no_thread);
        return;
      }
    }
    fut.wait_for(opts_.connect_timeout);
  }

  // Best effort, and bounded: every step of the exchange has a two-second deadline.
  void delete_session(const std::string& sid) {
    (void)sid;  // make_request() adds the session header
    const auto two = std::chrono::milliseconds(2000);
    ClientConn c(tls_.get(), ConnTimeouts{two, two, two, two});
    auto req = make_request(bhttp::verb::delete_);
    req.prepare_payload();
    if (c.connect(ep_) && c.write(req)) {
      bhttp::response_parser<bhttp::buffer_body> p;
      (void)c.read_header(p);
    }
  }

  bool closed() const {
    std::lock_guard lock(mu_);
    return closed_;
  }
  // Sleeps, waking early on close; false if closed.
  bool wait_for(std::chrono::milliseconds d) {
    std::unique_lock lock(mu_);
    return !cv_.wait_for(lock, d, [this] { return closed_; });
  }

  Endpoint ep_;
  HttpClientOptions opts_;
  std::shared_ptr<net::ssl::context> tls_;  // null for plain HTTP (tls_client.hpp)
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::mutex deliver_mu_;
  bool delivering_done_ = false;  // guarded by deliver_mu_
  std::function<void(std::optional<Error>)> close_after_delivery_;  // guarded by deliver_mu_
  Callbacks cb_;
  bool started_ = false, closed_ = false;
  std::optional<std::string> session_id_, protocol_version_, init_id_;
  // 2026-07-28 requests in flight, by id key: their connection once open (null before), so that a
  // cancellation can close it; and those cancelled before their connection opened.
  std::map<std::string, ClientConn*> stateless_inflight_;
  std::set<std::string> cancelled_before_open_;
  static constexpr std::size_t kMaxErrorBody = 64 * 1024;
  std::set<ClientConn*> conns_;
  static constexpr std::chrono::milliseconds kDrainAfterAnswer{200};
  IdleConns idle_;  // kept-alive connections waiting for the next request (guarded by mu_)
  // A request counts against max_concurrent_requests until its answer or failure is handed to the
  // session, not until its thread is done: the hand-off wakes the caller, and a caller that sent
  // its next request at once was refused for the one just answered (one core: 10 in 150 runs of
  // HttpClientLimits.RequestsBeyondMaxConcurrentAreRefusedNotGivenThreads). Past that, its thread
  // only drains the stream (kDrainAfterAnswer) and returns to the pool.
  struct Counted {
    Client* owner;
    std::string key;  // the request's id
    bool counting = true;
    void answered() {
      if (std::exchange(counting, false)) owner->request_ended();
    }
  };
  static inline thread_local Counted* t_counted = nullptr;  // the request this request thread serves
  void request_ended() {
    std::lock_guard lock(mu_);
    --requests_running_;
  }
  void join_workers() {
    Workers taken;
    {
      std::lock_guard lock(mu_);
      taken = workers_.take();
    }
    taken.join();
  }
  Workers workers_;                   // guarded by mu_
  std::size_t requests_running_ = 0;  // requests sent and not yet answered or failed (guarded by mu_)
};

}  // namespace

Result<std::shared_ptr<HttpClientTransport>> HttpClientTransport::create(HttpClientOptions options) {
  auto ep = parse_endpoint(options.url);
  if (!ep) return fail(ep.error());
  auto tls = tls_client_context(options, ep->tls);
  if (!tls) return fail(tls.error());
  auto c = std::make_shared<Client>(std::move(*ep), std::move(options), std::move(*tls));
  // The owner's references are counted apart from the request threads' own (`self`, which keeps
  // the transport alive while a thread uses it): when the owner's last one goes, the transport is
  // closed and its threads joined. Sharing one count, a request whose stream the server kept open
  // kept a released transport, connection and thread alive for as long as the server liked.
  HttpClientTransport* raw = c.get();
  return std::shared_ptr<HttpClientTransport>(raw, [core = std::move(c)](HttpClientTransport*) mutable {
    core->close();
    core.reset();  // destroyed here unless released inside its own delivery: then by its last thread
  });
}

}  // namespace mcp::http
