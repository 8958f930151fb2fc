// Whether a caller blocked on request() spins for its answer (src/session/spin_advisor.hpp): the
// advisor's rule, and a session learning from its peer's answers.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "mcp/session/session.hpp"
#include "mcp/transport/memory.hpp"
#include "session/spin_advisor.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using detail::SpinAdvisor;

namespace {

constexpr auto kQuick = SpinAdvisor::kWindow / 2;
constexpr auto kSlow = SpinAdvisor::kQuick * 10;

TEST(SpinAdvisor, ANewOneCountsItsAnswersQuick) { EXPECT_TRUE(SpinAdvisor{}.quick()); }

TEST(SpinAdvisor, StopsOnceMostOfItsLastAnswersCameAfterTheWindow) {
  SpinAdvisor a;
  // Half of the last 16 slow: still spinning. One more: most were slow.
  for (int i = 0; i < SpinAdvisor::kHistory / 2; ++i) a.answered(kSlow);
  EXPECT_TRUE(a.quick());
  a.answered(kSlow);
  EXPECT_FALSE(a.quick());
}

TEST(SpinAdvisor, AnAnswerAtTheQuickLimitCountsAsQuickAndOneJustPastItDoesNot) {
  SpinAdvisor a;
  for (int i = 0; i < SpinAdvisor::kHistory; ++i) a.answered(SpinAdvisor::kQuick + 1ns);
  EXPECT_FALSE(a.quick());
  for (int i = 0; i < SpinAdvisor::kHistory; ++i) a.answered(SpinAdvisor::kQuick);
  EXPECT_TRUE(a.quick());
}

TEST(SpinAdvisor, OneSlowAnswerAmongQuickOnesChangesNothing) {
  SpinAdvisor a;
  for (int round = 0; round < 10; ++round) {
    a.answered(kSlow);
    for (int i = 0; i < 3; ++i) a.answered(kQuick);
    EXPECT_TRUE(a.quick()) << round;
  }
}

TEST(SpinAdvisor, SpinsAgainOnceHalfOfItsLastAnswersAreQuickAgain) {
  SpinAdvisor a;
  for (int i = 0; i < 3 * SpinAdvisor::kHistory; ++i) a.answered(kSlow);  // only the last 16 count
  ASSERT_FALSE(a.quick());
  for (int i = 0; i < SpinAdvisor::kHistory / 2 - 1; ++i) {
    a.answered(kQuick);
    EXPECT_FALSE(a.quick()) << i;
  }
  a.answered(kQuick);
  EXPECT_TRUE(a.quick());
}

TEST(SpinAdvisor, AnswersFromManyThreadsAtOnce) {
  SpinAdvisor a;
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([&] {
        for (int i = 0; i < 10'000; ++i) a.answered(kSlow);
      });
  }
  EXPECT_FALSE(a.quick());  // and TSan sees no race: answers of one session come on several threads
}

TEST(SpinAdvisor, ACallerAloneSpinsAndOneOfSeveralOnlyForQuickAnswers) {
  SpinAdvisor a;
  for (int i = 0; i < SpinAdvisor::kHistory; ++i) a.answered(kSlow);
  {
    SpinAdvisor::Waiting first(a);
    EXPECT_TRUE(first.spin());  // alone
    SpinAdvisor::Waiting second(a);
    EXPECT_FALSE(second.spin());  // another waits, and answers come late
    EXPECT_TRUE(first.spin());    // decided when it began waiting
  }
  SpinAdvisor::Waiting later(a);
  EXPECT_TRUE(later.spin());  // alone again: the others have gone
  for (int i = 0; i < SpinAdvisor::kHistory; ++i) a.answered(kQuick);
  SpinAdvisor::Waiting with_quick_answers(a);
  EXPECT_TRUE(with_quick_answers.spin());
}

// A session whose peer answers each request after `delay`.
struct SlowPeer : Session::Handler {
  std::chrono::microseconds delay;
  explicit SlowPeer(std::chrono::microseconds d) : delay(d) {}
  Result<json::value> handle_request(InboundRequest&) override {
    std::this_thread::sleep_for(delay);  // the peer under test is slow: not a wait for an event
    return json::object{};
  }
  void handle_notification(const jsonrpc::Notification&) override {}
};

struct Caller : Session::Handler {
  void handle_notification(const jsonrpc::Notification&) override {}
};

struct Link {
  SlowPeer peer;
  Caller caller;
  std::shared_ptr<Session> ours, theirs;
  explicit Link(std::chrono::microseconds delay) : peer(delay) {
    auto [a, b] = make_memory_transport_pair();
    ours = Session::create(a, caller, {});
    theirs = Session::create(b, peer, {});
    EXPECT_TRUE(ours->start());
    EXPECT_TRUE(theirs->start());
  }
  ~Link() {
    ours->shutdown();
    theirs->shutdown();
  }
};

TEST(SessionSpin, ACallerStopsSpinningForAPeerWhoseAnswersComeLate) {
  Link link(std::chrono::duration_cast<std::chrono::microseconds>(kSlow));
  EXPECT_TRUE(link.ours->spins_for_answers());
  for (int i = 0; i < SpinAdvisor::kHistory / 2 + 1; ++i) ASSERT_TRUE(link.ours->request("slow", {}));
  EXPECT_FALSE(link.ours->spins_for_answers());
}

TEST(SessionSpin, AnswersNobodyWaitsForDoNotTeachIt) {
  // request_async's caller does not spin, so its answers say nothing about spinning.
  Link link(std::chrono::duration_cast<std::chrono::microseconds>(kSlow));
  std::atomic<int> answered{0};
  for (int i = 0; i < SpinAdvisor::kHistory; ++i) {
    link.ours->request_async("slow", {}, {}, [&](Result<json::value> r) {
      EXPECT_TRUE(r);
      answered.fetch_add(1);
      answered.notify_all();
    });
  }
  for (int seen = answered.load(); seen < SpinAdvisor::kHistory; seen = answered.load()) answered.wait(seen);
  EXPECT_TRUE(link.ours->spins_for_answers());
}

}  // namespace
