#include "gateway/audit_log.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>

#include "gateway/chain_appender.hpp"
#include "log/log.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp::gateway {

namespace {

// A record's time, e.g. 2026-11-28T01:02:03.456Z: in place, no allocation per call recorded.
struct Iso8601 {
  std::array<char, 48> text{};  // the formatted second (under 40 bytes) and ".mmmZ"
  std::size_t size = 0;
  std::string_view view() const { return {text.data(), size}; }
};

Iso8601 now_iso8601() {
  using namespace std::chrono;
  const auto now = system_clock::now();
  const auto ms = duration_cast<milliseconds>(now.time_since_epoch()).count() % 1000;
  const std::time_t t = system_clock::to_time_t(now);
  // Every call is recorded: the date and time to the second are formatted once a second per
  // thread, not per record (strftime and its time-zone lock cost more than the rest of the record).
  thread_local std::time_t formatted_at = -1;
  thread_local char buf[40];
  thread_local std::size_t n = 0;
  if (t != formatted_at) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    formatted_at = t;
  }
  const char millis[] = {'.', static_cast<char>('0' + ms / 100), static_cast<char>('0' + ms / 10 % 10),
                         static_cast<char>('0' + ms % 10), 'Z'};
  Iso8601 out;
  std::memcpy(out.text.data(), buf, n);
  std::memcpy(out.text.data() + n, millis, sizeof millis);
  out.size = n + sizeof millis;
  return out;
}

// A stored record with its body parsed (export, the review page): a body that no longer parses is
// shown as such (verify, which hashes the stored text, reports it as a change).
AuditRecord parsed(AuditLog::StoredRecord&& stored) {
  AuditRecord r;
  r.seq = stored.seq;
  r.time = std::move(stored.time);
  r.kind = std::move(stored.kind);
  boost::system::error_code ec;
  json::value body = json::parse(stored.body, ec);
  if (!ec && body.is_object()) r.body = std::move(body.as_object());
  else
    r.body = json::object{{"unparseable", std::move(stored.body)}};
  r.prev = std::move(stored.prev);
  r.hash = std::move(stored.hash);
  return r;
}

}  // namespace

std::string AuditLog::zero_hash() { return "sha256:" + std::string(64, '0'); }

bool AuditLog::plain(std::string_view s) {
  return std::ranges::all_of(s, [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
}

Result<std::string> AuditLog::record_text(std::int64_t seq, std::string_view time, std::string_view kind,
                                          std::string_view canonical_body) {
  // The members in RFC 8785 order (body, kind, seq, time), spliced around the body's canonical
  // text instead of canonicalizing a copy of the body: the same bytes (AuditRecordText's test).
  if (!plain(time) || !plain(kind)) {
    auto body = trust::parse_strict(canonical_body);
    if (!body || !body->is_object()) return fail(Error::invalid_params("a record's body is not canonical JSON"));
    return trust::canonicalize(json::object{{"seq", seq}, {"time", time}, {"kind", kind}, {"body", std::move(*body)}});
  }
  std::string out;
  out.reserve(canonical_body.size() + time.size() + kind.size() + 48);
  out.append("{\"body\":").append(canonical_body).append(",\"kind\":\"").append(kind).append("\",\"seq\":");
  out.append(std::to_string(seq)).append(",\"time\":\"").append(time).append("\"}");
  return out;
}

std::string AuditLog::chain_hash(std::string_view prev, std::string_view record) {
  // One context per thread, reset by finish(): making one costs more than hashing a record.
  thread_local trust::Sha256 h;
  trust::Sha256Digest digest;
  try {
    h.update(prev);
    h.update("\n");
    h.update(record);
    digest = h.finish();
  } catch (...) {
    (void)h.finish();  // no half-fed state for the next record
    throw;
  }
  return trust::sha256_tag(digest);
}

Result<std::unique_ptr<AuditLog>> AuditLog::open(std::shared_ptr<Db> db) {
  auto ok = db->transaction([](Db& d) {
    return d.exec(
        "CREATE TABLE IF NOT EXISTS audit (seq INTEGER PRIMARY KEY, time TEXT NOT NULL, kind TEXT NOT NULL,"
        " body TEXT NOT NULL, prev TEXT NOT NULL, hash TEXT NOT NULL);"
        // Where a pruned chain starts (audit_prune.cpp): the last removed record. One row at most.
        "CREATE TABLE IF NOT EXISTS audit_anchor (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL,"
        " hash TEXT NOT NULL)");
  });
  if (!ok) return fail(ok.error());
  if (auto r = CallJournal::recover(*db, db->file().parent_path()); !r) return fail(r.error());
  return std::unique_ptr<AuditLog>(new AuditLog(std::move(db)));
}

AuditLog::~AuditLog() = default;

Result<void> AuditLog::start_journal() {
  if (journal_) return {};
  auto j = CallJournal::start(db_->file());
  if (!j) return fail(j.error());
  journal_ = std::move(*j);
  return {};
}

Result<void> AuditLog::append_call(const json::object& body) {
  auto canonical = trust::canonicalize(body);
  if (!canonical) return fail(Error::internal("the call record cannot be recorded: " + canonical.error().message));
  return append_call_canonical(*canonical);
}

Result<void> AuditLog::append_call_canonical(std::string_view canonical_body) {
  const auto now = now_iso8601();
  const std::string_view time = now.view();
  if (journal_) {
    if (auto j = journal_->append(time, canonical_body); j) return {};
    // The journal failed (a full disk): the record is committed on this thread instead.
  }
  return db_->transaction(
      [&](Db& d) -> Result<void> {
        if (auto a = append_text_in(d, "call", time, canonical_body); !a) return fail(a.error());
        return {};
      },
      Db::Durability::process_crash);
}

Result<void> AuditLog::flush() const {
  if (!journal_) return {};
  return journal_->flush();
}

void AuditLog::flush_for_reading() const {
  // A reader goes on without the last calls rather than failing (the database may be busy with
  // another process for a while); the writer commits them later.
  if (auto f = flush(); !f) MCP_LOG_WARN("gateway: the last call records are not in the chain yet: {}", f.error().message);
}

Result<std::int64_t> AuditLog::append_in(Db& d, std::string_view kind, const json::object& body) {
  auto canonical = trust::canonicalize(body);
  if (!canonical) return fail(canonical.error());
  return append_text_in(d, kind, now_iso8601().view(), *canonical);
}

Result<std::int64_t> AuditLog::append_text_in(Db& d, std::string_view kind, std::string_view time,
                                              std::string_view canonical_body) {
  auto head = head_in(d);
  if (!head) return fail(head.error());
  if (auto a = append_canonical(d, *head, kind, time, canonical_body); !a) return fail(a.error());
  return head->seq;
}

Result<ChainHead> AuditLog::head_in(Db& d) {
  auto row = d.first_row("SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1");
  if (!row) return fail(row.error());
  if (!*row) return anchor_in(d);  // empty, or pruned to its last record: the chain goes on from there
  return ChainHead{(*row)->integer(0), (*row)->text(1)};
}

Result<void> AuditLog::append_canonical(Db& d, ChainHead& head, std::string_view kind, std::string_view time,
                                        std::string_view canonical_body) {
  // One record through the writer's appender: records enter the chain one way, hashed and
  // inserted alike. `head` moves on only once the record is in.
  ChainAppender one(d, head);
  if (auto a = one.add(kind, time, canonical_body); !a) return a;
  if (auto f = one.finish(); !f) return f;
  head = one.head();
  return {};
}

Result<std::int64_t> AuditLog::append(std::string_view kind, json::object body, Db::Durability durability) {
  std::int64_t seq = 0;
  auto ok = db_->transaction(
      [&](Db& d) -> Result<void> {
        auto s = append_in(d, kind, body);
        if (!s) return fail(s.error());
        seq = *s;
        return {};
      },
      durability);
  if (!ok) return fail(ok.error());
  return seq;
}

Result<void> AuditLog::each(const std::function<bool(const AuditRecord&)>& visit, std::int64_t after) const {
  return each_stored([&](StoredRecord& r) { return visit(parsed(std::move(r))); }, after);
}

Result<void> AuditLog::each_stored(const std::function<bool(StoredRecord&)>& visit, std::int64_t after) const {
  flush_for_reading();
  // In batches, the connection held for one batch at a time: a walk of a long log (a verify) must
  // not stop every call the gateway records meanwhile. Records appended during the walk are met
  // at its end.
  constexpr std::int64_t kBatch = 1000;
  for (;;) {
    auto batch = select_stored("WHERE seq > ? ORDER BY seq LIMIT ?", after, kBatch);
    if (!batch) return fail(batch.error());
    for (auto& r : *batch)
      if (!visit(r)) return {};
    if (static_cast<std::int64_t>(batch->size()) < kBatch) return {};
    after = batch->back().seq;
  }
}

Result<std::vector<AuditRecord>> AuditLog::tail(std::size_t n) const {
  flush_for_reading();
  // seq > 0 is every record: the same statement shape as a batch of each().
  auto stored = select_stored("WHERE seq > ? ORDER BY seq DESC LIMIT ?", 0, static_cast<std::int64_t>(n));
  if (!stored) return fail(stored.error());
  std::vector<AuditRecord> out;
  out.reserve(stored->size());
  for (auto& r : *stored) out.push_back(parsed(std::move(r)));
  return out;
}

Result<std::vector<AuditLog::StoredRecord>> AuditLog::select_stored(std::string_view where, std::int64_t a,
                                                                    std::int64_t b) const {
  std::vector<StoredRecord> out;
  auto ok = db_->locked([&](Db& d) -> Result<void> {
    auto s = d.prepare("SELECT seq, time, kind, body, prev, hash FROM audit " + std::string(where));
    if (!s) return fail(s.error());
    s->bind(1, a).bind(2, b);
    return s->each_row([&](const Stmt& row) -> Result<void> {
      out.push_back(StoredRecord{row.integer(0), row.text(1), row.text(2), row.text(3), row.text(4), row.text(5)});
      return {};
    });
  });
  if (!ok) return fail(ok.error());
  return out;
}

Result<ChainCheck> AuditLog::verify(const ChainCheck& from) const {
  if (from.first_broken) return from;  // a broken chain stays broken
  auto anchor = this->anchor();
  if (!anchor) return fail(anchor.error());
  ChainCheck check = from;
  const bool whole = from.records == 0;
  if (whole) {
    // From the start, or from where a prune left the chain.
    check.records = anchor->seq;
    check.head = anchor->hash;
  } else {
    // Going on from an earlier check: its last record must still be there, as it was (else the
    // tail was removed or changed since, and the walk below would not see it).
    std::optional<std::string> last;
    auto read = db_->locked([&](Db& d) -> Result<void> {
      auto h = hash_in(d, check.records);
      if (!h) return fail(h.error());
      last = std::move(*h);
      return {};
    });
    if (!read) return fail(read.error());
    // Pruned since (its record went with the ones before it): the chain is walked again from its
    // anchor, whose prune record that walk must meet.
    if (!last && anchor->seq >= check.records) return verify(ChainCheck{});
    if (last != check.head) {
      check.first_broken = check.records;
      check.why = last ? "it was changed after it was verified"
                       : "it was removed after it was verified (the log was truncated)";
      return check;
    }
  }
  check.pruned_through = anchor->seq;
  bool vouched = anchor->seq == 0;  // a pruned chain holds the prune record that says where it starts
  std::int64_t expected_seq = check.records + 1;
  auto broken = [&](std::int64_t seq, std::string why) {
    check.first_broken = seq;
    check.why = std::move(why);
    return false;
  };
  // The stored text is hashed as it is, unparsed: the writer stored each body canonical and hashed
  // those bytes, so an intact record hashes the same, and any edit shows, even one that keeps the
  // JSON's meaning (re-canonicalizing a parsed body would let that pass). It is also cheaper than
  // parsing and canonicalizing each body, which a retention (audit_retention.hpp) and the review
  // page pay for every record new since their last look (a retention's pass: 7.5 -> 4.5 us per
  // record, bench/RESULTS.md).
  auto walked = each_stored(
      [&](const StoredRecord& r) {
        if (r.seq != expected_seq) {
          return broken(r.seq, "record " + std::to_string(expected_seq) + " is missing (the next is " +
                                   std::to_string(r.seq) + "): removed");
        }
        if (r.prev != check.head) {
          return broken(r.seq, "its prev does not match record " + std::to_string(r.seq - 1) +
                                   "'s hash: a record before it was changed, removed or reordered");
        }
        auto text = record_text(r.seq, r.time, r.kind, r.body);
        if (!text || chain_hash(r.prev, *text) != r.hash) {
          return broken(r.seq, "its hash does not match its contents: it was changed");
        }
        if (!vouched && r.kind == "prune") {
          const json::object body = parsed(StoredRecord(r)).body;
          const json::value* through = body.if_contains("through");
          const json::value* hash = body.if_contains("hash");
          vouched = through && through->is_int64() && through->as_int64() == anchor->seq && hash && hash->is_string() &&
                    hash->as_string() == anchor->hash;
        }
        check.head = r.hash;
        check.records = r.seq;
        ++expected_seq;
        return true;
      },
      check.records);
  if (!walked) return fail(walked.error());
  if (whole && !vouched && !check.first_broken) {
    check.first_broken = anchor->seq + 1;
    check.why = "the log starts after record " + std::to_string(anchor->seq) +
                " and no prune record in it says so: its first records were removed";
  }
  return check;
}

json::object to_json(const AuditRecord& r) {
  return json::object{{"seq", r.seq}, {"time", r.time}, {"kind", r.kind},
                      {"body", r.body}, {"prev", r.prev}, {"hash", r.hash}};
}

}  // namespace mcp::gateway
