// One HTTP connection of the Streamable HTTP server: parse requests with limits, route POST / GET /
// DELETE, and pump SSE streams. Coroutines on the connection's io_context, which one thread runs.
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cstdio>
#include <functional>
#include <mutex>
#include <random>

#include "http/conn_deadline.hpp"
#include "http/request_begin.hpp"
#include "http/request_checks.hpp"
#include "mcp/protocol/methods.hpp"
#include "http/server_impl.hpp"
#include "http/sse.hpp"
#include "http/stateless_conn.hpp"
#include "http/stream_wait.hpp"
#include "log/log.hpp"
#include "mcp/jsonrpc/codec.hpp"
#include "mcp/protocol/initialize.hpp"

namespace mcp::http {

namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = net::ip::tcp;
constexpr auto nothrow = net::as_tuple(net::use_awaitable);

namespace {

// The connection's stream, the deadline of its reads and writes (conn_deadline.hpp: one timer
// per connection, not one armed and cancelled per read and write, as the stream's own would be),
// and what its requests wait for their answers on (stream_wait.hpp).
template <class S>
struct Wire {
  S& io;
  ConnDeadline& deadline;
  Waiter& waiter;
};

// Every write has a deadline (write_timeout): a client that stops reading cannot pin a
// connection, a coroutine and the response's bytes forever.
template <class S, class Buffers>
net::awaitable<bool> timed_write(ServerState& state, Wire<S>& wire, const Buffers& buffers) {
  wire.deadline.expires_after(state.opts.write_timeout);
  auto [ec, n] = co_await net::async_write(wire.io, buffers, nothrow);
  wire.deadline.expires_never();
  co_return !ec;
}

// Writes a whole response. Returns whether the connection may carry another request: the request
// asked for keep-alive (HTTP/1.1 without "Connection: close") and the write went through. The
// response is the caller's, alive until this returns: taken by value it would be a second copy in
// the caller's coroutine frame and one in this one's (request_begin.hpp on frame sizes).
template <class S>
net::awaitable<bool> write(ServerState& state, Wire<S>& wire, const Request& req, Response&& res) {
  res.keep_alive(req.keep_alive());
  wire.deadline.expires_after(state.opts.write_timeout);
  auto [ec, n] = co_await bhttp::async_write(wire.io, res, nothrow);
  wire.deadline.expires_never();
  co_return !ec && req.keep_alive();
}

// A 200 answer in JSON mode, head and body in one buffer. Written by hand, as the SSE answers are:
// Beast's general serializer cost more instructions than everything else on this path together.
// No session id for a stateless answer (empty `session_id`).
std::string json_answer(const Request& req, std::string_view session_id, std::string_view body,
                        bhttp::status status = bhttp::status::ok) {
  std::string out;
  out.reserve(body.size() + 128 + session_id.size());
  out += req.version() >= 11 ? "HTTP/1.1 " : "HTTP/1.0 ";
  out += std::to_string(static_cast<unsigned>(status));
  out += ' ';
  out += bhttp::obsolete_reason(status);
  out += "\r\nContent-Type: application/json\r\n";
  if (!session_id.empty()) {
    out += "Mcp-Session-Id: ";
    out += session_id;
    out += "\r\n";
  }
  out += "Content-Length: ";
  out += std::to_string(body.size());
  out += "\r\n";
  if (!req.keep_alive()) out += "Connection: close\r\n";
  else if (req.version() < 11) out += "Connection: keep-alive\r\n";
  out += "\r\n";
  out += body;
  return out;
}

// Chunked transfer coding by hand, so that a whole batch (headers, priming event, messages, end)
// leaves in one write: one syscall and usually one TCP segment per answer. HTTP/1.0 has no chunked
// coding: its body is the raw events, ended by closing the connection.
void append_chunk(std::string& out, std::string_view data, bool chunked) {
  if (!chunked) {
    out.append(data);
    return;
  }
  char size[20];
  int n = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  out.append(size, static_cast<std::size_t>(n));
  out.append(data);
  out.append("\r\n");
}

// The response head of an SSE answer, and its priming event (SEP-1699) when `retry_ms` is set: an
// id to resume from and the reconnection delay, before anything else.
std::string sse_head(const Request& req, const std::string& session_id, const Stream& st, std::uint64_t position,
                     std::optional<long> retry_ms) {
  const bool chunked = req.version() >= 11;
  std::string out = chunked ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.0 200 OK\r\n";
  // X-Accel-Buffering: proxies that buffer responses (nginx) would hold the events back.
  out += "Content-Type: text/event-stream\r\nCache-Control: no-cache\r\nX-Accel-Buffering: no\r\n";
  if (!session_id.empty()) out += "Mcp-Session-Id: " + session_id + "\r\n";
  if (!req.keep_alive()) out += "Connection: close\r\n";
  if (chunked) out += "Transfer-Encoding: chunked\r\n";
  out += "\r\n";
  if (retry_ms) {
    append_chunk(out,
                 format_sse(SseEvent{.id = st.id() + "_" + std::to_string(position), .event = {}, .data = "",
                                     .retry_ms = retry_ms}),
                 chunked);
  }
  return out;
}

// Writes `head`, then the events of `st` after `after`, as SSE on a chunked response, until the
// stream is done (answered, cut for polling, finished) or the client goes away. Returns whether the
// connection may carry another request.
// `event_ids`: 2026-07-28 streams carry none (they cannot be resumed).
template <class S>
net::awaitable<bool> pump(ServerState& state, Wire<S>& wire, const Request& req, Stream& st, std::uint64_t after,
                          std::string head, bool take_over = false, bool event_ids = true) {
  const bool chunked = req.version() >= 11;
  auto waker = wire.waiter.callback();  // the connection's waiter, as a request's wait uses
  auto& timer = wire.waiter.timer();
  std::uint64_t gen = 0;
  if (take_over) gen = st.take_over(waker);
  else if (st.attach(waker)) gen = st.generation();
  else co_return false;
  std::string out = std::move(head);
  bool ok = true;
  for (;;) {
    auto batch = st.take_after(after, gen);
    for (const auto& e : batch.events) {
      append_chunk(out, format_sse(SseEvent{.id = event_ids ? std::optional<std::string>(e.id) : std::nullopt, .event = "message", .data = e.data, .retry_ms = {}}),
                   chunked);
      after = e.seq;
    }
    if (batch.done) {
      if (chunked) out.append("0\r\n\r\n");
      // Release the stream before the last write, so a client that resumes the moment it has read
      // the end finds the stream free.
      st.detach(gen);
    }
    if (!out.empty()) {
      bool written = co_await timed_write(state, wire, net::buffer(out));
      out.clear();
      // On failure the events stay stored: the client may resume with Last-Event-ID.
      if (!written) { ok = false; break; }
    }
    if (batch.done) co_return ok && chunked && req.keep_alive();
    timer.expires_after(state.opts.sse_keepalive);
    if (!st.consume_signal()) {
      auto [ec] = co_await timer.async_wait(nothrow);
      // Idle: a comment line keeps proxies from timing out and reveals a vanished client.
      if (!ec) append_chunk(out, ": keepalive\n\n", chunked);
    }
  }
  st.detach(gen);
  co_return false;
}

// The HTTP status of a stateless request's JSON answer (basic/transports/streamable-http.mdx): an
// unknown method is 404, the revision's envelope errors 400; everything else, errors a handler
// gave included, travels in a 200.
bhttp::status stateless_status(std::string_view answer) {
  if (answer.find("\"error\"") == std::string_view::npos) return bhttp::status::ok;
  auto parsed = jsonrpc::decode(answer, jsonrpc::Limits{});
  const auto* e = parsed ? std::get_if<jsonrpc::ErrorResponse>(&*parsed) : nullptr;
  if (!e) return bhttp::status::ok;
  switch (e->error.code) {
    case error_code::kMethodNotFound: return bhttp::status::not_found;
    case error_code::kHeaderMismatch:
    case error_code::kMissingRequiredClientCapability:
    case error_code::kUnsupportedProtocolVersion: return bhttp::status::bad_request;
    default: return bhttp::status::ok;
  }
}

// A stateless (2026-07-28) request: served by its connection's stateless session
// (stateless_conn.hpp), which the connection's requests share one at a time. The answer goes back
// as JSON, unless the server sends something first (progress, a log line) and the client accepts
// SSE: then the stream carries those and the answer, without event ids (2026-07-28 streams are not
// resumed).
template <class S>
net::awaitable<bool> handle_stateless(ServerState& state, const McpEndpoint& ep, Wire<S>& wire, const Request& req,
                                      CheckedPost& post, StatelessConn& conn) {
  const bool listen = std::get<jsonrpc::Request>(post.message).method == mcp::method::kSubscriptionsListen;
  Begun begun = begin_stateless(ep, req, post, conn);
  if (begun.answer) co_return co_await write(state, wire, req, std::move(*begun.answer));
  SessionTransport* transport = begun.transport.get();
  const std::shared_ptr<Stream>& st = begun.st;
  // However the request ends, its stream goes with it: nothing resumes it, and the session outlives
  // it. If the client left mid-request, returning false ends the connection and its session, which
  // cancels what still runs.
  struct Forget {
    SessionTransport& t;
    std::shared_ptr<Stream> s;
    ~Forget() { t.forget_stream(s); }
  } forget{*transport, st};
  // A listen lasts until the client leaves: shutdown does not wait for it, but ends it (stop()).
  struct Active {
    std::atomic<int>& n;
    ~Active() { --n; }
  } active{listen ? state.open_listens : state.active_requests};
  ++active.n;
  transport->deliver(std::move(post.message), req.body().size());

  // Closing the connection cancels a stateless request (the revision's only cancellation over
  // HTTP): returning false ends the connection and with it its session, which cancels what still runs.
  const std::function<bool()> gone = [&wire] { return peer_left(wire.io); };
  auto first = co_await wait_until(*st, wire.waiter, [](const Stream::Batch& b) { return b.finished || !b.events.empty(); }, gone);
  if (!first) co_return false;
  const bool only_the_answer = first->finished && first->events.size() == 1;
  if (post.sse_ok && !first->events.empty() && (!only_the_answer || !post.json_ok)) {
    co_return co_await pump(state, wire, req, *st, 0, sse_head(req, "", *st, 0, std::nullopt), false, false);
  }
  // No co_await inside a conditional expression: GCC 12 destroys such a temporary twice.
  if (!first->finished) first = co_await wait_until(*st, wire.waiter, [](const Stream::Batch& x) { return x.finished; }, gone);
  if (!first || !first->answered || first->events.empty()) co_return false;  // left, or closed first
  const std::string& answer = first->events.back().data;
  std::string out = json_answer(req, "", answer, stateless_status(answer));
  co_return co_await timed_write(state, wire, net::buffer(out)) && req.keep_alive();
}

template <class S>
net::awaitable<bool> handle_post(ServerState& state, const McpEndpoint& ep, Wire<S>& wire, const Request& req,
                                 StatelessConn& conn) {
  auto checked = check_post(ep.policy, req);
  auto* post = std::get_if<CheckedPost>(&checked);
  if (post && post->stateless) co_return co_await handle_stateless(state, ep, wire, req, *post, conn);
  Begun begun = post ? begin_session_post(state, ep, req, *post) : Begun{refusal_response(req, std::get<Refusal>(checked))};
  if (begun.answer) co_return co_await write(state, wire, req, std::move(*begun.answer));
  struct Done { std::atomic<int>& n; ~Done() { --n; } } done{state.active_requests};
  SessionTransport& transport = *begun.transport;
  Stream& st = *begun.st;

  if (!post->sse_ok || (post->json_ok && state.opts.prefer_json_response)) {
    // JSON mode: only the answer is sent; anything else sent meanwhile stays in the stream's log.
    auto waited = co_await wait_until(st, wire.waiter, [](const Stream::Batch& x) { return x.finished; });
    auto& b = *waited;  // without `gone`, it waits until finished
    // Only the final answer is a body; a stream ended by a close or a cancellation has none.
    if (!b.answered || b.events.empty()) co_return false;  // the session closed first
    std::string out = json_answer(req, transport.session_id(), b.events.back().data);
    co_return co_await timed_write(state, wire, net::buffer(out)) && req.keep_alive();
  }

  std::optional<long> retry;
  if (post->protocol_version >= "2025-11-25") retry = static_cast<long>(state.opts.sse_retry.count());
  co_return co_await pump(state, wire, req, st, 0, sse_head(req, transport.session_id(), st, 0, retry));
}

template <class S>
net::awaitable<bool> handle_get(ServerState& state, const McpEndpoint& ep, Wire<S>& wire, const Request& req) {
  if (!accepts(req, "text/event-stream")) {
    co_return co_await write(state, wire, req, json_error(req, bhttp::status::not_acceptable, -32000, "Accept must include text/event-stream"));
  }
  auto named = named_session(state, ep, req);
  if (auto* refused = std::get_if<Response>(&named)) co_return co_await write(state, wire, req, std::move(*refused));
  auto transport = std::move(std::get<std::shared_ptr<SessionTransport>>(named));
  transport->touch();

  std::shared_ptr<Stream> st;
  std::uint64_t after = 0;
  auto last = req["last-event-id"];
  if (!last.empty()) {
    auto found = transport->find_event(std::string(last));
    if (!found) {
      co_return co_await write(state, wire, req, json_error(req, bhttp::status::not_found, -32000,
                                                  "Unknown Last-Event-ID: " + peer_text(last)));
    }
    st = found->first;
    after = found->second;
  } else {
    auto s = transport->standalone_stream();
    if (!s) co_return co_await write(state, wire, req, json_error(req, bhttp::status::not_found, -32001, s.error().message));
    st = *s;
    after = st->last_seq();
  }
  // Refuse a second writer for one stream (two standalone GETs): 409, as the specification says. A
  // resumption (Last-Event-ID) takes the stream over instead: its old connection is most likely dead.
  if (last.empty() && st->attached()) {
    co_return co_await write(state, wire, req, json_error(req, bhttp::status::conflict, -32000, "This stream already has a reader"));
  }
  auto version = req["mcp-protocol-version"];
  std::optional<long> retry;
  if (version.empty() || version >= "2025-11-25") retry = static_cast<long>(state.opts.sse_retry.count());
  co_return co_await pump(state, wire, req, *st, after,
                          sse_head(req, transport->session_id(), *st, after, last.empty() ? retry : std::nullopt),
                          !last.empty());
  
}

template <class S>
net::awaitable<bool> handle(ServerState& state, Wire<S>& wire, const Request& req, StatelessConn& conn) {
  Routed routed = route_of(state, beast::get_lowest_layer(wire.io).socket(), req);
  if (routed.answer) co_return co_await write(state, wire, req, std::move(*routed.answer));
  switch (routed.route) {
    case Route::mcp_post: co_return co_await handle_post(state, *routed.endpoint, wire, req, conn);
    case Route::mcp_get: co_return co_await handle_get(state, *routed.endpoint, wire, req);
    case Route::extra_route:  // answered by route_of
    case Route::mcp_delete: co_return false;
  }
  co_return false;
}

// Serves the requests of one connection. The connection is registered for the connection cap:
// `control` says whether it is waiting for a request (and since when) so the accept loop can shed
// the longest-waiting one, and its `shed` closes the socket from the connection's io_context.
template <class S>
net::awaitable<void> serve(ServerState& state, S stream, std::shared_ptr<ConnectionControl> control) {
  auto& lowest = beast::get_lowest_layer(stream);
  auto exec = co_await net::this_coro::executor;
  // Lives as long as this coroutine: a shed posted after it ended finds it gone and does nothing.
  auto alive = std::make_shared<bool>(true);
  {
    std::lock_guard lock(state.conn_mu);
    control->shed = [exec, weak = std::weak_ptr<bool>(alive), &lowest, &state, c = std::weak_ptr(control)] {
      net::post(exec, [weak, &lowest, &state, c] {
        auto ctl = c.lock();
        if (!weak.lock() || !ctl) return;
        {
          // It may have started on a request since it was chosen: a busy connection is never shed,
          // and counts for the cap again.
          std::lock_guard phase_lock(state.conn_mu);
          if (ctl->phase != ConnectionControl::Phase::reading) {
            if (ctl->chosen) {
              ctl->chosen = false;
              --state.shedding;
              state.connections.push_back(ctl);
            }
            return;
          }
        }
        boost::system::error_code ignored;
        lowest.socket().close(ignored);
      });
    };
  }
  // Every deadline from here is the connection's own: none left on the stream (the TLS handshake's),
  // so that Beast arms no timer per read or write. An expired one closes the socket, as Beast's
  // would, and the pending read or write ends with an error.
  lowest.expires_never();
  ConnDeadline deadline(exec, [&lowest] {
    boost::system::error_code ignored;
    lowest.socket().close(ignored);
  });
  Waiter waiter(exec);
  Wire<S> wire{stream, deadline, waiter};
  beast::flat_buffer buffer;
  StatelessConn stateless(state);  // closed when the connection ends, however it ends
  for (;;) {
    state.set_phase(*control, ConnectionControl::Phase::reading);
    // Between requests: idle_timeout for the first byte; then request_timeout for the whole
    // request, so a slow sender (slowloris) cannot hold a connection for long.
    if (buffer.size() == 0) {
      deadline.expires_after(state.opts.idle_timeout);
      auto [ec, n] = co_await stream.async_read_some(buffer.prepare(4096), nothrow);
      if (ec) break;
      buffer.commit(n);
    }
    deadline.expires_after(state.opts.request_timeout);
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(state.opts.max_body_bytes);
    parser.header_limit(static_cast<std::uint32_t>(state.opts.max_header_bytes));
    auto [ec, n] = co_await bhttp::async_read(stream, buffer, parser, nothrow);
    // A request that did not arrive within request_timeout: the expired deadline has closed the
    // socket already, so the slow sender just loses its connection.
    if (ec == bhttp::error::body_limit || ec == bhttp::error::header_limit) {
      const bool body = ec == bhttp::error::body_limit;
      bhttp::status status = body ? bhttp::status::payload_too_large : bhttp::status::request_header_fields_too_large;
      std::string why = body ? "request body exceeds " + std::to_string(state.opts.max_body_bytes) + " bytes (max_body_bytes)"
                             : "request headers exceed " + std::to_string(state.opts.max_header_bytes) +
                                   " bytes (max_header_bytes)";
      Response res{status, 11};
      res.set(bhttp::field::content_type, "application/json");
      res.body() = jsonrpc::encode_error(nullptr, Error::invalid_request(std::move(why)));
      res.keep_alive(false);
      res.prepare_payload();
      // A short deadline: the peer that caused this may not read either.
      deadline.expires_after(std::chrono::seconds(1));
      co_await bhttp::async_write(stream, res, nothrow);
      break;
    }
    if (ec) break;
    deadline.expires_never();  // handlers and SSE streams last as long as they need; writes have deadlines
    state.set_phase(*control, ConnectionControl::Phase::busy);
    auto req = parser.release();
    bool keep = co_await handle(state, wire, req, stateless);
    if (!keep) break;
  }
  state.forget_connection(control);
  beast::error_code ignored;
  if constexpr (std::is_same_v<S, beast::tcp_stream>) {
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  } else {
    deadline.expires_after(std::chrono::seconds(5));
    co_await stream.async_shutdown(nothrow);
  }
}

}  // namespace

void spawn_connection(ServerState& state, tcp::socket socket, std::shared_ptr<ConnectionControl> control) {
  // The socket's io_context is run by one thread: the connection's handlers never run concurrently,
  // without a strand.
  auto exec = socket.get_executor();
  if (!state.tls) {
    net::co_spawn(exec, serve(state, beast::tcp_stream(std::move(socket)), std::move(control)), net::detached);
    return;
  }
  net::co_spawn(
      exec,
      [&state, socket = std::move(socket), control = std::move(control)]() mutable -> net::awaitable<void> {
        beast::ssl_stream<beast::tcp_stream> stream(beast::tcp_stream(std::move(socket)), *state.tls);
        beast::get_lowest_layer(stream).expires_after(state.opts.request_timeout);
        auto [ec] = co_await stream.async_handshake(net::ssl::stream_base::server, nothrow);
        if (ec) {
          MCP_LOG_DEBUG("http: TLS handshake failed: {}", ec.message());
          state.forget_connection(control);
          co_return;
        }
        co_await serve(state, std::move(stream), std::move(control));
      },
      net::detached);
}

}  // namespace mcp::http
