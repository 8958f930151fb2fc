// What an upstream that never answers its subscriptions can hold at the gateway (Proxy::watch,
// ProxyOptions::max_subscribes_waiting): no thread, however many subscribes and unsubscribes wait on it; a bounded
// number of waiting subscribes, refused past it at once and with a reason; and each URI's
// subscribe and unsubscribe one at a time, in order.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <vector>

#include "../examples/tmp_dir.hpp"
#include "gateway/proxy.hpp"
#include "gateway/state.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/session/thread_pool.hpp"
#include "mcp/transport/memory.hpp"
#include "watch_now.hpp"

using namespace mcp;
using namespace mcp::gateway;
using namespace std::chrono_literals;

namespace {

// An upstream (a bare session engine speaking 2025-11-25) that answers its handshake and lists,
// and keeps every resources/subscribe and unsubscribe unanswered until the test answers it. It
// holds no thread meanwhile: everything starts on its reader thread and the answers wait as
// Responders.
class SilentUpstream : public Session::Handler {
 public:
  struct Held {
    std::string method, uri;
    Responder reply;
  };
  SilentUpstream() {
    auto [a, b] = make_memory_transport_pair();
    client_end_ = b;
    session_ = Session::create(a, *this, {});
    EXPECT_TRUE(session_->start());
  }
  ~SilentUpstream() override { session_->shutdown(); }
  std::shared_ptr<Transport> client_end() const { return client_end_; }

  bool runs_inline(const std::string&, const json::object*) const override { return true; }
  void handle_notification(const jsonrpc::Notification&) override {}
  void start_request(InboundRequest& in, Responder reply) override {
    if (in.method == method::kInitialize) {
      return void(reply(json::object{{"protocolVersion", "2025-11-25"},
                                     {"capabilities", {{"resources", {{"subscribe", true}}}}},
                                     {"serverInfo", {{"name", "silent"}, {"version", "1"}}}}));
    }
    if (in.method == method::kResourcesList) return void(reply(json::object{{"resources", json::array{}}}));
    if (in.method == method::kResourcesTemplatesList) {
      return void(reply(json::object{{"resourceTemplates", json::array{}}}));
    }
    if (in.method != method::kResourcesSubscribe && in.method != method::kResourcesUnsubscribe) {
      return void(reply(fail(Error::method_not_found(in.method))));
    }
    const json::value* uri = in.params.if_contains("uri");
    std::lock_guard lock(mu_);
    held_.push_back(Held{in.method, uri && uri->is_string() ? std::string(uri->get_string()) : "", std::move(reply)});
    cv_.notify_all();
  }

  // Whether `n` requests were held within 10 s.
  bool holds(std::size_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 10s, [&] { return held_.size() >= n; });
  }
  std::vector<std::pair<std::string, std::string>> asked() {
    std::lock_guard lock(mu_);
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& h : held_) out.emplace_back(h.method, h.uri);
    return out;
  }
  // Answers the held request `i` (an empty result, or `error`).
  void answer(std::size_t i, std::optional<Error> error = std::nullopt) {
    Responder reply;
    {
      std::lock_guard lock(mu_);
      reply = held_.at(i).reply;
    }
    if (error)
      reply(fail(std::move(*error)));
    else
      reply(json::object{});
  }
  std::size_t held() {
    std::lock_guard lock(mu_);
    return held_.size();
  }

 private:
  std::shared_ptr<Transport> client_end_;
  std::shared_ptr<Session> session_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Held> held_;
};

struct ProxyOf {
  mcp::test::TmpDir dir;
  SilentUpstream upstream;
  std::shared_ptr<Client> upstream_client;
  std::shared_ptr<Proxy> proxy;

  explicit ProxyOf(std::size_t max_waiting = ProxyOptions{}.max_subscribes_waiting) {
    auto state = open_state(dir.path);
    EXPECT_TRUE(state) << state.error().message;
    ClientOptions uo;
    uo.protocol_version = "2025-11-25";  // each subscription a request of its own
    uo.session.request_timeout = 20s;
    upstream_client = std::make_shared<Client>(uo);
    EXPECT_TRUE(upstream_client->connect(upstream.client_end()));
    ProxyOptions po;
    po.name = "silent";
    po.state_dir = dir.path.string();
    po.max_subscribes_waiting = max_waiting;
    auto started = Proxy::start(upstream_client, state->pins, state->audit, po);
    EXPECT_TRUE(started) << started.error().message;
    if (started) proxy = *started;
  }
  ~ProxyOf() { upstream_client->close(); }

  // Proxy::watch, its answer kept (from any thread) for the test to look at.
  std::shared_ptr<std::promise<Result<void>>> watch(const std::string& uri, bool on) {
    auto answered = std::make_shared<std::promise<Result<void>>>();
    proxy->watch(uri, on, [answered](Result<void> r) { answered->set_value(std::move(r)); });
    return answered;
  }
};

bool answered_within(const std::shared_ptr<std::promise<Result<void>>>& p, Result<void>* out) {
  auto f = p->get_future();
  if (f.wait_for(10s) != std::future_status::ready) return false;
  *out = f.get();
  return true;
}

}  // namespace

// Before, each subscribe to an upstream that never answered held a pool thread until the request
// timed out, and past 8 per upstream (32 in the process) a subscribe was refused. Now they wait as
// callbacks, the pool idle, up to max_subscribes_waiting (256 by default); past it one is refused at once.
TEST(GatewaySubscribeLimits, SubscribesWaitingOnASilentUpstreamHoldNoThreadAndThoseBeyondTheBoundAreRefused) {
  ProxyOf p;
  ASSERT_TRUE(p.proxy);
  const std::size_t kMax = ProxyOptions{}.max_subscribes_waiting;
  std::vector<std::shared_ptr<std::promise<Result<void>>>> waiting;
  for (std::size_t i = 0; i < kMax; ++i) waiting.push_back(p.watch("mem://slow/" + std::to_string(i), true));
  ASSERT_TRUE(p.upstream.holds(kMax)) << "the subscribes did not all reach the upstream: " << p.upstream.held();
  EXPECT_TRUE(ThreadPool::shared()->wait_idle(10'000ms)) << "subscribes waiting on the upstream hold pool threads";
  for (int i = 0; i < 4; ++i) {
    Result<void> r;
    ASSERT_TRUE(answered_within(p.watch("mem://beyond/" + std::to_string(i), true), &r))
        << "a subscribe past the bound waited";
    ASSERT_FALSE(r) << "a subscribe past the bound was taken";
    EXPECT_NE(r.error().message.find(std::to_string(kMax) + " subscriptions already wait for upstream silent"),
              std::string::npos)
        << r.error().message;
  }
  EXPECT_EQ(p.upstream.held(), kMax) << "a refused subscribe reached the upstream";
  for (std::size_t i = 0; i < kMax; ++i) p.upstream.answer(i);
  for (auto& w : waiting) {
    Result<void> r;
    ASSERT_TRUE(answered_within(w, &r));
    EXPECT_TRUE(r) << r.error().message;
  }
  // The room is given back: the next subscribe goes out.
  auto next = p.watch("mem://slow/next", true);
  ASSERT_TRUE(p.upstream.holds(kMax + 1));
  p.upstream.answer(kMax);
  Result<void> r;
  ASSERT_TRUE(answered_within(next, &r));
  EXPECT_TRUE(r) << r.error().message;
}

// The watchers of one URI (our server's and the aggregate's) share its one subscribe, and its
// refusal, with the upstream's words.
TEST(GatewaySubscribeLimits, WatchersOfAUriShareItsOneSubscribeAndItsRefusal) {
  ProxyOf p;
  ASSERT_TRUE(p.proxy);
  auto first = p.watch("mem://a", true);
  auto second = p.watch("mem://a", true);
  ASSERT_TRUE(p.upstream.holds(1));
  p.upstream.answer(0, Error::invalid_params("no such resource"));
  for (auto* w : {&first, &second}) {
    Result<void> r;
    ASSERT_TRUE(answered_within(*w, &r));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("upstream silent refused the subscription: no such resource"), std::string::npos)
        << r.error().message;
  }
  EXPECT_EQ(p.upstream.held(), 1u) << "the second watcher subscribed again";
}

// Before, the last watchers' unsubscribes went out one at a time from one pool job, which a silent
// upstream held for ever. Now each is a request nobody waits on: the pool stays idle, and a URI
// watched again while its unsubscribe is out subscribes again once that has ended, in order.
TEST(GatewaySubscribeLimits, UnsubscribesToASilentUpstreamHoldNoThreadAndAURIsTurnsStayInOrder) {
  ProxyOf p;
  ASSERT_TRUE(p.proxy);
  constexpr int kUris = 100;
  std::vector<std::shared_ptr<std::promise<Result<void>>>> subscribed;
  for (int i = 0; i < kUris; ++i) subscribed.push_back(p.watch("mem://slow/" + std::to_string(i), true));
  ASSERT_TRUE(p.upstream.holds(kUris));
  for (int i = 0; i < kUris; ++i) p.upstream.answer(static_cast<std::size_t>(i));
  for (auto& s : subscribed) {
    Result<void> r;
    ASSERT_TRUE(answered_within(s, &r));
    ASSERT_TRUE(r) << r.error().message;
  }
  for (int i = 0; i < kUris; ++i) ASSERT_TRUE(mcp::test::watch_now(*p.proxy, "mem://slow/" + std::to_string(i), false));
  ASSERT_TRUE(p.upstream.holds(2 * kUris)) << "not every URI was unsubscribed from: " << p.upstream.held();
  EXPECT_TRUE(ThreadPool::shared()->wait_idle(10'000ms)) << "unsubscribes waiting on the upstream hold pool threads";
  // Watched again while its unsubscribe is out: it waits for that, then subscribes again.
  auto again = p.watch("mem://slow/0", true);
  EXPECT_EQ(p.upstream.held(), static_cast<std::size_t>(2 * kUris)) << "a subscribe crossed the URI's unsubscribe";
  p.upstream.answer(kUris);  // mem://slow/0's unsubscribe
  ASSERT_TRUE(p.upstream.holds(2 * kUris + 1));
  EXPECT_EQ(p.upstream.asked().back(),
            std::make_pair(std::string(method::kResourcesSubscribe), std::string("mem://slow/0")));
  p.upstream.answer(2 * kUris);
  Result<void> r;
  ASSERT_TRUE(answered_within(again, &r));
  EXPECT_TRUE(r) << r.error().message;
}

TEST(GatewaySubscribeLimits, TheBoundIsTheProxysOption) {
  ProxyOf p(5);
  ASSERT_TRUE(p.proxy);
  std::vector<std::shared_ptr<std::promise<Result<void>>>> waiting;
  for (int i = 0; i < 5; ++i) waiting.push_back(p.watch("mem://slow/" + std::to_string(i), true));
  ASSERT_TRUE(p.upstream.holds(5)) << p.upstream.held();
  Result<void> r;
  ASSERT_TRUE(answered_within(p.watch("mem://beyond", true), &r)) << "a subscribe past the bound waited";
  ASSERT_FALSE(r) << "a subscribe past the bound was taken";
  EXPECT_NE(r.error().message.find("5 subscriptions already wait for upstream silent"), std::string::npos)
      << r.error().message;
  for (std::size_t i = 0; i < 5; ++i) p.upstream.answer(i);
  for (auto& w : waiting) {
    Result<void> done;
    ASSERT_TRUE(answered_within(w, &done));
    EXPECT_TRUE(done) << done.error().message;
  }
}
