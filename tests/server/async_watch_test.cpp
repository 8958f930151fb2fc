// Subscriptions and the watch hooks behind them (ResourceTree::watch, watch_async; the holds in
// src/session/async_holds.hpp): a subscribe waiting for its URI's watch holds no thread, however
// many wait; they share the hook's one answer; an unsubscribe while it starts lets it go when it
// lands; a blocking hook runs on the pool, at most 32 at once in the process.
#include <gtest/gtest.h>

#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "mcp/server/stage.hpp"
#include "mcp/session/thread_pool.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::Connected;

namespace {

constexpr auto kBound = std::chrono::seconds(10);

Result<ReadResourceResult> read_x(const std::string& uri) {
  ReadResourceResult r;
  r.contents.push_back(TextResourceContents{.uri = uri, .text = "x"});
  return r;
}

// A server whose resource `uri` has an asynchronous watch hook the test answers, call by call, and
// which counts the resources/subscribe requests that reached it. What the hook and the stage
// record is shared with them: a stop that comes once the test is over (its sessions' leases let go
// on the pool) finds it still there.
struct HeldWatch {
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<std::pair<bool, std::function<void(Result<void>)>>> calls;  // guarded by mu
    int requests_seen = 0;                                                  // guarded by mu
  };
  std::shared_ptr<State> state = std::make_shared<State>();
  std::shared_ptr<Server> server = std::make_shared<Server>();

  explicit HeldWatch(const std::string& uri) {
    server->use(make_stage("count", {.on_request = [st = state](Call& c) -> std::optional<Result<json::value>> {
                             if (c.method == method::kResourcesSubscribe) {
                               std::lock_guard lock(st->mu);
                               ++st->requests_seen;
                               st->cv.notify_all();
                             }
                             return std::nullopt;
                           }}));
    server->add_resource(
        Resource{.uri = uri, .name = "held"}, [](const std::string& u, RequestContext&) { return read_x(u); },
        ResourceTree{.watch_async = [st = state](const std::string&, bool on, std::function<void(Result<void>)> done) {
          std::lock_guard lock(st->mu);
          st->calls.emplace_back(on, std::move(done));
          st->cv.notify_all();
        }});
  }
  bool wait(std::size_t n_calls, int n_requests) {
    std::unique_lock lock(state->mu);
    return state->cv.wait_for(lock, kBound,
                              [&] { return state->calls.size() >= n_calls && state->requests_seen >= n_requests; });
  }
  void answer(std::size_t i, Result<void> r) {
    std::function<void(Result<void>)> done;
    {
      std::lock_guard lock(state->mu);
      done = state->calls.at(i).second;
    }
    done(std::move(r));
  }
  std::vector<bool> turns() {
    std::lock_guard lock(state->mu);
    std::vector<bool> out;
    for (const auto& c : state->calls) out.push_back(c.first);
    return out;
  }
};

ClientOptions revision(const char* v) {
  ClientOptions co;
  co.protocol_version = v;
  return co;
}

// Before, each subscribe waiting on a slow hook held a pool thread (and past 32 was refused): here
// 80 wait, more than the pool has threads, while the pool stays idle, and the hook hears once.
TEST(AsyncWatches, SubscribesWaitingOnTheHookHoldNoThreadAndShareItsOneAnswer) {
  constexpr int kSessions = 80;
  HeldWatch held("mem:///held");
  std::vector<std::unique_ptr<Connected>> sessions;
  for (int i = 0; i < kSessions; ++i)
    sessions.push_back(std::make_unique<Connected>(held.server, revision("2025-11-25")));
  std::vector<std::future<Result<void>>> subscribes;
  for (auto& s : sessions) {
    subscribes.push_back(std::async(std::launch::async, [&c = *s->client] { return c.subscribe("mem:///held"); }));
  }
  ASSERT_TRUE(held.wait(1, kSessions));
  EXPECT_TRUE(ThreadPool::shared()->wait_idle(std::chrono::milliseconds(10'000)))
      << "subscribes waiting for the hook hold pool threads";
  held.answer(0, {});
  for (auto& f : subscribes) {
    auto r = f.get();
    EXPECT_TRUE(r) << r.error().message;
  }
  EXPECT_EQ(held.turns(), std::vector<bool>{true});
  sessions.clear();  // every subscriber gone: the hook hears once more
  ASSERT_TRUE(held.wait(2, kSessions));
  EXPECT_EQ(held.turns(), (std::vector<bool>{true, false}));
}

// Each waiting subscribe holds its request and a callback: at most ServerOptions::max_watches_waiting
// wait at once over the server's sessions (4,096 by default); past it one is refused at once,
// saying why, and the room comes back once the hooks answer. Each waits on a URI of its own, so
// that the hook's calls show that every one is waiting (a hold is counted before its hook runs).
TEST(AsyncWatches, SubscribesPastMaxWatchesWaitingAreRefusedAtOnce) {
  constexpr int kMax = 4;
  auto state = std::make_shared<HeldWatch::State>();
  ServerOptions bounded;
  bounded.max_watches_waiting = kMax;
  auto server = std::make_shared<Server>(bounded);
  ResourceTemplate t;
  t.uri_template = "held:///{n}";
  t.name = "held";
  ASSERT_TRUE(server->add_resource_template(
      t, [](const std::string& uri, const UriTemplate::Variables&, RequestContext&) { return read_x(uri); },
      ResourceTree{.watch_async = [state](const std::string&, bool on, std::function<void(Result<void>)> done) {
        std::lock_guard lock(state->mu);
        state->calls.emplace_back(on, std::move(done));
        state->cv.notify_all();
      }}));
  auto hook_calls = [&](std::size_t n) {
    std::unique_lock lock(state->mu);
    return state->cv.wait_for(lock, kBound, [&] { return state->calls.size() >= n; });
  };
  auto answer_all = [&] {
    std::vector<std::function<void(Result<void>)>> dones;
    {
      std::lock_guard lock(state->mu);
      for (auto& c : state->calls)
        if (c.second) dones.push_back(std::exchange(c.second, nullptr));
    }
    for (auto& d : dones) d({});
  };
  std::vector<std::unique_ptr<Connected>> sessions;
  for (int i = 0; i < kMax + 2; ++i) sessions.push_back(std::make_unique<Connected>(server, revision("2025-11-25")));
  std::vector<std::future<Result<void>>> subscribes;
  for (int i = 0; i < kMax; ++i) {
    subscribes.push_back(std::async(std::launch::async, [&c = *sessions[i]->client, i] {
      return c.subscribe("held:///" + std::to_string(i));
    }));
  }
  ASSERT_TRUE(hook_calls(kMax));
  auto refused = sessions[kMax]->client->subscribe("held:///beyond");
  ASSERT_FALSE(refused) << "a subscribe past the bound was taken";
  EXPECT_EQ(refused.error().code, error_code::kInternalError);
  EXPECT_NE(refused.error().message.find("4 subscriptions already wait for their resources' watch hooks"), std::string::npos)
      << refused.error().message;
  answer_all();
  for (auto& f : subscribes) {
    auto r = f.get();
    EXPECT_TRUE(r) << r.error().message;
  }
  // The room is given back: the next one waits for its hook, and is answered.
  auto next = std::async(std::launch::async, [&c = *sessions[kMax + 1]->client] { return c.subscribe("held:///next"); });
  ASSERT_TRUE(hook_calls(kMax + 1));
  answer_all();
  auto r = next.get();
  EXPECT_TRUE(r) << r.error().message;
}

TEST(AsyncWatches, ARefusalReachesEverySubscribeThatWaitedAndTheNextOneAsksAgain) {
  HeldWatch held("mem:///held");
  std::vector<std::unique_ptr<Connected>> sessions;
  for (int i = 0; i < 4; ++i) sessions.push_back(std::make_unique<Connected>(held.server, revision("2025-11-25")));
  std::vector<std::future<Result<void>>> subscribes;
  for (int i = 0; i < 3; ++i) {
    subscribes.push_back(
        std::async(std::launch::async, [&c = *sessions[i]->client] { return c.subscribe("mem:///held"); }));
  }
  ASSERT_TRUE(held.wait(1, 3));
  // The stage sees a subscribe just before its handler, on its worker: once the pool is idle, all
  // three handlers have asked for the watch.
  ASSERT_TRUE(ThreadPool::shared()->wait_idle(std::chrono::milliseconds(10'000)));
  held.answer(0, fail(Error::invalid_params("the source went away")));
  for (auto& f : subscribes) {
    auto r = f.get();
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("the source went away"), std::string::npos) << r.error().message;
  }
  auto again = std::async(std::launch::async, [&c = *sessions[3]->client] { return c.subscribe("mem:///held"); });
  ASSERT_TRUE(held.wait(2, 4));
  held.answer(1, {});
  auto r = again.get();
  EXPECT_TRUE(r) << r.error().message;
  EXPECT_EQ(held.turns(), (std::vector<bool>{true, true}));
}

// The client unsubscribes while its subscribe still waits for the watch: both are answered, and the
// watch goes once it has come, since nobody holds it.
TEST(AsyncWatches, AnUnsubscribeWhileTheWatchStartsLetsItGoWhenItLands) {
  HeldWatch held("mem:///held");
  Connected c(held.server, revision("2025-11-25"));
  auto subscribe = std::async(std::launch::async, [&] { return c.client->subscribe("mem:///held"); });
  ASSERT_TRUE(held.wait(1, 1));
  auto unsubscribed = c.client->unsubscribe("mem:///held");
  EXPECT_TRUE(unsubscribed) << unsubscribed.error().message;
  held.answer(0, {});
  auto r = subscribe.get();
  EXPECT_TRUE(r) << r.error().message;
  ASSERT_TRUE(held.wait(2, 1)) << "the watch was kept for an unsubscribed URI";
  EXPECT_EQ(held.turns(), (std::vector<bool>{true, false}));
}

// A 2026-07-28 client's listen is acknowledged once the watches it names have come.
TEST(AsyncWatches, AListenIsAcknowledgedOnceItsWatchesHaveCome) {
  HeldWatch held("mem:///held");
  Connected c(held.server, revision("2026-07-28"));
  auto subscribe = std::async(std::launch::async, [&] { return c.client->subscribe("mem:///held"); });
  ASSERT_TRUE(held.wait(1, 0));  // (a listen is answered before the chain: the stage does not see it)
  EXPECT_EQ(subscribe.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
      << "the listen was acknowledged before its watch came";
  held.answer(0, {});
  auto r = subscribe.get();
  EXPECT_TRUE(r) << r.error().message;
}

// An asynchronous hook that throws refuses the subscription, as any hook's throw does.
TEST(AsyncWatches, AHookThatThrowsRefusesTheSubscribe) {
  auto server = std::make_shared<Server>();
  server->add_resource(
      Resource{.uri = "mem:///thrown", .name = "thrown"},
      [](const std::string& u, RequestContext&) { return read_x(u); },
      ResourceTree{.watch_async = [](const std::string&, bool, std::function<void(Result<void>)>) {
        throw std::runtime_error("the source is on fire");
      }});
  Connected c(server, revision("2025-11-25"));
  auto r = c.client->subscribe("mem:///thrown");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("internal error in the watch of mem:///thrown: the source is on fire"),
            std::string::npos)
      << r.error().message;
}

// Client::subscribe_async and unsubscribe_async, in either revision (over 2026-07-28 each is a new
// listen, which the client sends from its one queue): answered once the server has the watch, and
// the watch let go after the unsubscribe.
class AsyncClientSubscribe : public ::testing::TestWithParam<const char*> {};

TEST_P(AsyncClientSubscribe, IsAnsweredOnceTheWatchHasComeAndUnsubscribeLetsItGo) {
  HeldWatch held("mem:///held");
  Connected c(held.server, revision(GetParam()));
  auto subscribed = std::make_shared<std::promise<Result<void>>>();
  c.client->subscribe_async("mem:///held", [subscribed](Result<void> r) { subscribed->set_value(std::move(r)); });
  ASSERT_TRUE(held.wait(1, 0));
  auto answer = subscribed->get_future();
  EXPECT_EQ(answer.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
      << "answered before the watch came";
  held.answer(0, {});
  ASSERT_EQ(answer.wait_for(kBound), std::future_status::ready);
  auto r = answer.get();
  EXPECT_TRUE(r) << r.error().message;
  auto unsubscribed = std::make_shared<std::promise<Result<void>>>();
  c.client->unsubscribe_async("mem:///held", [unsubscribed](Result<void> u) { unsubscribed->set_value(std::move(u)); });
  auto gone = unsubscribed->get_future();
  ASSERT_EQ(gone.wait_for(kBound), std::future_status::ready);
  auto u = gone.get();
  EXPECT_TRUE(u) << u.error().message;
  ASSERT_TRUE(held.wait(2, 0)) << "the watch was kept after the unsubscribe";
  EXPECT_EQ(held.turns(), (std::vector<bool>{true, false}));
}

INSTANTIATE_TEST_SUITE_P(BothRevisions, AsyncClientSubscribe, ::testing::Values("2025-11-25", "2026-07-28"));

// A blocking hook runs on the shared pool: at most 32 at once over the process, so hooks slow for
// many URIs cannot take the pool; past that a subscribe is refused at once, and one of a URI whose
// hook runs already waits for it without a thread.
TEST(AsyncWatches, BlockingHooksRunAtMost32AtOnceAndThoseBeyondAreRefusedAtOnce) {
  constexpr int kMax = 32;  // Server::Impl::kMaxBlockingWatches
  constexpr int kBeyond = 4;
  // Shared with the hook: its calls may outlive the test's body if an assertion ends it.
  struct Gate {
    std::mutex mu;
    std::condition_variable cv;
    int entered = 0;
    bool released = false;
    void release() {
      std::lock_guard lock(mu);
      released = true;
      cv.notify_all();
    }
  };
  auto gate = std::make_shared<Gate>();
  auto server = std::make_shared<Server>();
  ResourceTemplate t;
  t.uri_template = "slow:///{n}";
  t.name = "slow";
  ASSERT_TRUE(server->add_resource_template(
      t, [](const std::string& uri, const UriTemplate::Variables&, RequestContext&) { return read_x(uri); },
      ResourceTree{.watch = [gate](const std::string&, bool on) -> Result<void> {
        if (!on) return {};
        std::unique_lock lock(gate->mu);
        ++gate->entered;
        gate->cv.notify_all();
        gate->cv.wait_for(lock, std::chrono::seconds(20), [&] { return gate->released; });
        return {};
      }}));
  std::vector<std::unique_ptr<Connected>> sessions;
  for (int i = 0; i < kMax + kBeyond + 1; ++i)
    sessions.push_back(std::make_unique<Connected>(server, revision("2025-11-25")));
  std::vector<std::future<Result<void>>> running;
  // Released before the futures wait, however the test ends.
  const std::unique_ptr<Gate, void (*)(Gate*)> releaser(gate.get(), [](Gate* g) { g->release(); });
  for (int i = 0; i < kMax; ++i) {
    running.push_back(std::async(
        std::launch::async, [&c = *sessions[i]->client, i] { return c.subscribe("slow:///" + std::to_string(i)); }));
  }
  {
    std::unique_lock lock(gate->mu);
    ASSERT_TRUE(gate->cv.wait_for(lock, kBound, [&] { return gate->entered == kMax; }));
  }
  for (int i = kMax; i < kMax + kBeyond; ++i) {
    auto r = sessions[i]->client->subscribe("slow:///beyond-" + std::to_string(i));
    ASSERT_FALSE(r) << "a hook past the bound was run";
    EXPECT_NE(r.error().message.find("32 watch hooks already run"), std::string::npos) << r.error().message;
  }
  // A second subscribe of a URI whose hook runs waits for it, refused by nothing.
  running.push_back(
      std::async(std::launch::async, [&c = *sessions[kMax + kBeyond]->client] { return c.subscribe("slow:///0"); }));
  gate->release();
  for (auto& f : running) {
    auto r = f.get();
    EXPECT_TRUE(r) << r.error().message;
  }
  std::lock_guard lock(gate->mu);
  EXPECT_EQ(gate->entered, kMax) << "slow:///0's hook ran twice";
}

}  // namespace
