// AuditLog::prune and what it needs: the audit log's first records removed, the chain anchored at
// the last of them (audit_log.hpp says how verify() holds a pruned chain to its anchor).
#include "gateway/audit_log.hpp"

namespace mcp::gateway {

Result<std::optional<std::string>> AuditLog::hash_in(Db& d, std::int64_t seq) {
  auto row = d.first_row("SELECT hash FROM audit WHERE seq = ?", seq);
  if (!row) return fail(row.error());
  if (!*row) return std::optional<std::string>();
  return std::optional<std::string>((*row)->text(0));
}

Result<ChainHead> AuditLog::anchor_in(Db& d) {
  auto row = d.first_row("SELECT seq, hash FROM audit_anchor WHERE id = 1");
  if (!row) return fail(row.error());
  if (!*row) return ChainHead{0, AuditLog::zero_hash()};
  return ChainHead{(*row)->integer(0), (*row)->text(1)};
}

Result<ChainHead> AuditLog::read_head(Result<ChainHead> (*read)(Db&)) const {
  ChainHead out;
  auto ok = db_->locked([&](Db& d) -> Result<void> {
    auto h = read(d);
    if (!h) return fail(h.error());
    out = std::move(*h);
    return {};
  });
  if (!ok) return fail(ok.error());
  return out;
}

Result<ChainHead> AuditLog::anchor() const { return read_head(&AuditLog::anchor_in); }

Result<ChainHead> AuditLog::head() const {
  flush_for_reading();
  return read_head(&AuditLog::head_in);
}

Result<std::int64_t> AuditLog::last_before(const std::string& time) const {
  flush_for_reading();
  std::int64_t seq = 0;
  auto ok = db_->locked([&](Db& d) -> Result<void> {
    auto row = d.first_row("SELECT coalesce(max(seq), 0) FROM audit WHERE time < ?", time);
    if (!row) return fail(row.error());
    if (*row) seq = (*row)->integer(0);
    return {};
  });
  if (!ok) return fail(ok.error());
  return seq;
}

Result<std::int64_t> AuditLog::prune(std::int64_t through, const std::string& who) {
  flush_for_reading();  // the calls journaled so far are in the chain, after what is pruned
  std::int64_t count = 0;
  auto ok = db_->transaction([&](Db& d) -> Result<void> {
    auto before = anchor_in(d);
    if (!before) return fail(before.error());
    if (through <= before->seq) {
      return fail(Error::invalid_params("the records up to " + std::to_string(before->seq) +
                                        " are pruned already: nothing up to " + std::to_string(through) + " is left"));
    }
    auto hash = hash_in(d, through);
    if (!hash) return fail(hash.error());
    if (!*hash) return fail(Error::invalid_params("the log has no record " + std::to_string(through)));
    if (auto done = d.run("DELETE FROM audit WHERE seq <= ?", through); !done) return fail(done.error());
    count = d.changes();
    if (auto done = d.run("INSERT OR REPLACE INTO audit_anchor (id, seq, hash) VALUES (1, ?, ?)", through, **hash);
        !done) {
      return fail(done.error());
    }
    // The chain itself says where it now starts: verify() holds the anchor to this record.
    json::object body{{"through", through}, {"hash", **hash}, {"count", count}, {"by", who}};
    if (auto a = append_in(d, "prune", body); !a) return fail(a.error());
    return {};
  });
  if (!ok) return fail(ok.error());
  return count;
}

}  // namespace mcp::gateway
