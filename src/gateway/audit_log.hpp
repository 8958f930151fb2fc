// Private to the gateway: the audit log, a hash chain in the state database. Each record holds its
// sequence number, time, kind and body, the hash of the record before it, and its own hash:
//
//   hash = "sha256:" + hex(SHA-256(prev_hash + "\n" + RFC 8785 canonical {"body","kind","seq","time"}))
//
// starting from "sha256:" + 64 zeros. A body is stored as its canonical text. verify() walks the
// chain in sequence order and names the first record that was changed (its hash no longer
// matches), removed (a gap in the sequence, or the next record's prev no longer matches) or
// reordered. What a chain cannot show alone is the removal of its last records: head() gives the
// latest hash, to be kept elsewhere (docs/gateway.md).
//
// prune() removes a log's first records, as a person asks (`mcp-trust audit prune`), so that it
// need not grow for ever: the last removed record's sequence number and hash are kept as the
// chain's anchor (the audit_anchor table) and said in a "prune" record appended to the chain.
// verify() then starts from the anchor, and a log that starts after an anchor no prune record
// vouches for was cut by someone else: broken.
//
// Thread-safety: all members are thread-safe (the Db serialises them).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gateway/call_journal.hpp"
#include "gateway/sqlite_db.hpp"
#include "mcp/json.hpp"

namespace mcp::gateway {

struct AuditRecord {
  std::int64_t seq = 0;
  std::string time;  // ISO 8601 UTC, milliseconds
  std::string kind;  // "call", "pin", "quarantine", "approve", "reject", "config", ...
  json::object body;
  std::string prev;
  std::string hash;
};

// The last record of the chain: its sequence number (0: none) and hash (the zero hash: none).
struct ChainHead {
  std::int64_t seq = 0;
  std::string hash;
};

struct ChainCheck {
  std::int64_t records = 0;                  // the last record verified: its sequence number
  std::int64_t pruned_through = 0;           // the records up to this one were pruned (0: none)
  std::optional<std::int64_t> first_broken;  // set when the chain is not intact
  std::string why;                           // for first_broken
  std::string head;                          // the last record's hash (the zero hash when empty)
};

class AuditLog {
 public:
  // Creates the table if needed, and adds to the chain the call records of journals left by
  // gateways that are gone (call_journal.hpp).
  static Result<std::unique_ptr<AuditLog>> open(std::shared_ptr<Db> db);
  // Commits the calls still journaled and removes the journal.
  ~AuditLog();

  // Appends one record in its own transaction, durable as `durability` says (sqlite_db.hpp) when it
  // returns. Its sequence number.
  [[nodiscard]] Result<std::int64_t> append(std::string_view kind, json::object body,
                                            Db::Durability durability = Db::Durability::power_loss);
  // The same inside a transaction the caller holds on the same Db, so that a change and its record
  // commit together or not at all.
  [[nodiscard]] static Result<std::int64_t> append_in(Db& d, std::string_view kind, const json::object& body);
  // For a writer appending many records in one transaction it holds (the call journal, and its
  // recovery): the chain's last record, read once, then each record appended after it (`head`
  // moves on). `canonical_body` is the body's RFC 8785 text (trust::canonicalize), stored as it is.
  [[nodiscard]] static Result<ChainHead> head_in(Db& d);
  [[nodiscard]] static Result<void> append_canonical(Db& d, ChainHead& head, std::string_view kind, std::string_view time,
                                                     std::string_view canonical_body);
  // A call's record: through this process's journal once start_journal() ran (durable against
  // kill -9 when this returns, in the chain within milliseconds), else append()ed at once.
  [[nodiscard]] Result<void> append_call(const json::object& body);
  // The same for a body given as its RFC 8785 text (call_record_text, trust::canonicalize),
  // stored and hashed as it is.
  [[nodiscard]] Result<void> append_call_canonical(std::string_view canonical_body);
  // Call records go through a journal in the state folder from now on (the serving gateway).
  [[nodiscard]] Result<void> start_journal();
  // Commits the calls journaled so far (readers in this process see them; a stopping gateway).
  [[nodiscard]] Result<void> flush() const;
  // Walks the chain from the start, or on from `from` (the check of its first records, whose
  // head and count it starts from): a page that verified the chain once checks only what came
  // since. A check that found the chain broken is returned as it is.
  [[nodiscard]] Result<ChainCheck> verify(const ChainCheck& from = {}) const;
  // Every record in sequence order (those after sequence number `after`), as stored (not
  // checked: verify() does that).
  [[nodiscard]] Result<void> each(const std::function<bool(const AuditRecord&)>& visit, std::int64_t after = 0) const;
  // The last `n` records, newest first, as stored.
  [[nodiscard]] Result<std::vector<AuditRecord>> tail(std::size_t n) const;
  // Removes the records up to sequence number `through` (which must be in the log), anchors the
  // chain there, and appends a "prune" record saying so (with `who`), in one transaction. How many
  // went. The database file keeps its size; SQLite reuses the pages for new records.
  [[nodiscard]] Result<std::int64_t> prune(std::int64_t through, const std::string& who);
  // The last record whose time is before `time` (ISO 8601, compared as text): what a prune of the
  // records older than `time` goes through (0: none).
  [[nodiscard]] Result<std::int64_t> last_before(const std::string& time) const;
  // The chain's last record (sequence number 0 when empty).
  [[nodiscard]] Result<ChainHead> head() const;

  static std::string zero_hash();
  // The canonical text a record's hash covers (after its prev and a newline), made from its
  // body's canonical text.
  static Result<std::string> record_text(std::int64_t seq, std::string_view time, std::string_view kind,
                                         std::string_view canonical_body);
  // Whether `s` is printable ASCII without '"' or '\\': JSON and JCS write it as it is, between
  // quotes (the times and kinds the gateway writes).
  static bool plain(std::string_view s);

  // A record as stored: its body the canonical text the chain hashed (verify() hashes it as it is).
  struct StoredRecord {
    std::int64_t seq = 0;
    std::string time, kind, body, prev, hash;
  };

 private:
  friend class ChainAppender;  // chain_appender.hpp: the writer's records, inserted in groups
  explicit AuditLog(std::shared_ptr<Db> db) : db_(std::move(db)) {}
  // append_in for a body given as its canonical text, at `time`: reads the head, appends after it.
  static Result<std::int64_t> append_text_in(Db& d, std::string_view kind, std::string_view time,
                                             std::string_view canonical_body);
  // A record's hash: of its prev, a newline and its record_text.
  static std::string chain_hash(std::string_view prev, std::string_view record);
  // The anchor a prune left (seq 0: none).
  Result<ChainHead> anchor() const;
  static Result<ChainHead> anchor_in(Db& d);
  // The hash of record `seq`, if the log has it.
  static Result<std::optional<std::string>> hash_in(Db& d, std::int64_t seq);
  // `read` (head_in, anchor_in) with the connection held.
  Result<ChainHead> read_head(Result<ChainHead> (*read)(Db&)) const;
  // The records `where` selects (its two parameters bound to `a` and `b`), as stored, the
  // connection held while they are read.
  Result<std::vector<StoredRecord>> select_stored(std::string_view where, std::int64_t a, std::int64_t b) const;
  // each() without parsing the bodies: what verify() walks.
  Result<void> each_stored(const std::function<bool(StoredRecord&)>& visit, std::int64_t after) const;
  void flush_for_reading() const;
  std::shared_ptr<Db> db_;
  std::unique_ptr<CallJournal> journal_;  // set once, by start_journal, before calls are served
};

json::object to_json(const AuditRecord& r);

}  // namespace mcp::gateway
