// The direct transport pair (mcp/transport/direct.hpp): delivered on the sender's thread, in
// order, one frame at a time per end, without recursion when callbacks send back; frames wait for
// start(); close reaches both ends once, after what was sent; an end destroyed while another
// thread is inside its callback waits for that callback.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "mcp/transport/direct.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Event;

namespace {

// What one end saw.
struct Seen {
  std::mutex mu;
  std::vector<std::string> frames;
  std::vector<std::thread::id> threads;
  int closes = 0;
  Event closed;
};

Transport::Callbacks recording(Seen& s) {
  return Transport::Callbacks{
      [&s](std::string f) {
        std::lock_guard l(s.mu);
        s.frames.push_back(std::move(f));
        s.threads.push_back(std::this_thread::get_id());
      },
      [&s](std::optional<Error>) {
        {
          std::lock_guard l(s.mu);
          ++s.closes;
        }
        s.closed.set();
      }};
}

TEST(DirectTransport, DeliversOnTheSendersThreadInOrder) {
  auto [a, b] = make_direct_transport_pair();
  Seen sa, sb;
  ASSERT_TRUE(a->start(recording(sa)));
  ASSERT_TRUE(b->start(recording(sb)));
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(a->send(std::to_string(i), SendInfo{}));
  ASSERT_EQ(sb.frames.size(), 100u);  // delivered before send() returned
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(sb.frames[static_cast<std::size_t>(i)], std::to_string(i));
    EXPECT_EQ(sb.threads[static_cast<std::size_t>(i)], std::this_thread::get_id());
  }
  EXPECT_TRUE(sa.frames.empty());
}

TEST(DirectTransport, FramesSentBeforeStartWaitForIt) {
  auto [a, b] = make_direct_transport_pair();
  Seen sa, sb;
  ASSERT_TRUE(a->start(recording(sa)));
  ASSERT_TRUE(a->send("early", SendInfo{}));
  ASSERT_TRUE(a->send("early2", SendInfo{}));
  EXPECT_TRUE(sb.frames.empty());
  ASSERT_TRUE(b->start(recording(sb)));
  ASSERT_EQ(sb.frames.size(), 2u);
  EXPECT_EQ(sb.frames[0], "early");
  EXPECT_EQ(sb.frames[1], "early2");
  EXPECT_FALSE(b->start(recording(sb)));  // once
}

// A ping-pong of 10,000 rounds where each callback answers inline: the nesting of callbacks on the
// stack stays at two (one per end) instead of growing with the rounds.
TEST(DirectTransport, CallbacksThatSendBackDoNotRecurse) {
  auto [a, b] = make_direct_transport_pair();
  thread_local int depth = 0;
  int deepest = 0;
  int rounds = 0;
  auto bounce = [&](std::shared_ptr<Transport>& self) {
    return Transport::Callbacks{[&](std::string f) {
                                  ++depth;
                                  deepest = std::max(deepest, depth);
                                  int n = std::stoi(f);
                                  ++rounds;
                                  if (n < 10000) (void)self->send(std::to_string(n + 1), SendInfo{});
                                  --depth;
                                },
                                [](std::optional<Error>) {}};
  };
  ASSERT_TRUE(a->start(bounce(a)));
  ASSERT_TRUE(b->start(bounce(b)));
  ASSERT_TRUE(a->send("0", SendInfo{}));
  EXPECT_EQ(rounds, 10001);
  EXPECT_LE(deepest, 2);
}

// Four threads send at once: every frame arrives once, each sender's in its order, and the
// receiving end's callback never runs twice at the same time.
TEST(DirectTransport, ConcurrentSendersAreDeliveredOneAtATime) {
  auto [a, b] = make_direct_transport_pair();
  std::atomic<int> inside{0};
  std::atomic<bool> overlapped{false};
  std::mutex mu;
  std::vector<std::vector<int>> per_sender(4);
  ASSERT_TRUE(b->start(Transport::Callbacks{[&](std::string f) {
                                              if (inside.fetch_add(1) != 0) overlapped = true;
                                              const int sender = f[0] - '0';
                                              {
                                                std::lock_guard l(mu);
                                                per_sender[static_cast<std::size_t>(sender)].push_back(std::stoi(f.substr(2)));
                                              }
                                              inside.fetch_sub(1);
                                            },
                                            [](std::optional<Error>) {}}));
  Seen sa;
  ASSERT_TRUE(a->start(recording(sa)));
  {
    std::vector<std::jthread> senders;
    for (int k = 0; k < 4; ++k) {
      senders.emplace_back([&, k] {
        for (int i = 0; i < 5000; ++i) (void)a->send(std::to_string(k) + ":" + std::to_string(i), SendInfo{});
      });
    }
  }
  EXPECT_FALSE(overlapped.load());
  for (const auto& seq : per_sender) {
    ASSERT_EQ(seq.size(), 5000u);
    for (int i = 0; i < 5000; ++i) EXPECT_EQ(seq[static_cast<std::size_t>(i)], i);
  }
}

TEST(DirectTransport, CloseReachesBothEndsOnceAfterWhatWasSent) {
  auto [a, b] = make_direct_transport_pair();
  Seen sa, sb;
  ASSERT_TRUE(a->start(recording(sa)));
  ASSERT_TRUE(a->send("before", SendInfo{}));  // b not started: waits
  a->close();
  a->close();
  EXPECT_TRUE(sa.closed.is_set());
  EXPECT_FALSE(a->send("after", SendInfo{}));
  EXPECT_FALSE(b->send("after", SendInfo{}));
  ASSERT_TRUE(b->start(recording(sb)));  // what was sent first, then the close
  ASSERT_EQ(sb.frames.size(), 1u);
  EXPECT_EQ(sb.frames[0], "before");
  EXPECT_TRUE(sb.closed.is_set());
  EXPECT_EQ(sa.closes, 1);
  EXPECT_EQ(sb.closes, 1);
}

// A close from inside a callback: the close is told after that callback returns, not within it.
TEST(DirectTransport, CloseFromInsideACallbackIsToldAfterIt) {
  auto [a, b] = make_direct_transport_pair();
  Seen sa;
  std::vector<std::string> order;
  ASSERT_TRUE(a->start(recording(sa)));
  ASSERT_TRUE(b->start(Transport::Callbacks{[&, bb = b.get()](std::string) {
                                              order.push_back("message");
                                              bb->close();
                                              order.push_back("closed inside");
                                            },
                                            [&](std::optional<Error>) { order.push_back("on_close"); }}));
  ASSERT_TRUE(a->send("x", SendInfo{}));
  EXPECT_EQ(order, (std::vector<std::string>{"message", "closed inside", "on_close"}));
  EXPECT_TRUE(sa.closed.is_set());
}

// Destroying an end while another thread is inside its callback waits for that callback to return
// (what the callback captures may die with the end's owner), and nothing is delivered after.
TEST(DirectTransport, DestroyingAnEndWaitsForACallbackInProgress) {
  auto [a, b] = make_direct_transport_pair();
  Seen sa;
  Event inside, release, destroying, destroyed_ev;
  std::atomic<int> after{0};
  std::atomic<bool> destroyed{false};
  ASSERT_TRUE(a->start(recording(sa)));
  ASSERT_TRUE(b->start(Transport::Callbacks{[&](std::string f) {
                                              if (f == "hold") {
                                                inside.set();
                                                release.wait();
                                                EXPECT_FALSE(destroyed.load());
                                              } else {
                                                ++after;
                                              }
                                            },
                                            [](std::optional<Error>) {}}));
  std::jthread sender([&] { (void)a->send("hold", SendInfo{}); });
  ASSERT_TRUE(inside.wait());
  (void)a->send("queued", SendInfo{});  // behind the held one, delivered by the sender's thread
  std::jthread destroyer([&, end = std::move(b)]() mutable {
    destroying.set();
    end.reset();
    destroyed = true;
    destroyed_ev.set();
  });
  ASSERT_TRUE(destroying.wait());
  // It must not finish while the callback is held (a bounded wait for what must not happen).
  EXPECT_FALSE(destroyed_ev.wait(200ms));
  release.set();
  destroyer.join();
  sender.join();
  EXPECT_TRUE(destroyed.load());
  EXPECT_LE(after.load(), 1);  // "queued" may or may not have gone before the end was marked gone
}

}  // namespace
