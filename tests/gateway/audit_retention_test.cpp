// The gateway pruning its own audit log (AuditRetention, gateway.audit): the newest keepRecords
// stay (pruned once a tenth more is over), records older than keepDays go, a broken chain is left
// for a person, a new policy applies at once, and a flood of calls recorded while it runs leaves a
// log bounded by the policy and intact. Each test fails if the log grows past its policy, if a
// prune leaves a chain that no longer verifies, or if a break is pruned away.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "gateway/audit_retention.hpp"
#include "state_folder.hpp"

using namespace mcp;
using namespace mcp::gateway;
using namespace std::chrono_literals;
using mcp::test::append_records;
using mcp::test::audit_records;
using mcp::test::tamper;

namespace {

class AuditRetentionTest : public mcp::test::StateFolderTest {
 protected:
  static ChainCheck intact(const State& s) {
    auto check = s.audit->verify();
    EXPECT_TRUE(check) << check.error().message;
    if (!check) return {};
    EXPECT_FALSE(check->first_broken) << check->why;
    return *check;
  }
  // A retention whose thread looks only when asked (the tests run passes themselves).
  static std::unique_ptr<AuditRetention> idle(const State& s, RetentionPolicy p) {
    auto r = AuditRetention::start(s.audit, std::move(p), std::chrono::hours(1));
    EXPECT_TRUE(r->wait_for_rounds(1, 10s)) << "the first round runs at once";
    return r;
  }
};

TEST_F(AuditRetentionTest, KeepsTheNewestRecordsOnceATenthMoreIsOver) {
  auto s = open();
  append_records(s, 109);
  auto r = idle(s, RetentionPolicy{.keep_records = 100});
  auto pass = r->run_once(std::chrono::system_clock::now());
  ASSERT_TRUE(pass) << pass.error().message;
  EXPECT_EQ(pass->pruned, 0) << "9 over 100 is under a tenth: not pruned a few records at a time";
  EXPECT_EQ(audit_records(s).size(), 109u);

  append_records(s, 1);
  pass = r->run_once(std::chrono::system_clock::now());
  ASSERT_TRUE(pass) << pass.error().message;
  EXPECT_EQ(pass->pruned, 10);
  EXPECT_EQ(pass->through, 10);
  const auto left = audit_records(s);
  ASSERT_EQ(left.size(), 101u) << "the newest 100, and the prune record";
  EXPECT_EQ(left.front().seq, 11);
  EXPECT_EQ(left.back().kind, "prune");
  EXPECT_EQ(left.back().body.at("by"), "gateway:retention (keepRecords 100)") << "who pruned, and by which policy";
  EXPECT_EQ(r->pruned_total(), 10);
  EXPECT_FALSE(r->chain_broken());
  EXPECT_EQ(intact(s).pruned_through, 10);
}

TEST_F(AuditRetentionTest, PrunesWhatIsOlderThanKeepDays) {
  auto s = open();
  append_records(s, 5);
  auto r = idle(s, RetentionPolicy{.keep_for = std::chrono::hours(24)});
  auto now = r->run_once(std::chrono::system_clock::now());
  ASSERT_TRUE(now) << now.error().message;
  EXPECT_EQ(now->pruned, 0) << "nothing is a day old yet";
  auto later = r->run_once(std::chrono::system_clock::now() + std::chrono::hours(49));
  ASSERT_TRUE(later) << later.error().message;
  EXPECT_EQ(later->pruned, 5);
  const auto left = audit_records(s);
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left.front().kind, "prune");
  EXPECT_EQ(left.front().body.at("by"), "gateway:retention (keepDays 1)");
  EXPECT_EQ(intact(s).pruned_through, 5);
  append_records(s, 2);  // the chain goes on, and the next pass walks on from where this one stopped
  auto again = r->run_once(std::chrono::system_clock::now());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->pruned, 0);
  EXPECT_EQ(intact(s).records, 8);
}

TEST_F(AuditRetentionTest, ABrokenChainIsLeftForAPerson) {
  auto s = open();
  append_records(s, 200);
  tamper(dir_.path, "UPDATE audit SET body = '{\"n\":999}' WHERE seq = 5");
  auto r = idle(s, RetentionPolicy{.keep_records = 10});
  auto pass = r->run_once(std::chrono::system_clock::now());
  ASSERT_TRUE(pass) << pass.error().message;
  EXPECT_EQ(pass->pruned, 0);
  ASSERT_TRUE(pass->refused);
  EXPECT_NE(pass->refused->find("broken at record 5"), std::string::npos) << *pass->refused;
  EXPECT_TRUE(r->chain_broken()) << "/metrics says so";
  EXPECT_EQ(audit_records(s).size(), 200u) << "the changed record, and the rest, are still there to be seen";
}

TEST_F(AuditRetentionTest, ANewPolicyAppliesWithoutWaitingForTheNextRound) {
  auto s = open();
  append_records(s, 300);
  auto r = idle(s, RetentionPolicy{.keep_records = 1000});
  EXPECT_EQ(audit_records(s).size(), 300u);
  const auto rounds = r->rounds();
  r->set_policy(RetentionPolicy{.keep_records = 10});
  ASSERT_TRUE(r->wait_for_rounds(rounds + 1, 10s)) << "the thread looks an hour apart unless asked";
  EXPECT_EQ(audit_records(s).size(), 11u);
  EXPECT_EQ(intact(s).pruned_through, 290);
}

// The bound a flood of calls meets: four threads record 12,000 calls through the journal (as the
// serving gateway does) while the retention looks every 5 ms. Once it has looked after the flood,
// the log holds at most keepRecords + keepRecords/10 records, and verifies.
TEST_F(AuditRetentionTest, AFloodOfCallsLeavesALogBoundedByThePolicy) {
  auto s = open();
  ASSERT_TRUE(s.audit->start_journal());
  constexpr std::int64_t kKeep = 500;
  auto r = AuditRetention::start(s.audit, RetentionPolicy{.keep_records = kKeep}, 5ms);
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([&s, t] {
      for (int i = 0; i < 3000; ++i) {
        const std::string body = R"({"caller":)" + std::to_string(t) + R"(,"n":)" + std::to_string(i) + "}";
        if (!s.audit->append_call_canonical(body)) return;
      }
    });
  }
  for (auto& c : callers) c.join();
  ASSERT_TRUE(s.audit->flush());
  const auto after_flood = r->rounds();
  ASSERT_TRUE(r->wait_for_rounds(after_flood + 2, 30s)) << "a whole round after the last call";
  const auto check = intact(s);
  EXPECT_GE(check.records, 12'000) << "every call has its sequence number (and each prune one more)";
  const auto left = audit_records(s);
  EXPECT_LE(static_cast<std::int64_t>(left.size()), kKeep + kKeep / 10);
  EXPECT_GE(static_cast<std::int64_t>(left.size()), kKeep) << "the newest records stay";
  EXPECT_GT(check.pruned_through, 0);
  EXPECT_EQ(left.back().seq, check.records) << "what is left is the chain's end";
  EXPECT_EQ(left.front().seq, check.pruned_through + 1);
}

}  // namespace
