// Workers (src/http/workers.hpp): the HTTP client transport's exchange threads.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <set>
#include <thread>

#include "http/workers.hpp"
#include "session/reaper.hpp"
#include "support/event.hpp"

using mcp::http::Workers;
using mcp::test::Event;
using namespace std::chrono_literals;

TEST(Workers, EachBodyRunsOnItsOwnThreadAndJoinWaitsForAll) {
  Workers w;
  Event release;
  std::atomic<int> ran{0};
  for (int i = 0; i < 4; ++i) {
    ASSERT_FALSE(w.spawn([&] {
      EXPECT_TRUE(release.wait());
      ++ran;
    }));
  }
  w.reap();  // none has ended: none is joined, nothing blocks
  release.set();
  w.join();
  EXPECT_EQ(ran.load(), 4);
}

TEST(Workers, JoinedFromOneOfTheirOwnThreadsThatThreadIsHandedToTheReaper) {
  // The transport's last reference can go on one of its own exchange threads, which then joins
  // them all: joining itself would throw (resource_deadlock_would_occur) and end the process.
  std::mutex mu;
  Workers w;
  Event joined;
  {
    std::lock_guard l(mu);
    ASSERT_FALSE(w.spawn([&] {
      Workers taken;
      {
        std::lock_guard l2(mu);
        taken = w.take();
      }
      taken.join();
      joined.set();
    }));
  }
  ASSERT_TRUE(joined.wait());
  EXPECT_TRUE(mcp::detail::wait_reaped(10s)) << "a handed thread was never joined";
}

namespace {

// Polls `done` (state the threads change, not a timer) until it holds, at most 10 s.
template <class F>
bool eventually(F done) {
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::yield();
  }
  return true;
}

}  // namespace

TEST(Workers, AThreadWhoseBodyEndedRunsTheNextOne) {
  Workers w;
  std::thread::id first, second;
  ASSERT_FALSE(w.spawn([&] { first = std::this_thread::get_id(); }));
  ASSERT_TRUE(eventually([&] { return w.waiting() == 1; }));
  Event ran;
  ASSERT_FALSE(w.spawn([&] {
    second = std::this_thread::get_id();
    ran.set();
  }));
  ASSERT_TRUE(ran.wait());
  EXPECT_EQ(w.threads(), 1u);  // no thread was started for the second body
  w.join();
  EXPECT_EQ(first, second);
}

TEST(Workers, ABodyIsReleasedBeforeItsThreadWaits) {
  // The transport's request bodies hold the transport: a waiting thread must not keep it alive.
  Workers w(1h);
  auto held = std::make_shared<int>(0);
  ASSERT_FALSE(w.spawn([held] { (void)held; }));
  ASSERT_TRUE(eventually([&] { return w.waiting() == 1; }));
  EXPECT_EQ(held.use_count(), 1);
  w.join();
}

// A steady load of more exchanges at once than the old fixed cap of waiting threads (8): each
// round's sixteen bodies find the last round's sixteen threads waiting, and no thread is started
// past the first round's (the cap started eight a round).
TEST(Workers, ASteadyLoadStartsNoThreadPastItsFirstRound) {
  Workers w(1h);
  constexpr std::size_t kAtOnce = 16;
  for (int round = 0; round < 20; ++round) {
    Event release;
    std::atomic<std::size_t> running{0};
    for (std::size_t i = 0; i < kAtOnce; ++i) {
      ASSERT_FALSE(w.spawn([&] {
        ++running;
        EXPECT_TRUE(release.wait());
      }));
    }
    ASSERT_TRUE(eventually([&] { return running.load() == kAtOnce; })) << "round " << round;
    release.set();
    ASSERT_TRUE(eventually([&] { return w.waiting() == kAtOnce; })) << "round " << round;
    ASSERT_EQ(w.threads(), kAtOnce) << "round " << round << " started threads";
  }
  w.join();
  EXPECT_EQ(w.threads(), 0u);
}

// After a burst, a load that needs one thread keeps handing its bodies to the same one (the last
// to begin waiting), so the burst's other threads get nothing and end after idle_for.
TEST(Workers, ThreadsALighterLoadDoesNotNeedEnd) {
  Workers w(100ms);
  constexpr std::size_t kBurst = 12;
  Event release;
  for (std::size_t i = 0; i < kBurst; ++i) ASSERT_FALSE(w.spawn([&] { EXPECT_TRUE(release.wait()); }));
  release.set();
  ASSERT_TRUE(eventually([&] { return w.waiting() == kBurst; }));
  // One body at a time, each waited for, until the reaped count shows the others gone (~100 ms);
  // bounded by eventually()'s 10 s.
  std::set<std::thread::id> ran_on;
  ASSERT_TRUE(eventually([&] {
    Event ran;
    std::thread::id on;
    EXPECT_FALSE(w.spawn([&] {
      on = std::this_thread::get_id();
      ran.set();
    }));
    EXPECT_TRUE(ran.wait());
    ran_on.insert(on);
    // Its thread waits again before the next body comes (else that one would go to another):
    // every thread not ended (and joined) is waiting.
    EXPECT_TRUE(eventually([&] {
      w.reap();
      return w.waiting() == w.threads();
    }));
    return w.threads() == 1;
  }));
  EXPECT_EQ(ran_on.size(), 1u) << "the bodies went to more than one waiting thread";
  w.join();
}

TEST(Workers, JoinWakesTheWaitingThreads) {
  // Waiting an hour for a body that never comes: join must not wait for that.
  Workers w(1h);
  Event release;  // three threads: no body ends before the last has started
  for (int i = 0; i < 3; ++i) ASSERT_FALSE(w.spawn([&] { EXPECT_TRUE(release.wait()); }));
  release.set();
  ASSERT_TRUE(eventually([&] { return w.waiting() == 3; }));
  auto joined = std::async(std::launch::async, [&] { w.join(); });
  EXPECT_EQ(joined.wait_for(30s), std::future_status::ready);
}

TEST(Workers, ABodyHandedOverAsTheyStopStillRuns) {
  Workers w(1h);
  ASSERT_FALSE(w.spawn([] {}));
  ASSERT_TRUE(eventually([&] { return w.waiting() == 1; }));
  std::atomic<bool> ran{false};
  ASSERT_FALSE(w.spawn([&] { ran = true; }));  // handed to the waiting thread
  w.join();
  EXPECT_TRUE(ran.load());
}
