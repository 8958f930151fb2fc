// detail::AsyncHolds (src/session/async_holds.hpp): the holders of a key wait for its one start as
// callbacks, share its refusal, stop it once when the last goes, and a hold during a stop starts it
// again after; the turn's answers may come from any thread, twice, or after the owner is gone.
#include "session/async_holds.hpp"

#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

using mcp::Error;
using mcp::Result;
using mcp::detail::AsyncHolds;

namespace {

// A turn that answers nothing by itself: the test answers each call when it chooses.
struct HeldTurns {
  struct Call {
    std::string key;
    bool on;
    AsyncHolds::Done done;
  };
  std::vector<Call> calls;
  AsyncHolds::Turn turn() {
    return [this](const std::string& key, bool on, AsyncHolds::Done done) {
      calls.push_back({key, on, std::move(done)});
    };
  }
};

// What one holder was told, if anything yet.
struct Told {
  std::optional<Result<void>> result;
  AsyncHolds::Done done() {
    return [this](Result<void> r) { result = std::move(r); };
  }
  bool ok() const { return result && *result; }
};

TEST(AsyncHolds, HoldersWaitForTheOneStartAndTheLastReleaseStopsOnce) {
  auto holds = AsyncHolds::make(16, "too many wait");
  HeldTurns turns;
  Told a, b, c;
  holds->hold("k", turns.turn(), a.done());
  holds->hold("k", turns.turn(), b.done());
  ASSERT_EQ(turns.calls.size(), 1u) << "a second holder of a starting key started it again";
  EXPECT_TRUE(turns.calls[0].on);
  EXPECT_FALSE(a.result);
  EXPECT_FALSE(b.result);
  EXPECT_EQ(holds->waiting(), 2u);
  turns.calls[0].done({});
  EXPECT_TRUE(a.ok());
  EXPECT_TRUE(b.ok());
  EXPECT_EQ(holds->waiting(), 0u);
  EXPECT_EQ(holds->keys_on(), std::vector<std::string>{"k"});
  holds->hold("k", turns.turn(), c.done());  // on: told at once, no turn
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(turns.calls.size(), 1u);
  holds->release("k");
  holds->release("k");
  EXPECT_EQ(turns.calls.size(), 1u) << "stopped while a holder remained";
  holds->release("k");
  ASSERT_EQ(turns.calls.size(), 2u);
  EXPECT_FALSE(turns.calls[1].on);
  turns.calls[1].done({});
  EXPECT_TRUE(holds->keys_on().empty());
  holds->release("k");  // a release without a hold changes nothing
  EXPECT_EQ(turns.calls.size(), 2u);
}

TEST(AsyncHolds, ARefusedStartReachesEveryHolderThatWaitedAndTheNextHoldTriesAgain) {
  auto holds = AsyncHolds::make(16, "too many wait");
  HeldTurns turns;
  Told a, b, c;
  holds->hold("k", turns.turn(), a.done());
  holds->hold("k", turns.turn(), b.done());
  turns.calls[0].done(mcp::fail(Error::invalid_params("the source is gone")));
  for (Told* t : {&a, &b}) {
    ASSERT_TRUE(t->result);
    ASSERT_FALSE(*t->result);
    EXPECT_EQ(t->result->error().message, "the source is gone");
  }
  EXPECT_TRUE(holds->keys_on().empty());
  holds->hold("k", turns.turn(), c.done());
  ASSERT_EQ(turns.calls.size(), 2u);
  EXPECT_TRUE(turns.calls[1].on);
  turns.calls[1].done({});
  EXPECT_TRUE(c.ok());
}

TEST(AsyncHolds, AHoldWhileTheKeyStopsStartsItAgainOnceStopped) {
  auto holds = AsyncHolds::make(16, "too many wait");
  HeldTurns turns;
  Told a, b;
  holds->hold("k", turns.turn(), a.done());
  turns.calls[0].done({});
  holds->release("k");
  ASSERT_EQ(turns.calls.size(), 2u);  // the stop, not answered yet
  holds->hold("k", turns.turn(), b.done());
  EXPECT_EQ(turns.calls.size(), 2u) << "started again before the stop had ended";
  EXPECT_FALSE(b.result);
  turns.calls[1].done(mcp::fail(Error::internal("a stop's error is not the holder's")));
  ASSERT_EQ(turns.calls.size(), 3u);
  EXPECT_TRUE(turns.calls[2].on);
  turns.calls[2].done({});
  EXPECT_TRUE(b.ok());
  // So the key's turns alternated on, off, on: never two at once.
  EXPECT_TRUE(turns.calls[0].on);
  EXPECT_FALSE(turns.calls[1].on);
}

TEST(AsyncHolds, KeysDoNotWaitForEachOther) {
  auto holds = AsyncHolds::make(16, "too many wait");
  HeldTurns turns;
  Told slow, quick;
  holds->hold("slow", turns.turn(), slow.done());
  holds->hold(
      "quick", [](const std::string&, bool, AsyncHolds::Done done) { done({}); }, quick.done());
  EXPECT_TRUE(quick.ok());
  EXPECT_FALSE(slow.result);
}

TEST(AsyncHolds, ATurnThatAnswersTwiceIsHeardOnce) {
  auto holds = AsyncHolds::make(16, "too many wait");
  HeldTurns turns;
  Told a, b;
  holds->hold("k", turns.turn(), a.done());
  turns.calls[0].done({});
  turns.calls[0].done(mcp::fail(Error::internal("late")));  // ignored
  EXPECT_TRUE(a.ok());
  holds->hold("k", turns.turn(), b.done());
  EXPECT_TRUE(b.ok());
  holds->release("k");
  holds->release("k");
  ASSERT_EQ(turns.calls.size(), 2u);
  turns.calls[1].done({});
  turns.calls[1].done({});  // a second stop answer does not end a later start
  EXPECT_TRUE(holds->keys_on().empty());
}

TEST(AsyncHolds, AnAnswerAfterTheOwnerIsGoneIsDropped) {
  HeldTurns turns;
  Told a;
  {
    auto holds = AsyncHolds::make(16, "too many wait");
    holds->hold("k", turns.turn(), a.done());
  }
  turns.calls[0].done({});
  EXPECT_FALSE(a.result);
}

// A flood of holds on keys that never start: past the bound each is refused at once, with the
// owner's words, and nothing more is kept.
TEST(AsyncHolds, HoldsPastTheBoundAreRefusedAtOnce) {
  constexpr std::size_t kMax = 64;
  auto holds = AsyncHolds::make(kMax, "64 already wait: later");
  HeldTurns turns;
  std::vector<Told> told(kMax + 200);
  for (std::size_t i = 0; i < told.size(); ++i) holds->hold("k" + std::to_string(i % 7), turns.turn(), told[i].done());
  EXPECT_EQ(holds->waiting(), kMax);
  EXPECT_EQ(turns.calls.size(), 7u);
  for (std::size_t i = 0; i < told.size(); ++i) {
    if (i < kMax) {
      EXPECT_FALSE(told[i].result) << i;
      continue;
    }
    ASSERT_TRUE(told[i].result) << i;
    ASSERT_FALSE(*told[i].result);
    EXPECT_EQ(told[i].result->error().message, "64 already wait: later");
  }
  for (auto& c : turns.calls) c.done({});
  EXPECT_EQ(holds->waiting(), 0u);
  for (std::size_t i = 0; i < kMax; ++i) EXPECT_TRUE(told[i].ok()) << i;
}

// Holds and releases from several threads, turns answered at once from yet another: whatever the
// interleaving, a key's turns alternate on, off, on... and end off.
TEST(AsyncHolds, ConcurrentHoldsAndReleasesKeepEachKeysTurnsAlternating) {
  auto holds = AsyncHolds::make(1024, "too many wait");
  std::mutex mu;
  std::vector<bool> turns_of_k;        // guarded by mu
  std::vector<std::thread> answerers;  // guarded by mu
  int running = 0, overlapped = 0;     // guarded by mu
  AsyncHolds::Turn turn = [&](const std::string&, bool on, AsyncHolds::Done done) {
    std::lock_guard lock(mu);
    if (++running > 1) ++overlapped;
    turns_of_k.push_back(on);
    answerers.emplace_back([&, done = std::move(done)] {
      {
        std::lock_guard answered(mu);
        --running;
      }
      done({});
    });
  };
  std::vector<std::thread> holders;
  std::atomic<int> held{0};
  for (int t = 0; t < 4; ++t) {
    holders.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        std::promise<bool> told;
        auto answer = told.get_future();
        holds->hold("k", turn, [&told](Result<void> r) { told.set_value(r.has_value()); });
        if (answer.get()) {
          ++held;
          holds->release("k");
        }
      }
    });
  }
  for (auto& t : holders) t.join();
  // Every answering thread, including those a last answer started (the final stop's).
  for (;;) {
    std::vector<std::thread> joining;
    {
      std::lock_guard lock(mu);
      joining.swap(answerers);
    }
    if (joining.empty()) break;
    for (auto& t : joining) t.join();
  }
  EXPECT_EQ(held.load(), 800);
  EXPECT_TRUE(holds->keys_on().empty());
  EXPECT_EQ(overlapped, 0);
  ASSERT_FALSE(turns_of_k.empty());
  EXPECT_FALSE(turns_of_k.back()) << "the key was left on";
  for (std::size_t i = 0; i < turns_of_k.size(); ++i) ASSERT_EQ(turns_of_k[i], i % 2 == 0) << i;
}

}  // namespace
