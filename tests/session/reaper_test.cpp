// detail::reap: a thread whose owner was destroyed on it is joined, not left to outlive main().
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <memory>
#include <thread>

#include "session/reaper.hpp"

using namespace std::chrono_literals;

namespace {

// In a child process: a thread hands itself to the reaper, as a transport's thread does when its
// last reference goes on it, then runs `tail` (the rest of its owner's destructor); main() exits
// as soon as the thread was handed in.
[[noreturn]] void exit_after_handing_in(std::function<void()> tail) {
  auto self = std::make_shared<std::thread>();
  std::promise<void> started, handed;
  auto start = started.get_future();
  auto handed_in = handed.get_future();
  *self = std::thread([self, start = std::move(start), &handed, tail = std::move(tail)]() mutable {
    start.wait();
    mcp::detail::reap(std::move(*self));
    handed.set_value();
    tail();
  });
  started.set_value();
  handed_in.wait();
  std::exit(0);
}

}  // namespace

TEST(Reaper, AThreadThatNeverEndsDoesNotHoldTheExit) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // Without the bound the child never exits and the test hangs until ctest's timeout.
  EXPECT_EXIT(exit_after_handing_in([] { std::promise<void>().get_future().wait(); }),  // never set
              testing::ExitedWithCode(0), "");
}

TEST(Reaper, AThreadHandedInEndsBeforeTheProcessExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // A detached thread would be killed by exit() before its tail printed; a reaped one ends first.
  EXPECT_EXIT(exit_after_handing_in([] {
                std::this_thread::sleep_for(300ms);  // long enough that exit() would overtake it
                std::fputs("the reaped thread ran to its end\n", stderr);
              }),
              testing::ExitedWithCode(0), "the reaped thread ran to its end");
}

TEST(Reaper, EveryHandedThreadIsJoined) {
  // Many owners released on their own threads at once: each thread is joined (its stack given
  // back), none is lost or joined twice.
  constexpr int kThreads = 64;
  std::promise<void> go;  // each thread's handle is stored before any thread moves it away
  std::shared_future<void> start = go.get_future().share();
  std::vector<std::future<void>> handed;
  for (int i = 0; i < kThreads; ++i) {
    auto self = std::make_shared<std::thread>();
    auto done = std::make_shared<std::promise<void>>();
    handed.push_back(done->get_future());
    *self = std::thread([self, done, start] {
      start.wait();
      mcp::detail::reap(std::move(*self));
      done->set_value();
    });
  }
  go.set_value();
  for (auto& f : handed) ASSERT_EQ(f.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(mcp::detail::wait_reaped(10s)) << "a handed thread was never joined";
}
