// One HTTP connection of the Streamable HTTP server: parse requests with limits, route POST / GET /
// DELETE, and pump SSE streams. Coroutines on a per-connection strand.
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cstdio>
#include <random>

#include "http/server_impl.hpp"
#include "http/sse.hpp"
#include "log/log.hpp"
#include "mcp/jsonrpc/codec.hpp"

namespace mcp::http {

namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = net::ip::tcp;
using Request = bhttp::request<bhttp::string_body>;
using Response = bhttp::response<bhttp::string_body>;
constexpr auto nothrow = net::as_tuple(net::use_awaitable);

namespace {

bool supported_version(std::string_view v) {
  return v == "2025-11-25" || v == "2025-06-18" || v == "2025-03-26";
}

Response json_error(const Request& req, bhttp::status status, int code, std::string message, const jsonrpc::Id& id = nullptr) {
  Response res{status, req.version()};
  res.set(bhttp::field::content_type, "application/json");
  res.body() = jsonrpc::encode_error(id, Error{code, std::move(message), {}});
  res.prepare_payload();
  return res;
}

bool accepts(const Request& req, std::string_view type) {
  auto a = req[bhttp::field::accept];
  return a.find(type) != std::string_view::npos || a.find("*/*") != std::string_view::npos;
}

template <class S>
net::awaitable<bool> write(S& stream, Response res) {
  res.keep_alive(res.keep_alive());
  auto [ec, n] = co_await bhttp::async_write(stream, res, nothrow);
  co_return !ec;
}

// Chunked transfer coding by hand, so that a whole batch (headers, priming event, messages, end)
// leaves in one write: one syscall and usually one TCP segment per answer.
void append_chunk(std::string& out, std::string_view data) {
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
  std::string out = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n";
  out += "Mcp-Session-Id: " + session_id + "\r\n";
  if (!req.keep_alive()) out += "Connection: close\r\n";
  out += "Transfer-Encoding: chunked\r\n\r\n";
  if (retry_ms) {
    append_chunk(out, format_sse(SseEvent{.id = st.id() + "_" + std::to_string(position), .event = {}, .data = "",
                                          .retry_ms = retry_ms}));
  }
  return out;
}

// Writes `head`, then the events of `st` after `after`, as SSE on a chunked response, until the
// stream is done (answered, cut for polling, finished) or the client goes away.
template <class S>
net::awaitable<bool> pump(ServerState& state, S& stream, Stream& st, std::uint64_t after, std::string head,
                          bool take_over = false) {
  auto exec = co_await net::this_coro::executor;
  auto timer = std::make_shared<net::steady_timer>(exec);
  auto waker = [exec, timer] { net::post(exec, [timer] { timer->cancel(); }); };
  std::uint64_t gen = 0;
  if (take_over) gen = st.take_over(waker);
  else if (st.attach(waker)) gen = st.generation();
  else co_return false;
  std::string out = std::move(head);
  bool ok = true;
  for (;;) {
    auto batch = st.take_after(after, gen);
    for (const auto& e : batch.events) {
      append_chunk(out, format_sse(SseEvent{.id = e.id, .event = "message", .data = e.data, .retry_ms = {}}));
      after = e.seq;
    }
    if (batch.done) {
      out.append("0\r\n\r\n");
      // Release the stream before the last write, so a client that resumes the moment it has read
      // the end finds the stream free.
      st.detach(gen);
    }
    if (!out.empty()) {
      auto [ec, n] = co_await net::async_write(stream, net::buffer(out), nothrow);
      out.clear();
      // On failure the events stay stored: the client may resume with Last-Event-ID.
      if (ec) { ok = false; break; }
    }
    if (batch.done) co_return ok;
    timer->expires_after(state.opts.sse_keepalive);
    if (!st.consume_signal()) {
      auto [ec] = co_await timer->async_wait(nothrow);
      // Idle: a comment line keeps proxies from timing out and reveals a vanished client.
      if (!ec) append_chunk(out, ": keepalive\n\n");
    }
  }
  st.detach(gen);
  co_return ok;
}

template <class S>
net::awaitable<bool> handle_post(ServerState& state, S& stream, const Request& req) {
  if (req[bhttp::field::content_type].find("application/json") == std::string_view::npos) {
    co_return co_await write(stream, json_error(req, bhttp::status::unsupported_media_type, -32000,
                                                "Content-Type must be application/json"));
  }
  bool sse_ok = accepts(req, "text/event-stream"), json_ok = accepts(req, "application/json");
  if (!sse_ok && !json_ok) {
    co_return co_await write(stream, json_error(req, bhttp::status::not_acceptable, -32000,
                                                "Accept must include application/json or text/event-stream"));
  }
  auto decoded = jsonrpc::decode(req.body(), jsonrpc::Limits{.max_message_bytes = state.opts.max_body_bytes});
  if (!decoded) {
    co_return co_await write(stream, json_error(req, bhttp::status::bad_request, decoded.error().error.code,
                                                decoded.error().error.message, decoded.error().id));
  }
  auto version = req["mcp-protocol-version"];
  if (!version.empty() && !supported_version(version)) {
    co_return co_await write(stream, json_error(req, bhttp::status::bad_request, -32000,
                                                "Unsupported MCP-Protocol-Version: " + peer_text(version)));
  }
  auto* request = std::get_if<jsonrpc::Request>(&*decoded);
  std::optional<HttpSessionEntry> entry;
  if (request && request->method == "initialize") {
    auto created = state.create_session();
    if (!created) co_return co_await write(stream, json_error(req, bhttp::status::service_unavailable, -32000, created.error().message));
    entry = *created;
    if (request->params) {
      if (auto v = request->params->if_contains("protocolVersion"); v && v->is_string()) version = v->get_string();
    }
  } else {
    auto sid = req["mcp-session-id"];
    if (sid.empty()) {
      co_return co_await write(stream, json_error(req, bhttp::status::bad_request, -32000,
                                                  "Bad Request: Mcp-Session-Id header is required"));
    }
    entry = state.find_session(std::string(sid));
    if (!entry) co_return co_await write(stream, json_error(req, bhttp::status::not_found, -32001, "Session not found"));
  }
  // Keep only the transport: holding the ServerSession here could make this I/O thread drop its
  // last reference, and its destructor joins the session's workers.
  auto transport_ref = entry->transport;
  entry.reset();
  auto& transport = *transport_ref;

  if (!request) {  // a notification or a response: accepted, nothing to answer
    transport.deliver(std::string(req.body()));
    Response res{bhttp::status::accepted, req.version()};
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    co_return co_await write(stream, std::move(res));
  }

  auto opened = transport.open_request_stream(request->id);
  if (!opened) {
    auto status = opened.error().code == error_code::kInvalidRequest ? bhttp::status::bad_request
                                                                    : bhttp::status::too_many_requests;
    co_return co_await write(stream, json_error(req, status, opened.error().code, opened.error().message, request->id));
  }
  auto st = *opened;
  ++state.active_requests;
  struct Done { std::atomic<int>& n; ~Done() { --n; } } done{state.active_requests};
  transport.deliver(std::string(req.body()));

  if (!sse_ok || (json_ok && state.opts.prefer_json_response)) {
    // JSON mode: only the answer is sent; anything else sent meanwhile stays in the stream's log.
    auto exec = co_await net::this_coro::executor;
    auto timer = std::make_shared<net::steady_timer>(exec);
    st->attach([exec, timer] { net::post(exec, [timer] { timer->cancel(); }); });
    std::optional<std::string> answer;
    for (;;) {
      auto b = st->take_after(0);
      if (b.finished) {
        // Only the final answer is a body; a stream ended by a close or a cancellation has none.
        if (b.answered && !b.events.empty()) answer = b.events.back().data;
        break;
      }
      timer->expires_after(std::chrono::seconds(3600));
      if (!st->consume_signal()) co_await timer->async_wait(nothrow);
    }
    st->detach();
    if (!answer) co_return false;  // the session closed first
    Response res{bhttp::status::ok, req.version()};
    res.set(bhttp::field::content_type, "application/json");
    res.set("Mcp-Session-Id", transport.session_id());
    res.keep_alive(req.keep_alive());
    res.body() = std::move(*answer);
    res.prepare_payload();
    co_return co_await write(stream, std::move(res));
  }

  std::optional<long> retry;
  if (version >= "2025-11-25") retry = static_cast<long>(state.opts.sse_retry.count());
  bool ok = co_await pump(state, stream, *st, 0, sse_head(req, transport.session_id(), *st, 0, retry));
  co_return ok && req.keep_alive();
}

template <class S>
net::awaitable<bool> handle_get(ServerState& state, S& stream, const Request& req) {
  if (!accepts(req, "text/event-stream")) {
    co_return co_await write(stream, json_error(req, bhttp::status::not_acceptable, -32000, "Accept must include text/event-stream"));
  }
  auto sid = req["mcp-session-id"];
  if (sid.empty()) {
    co_return co_await write(stream, json_error(req, bhttp::status::bad_request, -32000, "Bad Request: Mcp-Session-Id header is required"));
  }
  auto found_entry = state.find_session(std::string(sid));
  if (!found_entry) co_return co_await write(stream, json_error(req, bhttp::status::not_found, -32001, "Session not found"));
  // Only the transport, for the reason given in handle_post.
  auto transport = found_entry->transport;
  found_entry.reset();
  transport->touch();

  std::shared_ptr<Stream> st;
  std::uint64_t after = 0;
  auto last = req["last-event-id"];
  if (!last.empty()) {
    auto found = transport->find_event(std::string(last));
    if (!found) {
      co_return co_await write(stream, json_error(req, bhttp::status::not_found, -32000,
                                                  "Unknown Last-Event-ID: " + peer_text(last)));
    }
    st = found->first;
    after = found->second;
  } else {
    auto s = transport->standalone_stream();
    if (!s) co_return co_await write(stream, json_error(req, bhttp::status::not_found, -32001, s.error().message));
    st = *s;
    after = st->last_seq();
  }
  // Refuse a second writer for one stream (two standalone GETs): 409, as the specification says. A
  // resumption (Last-Event-ID) takes the stream over instead: its old connection is most likely dead.
  if (last.empty() && st->attached()) {
    co_return co_await write(stream, json_error(req, bhttp::status::conflict, -32000, "This stream already has a reader"));
  }
  auto version = req["mcp-protocol-version"];
  std::optional<long> retry;
  if (version.empty() || version >= "2025-11-25") retry = static_cast<long>(state.opts.sse_retry.count());
  bool ok = co_await pump(state, stream, *st, after,
                          sse_head(req, transport->session_id(), *st, after, last.empty() ? retry : std::nullopt),
                          !last.empty());
  co_return ok && req.keep_alive();
}

template <class S>
net::awaitable<bool> handle(ServerState& state, S& stream, const Request& req) {
  std::string_view target = req.target();
  std::string path(target.substr(0, target.find('?')));
  if (state.stopping) {
    co_return co_await write(stream, json_error(req, bhttp::status::service_unavailable, -32000, "server is shutting down"));
  }
  if (auto it = state.opts.routes.find(path); it != state.opts.routes.end()) {
    PlainRequest pr{std::string(req.method_string()), std::string(target), {}};
    for (const auto& f : req) {
      std::string name(f.name_string());
      for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      pr.headers[name] = std::string(f.value());
    }
    auto out = it->second(pr);
    Response res{static_cast<bhttp::status>(out.status), req.version()};
    for (const auto& [k, v] : out.headers) res.set(k, v);
    res.body() = std::move(out.body);
    res.keep_alive(req.keep_alive());
    res.prepare_payload();
    co_return co_await write(stream, std::move(res));
  }
  if (path != state.opts.path) {
    co_return co_await write(stream, json_error(req, bhttp::status::not_found, -32000, "Not found: " + peer_text(path)));
  }
  if (auto bad = check_host_and_origin(state.host_policy, req[bhttp::field::host], req[bhttp::field::origin])) {
    co_return co_await write(stream, json_error(req, bhttp::status::forbidden, -32000, *bad));
  }
  if (auto v = req["mcp-protocol-version"]; !v.empty() && !supported_version(v)) {
    co_return co_await write(stream, json_error(req, bhttp::status::bad_request, -32000,
                                                "Unsupported MCP-Protocol-Version: " + peer_text(v)));
  }
  switch (req.method()) {
    case bhttp::verb::post: co_return co_await handle_post(state, stream, req);
    case bhttp::verb::get: co_return co_await handle_get(state, stream, req);
    case bhttp::verb::delete_: {
      auto sid = req["mcp-session-id"];
      if (sid.empty()) {
        co_return co_await write(stream, json_error(req, bhttp::status::bad_request, -32000, "Bad Request: Mcp-Session-Id header is required"));
      }
      if (!state.end_session(std::string(sid))) {
        co_return co_await write(stream, json_error(req, bhttp::status::not_found, -32001, "Session not found"));
      }
      Response res{bhttp::status::ok, req.version()};
      res.keep_alive(req.keep_alive());
      res.prepare_payload();
      co_return co_await write(stream, std::move(res));
    }
    default: {
      auto res = json_error(req, bhttp::status::method_not_allowed, -32000, "Method not allowed");
      res.set(bhttp::field::allow, "GET, POST, DELETE");
      co_return co_await write(stream, std::move(res));
    }
  }
}

template <class S>
net::awaitable<void> serve(ServerState& state, S stream) {
  beast::flat_buffer buffer;
  for (;;) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(state.opts.max_body_bytes);
    parser.header_limit(static_cast<std::uint32_t>(state.opts.max_header_bytes));
    beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(120));
    auto [ec, n] = co_await bhttp::async_read(stream, buffer, parser, nothrow);
    if (ec == bhttp::error::body_limit || ec == bhttp::error::header_limit) {
      bool body = ec == bhttp::error::body_limit;
      Response res{body ? bhttp::status::payload_too_large : bhttp::status::request_header_fields_too_large, 11};
      res.set(bhttp::field::content_type, "application/json");
      res.body() = jsonrpc::encode_error(nullptr, Error::invalid_request(
          body ? "request body exceeds " + std::to_string(state.opts.max_body_bytes) + " bytes (max_body_bytes)"
               : "request headers exceed " + std::to_string(state.opts.max_header_bytes) + " bytes (max_header_bytes)"));
      res.keep_alive(false);
      res.prepare_payload();
      co_await bhttp::async_write(stream, res, nothrow);
      break;
    }
    if (ec) break;
    beast::get_lowest_layer(stream).expires_never();  // SSE responses last as long as they need
    auto req = parser.release();
    bool keep = co_await handle(state, stream, req);
    if (!keep) break;
  }
  beast::error_code ignored;
  if constexpr (std::is_same_v<S, beast::tcp_stream>) {
    stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  } else {
    beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(5));
    co_await stream.async_shutdown(nothrow);
  }
}

}  // namespace

void spawn_connection(ServerState& state, tcp::socket socket) {
  auto strand = net::make_strand(state.ioc);
  if (!state.tls) {
    net::co_spawn(strand, serve(state, beast::tcp_stream(std::move(socket))), net::detached);
    return;
  }
  net::co_spawn(
      strand,
      [&state, socket = std::move(socket)]() mutable -> net::awaitable<void> {
        beast::ssl_stream<beast::tcp_stream> stream(beast::tcp_stream(std::move(socket)), *state.tls);
        beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(30));
        auto [ec] = co_await stream.async_handshake(net::ssl::stream_base::server, nothrow);
        if (ec) {
          MCP_LOG_DEBUG("http: TLS handshake failed: {}", ec.message());
          co_return;
        }
        co_await serve(state, std::move(stream));
      },
      net::detached);
}

}  // namespace mcp::http
