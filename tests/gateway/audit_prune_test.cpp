// Pruning the audit log (AuditLog::prune, `mcp-trust audit prune`): its oldest records go, the
// chain is anchored where they end and says so in a "prune" record, and verify() holds what is left
// to that anchor. Each test fails if a pruned chain stops verifying, or if a cut that no prune
// record vouches for, or a change after the anchor, goes unseen.
#include <gtest/gtest.h>

#include <string>

#include "state_folder.hpp"

using namespace mcp;
using namespace mcp::gateway;
using mcp::test::append_records;
using mcp::test::tamper;

namespace {

class AuditPrune : public mcp::test::StateFolderTest {
 protected:
  static std::vector<std::int64_t> seqs(const State& s) {
    std::vector<std::int64_t> out;
    for (const auto& r : mcp::test::audit_records(s)) out.push_back(r.seq);
    return out;
  }
  std::optional<std::int64_t> first_broken() {
    auto s = open();
    auto c = s.audit->verify();
    EXPECT_TRUE(c) << c.error().message;
    return c ? c->first_broken : std::optional<std::int64_t>(-1);
  }
};

TEST_F(AuditPrune, WhatIsLeftVerifiesFromTheAnchorAndTheChainGoesOn) {
  auto s = open();
  append_records(s, 10);
  auto pruned = s.audit->prune(6, "cli:test");
  ASSERT_TRUE(pruned) << pruned.error().message;
  EXPECT_EQ(*pruned, 6);
  EXPECT_EQ(seqs(s), (std::vector<std::int64_t>{7, 8, 9, 10, 11}));
  auto last = s.audit->tail(1);
  ASSERT_TRUE(last && !last->empty());
  EXPECT_EQ(last->front().kind, "prune");
  EXPECT_EQ(last->front().body.at("through"), 6);
  EXPECT_EQ(last->front().body.at("count"), 6);
  append_records(s, 2);  // the chain goes on after the prune record
  auto check = s.audit->verify();
  ASSERT_TRUE(check) << check.error().message;
  EXPECT_FALSE(check->first_broken) << check->why;
  EXPECT_EQ(check->pruned_through, 6);
  EXPECT_EQ(check->records, 13);
  // Pruned again, past the first prune record: the second one vouches for the new anchor.
  ASSERT_TRUE(s.audit->prune(12, "cli:test"));
  EXPECT_EQ(first_broken(), std::nullopt);
  EXPECT_EQ(seqs(s), (std::vector<std::int64_t>{13, 14}));

  auto again = s.audit->prune(3, "cli:test");
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("pruned already"), std::string::npos) << again.error().message;
  auto missing = s.audit->prune(99, "cli:test");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no record 99"), std::string::npos) << missing.error().message;
}

// Cutting the first records and writing an anchor, without the prune record the chain would hold:
// named as a removal. So is a change to the records left, or to the anchor itself.
TEST_F(AuditPrune, ACutNoPruneRecordVouchesForIsARemoval) {
  {
    auto s = open();
    append_records(s, 8);
  }
  tamper(dir_.path,
         "DELETE FROM audit WHERE seq <= 3;"
         "INSERT INTO audit_anchor (id, seq, hash) SELECT 1, 3, prev FROM audit WHERE seq = 4");
  EXPECT_EQ(first_broken(), 4) << "the cut was taken for a prune";

  auto s = open();
  tamper(dir_.path, "DELETE FROM audit_anchor");
  ASSERT_TRUE(s.audit->prune(5, "cli:test"));
  EXPECT_EQ(first_broken(), std::nullopt);
  tamper(dir_.path, "UPDATE audit SET body = '{\"n\":42}' WHERE seq = 7");
  EXPECT_EQ(first_broken(), 7) << "a change after the anchor";
  tamper(dir_.path, "UPDATE audit SET body = '{\"n\":6}' WHERE seq = 7");
  EXPECT_EQ(first_broken(), std::nullopt);
  tamper(dir_.path, "UPDATE audit_anchor SET seq = 4");
  EXPECT_TRUE(first_broken()) << "a moved anchor";
}

// A check made before a prune goes on after it (the review page's, every second): the records it
// ended at are gone, so the chain is walked again from the anchor, and stays intact.
TEST_F(AuditPrune, AnEarlierCheckGoesOnAcrossAPrune) {
  auto s = open();
  append_records(s, 5);
  auto before = s.audit->verify();
  ASSERT_TRUE(before && !before->first_broken);
  ASSERT_TRUE(s.audit->prune(5, "cli:test"));
  append_records(s, 1);
  auto after = s.audit->verify(*before);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_FALSE(after->first_broken) << after->why;
  EXPECT_EQ(after->records, 7);
  EXPECT_EQ(after->pruned_through, 5);
}

}  // namespace
