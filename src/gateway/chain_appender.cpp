#include "gateway/chain_appender.hpp"

namespace mcp::gateway {
namespace {

// `INSERT ... VALUES (?, ?, ?, ?, ?, ?), ...` for `n` records.
std::string insert_sql(std::size_t n) {
  std::string sql = "INSERT INTO audit (seq, time, kind, body, prev, hash) VALUES ";
  for (std::size_t i = 0; i < n; ++i) sql.append(i == 0 ? "(?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?)");
  return sql;
}

}  // namespace

ChainAppender::ChainAppender(Db& d, ChainHead head) : d_(d), head_(std::move(head)) { hashes_[0] = head_.hash; }

Result<void> ChainAppender::add(std::string_view kind, std::string_view time, std::string_view canonical_body) {
  const std::int64_t seq = (waiting_ == 0 ? head_.seq : rows_[waiting_ - 1].seq) + 1;
  auto text = AuditLog::record_text(seq, time, kind, canonical_body);
  if (!text) return fail(text.error());
  hashes_[waiting_ + 1] = AuditLog::chain_hash(hashes_[waiting_], *text);
  rows_[waiting_] = Row{seq, time, kind, canonical_body};
  if (++waiting_ == kGroup) return insert(kGroup);
  return {};
}

Result<void> ChainAppender::finish() { return waiting_ == 0 ? Result<void>{} : insert(waiting_); }

Result<void> ChainAppender::insert(std::size_t n) {
  static const std::string kWholeGroup = insert_sql(kGroup);
  {
    std::string partial;  // a batch's last, smaller group
    const std::string& sql = n == kGroup ? kWholeGroup : (partial = insert_sql(n));
    auto ins = d_.prepare(sql);
    if (!ins) return fail(ins.error());
    // Bound without copies: the texts outlive the statement's step (add()'s contract; the hashes
    // are this object's).
    for (std::size_t i = 0; i < n; ++i) {
      const int at = static_cast<int>(6 * i);
      ins->bind(at + 1, rows_[i].seq)
          .bind_view(at + 2, rows_[i].time)
          .bind_view(at + 3, rows_[i].kind)
          .bind_view(at + 4, rows_[i].body)
          .bind_view(at + 5, hashes_[i])
          .bind_view(at + 6, hashes_[i + 1]);
    }
    auto done = ins->step();
    if (!done) return fail(done.error());
  }
  head_ = ChainHead{rows_[n - 1].seq, hashes_[n]};
  hashes_[0].swap(hashes_[n]);
  waiting_ = 0;
  return {};
}

}  // namespace mcp::gateway
