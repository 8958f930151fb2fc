// ThreadPool::wait_idle (include/mcp/session/thread_pool.hpp): it waits for queued and running
// jobs, and for what they captured to be destroyed, which is what lets a program (and every test
// binary's main) exit only once no handler is still finishing.
#include <gtest/gtest.h>
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <string>

#include "mcp/session/thread_pool.hpp"
#include "support/event.hpp"

using namespace std::chrono_literals;

namespace {

TEST(ThreadPoolIdle, WaitsForARunningJobAndWhatItCaptured) {
  auto pool = mcp::ThreadPool::create({});
  mcp::test::Event running;
  mcp::test::Event release;
  auto captured = std::make_shared<int>(7);
  std::weak_ptr<int> watch = captured;
  ASSERT_TRUE(pool->post([&, keep = std::move(captured)] {
    running.set();
    release.wait();
  }));
  ASSERT_TRUE(running.wait());
  EXPECT_FALSE(pool->wait_idle(20ms)) << "idle while a job runs";
  release.set();
  ASSERT_TRUE(pool->wait_idle(10s));
  EXPECT_TRUE(watch.expired()) << "idle before the job's captures were destroyed";
}

TEST(ThreadPoolIdle, WaitsForQueuedJobsBehindTheOnlyThread) {
  mcp::ThreadPool::Options o;
  o.max_threads = 1;
  auto pool = mcp::ThreadPool::create(o);
  mcp::test::Event release;
  std::atomic<int> ran{0};
  ASSERT_TRUE(pool->post([&] { release.wait(); ++ran; }));
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(pool->post([&] { ++ran; }));
  EXPECT_FALSE(pool->wait_idle(20ms));
  release.set();
  ASSERT_TRUE(pool->wait_idle(10s));
  EXPECT_EQ(ran.load(), 6) << "idle with jobs still queued";
}

TEST(ThreadPoolIdle, FromOneOfItsOwnJobsItWaitsForTheOthersOnly) {
  auto pool = mcp::ThreadPool::create({});
  auto idle = std::make_shared<std::promise<bool>>();
  auto got = idle->get_future();
  ASSERT_TRUE(pool->post([pool, idle] { idle->set_value(pool->wait_idle(10s)); }));
  ASSERT_EQ(got.wait_for(20s), std::future_status::ready);
  EXPECT_TRUE(got.get()) << "a job waited for its own thread";
}

TEST(ThreadPoolIdle, APoolThatNeverRanAJobIsIdle) {
  auto pool = mcp::ThreadPool::create({});
  EXPECT_TRUE(pool->wait_idle(0ms));
}

}  // namespace

namespace {

// A worker names itself rather than keep the name of the thread that posted the job that started
// it (an HTTP server's loop, say), so that top -H and /proc say what it is.
TEST(ThreadPoolWorkers, NameThemselves) {
  char own[16] = {};
  pthread_getname_np(pthread_self(), own, sizeof own);
  pthread_setname_np(pthread_self(), "test-poster");
  auto pool = mcp::ThreadPool::create({});
  std::promise<std::string> name;
  ASSERT_TRUE(pool->post([&] {
    char buf[16] = {};
    pthread_getname_np(pthread_self(), buf, sizeof buf);
    name.set_value(buf);
  }));
  auto got = name.get_future();
  ASSERT_EQ(got.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(got.get(), "mcp-worker");
  EXPECT_TRUE(pool->wait_idle(10s));
  pthread_setname_np(pthread_self(), own);
}

}  // namespace
