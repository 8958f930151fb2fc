// Private: the HTTP client transport's implementation (mcp/http/client_transport.hpp), shared by
// the files that define it: client_transport.cpp (sending, closing, connections, delivery) and
// client_streams.cpp (a request's POST and its answer, the GET streams).
//
// Every exchange is a coroutine on the transport's event loop (client_loop.hpp), which one thread
// runs, however many requests are in flight; with run_on_server_loops, a request sent from an
// HttpServer's I/O thread runs on that thread's loop instead (loop_host.hpp). Each loop an
// exchange runs on is a Place: its kept connections and its pauses.
#pragma once

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "http/client_conn.hpp"
#include "http/client_loop.hpp"
#include "http/idle_conns.hpp"
#include "http/loop_host.hpp"
#include "http/outbound.hpp"
#include "mcp/http/client_transport.hpp"

namespace mcp::http::client_impl {

using Clock = std::chrono::steady_clock;
template <class T = void>
using Task = net::awaitable<T>;
inline constexpr auto nothrow = net::as_tuple(net::use_awaitable);

// What an SSE exchange saw, for resumption.
struct StreamState {
  std::optional<std::string> last_event_id;
  std::chrono::milliseconds retry;
  bool answered = false;  // the response to the request this stream carries was delivered
};

// A loop the transport's exchanges run on: its own, or one of the host lent to it.
struct Place {
  net::any_io_executor ex;
  IdleConns idle;                      // kept-alive connections (guarded by the transport's mu_)
  std::set<net::steady_timer*> waits;  // exchanges pausing before they resume (the loop's thread only)
};

// The state only exchanges touch (the waits to resume, in each Place) needs no lock. What a
// caller's thread reads or writes too (the session's ids, the connections to abort, the counts) is
// guarded by mu_.
class Client final : public HttpClientTransport, public LoopTenant, public std::enable_shared_from_this<Client> {
 public:
  Client(Endpoint ep, HttpClientOptions o, std::shared_ptr<net::ssl::context> tls, std::shared_ptr<ClientLoop> loop)
      : loop_(std::move(loop)), ep_(std::move(ep)), opts_(std::move(o)), tls_(std::move(tls)) {
    own_.ex = loop_->executor();
  }
  ~Client() override { close(); }  // ends the loop's thread, even if an inside close left it running

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

  Result<void> send(std::string frame, const SendInfo& info) override;

  void close() override;
  void evacuate(LoopHost& host) override;

 private:
  // Starts `task` on the loop, after whatever the loop's thread is doing now: co_spawn would start
  // it right away on that thread, inside a delivery (deliver_mu_ held) and under mu_. Called with
  // mu_ held and closed_ found unset: close() finishes the loop only once closed_ is set under
  // mu_, so a task started here always runs.
  template <class T, class Token>
  void spawn(Task<T> task, Token token) {
    if (!loop_->here()) return net::co_spawn(loop_->executor(), std::move(task), std::move(token));
    net::post(loop_->executor(), [ex = loop_->executor(), task = std::move(task), token = std::move(token)]() mutable {
      net::co_spawn(ex, std::move(task), std::move(token));
    });
  }

  // A request's exchange: on the calling thread's loop if that is an HttpServer's lent to us
  // (run_on_server_loops, and the host not retiring), else on our own. Called as spawn() is.
  void spawn_request(Task<> task);
  // Counts an exchange on the host's loops from before it is posted until its frame is gone,
  // started or not: close() and evacuate() wait for none to be left.
  struct OnHost {
    std::shared_ptr<Client> owner;
    explicit OnHost(std::shared_ptr<Client> c) : owner(std::move(c)) {}
    OnHost(OnHost&& o) noexcept = default;
    OnHost& operator=(OnHost&&) = delete;
    ~OnHost() {
      if (owner) owner->host_task_done();
    }
  };
  static Task<> run_on_host([[maybe_unused]] OnHost counted, Task<> task) { co_await std::move(task); }
  // The index of the Place of the loop the calling thread runs (an exchange's, so ours, 0, or the
  // host's i, 1 + i).
  std::size_t place_index_here() const;
  // One exchange or clear on the host's loops is over.
  void host_task_done();
  // With mu_ held: clear_place() on each loop of the host lent to us, each counted as an exchange
  // there, unless there is none or it retired.
  void clear_host_places();
  // Cancels, on `p`'s own loop, what waits there: its pauses, the connections registered there
  // (connects and name resolutions in progress too), and its kept connections. `then` after.
  void clear_place(std::size_t index, std::function<void()> then = nullptr);
  Place& place(std::size_t index) { return index == 0 ? own_ : host_places_[index - 1]; }
  bool on_host_thread() const;
  // Why an exchange on a host's loop ended when the host retired.
  Error host_stopping() const {
    return Error::connection_closed("the HTTP server whose I/O thread ran this exchange to " + ep_.url + " is stopping");
  }
  // Returns once no exchange of ours is left on a host's loops (at once on one of those loops).
  void wait_for_host_tasks();

  // --- HTTP plumbing -------------------------------------------------------------------------
  // A request's head. A 2026-07-28 message (`out` stateless) carries no session and the headers
  // that mirror its body (basic/transports/streamable-http.mdx "Standard MCP Request Headers"),
  // plus `extra` (its Mcp-Param-* headers), each value encoded for a header.
  bhttp::request<bhttp::string_body> make_request(bhttp::verb verb, const Outbound* out = nullptr,
                                                  const std::vector<std::pair<std::string, std::string>>& extra = {});

  // Closes the connection of stateless request `key` if it is in flight; false if it is not one.
  bool abort_stateless(const std::string& key);

  ConnTimeouts conn_timeouts() const {
    return ConnTimeouts{opts_.connect_timeout, opts_.write_timeout, opts_.response_timeout, opts_.stream_idle_timeout};
  }

  // Registers a connection so close() can abort it; nullptr once closed. An idle kept-alive one
  // is taken if there is one (`reused` says so), else a new, unconnected one. `fresh`: a kept one
  // just proved dead, so the others kept to the same server are dropped too, and a new one is made.
  std::unique_ptr<ClientConn> open_conn(bool& reused, bool fresh = false);
  // Done with a connection: kept for the next request (idle_conns.hpp: as many as requests ran
  // at once) if its response was read to the end and both sides keep it alive, else closed.
  void release_conn(std::unique_ptr<ClientConn> c, bool reusable);

  // One request/response; its connection stays registered (abortable by close()) exactly as long
  // as the exchange lives, then goes back to the idle pool if another request may use it.
  struct Exchange {
    Client* owner = nullptr;
    std::unique_ptr<ClientConn> conn;
    ResponseParser parser;
    ~Exchange() {
      if (!conn) return;
      const bool done = parser.is_done() && parser.get().keep_alive();
      owner->release_conn(std::move(conn), done);
    }
  };

  // Connects, sends, reads the header. The caller reads the body.
  // `stateless_key`: the request is a 2026-07-28 one; its connection is recorded for cancellation
  // (abort_stateless), and no session id it is answered with is kept.
  Task<Result<std::unique_ptr<Exchange>>> exchange(bhttp::request<bhttp::string_body> req,
                                                   const std::string* stateless_key = nullptr);

  Task<Error> http_error(Exchange& x, std::string_view what) {
    co_return http_error(x, what, co_await x.conn->read_body_upto(x.parser, 300));
  }
  Error http_error(Exchange& x, std::string_view what, std::string body);

  // --- delivery ------------------------------------------------------------------------------
  // A request counts against max_concurrent_requests until its answer or failure is handed to the
  // session, not until its exchange is done: the hand-off wakes the caller, and a caller that sent
  // its next request at once was refused for the one just answered (one core: 10 in 150 runs of
  // HttpClientLimits.RequestsBeyondMaxConcurrentAreRefusedNotGivenThreads). Past that, its
  // exchange only drains the stream (kDrainAfterAnswer) and gives its connection back.
  struct Counted {
    Client* owner;
    std::string key;  // the request's id
    bool counting = true;
    void answered() {
      if (std::exchange(counting, false)) owner->request_ended();
    }
    ~Counted() { answered(); }  // never answered (closed meanwhile): it stops counting here
  };
  void request_ended() {
    std::lock_guard lock(mu_);
    --requests_running_;
  }

  // Hands a frame to the session, one at a time, never after close. Returns the frame's id if it
  // was a response (so a stream can tell that its answer arrived). `counted`: the request whose
  // exchange this is, if any.
  std::optional<std::string> deliver(std::string frame, Counted* counted);

  // A failure of ours, reported as such (Error::from_peer stays false), not as a peer's answer.
  void fail_request(const jsonrpc::Id& id, const Error& e, Counted& counted);

  // After a delivery (deliver_mu_ held): the on_close of a close() called inside it.
  void finish_close_from_inside() {
    if (auto on_close = std::exchange(close_after_delivery_, nullptr)) on_close(std::nullopt);
  }

  // Reads an SSE body, delivering each message; records ids and retry for resumption.
  // Returns false if an event exceeded max_message_bytes (the stream is abandoned).
  Task<bool> read_sse(Exchange& x, StreamState& st, const std::optional<std::string>& awaited, Counted* counted);

  // Waits `d` on the loop, ending early on close; false if closed.
  Task<bool> pause(std::chrono::milliseconds d);

  // --- POST and GET (client_streams.cpp) ----------------------------------------------------
  // A notification or a response: POSTed, the server answers 202. From a caller's thread the send
  // waits for that (and, after notifications/initialized, for the standalone stream to open, so
  // that no server-initiated message is missed). From the loop's own thread (a handler answering
  // inside a delivery) it cannot wait, as that thread must run the exchange: it is sent in turn,
  // and a refusal is logged.
  Result<void> post_sync(std::string frame, Outbound out);
  // `opened`: set for notifications/initialized when the standalone stream is wanted; it is opened
  // once the POST is accepted, and `opened` told once its first GET is answered.
  static Task<Result<void>> post_notice(std::shared_ptr<Client> self, std::string frame, Outbound out,
                                        std::shared_ptr<std::promise<void>> opened);
  // The JSON-RPC error a refusing server put in its body (400 for a 2026-07-28 envelope error,
  // -32022 with the versions it speaks, say): delivered as the answer it is, so the caller sees
  // the code and data. False if the body is not that.
  Task<bool> deliver_error_body(Exchange& x, Counted& counted, std::string& body);
  // A request's exchange, from its POST to its answer (JSON, or an SSE stream resumed as needed).
  static Task<> request_task(std::shared_ptr<Client> self, std::string frame, Outbound out,
                             std::vector<std::pair<std::string, std::string>> headers);
  Task<> post_request(std::string frame, const Outbound& out, Counted& counted,
                      const std::vector<std::pair<std::string, std::string>>& headers);
  // One GET exchange reading SSE until it ends. `awaited`: stop once that answer arrived.
  Task<Result<void>> get_stream(StreamState& st, const std::optional<std::string>& awaited, Counted* counted,
                                std::function<void()> on_open = nullptr);
  // The standalone stream, reopened as it ends until the server refuses it; `opened` is set once
  // its first GET was answered (or could not be).
  void open_get_stream(std::shared_ptr<std::promise<void>> opened);
  static Task<> get_loop(std::shared_ptr<Client> self, std::shared_ptr<std::promise<void>> opened);

  // Best effort, and bounded: every step of the exchange has a two-second deadline. On the
  // calling thread, with a loop of its own: close() may come after the transport's loop is done.
  void delete_session(const std::string& sid);

  bool closed() const {
    std::lock_guard lock(mu_);
    return closed_;
  }

  std::shared_ptr<ClientLoop> loop_;  // first: what runs on it (the connections) goes before it
  Endpoint ep_;
  HttpClientOptions opts_;
  std::shared_ptr<net::ssl::context> tls_;  // null for plain HTTP (tls_client.hpp)
  mutable std::mutex mu_;
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
  // The connections in use, and the place (0: our loop, 1 + i: the host's loop i) of each.
  std::map<ClientConn*, std::size_t> conns_;
  static constexpr std::chrono::milliseconds kDrainAfterAnswer{200};
  Place own_;
  // The host lent to us (the first one a request was sent from: set once, under mu_, before any
  // exchange goes there) and a Place per loop of it. host_id_ says which host it is without the
  // lock, to a loop thread asking whether it is one of ours.
  std::shared_ptr<LoopHost> host_;
  std::atomic<const LoopHost*> host_id_{nullptr};
  std::unique_ptr<Place[]> host_places_;
  bool host_gone_ = false;       // it retired: nothing more goes there (mu_)
  std::size_t host_tasks_ = 0;   // exchanges on its loops, and clears posted there (mu_)
  std::condition_variable host_cv_;
  std::size_t requests_running_ = 0;  // requests sent and not yet answered or failed (guarded by mu_)
};

}  // namespace mcp::http::client_impl
