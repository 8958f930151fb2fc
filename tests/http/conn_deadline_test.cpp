// A connection's deadline (src/http/conn_deadline.hpp): a time kept on the connection and one
// timer that is re-armed only when it fires or for a deadline shorter than any before. These
// check that it still enforces every deadline on time: never early, never late by a longer
// deadline set before, never after it was cleared or stopped. Each runs the loop on the test's
// thread, bounded (run_for), so a deadline that never fires fails rather than hangs.
#include <gtest/gtest.h>

#include <time.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>

#include "http/conn_deadline.hpp"

using namespace std::chrono_literals;
using mcp::http::ConnDeadline;
using Clock = std::chrono::steady_clock;

namespace {

struct Loop {
  boost::asio::io_context ioc{1};
  int expiries = 0;
  Clock::time_point expired_at{};
  ConnDeadline deadline{ioc.get_executor(), [this] {
                          ++expiries;
                          expired_at = Clock::now();
                        }};
  // Runs until the next expiry, at most `most`, or until the loop has nothing left to run.
  void run_until_expired(Clock::duration most) {
    const int before = expiries;
    ioc.restart();
    const auto end = Clock::now() + most;
    while (expiries == before && Clock::now() < end) {
      if (ioc.run_one_for(end - Clock::now()) == 0 && ioc.stopped()) break;
    }
  }
  // Runs `f` on the loop `after` from now.
  template <class F>
  void at(Clock::duration after, F f, boost::asio::steady_timer& t) {
    t.expires_after(after);
    t.async_wait([f](const boost::system::error_code& ec) {
      if (!ec) f();
    });
  }
};

}  // namespace

TEST(ConnDeadline, ADeadlineThatPassesRunsOnExpireOnce) {
  Loop l;
  const auto start = Clock::now();
  l.deadline.expires_after(30ms);
  l.run_until_expired(5s);
  ASSERT_EQ(l.expiries, 1);
  EXPECT_GE(l.expired_at - start, 30ms);
  EXPECT_TRUE(l.deadline.expired());
  l.ioc.run_for(100ms);
  EXPECT_EQ(l.expiries, 1);
}

TEST(ConnDeadline, ADeadlineMovedLaterExpiresAtTheLaterTime) {
  // Set for 100 ms, then at 60 ms for 100 ms more: the timer, armed for the first, fires early
  // and re-arms itself for the second.
  Loop l;
  boost::asio::steady_timer later(l.ioc);
  const auto start = Clock::now();
  l.deadline.expires_after(100ms);
  l.at(60ms, [&] { l.deadline.expires_after(100ms); }, later);
  l.run_until_expired(5s);
  ASSERT_EQ(l.expiries, 1);
  EXPECT_GE(l.expired_at - start, 160ms);
}

TEST(ConnDeadline, ADeadlineShorterThanAnyBeforeIsKeptOnTime) {
  // A 60 s deadline armed the timer for 60 s; a 30 ms one set after it must not wait for that.
  Loop l;
  const auto start = Clock::now();
  l.deadline.expires_after(60s);
  l.deadline.expires_after(30ms);
  l.run_until_expired(5s);
  ASSERT_EQ(l.expiries, 1) << "the shorter deadline was not enforced within 5 s";
  EXPECT_GE(l.expired_at - start, 30ms);
}

TEST(ConnDeadline, AFloorLearnedFromAShortDeadlineKeepsLaterLongOnesOnTime) {
  // Short, cleared, then long, then short again: each set after the timer was armed for another.
  Loop l;
  l.deadline.expires_after(20ms);
  l.deadline.expires_never();
  l.deadline.expires_after(10s);
  const auto start = Clock::now();
  l.deadline.expires_after(40ms);
  l.run_until_expired(5s);
  ASSERT_EQ(l.expiries, 1);
  EXPECT_GE(l.expired_at - start, 40ms);
}

TEST(ConnDeadline, ClearedDeadlinesDoNotExpire) {
  Loop l;
  l.deadline.expires_after(20ms);
  l.deadline.expires_never();
  l.ioc.run_for(150ms);
  EXPECT_EQ(l.expiries, 0);
  EXPECT_FALSE(l.deadline.expired());
}

TEST(ConnDeadline, ExpiredHoldsAfterTheStepClearsItUntilTheNextDeadline) {
  // A step clears its deadline as it ends, then asks whether it had passed.
  Loop l;
  l.deadline.expires_after(10ms);
  l.run_until_expired(5s);
  ASSERT_EQ(l.expiries, 1);
  l.deadline.expires_never();
  EXPECT_TRUE(l.deadline.expired());
  l.deadline.expires_after(10s);
  EXPECT_FALSE(l.deadline.expired());
}

TEST(ConnDeadline, StoppedItNeverExpiresAndLeavesTheLoopNothingToWaitFor) {
  // A loop run until it has no work (ClientLoop::finish, BlockingConn) must not wait for the timer
  // of a connection that has gone.
  Loop l;
  l.deadline.expires_after(10s);
  l.deadline.stop();
  const auto start = Clock::now();
  l.ioc.run_for(5s);  // returns once nothing is left to do
  EXPECT_LT(Clock::now() - start, 4s);
  EXPECT_EQ(l.expiries, 0);
  l.deadline.expires_after(1ms);  // after stop: ignored
  l.ioc.restart();
  l.ioc.run_for(100ms);
  EXPECT_EQ(l.expiries, 0);
}

TEST(ConnDeadline, AZeroDeadlineExpiresAtOnceAndLeavesNoBusyTimer) {
  // A timeout of zero must not become the timer's floor: re-armed for "now" each time it fired,
  // it would spin until the next deadline, a whole core for as long.
  Loop l;
  l.deadline.expires_after(0ms);
  l.run_until_expired(5s);
  ASSERT_EQ(l.expiries, 1);
  timespec cpu0{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
  const auto start = Clock::now();
  l.deadline.expires_after(300ms);
  l.run_until_expired(5s);
  ASSERT_EQ(l.expiries, 2);
  EXPECT_GE(l.expired_at - start, 300ms);
  timespec cpu1{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
  const double cpu_ms = (cpu1.tv_sec - cpu0.tv_sec) * 1e3 + (cpu1.tv_nsec - cpu0.tv_nsec) / 1e6;
  EXPECT_LT(cpu_ms, 150.0) << "the loop spun while it waited 300 ms for the deadline";
}
