// What an upstream that never answers its subscriptions can hold at the gateway (proxy.hpp,
// kMaxSubscribesWaiting): a bounded number of waiting subscribes, refused past it at once and with a
// reason; and one unsubscribe at a time, however many last watchers leave.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "../examples/tmp_dir.hpp"
#include "gateway/proxy.hpp"
#include "gateway/state.hpp"
#include "mcp/server/stage.hpp"
#include "mcp/transport/memory.hpp"

using namespace mcp;
using namespace mcp::gateway;
using namespace std::chrono_literals;

namespace {

// An upstream that does not answer its subscribes (or its unsubscribes, as the test chooses) of
// `mem://slow/{n}` until released (20 s at most): a stage of its chain holds each. It counts the
// requests held, and the most it held at once.
class HeldWatches {
 public:
  explicit HeldWatches(bool hold_subscribes)
      : method_(hold_subscribes ? "resources/subscribe" : "resources/unsubscribe"),
        server_(std::make_shared<Server>(ServerOptions{.max_subscriptions = 4096})) {
    auto reader = [](const std::string& uri, const UriTemplate::Variables&,
                     RequestContext&) -> Result<ReadResourceResult> {
      ReadResourceResult r;
      r.contents.push_back(TextResourceContents{.uri = uri, .text = "x"});
      return r;
    };
    auto added = server_->add_resource_template(
        ResourceTemplate{.uri_template = "mem://slow/{n}", .name = "slow"}, reader,
        ResourceTree{.watch = [](const std::string&, bool) -> Result<void> { return {}; }});
    EXPECT_TRUE(added);
    server_->use(make_stage("hold", {.on_request = [this](Call& call) -> std::optional<Result<json::value>> {
                              if (call.method != method_) return std::nullopt;
                              std::unique_lock lock(mu_);
                              ++entered_;
                              if (const auto* uri = call.params.if_contains("uri"); uri && uri->is_string()) {
                                uris_.insert(std::string(uri->get_string()));
                              }
                              max_inside_ = std::max(max_inside_, ++inside_);
                              cv_.notify_all();
                              cv_.wait_for(lock, 20s, [&] { return released_; });
                              --inside_;
                              return std::nullopt;
                            }}));
  }
  ~HeldWatches() { release(); }

  const std::shared_ptr<Server>& server() const { return server_; }
  // Whether `n` hooks were entered within `bound`; and whether `n` were in at once.
  bool entered(int n, std::chrono::seconds bound) {
    return wait(bound, [&] { return entered_ >= n; });
  }
  bool inside_at_once(int n, std::chrono::seconds bound) {
    return wait(bound, [&] { return max_inside_ >= n; });
  }
  bool asked_about(const std::string& uri, std::chrono::seconds bound) {
    return wait(bound, [&] { return uris_.contains(uri); });
  }
  int entered_now() {
    std::lock_guard lock(mu_);
    return entered_;
  }
  int most_inside() {
    std::lock_guard lock(mu_);
    return max_inside_;
  }
  void release() {
    {
      std::lock_guard lock(mu_);
      released_ = true;
    }
    cv_.notify_all();
  }

 private:
  template <class P>
  bool wait(std::chrono::seconds bound, P done) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, bound, done);
  }
  const std::string method_;
  std::shared_ptr<Server> server_;
  std::mutex mu_;
  std::condition_variable cv_;
  int entered_ = 0, inside_ = 0, max_inside_ = 0;
  std::set<std::string> uris_;
  bool released_ = false;
};

struct ProxyOf {
  mcp::test::TmpDir dir;
  std::shared_ptr<Client> upstream_client;
  std::shared_ptr<Proxy> proxy;

  explicit ProxyOf(const std::shared_ptr<Server>& upstream) {
    auto state = open_state(dir.path);
    EXPECT_TRUE(state) << state.error().message;
    auto [a, b] = make_memory_transport_pair();
    EXPECT_TRUE(upstream->connect(a));
    ClientOptions uo;
    uo.protocol_version = "2025-11-25";  // each subscription a request of its own
    uo.session.request_timeout = 20s;
    upstream_client = std::make_shared<Client>(uo);
    EXPECT_TRUE(upstream_client->connect(b));
    ProxyOptions po;
    po.name = "silent";
    po.state_dir = dir.path.string();
    auto started = Proxy::start(upstream_client, state->pins, state->audit, po);
    EXPECT_TRUE(started) << started.error().message;
    if (started) proxy = *started;
  }
  ~ProxyOf() { upstream_client->close(); }
};

}  // namespace

// Before the bound, each subscribe to an upstream that never answers held a thread until the
// request timed out; the shared pool's 64 went, and with them every session's blocking handlers.
TEST(GatewaySubscribeLimits, SubscribesWaitingOnASilentUpstreamAreBoundedAndThoseBeyondRefusedAtOnce) {
  HeldWatches upstream(/*hold_subscribes=*/true);
  ProxyOf p(upstream.server());
  ASSERT_TRUE(p.proxy);
  constexpr int kMax = Proxy::kMaxSubscribesWaiting;
  constexpr int kBeyond = 4;
  std::vector<std::future<Result<void>>> held, beyond;
  for (int i = 0; i < kMax; ++i) {
    held.push_back(
        std::async(std::launch::async, [&, i] { return p.proxy->watch("mem://slow/" + std::to_string(i), true); }));
  }
  ASSERT_TRUE(upstream.entered(kMax, 10s)) << "the first " << kMax << " subscribes did not all reach the upstream";
  for (int i = 0; i < kBeyond; ++i) {
    beyond.push_back(
        std::async(std::launch::async, [&, i] { return p.proxy->watch("mem://slow/x" + std::to_string(i), true); }));
  }
  for (auto& f : beyond) {
    ASSERT_EQ(f.wait_for(10s), std::future_status::ready) << "a subscribe past the bound waited on the upstream";
    auto r = f.get();
    ASSERT_FALSE(r) << "a subscribe past the bound was taken";
    EXPECT_NE(r.error().message.find(std::to_string(kMax) + " subscriptions already wait for upstream silent"),
              std::string::npos)
        << r.error().message;
  }
  EXPECT_EQ(upstream.entered_now(), kMax) << "a refused subscribe reached the upstream";
  // A subscribe of a URI already being subscribed waits too, and counts.
  auto again = p.proxy->watch("mem://slow/0", true);
  EXPECT_FALSE(again) << "a second watcher of a waiting URI was let wait past the bound";
  upstream.release();
  for (auto& f : held) {
    auto r = f.get();
    EXPECT_TRUE(r) << r.error().message;
  }
  // The slots are given back: the next subscribe goes out.
  auto next = p.proxy->watch("mem://slow/next", true);
  EXPECT_TRUE(next) << next.error().message;
}

// Before, each last watcher's unsubscribe was a pool job of its own, each holding a thread while
// a silent upstream did not answer.
TEST(GatewaySubscribeLimits, UnsubscribesGoOutOneAtATime) {
  HeldWatches upstream(/*hold_subscribes=*/false);
  ProxyOf p(upstream.server());
  ASSERT_TRUE(p.proxy);
  constexpr int kUris = 6;
  for (int i = 0; i < kUris; ++i) ASSERT_TRUE(p.proxy->watch("mem://slow/" + std::to_string(i), true));
  for (int i = 0; i < kUris; ++i) ASSERT_TRUE(p.proxy->watch("mem://slow/" + std::to_string(i), false));
  ASSERT_TRUE(upstream.entered(1, 10s)) << "no unsubscribe reached the upstream";
  // The upstream holds the first: a second must not go out beside it (waited for a while, as the
  // old jobs started at once).
  EXPECT_FALSE(upstream.inside_at_once(2, 1s)) << "two unsubscribes waited on the upstream at once";
  upstream.release();
  EXPECT_TRUE(upstream.entered(kUris, 10s)) << "not every URI was unsubscribed from: " << upstream.entered_now();
  EXPECT_EQ(upstream.most_inside(), 1);
}

// Before the bound, the URIs to unsubscribe from queued without limit behind an upstream that
// never answered: a client subscribing to new URIs and leaving them grew the queue by one each.
TEST(GatewaySubscribeLimits, UnsubscribesQueuedBehindASilentUpstreamAreBounded) {
  HeldWatches upstream(/*hold_subscribes=*/false);
  ProxyOf p(upstream.server());
  ASSERT_TRUE(p.proxy);
  constexpr int kQueued = static_cast<int>(Proxy::kMaxUnsubscribesQueued);
  constexpr int kUris = kQueued + 100;
  for (int i = 0; i < kUris; ++i) ASSERT_TRUE(p.proxy->watch("mem://slow/" + std::to_string(i), true));
  ASSERT_TRUE(p.proxy->watch("mem://slow/0", false));
  ASSERT_TRUE(upstream.entered(1, 10s)) << "no unsubscribe reached the upstream";
  for (int i = 1; i < kUris; ++i) ASSERT_TRUE(p.proxy->watch("mem://slow/" + std::to_string(i), false));
  upstream.release();
  // The one held, then the queue: the rest were dropped (their updates are dropped here anyway).
  // A last URI, queued once those went and sent after them (the queue is in URI order), says when
  // the queue is empty.
  ASSERT_TRUE(upstream.entered(1 + kQueued, 20s))
      << "the queued unsubscribes did not all go out: " << upstream.entered_now();
  ASSERT_TRUE(p.proxy->watch("mem://slow/~last", true));
  ASSERT_TRUE(p.proxy->watch("mem://slow/~last", false));
  ASSERT_TRUE(upstream.asked_about("mem://slow/~last", 20s));
  EXPECT_EQ(upstream.entered_now(), 1 + kQueued + 1) << "unsubscribes past the bound were queued";
}
