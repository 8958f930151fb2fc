// A request's POST and its answer, and the GET streams, of the HTTP client transport
// (client_impl.hpp).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include "http/client_impl.hpp"
#include "http/frame_peek.hpp"
#include "http/sse.hpp"
#include "log/log.hpp"
#include "mcp/jsonrpc/codec.hpp"
#include "mcp/protocol/methods.hpp"

namespace mcp::http::client_impl {

Result<void> Client::post_sync(std::string frame, Outbound out) {
  const bool opens = out.method == mcp::method::kInitialized && opts_.standalone_stream;
  auto opened = opens ? std::make_shared<std::promise<void>>() : nullptr;
  auto done = std::make_shared<std::promise<Result<void>>>();
  const bool wait = !loop_->here();
  {
    std::lock_guard lock(mu_);
    if (closed_) return fail(Error::connection_closed("transport closed"));
    spawn(post_notice(shared_from_this(), std::move(frame), std::move(out), opened),
          [done, wait](std::exception_ptr e, Result<void> r) {
            if (e) r = fail(Error::internal("a POST to the server failed unexpectedly"));
            if (!wait && !r) MCP_LOG_WARN("http client: {}", peer_text(r.error().message, kMaxQuotedReasonBytes));
            done->set_value(std::move(r));
          });
  }
  if (!wait) return {};
  auto r = done->get_future().get();
  if (r && opens) (void)opened->get_future().wait_for(opts_.connect_timeout);
  return r;
}

Task<Result<void>> Client::post_notice(std::shared_ptr<Client> self, std::string frame, Outbound out,
                                       std::shared_ptr<std::promise<void>> opened) {
  auto req = self->make_request(bhttp::verb::post, &out);
  req.set(bhttp::field::content_type, "application/json");
  req.set(bhttp::field::accept, "application/json, text/event-stream");
  req.body() = std::move(frame);
  auto x = co_await self->exchange(std::move(req));
  if (!x) co_return fail(x.error());
  auto status = (*x)->parser.get().result_int();
  if (status / 100 != 2) co_return fail(co_await self->http_error(**x, "notification or response refused"));
  x->reset();
  if (opened) self->open_get_stream(std::move(opened));  // after notifications/initialized
  co_return Result<void>{};
}

Task<bool> Client::deliver_error_body(Exchange& x, Counted& counted, std::string& body) {
  body = co_await x.conn->read_body_upto(x.parser, kMaxErrorBody);
  if (!std::string_view(x.parser.get()[bhttp::field::content_type]).starts_with("application/json")) co_return false;
  const FramePeek peek = peek_frame(body);
  if (!peek.has_error || !peek.id || jsonrpc::id_key(*peek.id) != counted.key) co_return false;
  deliver(std::move(body), &counted);
  co_return true;
}

Task<> Client::request_task(std::shared_ptr<Client> self, std::string frame, Outbound out,
                            std::vector<std::pair<std::string, std::string>> headers) {
  Counted counted{self.get(), jsonrpc::id_key(out.id)};
  co_await self->post_request(std::move(frame), out, counted, headers);
}

Task<> Client::post_request(std::string frame, const Outbound& out, Counted& counted,
                            const std::vector<std::pair<std::string, std::string>>& headers) {
  const jsonrpc::Id& id = out.id;
  const std::string& key = counted.key;
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
  auto x = co_await exchange(std::move(req), out.stateless_version ? &key : nullptr);
  if (!x) co_return fail_request(id, x.error(), counted);
  auto& ex = **x;
  auto status = ex.parser.get().result_int();
  if (status / 100 != 2) {
    // A 404 of a session request means the session is gone; of a stateless one, an unknown method.
    const bool may_be_rpc = status / 100 == 4 && (status != 404 || out.stateless_version);
    std::string body;
    if (may_be_rpc && co_await deliver_error_body(ex, counted, body)) co_return;
    if (!may_be_rpc) body = co_await ex.conn->read_body_upto(ex.parser, 300);
    co_return fail_request(id, http_error(ex, "request refused", std::move(body)), counted);
  }
  std::string ctype(ex.parser.get()[bhttp::field::content_type]);
  if (ctype.starts_with("application/json")) {
    std::string body;
    bool too_big = false;
    auto read = co_await ex.conn->read_body(ex.parser, [&](std::string_view d) {
      if (body.size() + d.size() > opts_.max_message_bytes) { too_big = true; return false; }
      body.append(d);
      return true;
    });
    if (too_big) co_return fail_request(id, Error::invalid_request("response from " + ep_.url + " exceeds max_message_bytes"), counted);
    // Said as what it is (a deadline, a reset, an answer cut short), not as the unreadable
    // fragment it left, which no request's answer could be.
    if (!read) co_return fail_request(id, read.error(), counted);
    if (!ex.parser.is_done()) {
      co_return fail_request(id, Error::connection_closed("the JSON response from " + ep_.url + " was cut short after " +
                                                          std::to_string(body.size()) + " bytes of its body"), counted);
    }
    x->reset();  // the connection goes back to the pool before the answer is handed on
    auto rid = deliver(std::move(body), &counted);
    if (rid != key) fail_request(id, Error::invalid_request("the JSON response from " + ep_.url + " did not answer request " + key), counted);
    co_return;
  }
  if (!ctype.starts_with("text/event-stream")) {
    co_return fail_request(id, Error::connection_closed("unexpected Content-Type '" + ctype + "' from " + ep_.url +
                                                        ": not an MCP endpoint"), counted);
  }
  StreamState st{std::nullopt, opts_.default_retry, false};
  if (!co_await read_sse(ex, st, key, &counted)) {
    co_return fail_request(id, Error::invalid_request("an SSE event from " + ep_.url + " exceeds max_message_bytes (" +
                                                      std::to_string(opts_.max_message_bytes) + ")"), counted);
  }
  x->reset();  // done with this connection before waiting to resume
  // The stream ended without the answer: resume it (SSE polling) unless we are closing.
  int failures = 0;
  while (!st.answered && !closed()) {
    if (!st.last_event_id) {
      co_return fail_request(id, Error::connection_closed("the SSE stream from " + ep_.url +
                                                          " ended without an answer and without an event id to resume from"), counted);
    }
    if (!co_await pause(st.retry)) {
      // Closed: the session fails what is in flight. Else the HTTP server running this exchange
      // stopped (its loops lent to us, loop_host.hpp): the request fails here, saying so.
      if (!closed()) fail_request(id, host_stopping(), counted);
      co_return;
    }
    auto got = co_await get_stream(st, key, &counted);
    if (got) failures = 0;
    else if (++failures >= opts_.max_reconnect_attempts) {
      co_return fail_request(id, Error::connection_closed("could not resume the answer stream from " + ep_.url + " after " +
                                                          std::to_string(failures) + " attempts: " + got.error().message), counted);
    }
  }
}

Task<Result<void>> Client::get_stream(StreamState& st, const std::optional<std::string>& awaited, Counted* counted,
                                      std::function<void()> on_open) {
  auto req = make_request(bhttp::verb::get);
  req.set(bhttp::field::accept, "text/event-stream");
  if (st.last_event_id) req.set("Last-Event-ID", *st.last_event_id);
  auto x = co_await exchange(std::move(req));
  if (on_open) on_open();
  if (!x) co_return fail(x.error());
  auto& ex = **x;
  auto status = ex.parser.get().result_int();
  if (status / 100 != 2) {
    auto e = co_await http_error(ex, "GET stream refused");
    e.code = static_cast<int>(status);  // lets the caller tell 405 (no stream offered) apart
    co_return fail(e);
  }
  if (!co_await read_sse(ex, st, awaited, counted)) {
    co_return fail(Error::invalid_request("an SSE event from " + ep_.url + " exceeds max_message_bytes"));
  }
  co_return Result<void>{};
}

void Client::open_get_stream(std::shared_ptr<std::promise<void>> opened) {
  std::lock_guard lock(mu_);
  if (closed_) return;
  spawn(get_loop(shared_from_this(), std::move(opened)), net::detached);
}

Task<> Client::get_loop(std::shared_ptr<Client> self, std::shared_ptr<std::promise<void>> opened) {
  struct Opened {  // however the loop ends, the caller waiting for the stream is let go
    std::shared_ptr<std::promise<void>> p;
    void set() {
      if (p) std::exchange(p, nullptr)->set_value();
    }
    ~Opened() { set(); }
  } first{std::move(opened)};
  StreamState st{std::nullopt, self->opts_.default_retry, false};
  int failures = 0;
  while (!self->closed()) {
    auto r = co_await self->get_stream(st, std::nullopt, nullptr, [&] { first.set(); });
    if (!r) {
      if (r.error().code == 405) co_return;  // the server offers no standalone stream
      if (r.error().code == 404 || ++failures >= self->opts_.max_reconnect_attempts) {
        MCP_LOG_WARN("http client: standalone GET stream given up: {}", peer_text(r.error().message, kMaxQuotedReasonBytes));
        co_return;
      }
    } else {
      failures = 0;
    }
    if (!co_await self->pause(st.retry)) co_return;
  }
}

Task<bool> Client::read_sse(Exchange& x, StreamState& st, const std::optional<std::string>& awaited, Counted* counted) {
  SseParser parser(opts_.max_message_bytes);
  (void)co_await x.conn->read_body(x.parser, [&](std::string_view d) {
    parser.feed(d, [&](SseEvent e) {
      if (e.id) st.last_event_id = e.id;
      if (e.retry_ms) st.retry = std::chrono::milliseconds(*e.retry_ms);
      if (e.event == "__meta" || (!e.event.empty() && e.event != "message")) return;
      if (e.data.find_first_not_of(" \t\r\n") == std::string::npos) return;  // priming event
      auto rid = deliver(std::move(e.data), counted);
      if (awaited && rid == awaited) st.answered = true;
    });
    if (parser.too_large()) return false;
    // Once a request's answer is in, the server should end its stream: read on to the end for a
    // moment, so the connection can serve the next request (kept alive), else leave it.
    if (st.answered && awaited) x.conn->set_idle_timeout(kDrainAfterAnswer);
    return true;
  });
  co_return !parser.too_large();
}

}  // namespace mcp::http::client_impl
