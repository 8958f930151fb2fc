// Stream: the bounded, replayable event log behind each SSE stream.
#include "http/stream.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using mcp::http::Stream;

TEST(Stream, TakeAfterReturnsEventsInOrderWithStreamScopedIds) {
  Stream s("4", 16);
  EXPECT_EQ(s.position_id(), "4_0");
  EXPECT_EQ(s.last_seq(), 0u);
  s.push("a", false);
  s.push("b", false);
  s.push("c", false);
  auto all = s.take_after(0);
  ASSERT_EQ(all.events.size(), 3u);
  EXPECT_EQ(all.events[0].data, "a");
  EXPECT_EQ(all.events[1].data, "b");
  EXPECT_EQ(all.events[2].data, "c");
  EXPECT_EQ(all.events[0].id, "4_1");
  EXPECT_EQ(all.events[2].id, "4_3");
  EXPECT_EQ(all.events[2].seq, 3u);
  EXPECT_FALSE(all.done);
  EXPECT_FALSE(all.finished);
  auto tail = s.take_after(2);
  ASSERT_EQ(tail.events.size(), 1u);
  EXPECT_EQ(tail.events[0].data, "c");
  EXPECT_TRUE(s.take_after(3).events.empty());
  EXPECT_TRUE(s.take_after(99).events.empty());
  EXPECT_EQ(s.position_id(), "4_3");
}

TEST(Stream, LogIsBoundedAndKeepsTheNewest) {
  Stream s("1", 3);
  for (int i = 1; i <= 5; ++i) s.push("m" + std::to_string(i), false);
  auto b = s.take_after(0);
  ASSERT_EQ(b.events.size(), 3u);
  EXPECT_EQ(b.events[0].seq, 3u);
  EXPECT_EQ(b.events[0].data, "m3");
  EXPECT_EQ(b.events[2].data, "m5");
  EXPECT_EQ(s.last_seq(), 5u);  // sequence numbers keep counting past the bound
}

TEST(Stream, FinalPushFinishesAndLaterPushesAreIgnored) {
  Stream s("2", 8);
  s.push("progress", false);
  s.push("answer", true);
  EXPECT_TRUE(s.finished());
  s.push("late", false);
  auto b = s.take_after(0);
  ASSERT_EQ(b.events.size(), 2u);
  EXPECT_EQ(b.events.back().data, "answer");
  EXPECT_TRUE(b.done);
  EXPECT_TRUE(b.finished);
}

TEST(Stream, FinishEndsWritersWithoutAnAnswer) {
  Stream s("2", 8);
  std::atomic<int> wakes{0};
  ASSERT_TRUE(s.attach([&] { ++wakes; }));
  s.finish();
  EXPECT_EQ(wakes.load(), 1);
  auto b = s.take_after(0);
  EXPECT_TRUE(b.events.empty());
  EXPECT_TRUE(b.done);
  EXPECT_TRUE(b.finished);
  s.push("after finish", true);
  EXPECT_TRUE(s.take_after(0).events.empty());
}

TEST(Stream, CutBeforeAttachEndsTheFirstWriterOnly) {
  Stream s("3", 8);
  s.push("before", false);
  s.cut();  // a handler closed the stream before the POST's response started
  ASSERT_TRUE(s.attach([] {}));
  auto first = s.take_after(0);
  EXPECT_EQ(first.events.size(), 1u);
  EXPECT_TRUE(first.done);
  EXPECT_FALSE(first.finished);
  s.detach();
  // The resuming writer is not cut: it waits for the answer.
  ASSERT_TRUE(s.attach([] {}));
  auto second = s.take_after(1);
  EXPECT_TRUE(second.events.empty());
  EXPECT_FALSE(second.done);
  s.push("answer", true);
  auto third = s.take_after(1);
  ASSERT_EQ(third.events.size(), 1u);
  EXPECT_TRUE(third.done);
  s.detach();
}

TEST(Stream, CutAfterAttachWakesTheWriter) {
  Stream s("3", 8);
  std::atomic<int> wakes{0};
  ASSERT_TRUE(s.attach([&] { ++wakes; }));
  EXPECT_FALSE(s.take_after(0).done);
  s.cut();
  EXPECT_EQ(wakes.load(), 1);
  EXPECT_TRUE(s.consume_signal());
  EXPECT_TRUE(s.take_after(0).done);
  s.detach();
  EXPECT_FALSE(s.finished());
}

TEST(Stream, AttachTwiceIsRefusedUntilDetached) {
  Stream s("5", 8);
  EXPECT_FALSE(s.attached());
  ASSERT_TRUE(s.attach([] {}));
  EXPECT_TRUE(s.attached());
  EXPECT_FALSE(s.attach([] {}));
  s.detach();
  EXPECT_FALSE(s.attached());
  EXPECT_TRUE(s.attach([] {}));
}

TEST(Stream, SignalIsSetByPushAndClearedByTakeOrConsume) {
  Stream s("6", 8);
  EXPECT_FALSE(s.consume_signal());
  s.push("x", false);
  EXPECT_TRUE(s.consume_signal());
  EXPECT_FALSE(s.consume_signal());
  s.push("y", false);
  (void)s.take_after(0);
  EXPECT_FALSE(s.consume_signal());
}

TEST(Stream, WakerRunsWithoutTheLockHeld) {
  Stream s("7", 8);
  std::atomic<bool> reentered{false};
  // A waker that calls back into the stream would deadlock if the lock were held.
  ASSERT_TRUE(s.attach([&] { reentered = s.last_seq() > 0; }));
  std::thread t([&] { s.push("x", false); });
  t.join();
  EXPECT_TRUE(reentered.load());
  s.detach();
  s.push("no waker now", false);  // must not call the old waker
  EXPECT_EQ(s.take_after(0).events.size(), 2u);
}

TEST(Stream, ConcurrentPushersLoseNothing) {
  Stream s("8", 10000);
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t) {
    ts.emplace_back([&] {
      for (int i = 0; i < 500; ++i) s.push("m", false);
    });
  }
  for (auto& t : ts) t.join();
  auto b = s.take_after(0);
  ASSERT_EQ(b.events.size(), 2000u);
  for (std::size_t i = 0; i < b.events.size(); ++i) EXPECT_EQ(b.events[i].seq, i + 1);
}
