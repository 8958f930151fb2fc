// Call records through the journal (src/gateway/call_journal.hpp): they reach the chain in order
// and intact; a journal of a gateway killed with SIGKILL, over several segments, is replayed by the
// next opener with every record it acknowledged, none twice; a running gateway's journal is left
// alone; what waits for the writer is bounded; full segments go once committed, the rest at the
// end; a record the chain could not hash is refused before it can stop the others; the writer
// thread is named.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <sqlite3.h>

#include <fstream>
#include <cstring>
#include <future>
#include <iterator>
#include <optional>
#include <thread>
#include <set>

#include "gateway/journal_check.hpp"
#include "kill_nine.hpp"
#include "mcp/trust/jcs.hpp"
#include "state_folder.hpp"

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

// A body as the journal takes it: its RFC 8785 text.
std::string canonical(const json::object& body) {
  auto text = trust::canonicalize(body);
  EXPECT_TRUE(text) << text.error().message;
  return text ? *text : std::string();
}

class CallJournalTest : public mcp::test::StateFolderTest {};

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

// The writer hashes a record from its body's canonical text, spliced into the record's, where
// verify() canonicalizes the whole record again: the two must agree for any body (escapes,
// non-ASCII, numbers JCS rewrites, nesting, members out of order).
TEST_F(CallJournalTest, ARecordHashedFromItsCanonicalTextVerifies) {
  auto s = open();
  ASSERT_TRUE(s.audit->start_journal());
  const std::vector<json::object> bodies = {
      json::object{{"z", 1}, {"a", "quote \" and backslash \\ and newline \n"}},
      json::object{{"item", "\xC3\xA9t\xC3\xA9 \xF0\x9F\x94\x91"}, {"latencyUs", 12.50}, {"big", 1e21}},
      json::object{{"nested", json::object{{"b", json::array{1, "x", nullptr, true}}, {"a", json::object{}}}}},
      json::object{{"\xEF\xBD\xA1", 1}, {"\xF0\x90\x80\x80", 2}},  // UTF-16 order differs from bytes'
  };
  for (const auto& b : bodies) ASSERT_TRUE(s.audit->append_call(b));
  auto c = s.audit->verify();
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->first_broken) << c->why;
  EXPECT_EQ(c->records, static_cast<std::int64_t>(bodies.size()));
  std::size_t i = 0;
  ASSERT_TRUE(s.audit->each([&](const AuditRecord& r) {
    EXPECT_EQ(json::value(r.body), json::value(bodies[i++]));
    return true;
  }));
}

// A commit that fails (another process holds the database's write lock past the busy timeout)
// puts its records back in front of those appended while it waited: once the lock is gone, all
// of them reach the chain in order, each with its own time and body.
TEST_F(CallJournalTest, ABatchThatCouldNotCommitIsCommittedLaterInOrder) {
  auto s = open();
  auto j = CallJournal::start(dir_.path / "gateway.db");
  ASSERT_TRUE(j) << j.error().message;
  auto time_of = [](std::int64_t i) { return "2026-11-26T20:00:" + std::to_string(10 + i) + ".000Z"; };
  for (std::int64_t i = 1; i <= 10; ++i) ASSERT_TRUE((*j)->append(time_of(i), canonical(json::object{{"n", i}})));
  ASSERT_TRUE((*j)->flush());
  sqlite3* blocker = nullptr;
  ASSERT_EQ(sqlite3_open((dir_.path / "gateway.db").c_str(), &blocker), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(blocker, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  for (std::int64_t i = 11; i <= 20; ++i) ASSERT_TRUE((*j)->append(time_of(i), canonical(json::object{{"n", i}, {"pad", std::string(static_cast<std::size_t>(i), 'x')}})));
  // The writer takes them (all, or the first of them on a slow machine) and waits on the lock
  // (~5 s, the busy timeout) while more arrive.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while ((*j)->queued() == 10 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_LT((*j)->queued(), 10u) << "the writer did not take a batch";
  for (std::int64_t i = 21; i <= 30; ++i) ASSERT_TRUE((*j)->append(time_of(i), canonical(json::object{{"n", i}})));
  EXPECT_FALSE((*j)->flush());  // busy
  ASSERT_EQ(sqlite3_exec(blocker, "COMMIT", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(blocker);
  ASSERT_TRUE((*j)->flush());
  std::vector<std::int64_t> expected;
  for (std::int64_t i = 1; i <= 30; ++i) expected.push_back(i);
  EXPECT_EQ(call_numbers(*s.audit), expected);
  ASSERT_TRUE(s.audit->each([&](const AuditRecord& r) {
    const std::int64_t n = r.body.at("n").as_int64();
    EXPECT_EQ(r.time, time_of(n));
    if (n > 10 && n <= 20) {
      EXPECT_EQ(r.body.at("pad").as_string().size(), static_cast<std::size_t>(n));
    }
    return true;
  }));
  auto c = s.audit->verify();
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->first_broken) << c->why;
  EXPECT_EQ(c->records, 30);
}

// The gateway's kill -9 promise through the journal: a child journals call records and reports
// each after append_call returns; it is killed mid-stream. The next opener finds every reported
// record in the chain, none twice, the chain intact, and the journal gone.
TEST_F(CallJournalTest, KillNineLosesNoJournaledCallAndReplaysNoneTwice) {
  auto acked = mcp::test::kill_nine_after(3000, [&](const auto& ack) {
    auto s = open_state(dir_.path);
    if (!s || !s->audit->start_journal()) ::_exit(3);
    const std::string pad(300, 'p');  // 3,000 records: four segments and more
    sqlite3* blocker = nullptr;
    for (std::int64_t i = 1;; ++i) {
      if (!s->audit->append_call(json::object{{"n", i}, {"pad", pad}})) ::_exit(4);
      if (i == 40) {
        // Some committed with their mark; then another connection holds the write lock, so the
        // rest wait in the journal, across segments, as behind a long `gateway approve`.
        if (!s->audit->flush()) ::_exit(6);
        if (sqlite3_open((dir_.path / "gateway.db").c_str(), &blocker) != SQLITE_OK ||
            sqlite3_busy_timeout(blocker, 5000) != SQLITE_OK ||
            sqlite3_exec(blocker, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
          ::_exit(7);
        }
      }
      ack(i);
    }
  });
  ASSERT_TRUE(acked) << acked.error().message;
  const std::int64_t last = *acked;
  ASSERT_GE(last, 3000);
  ASSERT_GE(journals(dir_.path).size(), 4u);  // the killed process's segments, left behind

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

// What a dead gateway's segment holds past its last record: a line cut by the process's death in
// the middle of its copy, then the zeros of the segment's allocated, unwritten tail. The next
// opener replays the complete records only, and removes the segment.
TEST_F(CallJournalTest, ACutLastLineAndTheZeroTailOfADeadSegmentAreLeftOut) {
  { auto first = open(); }  // the database and its tables
  std::string text;
  for (int n = 1; n <= 2; ++n) {
    text += R"({"j":)" + std::to_string(n) + R"(,"t":"2026-11-26T17:00:00.000Z","b":{"n":)" + std::to_string(n) + "}}\n";
  }
  text += R"({"j":3,"t":"2026-11-26T17:00:00.000Z","b":{"n":3)";  // cut: no end, no newline
  text.resize(CallJournal::kSegmentBytes, '\0');
  // Past the zeros nothing is read: not even a complete line, which no journal writes there.
  text += "\n" R"({"j":4,"t":"2026-11-26T17:00:00.000Z","b":{"n":4}})" "\n";
  const auto segment = dir_.path / "audit-journal-1-00112233aabbccdd-1";
  std::ofstream(segment, std::ios::binary) << text;
  auto s = open();
  EXPECT_EQ(call_numbers(*s.audit), (std::vector<std::int64_t>{1, 2}));
  EXPECT_FALSE(std::filesystem::exists(segment));
  auto c = s.audit->verify();
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->first_broken) << c->why;
}

// A journal line as an earlier version wrote it: its check is FNV-1a (64-bit) of the text before
// `,"c":`, in 16 hex digits.
std::string fnv_checked_line(std::int64_t j, const std::string& body) {
  std::string text = R"({"j":)" + std::to_string(j) + R"(,"t":"2026-11-26T17:00:00.000Z","b":)" + body;
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return text + R"(,"c":")" + hex + "\"}\n";
}

// A journal line as this version writes it (call_journal.hpp).
std::string checked_line(std::int64_t j, const std::string& body) {
  std::string text = R"({"j":)" + std::to_string(j) + R"(,"t":"2026-11-26T17:00:00.000Z","b":)" + body;
  std::string line = text;
  append_journal_check(line, text);
  return line + "\n";
}

// Replaces the first `from` in a line with `to` (of the same length): valid JSON, the check of
// another text.
std::string spliced(std::string line, std::string_view from, std::string_view to) {
  line.replace(line.find(from), from.size(), to);
  return line;
}

// After a power loss a reused segment may hold a line whose first part is new and whose rest is
// an old line's (a page that never reached the disk): it is left out by its check, whatever it
// parses as. Lines written before lines had checks are replayed as they are.
TEST_F(CallJournalTest, ALineSplicedFromTwoIsLeftOutByItsCheck) {
  { auto first = open(); }  // the database and its tables
  const std::string text = checked_line(1, R"({"n":1})") +
                           spliced(checked_line(2, R"({"n":2,"pad":"new"})"), "new", "old") +
                           checked_line(3, R"({"n":3})") +
                           R"({"j":4,"t":"2026-11-26T17:00:00.000Z","b":{"n":4}})"
                           "\n";
  const auto segment = dir_.path / "audit-journal-1-00112233aabbccdd-1";
  std::ofstream(segment, std::ios::binary) << text;
  auto s = open();
  EXPECT_EQ(call_numbers(*s.audit), (std::vector<std::int64_t>{1, 3, 4}));
  auto c = s.audit->verify();
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->first_broken) << c->why;
}

// A FIFO planted under a journal's name (by whoever can write the state folder) is passed over: the
// folder opens, rather than waiting for something to write to the FIFO.
TEST_F(CallJournalTest, AFifoUnderAJournalsNameDoesNotHoldUpOpening) {
  { auto first = open(); }
  const auto fifo = dir_.path / "audit-journal-1-00112233aabbccdd-1";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  auto opened = std::async(std::launch::async, [&] { return gateway::open_state(dir_.path); });
  const bool done = opened.wait_for(std::chrono::seconds(20)) == std::future_status::ready;
  if (!done) ::close(::open(fifo.c_str(), O_WRONLY | O_NONBLOCK));  // let a blocked opener go on
  ASSERT_TRUE(done) << "opening waited on the FIFO";
  auto s = opened.get();
  EXPECT_TRUE(s) << s.error().message;
  EXPECT_TRUE(std::filesystem::exists(fifo)) << "it is not ours to remove";
}

// A journal left by an earlier version (a gateway killed, then upgraded) is replayed by its own
// check: its lines hold, and a spliced one of them is still left out.
TEST_F(CallJournalTest, LinesCheckedByAnEarlierVersionAreReplayedByTheirCheck) {
  { auto first = open(); }
  const std::string text = fnv_checked_line(1, R"({"n":1})") +
                           spliced(fnv_checked_line(2, R"({"n":2,"pad":"new"})"), "new", "old") +
                           fnv_checked_line(3, R"({"n":3})") + checked_line(4, R"({"n":4})");
  const auto segment = dir_.path / "audit-journal-1-00112233aabbccdd-1";
  std::ofstream(segment, std::ios::binary) << text;
  auto s = open();
  EXPECT_EQ(call_numbers(*s.audit), (std::vector<std::int64_t>{1, 3, 4}));
}

// The check is part of the files' format: a journal written before an upgrade is read after it.
// These values were computed once; a change to the hash must keep reading lines checked with
// these (a new key for a new hash, as "h" came after "c").
TEST(JournalCheck, TheHashIsTheOneJournalsOnDiskWereWrittenWith) {
  EXPECT_EQ(journal_line_hash(""), 0x99b6af66b78b8ad8ull);
  EXPECT_EQ(journal_line_hash(R"({"j":1,"t":"2026-11-26T17:00:00.000Z","b":{"n":1})"), 0xd5e3fd206566ce66ull);
}

// Any one byte changed, anywhere in a line (each word and the tail), changes its check.
TEST(JournalCheck, EveryByteOfTheLineCounts) {
  const std::string text = R"({"j":12,"t":"2026-11-26T17:00:00.000Z","b":{"tool":"echo","n":123456789}})";
  const std::uint64_t h = journal_line_hash(text);
  for (std::size_t i = 0; i < text.size(); ++i) {
    for (const unsigned flip : {0x01u, 0x80u, 0x20u}) {
      std::string changed = text;
      changed[i] = static_cast<char>(static_cast<unsigned char>(changed[i]) ^ flip);
      EXPECT_NE(journal_line_hash(changed), h) << "byte " << i << " flipped by " << flip;
    }
  }
  EXPECT_NE(journal_line_hash(text + " "), h);
  EXPECT_NE(journal_line_hash(text.substr(0, text.size() - 1)), h);
}

// A running gateway's journal is its own: another opener of the state folder (the CLI's audit
// commands, a second gateway) does not replay it, so nothing is recorded twice.
TEST_F(CallJournalTest, ALiveJournalIsNotReplayedByAnotherOpener) {
  auto running = open();
  ASSERT_TRUE(running.audit->start_journal());
  for (std::int64_t i = 1; i <= 50; ++i) ASSERT_TRUE(running.audit->append_call(json::object{{"n", i}}));
  auto other = open();  // recover() meets a locked journal
  EXPECT_EQ(journals(dir_.path).size(), 1u);
  {
    auto third = open_state(dir_.path);  // and again, while the first reads
    ASSERT_TRUE(third);
  }
  ASSERT_TRUE(running.audit->flush());
  EXPECT_EQ(call_numbers(*other.audit).size(), 50u);
}

// A flood of calls holds at most kMaxQueued records for the writer (past it the appending thread
// commits them itself); the journal moves on to new segments under load and removes the full ones
// once their records are committed, so its files stay small however long the load lasts.
TEST_F(CallJournalTest, AFloodIsBoundedAndFullSegmentsGoOnceCommitted) {
  auto s = open();
  const std::string padding(400, 'x');
  std::size_t most = 0, most_files = 0;
  auto j = CallJournal::start(dir_.path / "gateway.db");
  ASSERT_TRUE(j) << j.error().message;
  // ~19.6 MB in all, ~75 segments' worth: more than the bound below, so segments that were never
  // removed while the calls went on would break it.
  constexpr std::int64_t kRecords = 40'000;
  static_assert(kRecords * 490 / CallJournal::kSegmentBytes >
                CallJournal::kMaxQueuedBytes / CallJournal::kSegmentBytes + 2);
  for (std::int64_t i = 1; i <= kRecords; ++i) {
    ASSERT_TRUE((*j)->append("2026-11-26T00:00:00.000Z", canonical(json::object{{"n", i}, {"pad", padding}})));
    most = std::max(most, (*j)->queued());
    most_files = std::max(most_files, (*j)->files().size());
  }
  EXPECT_LE(most, CallJournal::kMaxQueued);
  // Never more than the queue's bytes in full segments.
  EXPECT_LE(most_files, CallJournal::kMaxQueuedBytes / CallJournal::kSegmentBytes + 2);
  ASSERT_TRUE((*j)->flush());
  EXPECT_EQ((*j)->queued(), 0u);
  const auto left = (*j)->files();
  ASSERT_EQ(left.size(), 1u);  // the current segment only
  EXPECT_LE(std::filesystem::file_size(left[0]), CallJournal::kSegmentBytes + 1024);
  EXPECT_EQ(call_numbers(*s.audit).size(), static_cast<std::size_t>(kRecords));
  j->reset();
  EXPECT_TRUE(journals(dir_.path).empty());
}

// The "j" of each line of a segment file, up to its first zero byte (where reading stops).
std::vector<std::int64_t> segment_lines(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bytes.resize(std::min(bytes.size(), bytes.find('\0')));
  std::vector<std::int64_t> out;
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t end = bytes.find('\n', at);
    if (end == std::string::npos) break;
    boost::system::error_code ec;
    const json::value line = json::parse(std::string_view(bytes).substr(at, end - at), ec);
    out.push_back(!ec && line.is_object() && line.as_object().contains("j") ? line.at("j").to_number<std::int64_t>() : -1);
    at = end + 1;
  }
  return out;
}

std::vector<std::filesystem::path> recycled_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().ends_with("-recycled")) out.push_back(e.path());
  return out;
}

// Where the journal maps its segments (call_journal.hpp: ext4, XFS and tmpfs), and so keeps one.
bool maps_segments(const std::filesystem::path& dir) {
  constexpr long kExt4 = 0xEF53, kXfs = 0x58465342, kTmpfs = 0x01021994;
  struct statfs fs{};
  if (::statfs(dir.c_str(), &fs) != 0) return false;
  const long type = static_cast<long>(fs.f_type);
  return type == kExt4 || type == kXfs || type == kTmpfs;
}

ino_t inode(const std::filesystem::path& file) {
  struct stat st{};
  EXPECT_EQ(::stat(file.c_str(), &st), 0) << file;
  return st.st_ino;
}

// A full segment whose records are committed is kept, zeroed, and becomes a later segment (no new
// file, no page faults on its pages again): it then holds its new lines and nothing of its old
// ones, which a reader after kill -9 would otherwise find.
TEST_F(CallJournalTest, ACommittedSegmentIsReusedHoldingOnlyItsNewLines) {
  auto s = open();
  auto j = CallJournal::start(dir_.path / "gateway.db");
  ASSERT_TRUE(j) << j.error().message;
  const std::string padding(400, 'x');
  std::int64_t n = 0;
  auto append_until_next_segment = [&] {
    const auto current = (*j)->files().back();
    while ((*j)->files().back() == current) {
      ++n;
      ASSERT_TRUE((*j)->append("2026-11-26T00:00:00.000Z", canonical(json::object{{"n", n}, {"pad", padding}})));
    }
  };
  append_until_next_segment();  // segment 1 full, segment 2 current
  ASSERT_TRUE((*j)->flush());   // segment 1 committed: kept where segments are mapped
  const auto kept = recycled_files(dir_.path);
  ASSERT_EQ(kept.size(), maps_segments(dir_.path) ? 1u : 0u);
  const std::optional<ino_t> kept_inode = kept.empty() ? std::nullopt : std::optional<ino_t>(inode(kept[0]));
  append_until_next_segment();  // segment 3, with the record that did not fit in segment 2
  if (kept_inode) {
    EXPECT_EQ(inode((*j)->files().back()), *kept_inode) << "segment 1's file, reused";
  }
  EXPECT_EQ(segment_lines((*j)->files().back()), std::vector<std::int64_t>{n});
  ASSERT_TRUE((*j)->flush());
  EXPECT_EQ(call_numbers(*s.audit).size(), static_cast<std::size_t>(n));
  j->reset();
  EXPECT_TRUE(journals(dir_.path).empty());
  EXPECT_TRUE(recycled_files(dir_.path).empty());
}

// Invalid UTF-8 (an upstream's stderr in an error message) cannot be hashed into the chain: such a
// record is refused when it is journaled, as a committed append refuses it, so the call is not
// answered unrecorded, and the records after it still reach the chain.
TEST_F(CallJournalTest, ARecordTheChainCannotHashIsRefusedAndStopsNothing) {
  auto s = open();
  ASSERT_TRUE(s.audit->start_journal());
  ASSERT_TRUE(s.audit->append_call(json::object{{"n", 1}}));
  auto bad = s.audit->append_call(json::object{{"n", 2}, {"error", std::string("caf\xE9")}});
  EXPECT_FALSE(bad);
  ASSERT_TRUE(s.audit->append_call(json::object{{"n", 3}}));
  EXPECT_EQ(call_numbers(*s.audit), (std::vector<std::int64_t>{1, 3}));
  auto c = s.audit->verify();
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_FALSE(c->first_broken) << c->why;
}

}  // namespace

// The writer thread is named, so its CPU can be read apart from the rest (bench/RESULTS.md
// measures it per call); it is gone once the journal is.
TEST_F(CallJournalTest, TheWriterThreadIsNamedAndEndsWithTheJournal) {
  auto named_threads = [] {
    int n = 0;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
      std::ifstream comm(task.path() / "comm");
      std::string name;
      std::getline(comm, name);
      n += name == CallJournal::kWriterThreadName ? 1 : 0;
    }
    return n;
  };
  auto s = open();
  const int before = named_threads();
  auto j = CallJournal::start(dir_.path / "gateway.db");
  ASSERT_TRUE(j) << j.error().message;
  EXPECT_EQ(named_threads(), before + 1);
  j->reset();
  // Joined, but the kernel lists a thread until just after its joiner wakes: the count is polled
  // (there is no event for it) until it is back, for at most 5 s.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (named_threads() != before && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(named_threads(), before);
}
