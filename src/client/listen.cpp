// The client's subscriptions/listen (MCP 2026-07-28, basic/patterns/subscriptions.mdx): one open
// request carries the change notifications the callbacks want and the resources subscribed to.
// Changing what it should carry replaces it: the new one is sent and acknowledged first, then the
// old one is cancelled (over HTTP its connection is closed, which is how the revision cancels),
// so a change made in between reaches the client (on the old one). What the old one sends once
// it ended is dropped (notifications name their listen), and a resources/updated for a URI no
// longer subscribed to is dropped too, so nothing arrives for it after unsubscribe() returned.
//
// Listens go out in rounds, one at a time, and nothing waits on a thread for one: a change made
// while a round's listen is out waits for the next round, which carries every change made
// meanwhile (client_impl.hpp, listen_round). A round ends at its acknowledgement, at its refusal,
// or after probe_timeout without either (taken as in force).
#include <algorithm>
#include <atomic>
#include <functional>
#include <future>

#include "log/log.hpp"
#include "mcp/protocol/methods.hpp"
#include "client/async_call.hpp"
#include "client/client_impl.hpp"
#include "mcp/session/thread_pool.hpp"
#include "session/inside.hpp"

namespace mcp {

namespace {
// A listen lasts until it is replaced or the client closes: no deadline of its own.
constexpr std::chrono::hours kListenTimeout{24 * 365};
// What one client may subscribe to: each URI travels in every listen request.
constexpr std::size_t kMaxSubscriptions = 256;

// Starts what answers through `done` and waits for that answer: the blocking forms.
Result<void> waited(const std::function<void(std::function<void(Result<void>)> done)>& start) {
  auto answered = std::make_shared<std::promise<Result<void>>>();
  auto answer = answered->get_future();
  start([answered](Result<void> r) { answered->set_value(std::move(r)); });
  return answer.get();
}
}  // namespace

void Client::Impl::relisten_async(ListenWaiter done) {
  if (!stateless || !session) return done({});
  {
    std::unique_lock lock(mu);
    if (listen_stopped) {
      lock.unlock();
      return done(fail(Error::connection_closed("the client closed")));
    }
    if (listen_next_waiters.size() >= kMaxQueuedListenChanges) {
      lock.unlock();
      return done(fail(Error::internal(std::to_string(kMaxQueuedListenChanges) +
                                       " subscription changes already wait for the server's subscriptions/listen")));
    }
    listen_next_waiters.push_back(std::move(done));
    if (listen_out) return;  // carried by the next round, sent once the one out is in force
    listen_out = true;
  }
  send_listen();
}

Result<void> Client::Impl::relisten() {
  if (!stateless || !session) return {};
  // Bounded: a round ends by probe_timeout at the latest, and a round out first ends before it.
  return waited([this](ListenWaiter done) { relisten_async(std::move(done)); });
}

void Client::Impl::send_listen() {
  json::object filter;
  // Someone to tell: the callbacks, or a stage (which sees every notification).
  if (opts.on_list_changed || opts.on_notification || !stages.empty()) {
    if (supports("tools.listChanged")) filter["toolsListChanged"] = true;
    if (supports("prompts.listChanged")) filter["promptsListChanged"] = true;
    if (supports("resources.listChanged")) filter["resourcesListChanged"] = true;
  }
  CancellationToken next;
  std::uint64_t mine;
  {
    std::lock_guard lock(mu);
    if (!subscriptions.empty() && supports("resources.subscribe")) {
      json::array uris;
      for (const auto& u : subscriptions) uris.emplace_back(json::string(u));
      filter["resourceSubscriptions"] = std::move(uris);
    }
    // The replaced listen ends once its successor is in force (make before break): finish_round.
    listen_previous = listen_cancel;
    listen_previous_id = std::exchange(current_listen_id, -1);  // a late word of it ends nothing now
    listen_cancel = next;
    listening = !filter.empty();
    listen_round_waiters = std::exchange(listen_next_waiters, {});
    mine = listen_round;
  }
  if (filter.empty()) return finish_round(mine, {});
  // Not acknowledged within probe_timeout: taken as in force, as a server that never says so would
  // leave its client waiting forever. Ended on the pool (the timer's thread runs only short
  // callbacks); counted, so that the client's teardown waits for it (finish_round cancels it).
  {
    auto held = std::make_shared<AsyncCall<Impl>>(this);
    auto timer = detail::run_at(std::chrono::steady_clock::now() + opts.probe_timeout, [this, mine, held] {
      auto job = [this, mine, held] {
        detail::Inside mark(this);
        finish_round(mine, {});
      };
      if (!ThreadPool::shared()->post(job)) job();
    });
    bool kept;
    {
      std::lock_guard lock(mu);
      kept = listen_out && listen_round == mine;  // not if the client closed meanwhile
      if (kept) listen_timer = timer;
    }
    if (!kept) detail::cancel_timer(timer);
  }
  json::object params{{"notifications", std::move(filter)}};
  RequestOptions ro;
  ro.meta = envelope_members();
  ro.timeout = kListenTimeout;
  ro.cancel = next;
  auto id = std::make_shared<std::atomic<std::int64_t>>(-1);
  ro.on_id = [this, id](std::int64_t sent) {
    id->store(sent);
    std::lock_guard lock(mu);
    current_listen_id = sent;
  };
  session->request_async(method::kSubscriptionsListen, params, std::move(ro), [this, next, mine, id](Result<json::value> r) {
    if (!r && !next.cancelled())
      MCP_LOG_WARN("client: subscriptions/listen ended: {}", peer_text(r.error().message, kMaxQuotedReasonBytes));
    else if (r && !next.cancelled())  // the server's graceful end (its shutdown): no more changes come on it
      MCP_LOG_WARN("client: the server ended subscriptions/listen; change notifications stop until the next listen");
    {
      std::lock_guard lock(mu);
      if (id->load() >= 0) listen_ended(id->load());
    }
    // Its round, if still out: refused, or ended before it was acknowledged (nothing will
    // acknowledge it now). A later end, once in force or replaced, ends nothing.
    finish_round(mine, r ? Result<void>{} : Result<void>(fail(std::move(r.error()))));
  });
}

void Client::Impl::finish_round(std::uint64_t round, Result<void> result) {
  std::vector<ListenWaiter> answered;
  CancellationToken previous;
  detail::TimerHandle timer;
  bool again;
  {
    std::lock_guard lock(mu);
    if (!listen_out || round != listen_round) return;  // ended already
    ++listen_round;  // the next round's number: a late word of this one ends nothing
    answered.swap(listen_round_waiters);
    previous = listen_previous;
    if (listen_previous_id >= 0) listen_ended(std::exchange(listen_previous_id, -1));
    timer = std::exchange(listen_timer, {});
    again = !listen_next_waiters.empty() && !listen_stopped;
    listen_out = again;
  }
  detail::cancel_timer(timer);
  previous.cancel("replaced by a new subscriptions/listen");
  for (auto& done : answered) done(result);
  if (again) send_listen();
}

void Client::Impl::fail_listen_waiters() {
  std::vector<ListenWaiter> waiting;
  detail::TimerHandle timer;
  {
    std::lock_guard lock(mu);
    waiting = std::exchange(listen_round_waiters, {});
    for (auto& w : listen_next_waiters) waiting.push_back(std::move(w));
    listen_next_waiters.clear();
    listen_out = false;
    ++listen_round;  // whatever still ends the round out ends nothing
    timer = std::exchange(listen_timer, {});
  }
  detail::cancel_timer(timer);
  for (auto& done : waiting) done(fail(Error::connection_closed("the client closed")));
}

void Client::Impl::listen_acknowledged(std::optional<std::int64_t> subscription) {
  std::uint64_t round;
  {
    std::lock_guard lock(mu);
    // The acknowledgement of the listen sent last (rounds go out one at a time); a late one of a
    // replaced listen changes nothing. A server that does not name it is taken at its word.
    if (subscription && *subscription != current_listen_id) return;
    round = listen_round;
  }
  finish_round(round, {});
}

void Client::Impl::listen_ended(std::int64_t id) {
  if (std::find(ended_listens.begin(), ended_listens.end(), id) != ended_listens.end()) return;
  ended_listens.push_back(id);
  if (ended_listens.size() > kEndedListens) ended_listens.pop_front();
}

bool Client::Impl::from_ended_listen(std::optional<std::int64_t> subscription) const {
  if (!subscription) return false;  // not a listen's (or a server that does not name it)
  std::lock_guard lock(mu);
  return std::find(ended_listens.begin(), ended_listens.end(), *subscription) != ended_listens.end();
}

bool Client::Impl::subscribed(const std::string& uri) const {
  std::lock_guard lock(mu);
  return subscriptions.contains(uri);
}

void Client::Impl::stop_listening() {
  CancellationToken token;
  {
    std::lock_guard lock(mu);
    token = listen_cancel;
    listening = false;
    listen_stopped = true;  // no round goes out after this
  }
  token.cancel("the client closed");
  fail_listen_waiters();
}

void Client::Impl::change_subscription_async(const std::string& uri, bool on, ListenWaiter done) {
  if (!supports("resources.subscribe")) {
    return done(fail(error_code::kMethodNotFound, "the server did not declare the 'resources.subscribe' capability"));
  }
  {
    std::unique_lock lock(mu);
    if (on && !subscriptions.contains(uri) && subscriptions.size() >= kMaxSubscriptions) {
      lock.unlock();
      return done(fail(Error::invalid_params("this client already holds " + std::to_string(kMaxSubscriptions) +
                                             " subscriptions, the most one listen carries")));
    }
    const bool changed = on ? subscriptions.insert(uri).second : subscriptions.erase(uri) > 0;
    if (!changed) {
      lock.unlock();
      return done({});
    }
  }
  relisten_async([this, uri, on, done = std::move(done)](Result<void> in_force) mutable {
    if (in_force || !on) return done(std::move(in_force));
    // Refused (the resource cannot be watched, say): the subscription is not made, and the listen
    // goes back to what it carried before; then the refusal is answered.
    {
      std::lock_guard lock(mu);
      subscriptions.erase(uri);
    }
    relisten_async([refused = std::move(in_force), done = std::move(done)](Result<void> back) mutable {
      if (!back)
        MCP_LOG_WARN("client: subscriptions/listen not restored: {}", peer_text(back.error().message, kMaxQuotedReasonBytes));
      done(std::move(refused));
    });
  });
}

Result<void> Client::Impl::change_subscription(const std::string& uri, bool on) {
  return waited([&](ListenWaiter done) { change_subscription_async(uri, on, std::move(done)); });
}

}  // namespace mcp
