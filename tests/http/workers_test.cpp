// Workers (src/http/workers.hpp): the HTTP client transport's exchange threads.
#include <gtest/gtest.h>

#include <mutex>

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
