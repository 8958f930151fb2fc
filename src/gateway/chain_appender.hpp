// Private to the gateway: many records appended to the audit chain (audit_log.hpp) inside one
// transaction the caller holds, inserted several to a statement.
//
// The call journal's writer (call_journal.hpp) commits the records of up to 20 ms in one
// transaction; inserting them one statement each cost ~15% more of SQLite's time per record than
// sixteen to a statement (bench/RESULTS.md, "2026-11-28 (morning)"). Each record's hash is taken
// from the one before, in order. AuditLog::append_canonical is one record through it, so every
// record enters the chain this way.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "gateway/audit_log.hpp"
#include "gateway/sqlite_db.hpp"

namespace mcp::gateway {

class ChainAppender {
 public:
  // Records are inserted this many to a statement (6 parameters each).
  static constexpr std::size_t kGroup = 16;

  // Appends after `head` (AuditLog::head_in, read in the same transaction) on `d`.
  ChainAppender(Db& d, ChainHead head);

  // The texts must stay valid until the record is inserted: until finish(), or the add() that
  // completes its group.
  [[nodiscard]] Result<void> add(std::string_view kind, std::string_view time, std::string_view canonical_body);
  // Inserts what waits. Then head() is the chain's new last record.
  [[nodiscard]] Result<void> finish();
  const ChainHead& head() const { return head_; }

 private:
  struct Row {
    std::int64_t seq = 0;
    std::string_view time, kind, body;
  };
  [[nodiscard]] Result<void> insert(std::size_t n);

  Db& d_;
  ChainHead head_;  // of the last record inserted
  std::array<Row, kGroup> rows_{};
  // hashes_[i] is rows_[i]'s prev and hashes_[i + 1] its hash; hashes_[0] is head_.hash.
  std::array<std::string, kGroup + 1> hashes_{};
  std::size_t waiting_ = 0;
};

}  // namespace mcp::gateway
