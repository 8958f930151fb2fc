// The main of every test binary: GoogleTest's, then a bounded wait for the shared thread pool.
//
// Why: the shared pool's threads are never joined (see ThreadPool::shared()). A test can return
// while a handler's job is still finishing, e.g. releasing the session it kept alive or logging,
// and the process would then exit under it: ThreadSanitizer reports that as a race with static
// destruction, or as a leaked thread. Waiting until the pool is idle ends every binary quietly;
// a pool still busy after the wait is a job that never ends, and the binary says so and fails.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "mcp/session/thread_pool.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int rc = RUN_ALL_TESTS();
  using namespace std::chrono_literals;
  if (!mcp::ThreadPool::shared()->wait_idle(30s)) {
    std::fprintf(stderr, "test main: the shared thread pool still runs a job 30 s after the tests ended\n");
    rc = rc != 0 ? rc : 1;
  }
  return rc;
}
