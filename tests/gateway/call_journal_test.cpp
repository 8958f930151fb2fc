// Call records through the journal (src/gateway/call_journal.hpp): they reach the chain in order
// and intact; a journal of a gateway killed with SIGKILL is replayed by the next opener with every
// record it acknowledged, none twice; a running gateway's journal is left alone; what waits for the
// writer is bounded; the journal file is emptied once committed and removed at the end.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>

#include "../examples/tmp_dir.hpp"
#include "gateway/state.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

std::vector<std::filesystem::path> journals(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().starts_with("audit-journal-")) out.push_back(e.path());
  return out;
}

// The "n" of every call record in the chain, in chain order.
std::vector<std::int64_t> call_numbers(const AuditLog& audit) {
  std::vector<std::int64_t> out;
  EXPECT_TRUE(audit.each([&](const AuditRecord& r) {
    if (r.kind == "call") out.push_back(r.body.at("n").as_int64());
    return true;
  }));
  return out;
}

class CallJournalTest : public ::testing::Test {
 protected:
  State open() {
    auto s = open_state(dir_.path);
    EXPECT_TRUE(s) << s.error().message;
    return *s;
  }
  mcp::test::TmpDir dir_;
};

TEST_F(CallJournalTest, RecordsReachTheChainInOrderAndTheJournalGoesAtTheEnd) {
  {
    auto s = open();
    ASSERT_TRUE(s.audit->start_journal());
    ASSERT_EQ(journals(dir_.path).size(), 1u);
    for (std::int64_t i = 1; i <= 300; ++i) ASSERT_TRUE(s.audit->append_call(json::object{{"n", i}}));
    ASSERT_TRUE(s.audit->append("config", json::object{{"n", 0}}));
    // A reader in this process sees every call journaled before it asked.
    auto seen = call_numbers(*s.audit);
    ASSERT_EQ(seen.size(), 300u);
    for (std::int64_t i = 1; i <= 300; ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i - 1)], i);
    auto c = s.audit->verify();
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_FALSE(c->first_broken) << c->why;
    EXPECT_EQ(c->records, 301);
  }
  EXPECT_TRUE(journals(dir_.path).empty());
}

// The gateway's kill -9 promise through the journal: a child journals call records and reports
// each after append_call returns; it is killed mid-stream. The next opener finds every reported
// record in the chain, none twice, the chain intact, and the journal gone.
TEST_F(CallJournalTest, KillNineLosesNoJournaledCallAndReplaysNoneTwice) {
  int acks[2];
  ASSERT_EQ(::pipe(acks), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(acks[0]);
    auto s = open_state(dir_.path);
    if (!s || !s->audit->start_journal()) ::_exit(3);
    for (std::int64_t i = 1;; ++i) {
      if (!s->audit->append_call(json::object{{"n", i}})) ::_exit(4);
      if (i == 40 && !s->audit->flush()) ::_exit(6);  // some committed with their mark, the rest not
      if (::write(acks[1], &i, sizeof i) != static_cast<ssize_t>(sizeof i)) ::_exit(5);
    }
  }
  ::close(acks[1]);
  std::int64_t last = 0, n = 0;
  while (last < 2000 && ::read(acks[0], &n, sizeof n) == static_cast<ssize_t>(sizeof n)) last = n;
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(acks[0]);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the child stopped on its own: " << status;
  ASSERT_GE(last, 2000);
  ASSERT_EQ(journals(dir_.path).size(), 1u);  // left behind by the killed process

  auto s = open();  // replays it
  EXPECT_TRUE(journals(dir_.path).empty());
  auto seen = call_numbers(*s.audit);
  std::set<std::int64_t> unique(seen.begin(), seen.end());
  EXPECT_EQ(unique.size(), seen.size()) << "a record was added twice";
  ASSERT_GE(seen.size(), static_cast<std::size_t>(last));
  for (std::int64_t i = 1; i <= last; ++i) EXPECT_TRUE(unique.contains(i)) << "call " << i << " was acknowledged and lost";
  auto c = s.audit->verify();
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->first_broken) << c->why;
  // And a second opener finds nothing more to add.
  auto again = open();
  EXPECT_EQ(call_numbers(*again.audit).size(), seen.size());
}

// A running gateway's journal is its own: another opener of the state folder (the CLI's audit
// commands, a second gateway) does not replay it, so nothing is recorded twice.
TEST_F(CallJournalTest, ALiveJournalIsNotReplayedByAnotherOpener) {
  auto running = open();
  ASSERT_TRUE(running.audit->start_journal());
  for (std::int64_t i = 1; i <= 50; ++i) ASSERT_TRUE(running.audit->append_call(json::object{{"n", i}}));
  auto other = open();  // recover() meets a locked journal
  EXPECT_EQ(journals(dir_.path).size(), 1u);
  ASSERT_TRUE(running.audit->flush());
  EXPECT_EQ(call_numbers(*other.audit).size(), 50u);
}

// A flood of calls holds at most kMaxQueued records for the writer (past it the appending thread
// commits them itself), and the journal file is emptied once what it holds is committed.
TEST_F(CallJournalTest, AFloodIsBoundedAndTheJournalIsEmptiedOnceCommitted) {
  auto s = open();
  ASSERT_TRUE(s.audit->start_journal());
  const auto file = journals(dir_.path).at(0);
  const std::string padding(400, 'x');
  std::size_t most = 0;
  auto j = CallJournal::start(dir_.path / "gateway.db");  // a second journal, to read its queue
  ASSERT_TRUE(j) << j.error().message;
  for (std::int64_t i = 1; i <= 12000; ++i) {
    ASSERT_TRUE((*j)->append("2026-11-26T00:00:00.000Z", json::object{{"n", i}, {"pad", padding}}));
    most = std::max(most, (*j)->queued());
  }
  EXPECT_LE(most, CallJournal::kMaxQueued);
  ASSERT_TRUE((*j)->flush());
  EXPECT_EQ((*j)->queued(), 0u);
  // 12,000 lines of ~450 bytes were written; what is left is less than the truncation point.
  EXPECT_LE(std::filesystem::file_size((*j)->file()), CallJournal::kTruncateAbove);
  EXPECT_EQ(call_numbers(*s.audit).size(), 12000u);
  const auto second = (*j)->file();
  j->reset();
  EXPECT_FALSE(std::filesystem::exists(second));
  EXPECT_TRUE(std::filesystem::exists(file));
}

}  // namespace
