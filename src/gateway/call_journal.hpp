// Private to the gateway: call records reach the audit chain in batches, and are kept safe from
// kill -9 meanwhile by a journal.
//
// Why: committing each call's record on its own costs ~25-35 µs on the call's path (SQLite's file
// locks and WAL write, bench/RESULTS.md), more than everything else the gateway does for a call.
// A record appended here is written to this process's journal (one JSON line copied into the
// segment's shared mapping, in the kernel's page cache once copied, as a WAL commit is) before the
// call is answered; a writer thread then commits the records of the last few milliseconds to the
// chain in one transaction, with how far into the journal that commit reached (the journal's mark,
// in table audit_journal).
//
// Files: a journal is a run of segments `audit-journal-PID-NONCE-N` in the state folder, each
// locked (flock) by its process while it is open. A new segment starts before a line would cross
// kSegmentBytes, under load as well as idle, and a full one is removed once every record in it is
// committed (or kept, zeroed, to be the next segment: recycled_). A segment is made under a name
// recover() ignores and renamed once locked, so another opener never takes a live segment for a
// dead one. On ext4, XFS and tmpfs a segment's blocks are
// allocated when it is made (so that a store into its mapping never meets a full disk), and it is
// mapped shared: appending is a copy, not a system call (a failing disk can still fault such a
// store, which stops the process). Past its mapping (a line that does not fit, or a file system
// that cannot allocate or map) lines are written with pwrite(2) at the same offsets; both reach
// the same page cache. A segment's unwritten tail is zeros, which no line holds (JSON escapes
// control characters): reading a segment stops at its first zero byte. A line is
// {"j":seq,"t":time,"b":body,"h":check}, the check 16 hex digits of a 64-bit hash of the line's
// text before `,"h":` (journal_check.hpp): a line put together from two after a power loss (a
// reused segment's page that never reached the disk) fails it and is left out.
//
// Recovery: a journal whose segments are all unlocked (its process gone: exit or kill -9) may hold
// records not in the chain yet. recover(), run by every opener of the state folder (the gateway
// and the CLI's audit commands alike), appends those past the mark and removes the files; a live
// journal is left alone; a journal it cannot read is reported and left, never stopping the opener.
//
// What it changes for readers: another process sees a call's record up to kBusyInterval later than
// the call's answer (kBatchWindow when calls are few); this process's readers flush first. A call
// record may follow a decision (pin, approval) recorded a moment after it: each record keeps its
// own time. A record is never lost to kill -9, never recorded twice. append() takes a body's
// canonical text, so a body JCS cannot write (ill-formed UTF-8 from an upstream) is refused before
// it reaches the journal (AuditLog::append_call): no record can stop the ones behind it.
//
// Bounds: at most kMaxQueued records or kMaxQueuedBytes wait for the writer (past that the
// appending thread commits them itself), so at most that many bytes of full segments wait too.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gateway/sqlite_db.hpp"
#include "mcp/json.hpp"

namespace mcp::gateway {

class CallJournal {
 public:
  // A record waits about kBatchWindow for its commit while calls are few. While they keep coming
  // (the last commit began less than kBusyInterval ago) a commit starts at most every
  // kBusyInterval: each costs the same file locks and WAL page writes whatever it holds, so fewer,
  // larger ones cost the writer less per call (bench/RESULTS.md, "2026-11-28": ~7 µs of CPU per
  // call at 2 ms, ~5 µs at 20 ms).
  static constexpr std::chrono::milliseconds kBatchWindow{2};
  static constexpr std::chrono::milliseconds kBusyInterval{20};
  static constexpr std::size_t kMaxQueued = 4096;
  static constexpr std::size_t kMaxQueuedBytes = 8u << 20;
  static constexpr std::size_t kSegmentBytes = 256u << 10;
  static constexpr std::size_t kMaxLineBytes = 4u << 20;  // recovery skips longer lines
  static constexpr const char* kWriterThreadName = "mcp-audit";  // as /proc/PID/task/TID/comm shows it

  // A new journal for this process beside the database `db_file`, with its own connection to the
  // database and its writer thread.
  static Result<std::unique_ptr<CallJournal>> start(const std::filesystem::path& db_file);
  // Commits what waits, stops the writer, removes the journal's files.
  ~CallJournal();
  CallJournal(const CallJournal&) = delete;
  CallJournal& operator=(const CallJournal&) = delete;

  // Journals a call record (`time` as the chain writes it). Once this returns, kill -9 of the
  // process cannot lose it. An error: nothing journaled (the caller records it another way, or
  // refuses the call).
  // `canonical_body` is the body's RFC 8785 text (the writer stores and hashes it as it is).
  [[nodiscard]] Result<void> append(std::string_view time, std::string_view canonical_body);
  // Commits every record appended before this call to the chain.
  [[nodiscard]] Result<void> flush();
  // Records waiting for the writer (for tests of the bound).
  std::size_t queued() const;
  // The journal's segment files now (for tests).
  std::vector<std::filesystem::path> files() const;

  // Creates the journal table if needed, then replays and removes every journal in `dir` whose
  // process is gone. Run under no transaction. Fails only if the table cannot be made.
  [[nodiscard]] static Result<void> recover(Db& db, const std::filesystem::path& dir);

 private:
  // A record waiting for the writer: where its time and body's canonical text are in its batch's
  // text (the journal lines of the batch, one after the other).
  struct Entry {
    std::int64_t jseq;
    std::size_t time_at, time_size;
    std::size_t body_at, body_size;
  };
  // What waits for the writer, as one buffer of lines and their entries. The writer takes the
  // whole batch and gives the emptied buffers back: in a steady flow no record allocates, and none
  // is freed on another thread than the one that made it.
  struct Batch {
    std::string text;
    std::vector<Entry> entries;
    std::string_view time(const Entry& e) const { return std::string_view(text).substr(e.time_at, e.time_size); }
    std::string_view body(const Entry& e) const { return std::string_view(text).substr(e.body_at, e.body_size); }
  };
  struct Segment {
    std::filesystem::path path;
    int fd = -1;
    std::int64_t last_jseq = 0;  // of the records written to it (full segments)
    char* map = nullptr;         // the segment's first `mapped` bytes, shared (null: not mapped)
    std::size_t mapped = 0;
    std::size_t used = 0;  // bytes written to it (full segments)
  };
  CallJournal(std::shared_ptr<Db> db, std::filesystem::path dir, std::string name);
  void run();
  // Takes what waits and commits it in one transaction with the journal's mark; on failure puts it
  // back, in order. Serialised by the Db's lock, so marks only grow. Then removes full segments
  // whose records are all committed.
  Result<void> commit_batch();
  // Opens segment `n`: created under a name recover() ignores, locked, then renamed into place;
  // allocated and mapped if the file system allows.
  Result<Segment> open_segment(std::uint64_t n) const;
  // Segment `n`: the recycled one renamed into place if there is one, else a new one. Under mu_.
  Result<Segment> next_segment_locked(std::uint64_t n);
  // Committed full segments: one is kept, zeroed, as the next segment (recycled_), the rest
  // removed. Without mu_.
  void retire(std::vector<Segment> committed);
  static void unmap(Segment& s);
  // Unmaps and closes `s`, and removes its file first if `remove`.
  static void close_segment(Segment& s, bool remove);

  std::shared_ptr<Db> db_;
  std::filesystem::path dir_;
  std::string name_;  // audit-journal-PID-NONCE: the segments' prefix, its row in audit_journal
  mutable std::mutex mu_;
  std::condition_variable wake_;
  Segment current_;                 // guarded by mu_
  std::uint64_t segment_ = 0;       // current_'s number (guarded by mu_)
  std::vector<Segment> full_;       // written, not yet all committed (guarded by mu_)
  // A committed segment kept for reuse, zeroed, under a name recover() never replays, still mapped
  // and locked: the next segment without a new file, and without a page fault per page of it
  // (each one a trap to the hypervisor on a VM, ~1 µs per call). Null map: none (guarded by mu_).
  Segment recycled_;
  Batch queue_;                     // guarded by mu_
  Batch spare_;                     // the last committed batch's buffers, emptied (guarded by mu_)
  std::size_t segment_bytes_ = 0;   // in current_ (guarded by mu_)
  std::int64_t next_jseq_ = 1;      // guarded by mu_
  bool broken_ = false;             // a write failed: journal no more (guarded by mu_)
  bool stopping_ = false;           // guarded by mu_
  std::thread writer_;
};

}  // namespace mcp::gateway
