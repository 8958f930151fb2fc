// Private: the session engine's state, shared by its inbound side (session.cpp) and its outbound
// side (session_outbound.cpp).
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <unordered_map>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"
#include "mcp/session/session.hpp"
#include "session/spin_advisor.hpp"
#include "session/timer.hpp"
#include "mcp/session/thread_pool.hpp"

namespace mcp {

using Clock = std::chrono::steady_clock;

namespace detail {

// One outbound request waiting for its answer.
struct Pending {
  std::mutex mu;
  std::condition_variable cv;
  std::optional<Result<json::value>> result;
  std::atomic<bool> done{false};  // mirrors `result` for the lock-free spin in request()
  std::function<void(const ProgressInfo&)> on_progress;
  // Held while on_progress runs; request() sets `finished` under it before returning, so the
  // callback (which may capture the caller's stack) never runs after the caller has moved on.
  std::mutex progress_mu;
  bool finished = false;
  Clock::time_point deadline;
  Clock::time_point hard_deadline = Clock::time_point::max();
  std::chrono::milliseconds timeout{};
  bool reset_on_progress = true;
  // request(): when it was sent, so that its answer's arrival teaches the session's SpinAdvisor.
  // Set before the request goes out, read by the thread that receives the answer. Unset (and
  // nothing learnt) for request_async(), whose caller does not wait.
  Clock::time_point sent_at{};

  // request_async(): called with the answer instead of storing it in `result`.
  std::function<void(Result<json::value>)> on_done;
  // request_async(): its timeout, cancelled when the answer comes (guarded by mu).
  detail::TimerHandle timer;

  void complete(Result<json::value> r) {
    std::function<void(Result<json::value>)> callback;
    detail::TimerHandle armed;
    {
      std::lock_guard lock(mu);
      if (done.load(std::memory_order_relaxed)) return;
      if (on_done) callback = std::move(on_done);
      else result = std::move(r);
      done.store(true, std::memory_order_release);
      armed = std::exchange(timer, {});
    }
    detail::cancel_timer(armed);
    cv.notify_all();
    if (callback) {
      {
        std::lock_guard progress_lock(progress_mu);
        finished = true;
      }
      callback(std::move(r));
    }
  }
};

// The session whose job this thread is running, if any (see Session::Impl::wait_jobs).
extern thread_local const void* tls_current_session;

}  // namespace detail

struct Session::Impl : std::enable_shared_from_this<Session::Impl> {
  Impl(std::shared_ptr<Transport> t, Handler& h, Options o)
      : transport(std::move(t)),
        values(transport->carries_values()),
        handler(h),
        opts(std::move(o)),
        pool(opts.pool ? opts.pool : ThreadPool::shared()) {
    if (opts.max_workers == 0) opts.max_workers = 1;
  }


  // The answer slot of one inbound request (see Responder): the first answer is sent, and one that
  // never comes is replaced by an error when the last Responder copy goes.
  struct InboundSlot final : Responder::Slot {
    InboundSlot(std::shared_ptr<Impl> s, jsonrpc::Id i, std::string k, CancellationToken t)
        : session(std::move(s)), request_id(std::move(i)), key(std::move(k)), token(std::move(t)) {}
    ~InboundSlot() override {
      if (!answered.exchange(true)) {
        session->finish(request_id, key, token,
                        fail(Error::internal("the request's handler finished without answering it")));
      }
    }
    bool answer(Result<json::value> result) override {
      if (answered.exchange(true)) return false;
      session->finish(request_id, key, token, std::move(result));
      return true;
    }
    bool abandoned() const override { return token.cancelled(); }
    const jsonrpc::Id& id() const override { return request_id; }

    std::shared_ptr<Impl> session;
    jsonrpc::Id request_id;
    std::string key;
    CancellationToken token;
    std::atomic<bool> answered{false};
  };

  std::shared_ptr<Transport> transport;
  // transport->carries_values(): a request's _meta members go into a copy of its params, not text.
  const bool values;
  Handler& handler;
  Options opts;

  std::mutex mu;
  std::int64_t next_id = 0;
  std::unordered_map<std::int64_t, std::shared_ptr<detail::Pending>> outbound;
  detail::SpinAdvisor spin;  // whether request()'s callers spin for their answers
  std::unordered_map<std::string, CancellationToken> inbound;  // by id_key; running or queued
  std::unordered_map<std::string, std::size_t> inbound_sizes;   // their frames' sizes
  std::size_t inbound_bytes = 0;                               // the sum: bounded by max_pending_inbound_bytes
  std::size_t answering = 0;                                   // answers being written (for the input-end drain)

  void forget_inbound(const std::string& key) {  // requires mu
    inbound.erase(key);
    if (auto it = inbound_sizes.find(key); it != inbound_sizes.end()) {
      inbound_bytes -= it->second;
      inbound_sizes.erase(it);
    }
  }
  bool started = false;
  bool closed = false;
  bool close_delivered = false;  // on_close has run: no more callbacks from the transport
  std::optional<Error> close_reason;

  // The error for a call that finds the connection closed, or whose send failed: how the connection
  // ended (e.g. "server exited with status 3; last stderr lines: ...") is far more useful than
  // "broken pipe", so wait briefly for the transport to report it.
  Error closed_error(std::optional<Error> send_error = std::nullopt) {
    // A transport that refused a message while staying open (too many requests in flight, no
    // thread to send it on) said why: no close is coming to wait for.
    if (send_error && send_error->code != error_code::kConnectionClosed) return *send_error;
    std::unique_lock lock(mu);
    closed_cv.wait_for(lock, std::chrono::milliseconds(1000), [this] { return close_delivered; });
    if (close_reason) return Error::connection_closed("connection closed: " + close_reason->message);
    if (send_error) return *send_error;
    return Error::connection_closed("connection closed");
  }
  std::condition_variable closed_cv;
  std::condition_variable drained_cv;  // an inbound request finished

  // Blocking handlers run on the shared pool, at most opts.max_workers of this session's at once;
  // the rest wait in `waiting`, run in order by the same pool threads as they free up.
  std::shared_ptr<ThreadPool> pool;
  std::deque<std::function<void()>> waiting;  // guarded by mu
  std::size_t running = 0;                    // this session's jobs on pool threads; guarded by mu
  std::condition_variable jobs_cv;            // running dropped

  // Runs `job` on the pool, or queues it behind this session's running ones. Returns false if the
  // pool can run nothing at all (no thread could be started): the caller must fail the request.
  bool submit(std::function<void()> job) {
    {
      std::lock_guard lock(mu);
      if (running >= opts.max_workers) {
        waiting.push_back(std::move(job));
        return true;
      }
      ++running;
    }
    // The job keeps this Impl and the handler alive (Handler::keep_alive): a handler that ends its
    // own session (by changing the registry while the session closes, say) must not destroy what
    // its thread is still running in. The last reference may then go on this pool thread, after
    // `running` has dropped, so a destructor that waits for this session's jobs does not wait on
    // itself.
    auto posted = pool->post([self = shared_from_this(), keep = handler.keep_alive(), job = std::move(job)]() mutable {
      detail::tls_current_session = self.get();
      for (;;) {
        job();
        job = nullptr;
        std::lock_guard lock(self->mu);
        if (self->waiting.empty()) {
          --self->running;
          break;
        }
        job = std::move(self->waiting.front());
        self->waiting.pop_front();
      }
      detail::tls_current_session = nullptr;
      self->jobs_cv.notify_all();
    });
    if (!posted) {
      std::lock_guard lock(mu);
      --running;
    }
    return posted;
  }

  // Waits until none of this session's jobs runs or waits, except the caller's own.
  void wait_jobs() {
    std::unique_lock lock(mu);
    const std::size_t self = detail::tls_current_session == this ? 1 : 0;
    jobs_cv.wait(lock, [&] { return running <= self && (self == 1 || waiting.empty()); });
  }

  // --- sending ---------------------------------------------------------------------------------
  // As a value to a transport that carries values; any other writes its text (send_value's default).
  Result<void> put(jsonrpc::Message m, const SendInfo& info) { return transport->send_value(std::move(m), info); }
  void send(jsonrpc::Message m, SendInfo::Kind kind, const jsonrpc::Id& related) {
    auto r = put(std::move(m), SendInfo{kind, related});
    if (!r) MCP_LOG_DEBUG("{}: send failed: {}", opts.name, r.error().describe());
  }
  void send_error(const jsonrpc::Id& id, const Error& e) {
    send(jsonrpc::ErrorResponse{id, e}, SendInfo::Kind::response, id);
  }

  // --- inbound ---------------------------------------------------------------------------------
  // Ends the connection for a reason of ours (a peer breaking a limit we cannot answer): pending
  // requests and the handler see `e` as the close reason.
  void fail_connection(Error e) {
    {
      std::lock_guard lock(mu);
      if (!local_failure) local_failure = std::move(e);
    }
    transport->close();
  }
  std::optional<Error> local_failure;  // guarded by mu

  void on_frame(std::string frame) {
    if (frame.size() > opts.limits.max_message_bytes && opts.close_on_oversize) {
      // The peer sent more than we accept. A server answers that and goes on; a client cannot tell
      // which of its requests the message answered, so waiting would only end in a timeout.
      MCP_LOG_ERROR("{}: the peer sent a message over {} bytes (max_message_bytes); closing", opts.name,
                    opts.limits.max_message_bytes);
      fail_connection(Error::connection_closed("the peer sent a message over the limit of " +
                                               std::to_string(opts.limits.max_message_bytes) +
                                               " bytes (max_message_bytes)"));
      return;
    }
    auto decoded = jsonrpc::decode(frame, opts.limits);
    if (!decoded) {
      const auto& f = decoded.error();
      MCP_LOG_WARN("{}: rejected inbound message: {}", opts.name, f.error.describe());
      if (f.answer) send_error(f.id, f.error);
      return;
    }
    on_decoded(std::move(*decoded), frame.size());
  }

  // A decoded message, from on_frame or from a transport that decoded it already.
  void on_decoded(jsonrpc::Message message, std::size_t size) {
    std::visit([this, size](auto&& m) {
      if constexpr (std::is_same_v<std::decay_t<decltype(m)>, jsonrpc::Request>) on_message(std::move(m), size);
      else on_message(std::move(m));
    }, std::move(message));
  }

  void on_message(jsonrpc::Request&& req, std::size_t frame_bytes) {
    // Both roles answer ping at once, even when every worker is busy; 2026-07-28 removed it, so a
    // stateless ping goes on to the handler, which refuses it.
    if (req.method == mcp::method::kPing && !(req.params && is_stateless_request(*req.params))) {
      send(jsonrpc::Response{req.id, json::object{}}, SendInfo::Kind::response, req.id);
      return;
    }
    auto key = jsonrpc::id_key(req.id);
    CancellationToken token;
    {
      std::lock_guard lock(mu);
      if (closed) return;
      if (inbound.contains(key)) {
        send_error(req.id, Error::invalid_request("request id " + peer_text(key) + " is already in use by a request in progress"));
        return;
      }
      if (inbound.size() >= opts.max_pending_inbound) {
        send_error(req.id, Error::internal("server busy: " + std::to_string(opts.max_pending_inbound) +
                                           " requests already in progress (max_pending_inbound)"));
        return;
      }
      // Bytes too, not only a count: a thousand 4 MiB requests must not all be held at once.
      if (inbound_bytes + frame_bytes > opts.max_pending_inbound_bytes && !inbound.empty()) {
        send_error(req.id, Error::internal("server busy: requests in progress hold " + std::to_string(inbound_bytes) +
                                           " bytes (max_pending_inbound_bytes " +
                                           std::to_string(opts.max_pending_inbound_bytes) + ")"));
        return;
      }
      inbound.emplace(key, token);
      inbound_sizes.emplace(key, frame_bytes);
      inbound_bytes += frame_bytes;
    }
    const bool run_inline = handler.runs_inline(req.method, req.params ? &*req.params : nullptr);
    const jsonrpc::Id id_copy = req.id;
    auto job = [this, req = std::move(req), key, token, run_inline]() mutable {
      InboundRequest in{req.id, std::move(req.method), req.params ? std::move(*req.params) : json::object{}, {}, token,
                        run_inline};
      if (auto m = in.params.if_contains("_meta"); m && m->is_object()) {
        if (auto pt = m->get_object().if_contains("progressToken")) in.progress_token = *pt;
      }
      Responder reply(std::make_shared<InboundSlot>(shared_from_this(), in.id, key, token));
      if (token.cancelled()) {
        reply(fail(Error::cancelled(token.reason())));
        return;
      }
      try {
        handler.start_request(in, std::move(reply));
      } catch (const std::exception& e) {
        // Pool jobs must not throw; the peer gets an answer (unless the handler gave one already).
        MCP_LOG_ERROR("{}: the handler of {} threw: {}", opts.name, peer_text(in.method), e.what());
      }
    };
    // Requests the handler knows cannot block (list methods, tools declared non-blocking) run right
    // here on the reader thread: no hand-off to a worker and back, which dominates short calls.
    if (run_inline) {
      job();
      return;
    }
    if (!submit(std::move(job))) {
      // No thread to run it on: answer now, so the peer is not left waiting (and an HTTP stream
      // not left open) for an answer that would never come.
      {
        std::lock_guard lock(mu);
        forget_inbound(key);
      }
      send_error(id_copy, Error::internal("server busy: no worker thread could be started for this request"));
      drained_cv.notify_all();
    }
  }

  // Sends one inbound request's answer (InboundSlot) and frees its place.
  void finish(const jsonrpc::Id& id, const std::string& key, const CancellationToken& token, Result<json::value> result) {
    bool peer_cancelled;
    {
      // The request stops counting against max_pending_inbound *before* its answer goes out: a
      // client that waits for each answer may send its next request the moment this one
      // arrives, and must never find the slot still taken. An input-end drain waits for
      // `answering` as well, so it still waits for the answer to be written.
      std::lock_guard lock(mu);
      peer_cancelled = token.cancelled() || closed;
      forget_inbound(key);
      ++answering;
    }
    // The specification asks receivers of a cancellation not to answer the cancelled request.
    if (!peer_cancelled) {
      if (result) send(jsonrpc::Response{id, std::move(*result)}, SendInfo::Kind::response, id);
      else send_error(id, result.error());
    } else {
      transport->request_dropped(id);
    }
    {
      std::lock_guard lock(mu);
      --answering;
    }
    drained_cv.notify_all();
  }

  // --- outbound (session_outbound.cpp) ------------------------------------------------------
  // Registers and sends a request for `p`; its id, or why it could not be sent.
  Result<std::int64_t> send_request(std::string_view method, const json::object& params, const RequestOptions& options,
                                    const std::shared_ptr<detail::Pending>& p);
  // Gives up on an outbound request still unanswered (timeout, local cancellation): fails it with
  // `e` and tells the peer to stop working on it. A no-op once it was answered.
  void abandon(std::int64_t id, const std::shared_ptr<detail::Pending>& p, const Error& e, const jsonrpc::Id& related);
  // request_async's timeout: fires at the deadline, which progress may have moved on.
  void arm_timeout(std::int64_t id, const std::shared_ptr<detail::Pending>& p, std::string method, jsonrpc::Id related);
  // notifications/progress for one of our requests: moves its deadline, calls its callback.
  void route_progress(const json::object& params);
  // An answer (or a local failure) for one of our requests.
  void complete(const jsonrpc::Id& id, Result<json::value> r);

  void on_message(jsonrpc::Notification&& n) {
    if (n.params) {
      if (n.method == mcp::method::kCancelled) {
        if (auto id = n.params->if_contains("requestId")) {
          std::string reason = "cancelled by peer";
          if (auto r = n.params->if_contains("reason"); r && r->is_string()) reason = std::string(r->get_string());
          CancellationToken token;
          bool found = false;
          {
            std::lock_guard lock(mu);
            if (auto it = inbound.find(jsonrpc::id_key(*id)); it != inbound.end()) {
              token = it->second;
              found = true;
            }
          }
          if (found) token.cancel(reason);
        }
      } else if (n.method == mcp::method::kProgress) {
        route_progress(*n.params);
      }
    }
    handler.handle_notification(n);
  }

  void on_message(jsonrpc::Response&& r) { complete(r.id, std::move(r.result)); }
  void on_message(jsonrpc::ErrorResponse&& e) { complete(e.id, fail(std::move(e.error))); }


  // The peer ended its input in order: the requests it sent before leaving are still answered
  // (bounded by Options::drain_timeout). Our own pending requests fail in on_closed, with the
  // transport's reason (a child's exit status, say), which is the more useful message.
  void on_input_end() {
    std::unique_lock lock(mu);
    drained_cv.wait_for(lock, opts.drain_timeout, [this] { return inbound.empty() && answering == 0; });
  }

  void on_closed(std::optional<Error> reason) {
    std::unordered_map<std::int64_t, std::shared_ptr<detail::Pending>> pending;
    std::unordered_map<std::string, CancellationToken> in_progress;
    {
      std::lock_guard lock(mu);
      if (local_failure) reason = local_failure;
      closed = true;
      pending.swap(outbound);
      in_progress = inbound;
    }
    Error err = Error::connection_closed(reason ? "connection closed: " + reason->message : "connection closed");
    for (auto& [id, p] : pending) p->complete(fail(err));
    for (auto& [id, t] : in_progress) t.cancel("connection closed");
    handler.handle_closed(reason);
    // Notify under the lock: wait_closed() may return, and the session be destroyed, as soon as
    // the lock is free, so nothing here may touch the session after releasing it.
    std::lock_guard lock(mu);
    close_delivered = true;
    close_reason = reason;
    closed_cv.notify_all();
  }
};

}  // namespace mcp
