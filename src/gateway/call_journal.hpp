// Private to the gateway: call records reach the audit chain in batches, and are kept safe from
// kill -9 meanwhile by a journal file.
//
// Why: committing each call's record on its own costs ~25-35 µs on the call's path (SQLite's file
// locks and WAL write, bench/RESULTS.md), more than everything else the gateway does for a call.
// A record appended here is written to this process's journal (`audit-journal-PID-NONCE` in the
// state folder, one write(2) of one JSON line, in the kernel's hands once it returns, as a WAL
// commit is) before the call is answered; a writer thread then commits the records of the last
// few milliseconds to the chain in one transaction, with how far into the journal that commit
// reached. The journal is emptied once everything in it is committed.
//
// Recovery: a journal whose process is gone (its flock released, by exit or kill -9) holds records
// that may not be in the chain yet. recover(), run by every opener of the state folder (the
// gateway and the CLI's audit commands alike), appends those past the committed mark and removes
// the file; a live gateway's journal is left alone.
//
// What it changes for readers: another process sees a call's record up to kBatchWindow later than
// the call's answer; this process's readers flush first. A call record may follow a decision
// (pin, approval) recorded a moment after it: each record keeps its own time. A record is never
// lost to kill -9, never recorded twice.
//
// Bounds: at most kMaxQueued records or kMaxQueuedBytes wait for the writer; past that the
// appending thread commits them itself. A journal is read back only up to kMaxJournalBytes.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "gateway/sqlite_db.hpp"
#include "mcp/json.hpp"

namespace mcp::gateway {

class CallJournal {
 public:
  static constexpr std::chrono::milliseconds kBatchWindow{2};
  static constexpr std::size_t kMaxQueued = 4096;
  static constexpr std::size_t kMaxQueuedBytes = 8u << 20;
  static constexpr std::size_t kTruncateAbove = 256u << 10;  // bytes of journal, all committed
  static constexpr std::size_t kMaxJournalBytes = 64u << 20;

  // A new journal for this process beside the database `db_file`, locked while it lives, with its
  // own connection to the database and its writer thread.
  static Result<std::unique_ptr<CallJournal>> start(const std::filesystem::path& db_file);
  // Commits what waits, stops the writer, removes the journal.
  ~CallJournal();
  CallJournal(const CallJournal&) = delete;
  CallJournal& operator=(const CallJournal&) = delete;

  // Journals a call record (`time` as the chain writes it). Once this returns, kill -9 of the
  // process cannot lose it. An error: nothing journaled and `body` left as it was (the caller
  // records it another way).
  [[nodiscard]] Result<void> append(std::string time, json::object&& body);
  // Commits every record appended before this call to the chain.
  [[nodiscard]] Result<void> flush();
  // Records waiting for the writer (for tests of the bound).
  std::size_t queued() const;
  const std::filesystem::path& file() const { return file_; }

  // Creates the journal table if needed, then replays and removes every journal in `dir` whose
  // process is gone. Run under no transaction.
  [[nodiscard]] static Result<void> recover(Db& db, const std::filesystem::path& dir);

 private:
  struct Entry {
    std::int64_t jseq;
    std::size_t bytes;  // of its journal line
    std::string time;
    json::object body;
  };
  CallJournal(std::shared_ptr<Db> db, std::filesystem::path file, int fd);
  void run();
  // Takes what waits and commits it in one transaction with the journal's mark; on failure puts it
  // back, in order. Serialised by the Db's lock, so marks only grow.
  Result<void> commit_batch();

  std::shared_ptr<Db> db_;
  std::filesystem::path file_;
  std::string name_;  // the file's name: its row in audit_journal
  int fd_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Entry> queue_;       // guarded by mu_
  std::size_t queued_bytes_ = 0;  // guarded by mu_
  std::size_t file_bytes_ = 0;    // guarded by mu_
  std::int64_t next_jseq_ = 1;    // guarded by mu_
  bool broken_ = false;           // a write failed: journal no more (guarded by mu_)
  bool stopping_ = false;         // guarded by mu_
  std::thread writer_;
};

}  // namespace mcp::gateway
