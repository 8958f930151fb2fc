#include "session/session_impl.hpp"
#include "session/timer.hpp"

namespace mcp {

using detail::Pending;

namespace {

std::optional<ProgressInfo> read_progress(const json::object& p) {
  const json::value* v = p.if_contains("progress");
  if (!v || !v->is_number()) return std::nullopt;
  ProgressInfo info;
  info.progress = v->to_number<double>();
  if (auto t = p.if_contains("total"); t && t->is_number()) info.total = t->to_number<double>();
  if (auto m = p.if_contains("message"); m && m->is_string()) info.message = std::string(m->get_string());
  return info;
}

// `blocking`: for request(), whose caller waits (its answer's time is noted: Pending::sent_at).
std::shared_ptr<Pending> make_pending(RequestOptions& options, std::chrono::milliseconds default_timeout, bool blocking) {
  auto p = std::make_shared<Pending>();
  p->timeout = options.timeout.value_or(default_timeout);
  p->reset_on_progress = options.reset_timeout_on_progress && options.on_progress;
  auto now = Clock::now();
  if (blocking) p->sent_at = now;
  p->deadline = now + p->timeout;
  if (options.max_total_timeout) p->hard_deadline = now + *options.max_total_timeout;
  p->on_progress = std::move(options.on_progress);
  return p;
}

// What a request that got no answer in time fails with.
Error timed_out(std::string_view method, const Pending& p) {
  return Error::timeout("request " + std::string(method) + " timed out after " + std::to_string(p.timeout.count()) +
                        " ms");
}

}  // namespace

// Registers and sends a request for `p`; its id, or why it could not be sent.
Result<std::int64_t> Session::Impl::send_request(std::string_view method, const json::object& params, const RequestOptions& options,
                                  const std::shared_ptr<Pending>& p) {
  std::int64_t id;
  {
    std::unique_lock lock(mu);
    if (closed) {
      lock.unlock();
      return fail(closed_error());
    }
    id = next_id++;
    outbound.emplace(id, p);
  }
  if (options.on_id) options.on_id(id);
  // The progress token and the options' _meta members are written into the text, not into params
  // (into a copy of them for a transport that carries values).
  const auto token = p->on_progress ? std::optional<std::int64_t>(id) : std::nullopt;
  SendInfo info{SendInfo::Kind::request, options.related_request_id, options.headers};
  auto sent = values ? transport->send_value(jsonrpc::Request{id, std::string(method),
                                                              jsonrpc::request_params(params, options.meta.get(), token)},
                                             info)
                     : transport->send(jsonrpc::encode_request(id, method, params, options.meta.get(), token), info);
  if (!sent) {
    {
      std::lock_guard lock(mu);
      outbound.erase(id);
    }
    return fail(closed_error(sent.error()));
  }
  return id;
}

// Gives up on an outbound request still unanswered (timeout, local cancellation): fails it with
// `e` and tells the peer to stop working on it. A no-op once it was answered.
void Session::Impl::abandon(std::int64_t id, const std::shared_ptr<Pending>& p, const Error& e, const jsonrpc::Id& related) {
  {
    std::lock_guard lock(mu);
    if (outbound.erase(id) == 0) return;
  }
  p->complete(fail(e));
  json::object cp{{"requestId", id}, {"reason", e.message}};
  send(jsonrpc::Notification{std::string(mcp::method::kCancelled), std::move(cp)}, SendInfo::Kind::notification, related);
}

// request_async's timeout: fires at the deadline, which progress may have moved on.
void Session::Impl::arm_timeout(std::int64_t id, const std::shared_ptr<Pending>& p, std::string method, jsonrpc::Id related) {
  Clock::time_point when;
  {
    std::lock_guard lock(p->mu);
    when = p->deadline;
  }
  auto armed = detail::run_at(when, [weak_self = weak_from_this(), weak_p = std::weak_ptr<Pending>(p), id,
                        method = std::move(method), related = std::move(related)]() mutable {
    auto self = weak_self.lock();
    auto pending = weak_p.lock();
    if (!self || !pending || pending->done.load(std::memory_order_acquire)) return;
    bool expired;
    {
      std::lock_guard lock(pending->mu);
      expired = Clock::now() >= pending->deadline;
    }
    if (!expired) {
      self->arm_timeout(id, pending, std::move(method), std::move(related));
      return;
    }
    self->abandon(id, pending, timed_out(method, *pending), related);
  });
  bool answered;
  {
    std::lock_guard lock(p->mu);
    answered = p->done.load(std::memory_order_relaxed);
    if (!answered) p->timer = armed;
  }
  if (answered) detail::cancel_timer(armed);  // the answer came first: nothing to time out
}

void Session::Impl::route_progress(const json::object& params) {
  const json::value* tok = params.if_contains("progressToken");
  if (!tok || !tok->is_int64()) return;  // we only ever issue integer tokens
  std::shared_ptr<Pending> p;
  {
    std::lock_guard lock(mu);
    auto it = outbound.find(tok->get_int64());
    if (it == outbound.end()) return;
    p = it->second;
  }
  auto info = read_progress(params);
  if (!info) return;
  {
    std::lock_guard lock(p->mu);
    if (p->reset_on_progress) p->deadline = std::min(Clock::now() + p->timeout, p->hard_deadline);
  }
  p->cv.notify_all();
  std::lock_guard progress_lock(p->progress_mu);
  if (p->on_progress && !p->finished) p->on_progress(*info);
}

void Session::Impl::complete(const jsonrpc::Id& id, Result<json::value> r) {
  if (!id.is_int64()) {
    MCP_LOG_WARN("{}: response to an id we never issued: {}", opts.name, peer_text(jsonrpc::id_key(id)));
    return;
  }
  std::shared_ptr<Pending> p;
  {
    std::lock_guard lock(mu);
    auto it = outbound.find(id.get_int64());
    if (it == outbound.end()) {
      MCP_LOG_WARN("{}: response to an unknown or finished request: {}", opts.name, id.get_int64());
      return;
    }
    p = std::move(it->second);
    outbound.erase(it);
  }
  if (p->sent_at != Clock::time_point{}) spin.answered(Clock::now() - p->sent_at);
  p->complete(std::move(r));
}

void Session::request_async(std::string_view method, const json::object& params, RequestOptions options,
                            std::function<void(Result<json::value>)> done) {
  auto p = make_pending(options, impl_->opts.request_timeout, false);
  p->on_done = std::move(done);
  auto id = impl_->send_request(method, params, options, p);
  if (!id) {
    p->complete(fail(id.error()));
    return;
  }
  // The answer may have come already; then abandon() and the timer find nothing to do.
  options.cancel.on_cancel_with_reason([weak_impl = std::weak_ptr<Impl>(impl_), weak_p = std::weak_ptr<Pending>(p),
                                        id = *id, related = options.related_request_id](const std::string& reason) {
    auto impl = weak_impl.lock();
    auto pending = weak_p.lock();
    if (impl && pending) impl->abandon(id, pending, Error::cancelled(reason), related);
  });
  impl_->arm_timeout(*id, p, std::string(method), options.related_request_id);
}

bool Session::spins_for_answers() const { return impl_->spin.quick(); }

Result<json::value> Session::request(std::string_view method, const json::object& params, RequestOptions options) {
  auto p = make_pending(options, impl_->opts.request_timeout, true);
  auto sent_id = impl_->send_request(method, params, options, p);
  if (!sent_id) return fail(sent_id.error());
  const std::int64_t id = *sent_id;
  // Weak: a long-lived token must not keep every request it ever guarded alive.
  std::weak_ptr<Pending> weak_pending = p;
  options.cancel.on_cancel_with_reason([weak_pending](const std::string& reason) {
    if (auto pending = weak_pending.lock()) pending->complete(fail(Error::cancelled(reason)));
  });

  // Most answers on a local transport arrive within tens of microseconds: spinning that long
  // first saves the futex sleep and wake-up that would otherwise dominate a round trip. With
  // other callers waiting too, only while this session's answers do come that quickly
  // (spin_advisor.hpp): otherwise the spins take the CPU the answers need.
  const detail::SpinAdvisor::Waiting waiting(impl_->spin);
  if (waiting.spin()) {
    for (auto spin_until = Clock::now() + detail::SpinAdvisor::kWindow;
         !p->done.load(std::memory_order_acquire) && Clock::now() < spin_until;) {
    }
  }
  std::unique_lock lock(p->mu);
  while (!p->result) {
    if (Clock::now() >= p->deadline) break;
    p->cv.wait_until(lock, p->deadline);
  }
  lock.unlock();

  // No answer came (a timeout), or the caller cancelled: abandon() forgets the request and tells
  // the peer to stop working on it; a no-op when the answer is in.
  lock.lock();
  Error why = p->result && !*p->result ? p->result->error() : timed_out(method, *p);
  lock.unlock();
  impl_->abandon(id, p, why, options.related_request_id);
  lock.lock();
  // Set by now, or about to be by the reader thread that took the answer out of `outbound`.
  p->cv.wait(lock, [&] { return p->result.has_value(); });
  Result<json::value> out = std::move(*p->result);
  lock.unlock();
  {
    std::lock_guard progress_lock(p->progress_mu);
    p->finished = true;
  }
  return out;
}

}  // namespace mcp
