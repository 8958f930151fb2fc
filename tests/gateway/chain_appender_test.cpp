// The audit writer's appender (src/gateway/chain_appender.hpp): records inserted in groups make
// exactly the chain that appending them one at a time makes.
#include "gateway/chain_appender.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../examples/tmp_dir.hpp"
#include "gateway/state.hpp"
#include "mcp/trust/jcs.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

struct Record {
  std::string time, body;
};

std::vector<Record> records(std::size_t n, std::size_t from) {
  std::vector<Record> out;
  for (std::size_t i = from; i < from + n; ++i) {
    const std::string time = "2026-11-28T01:02:" + std::to_string(10 + i % 50) + ".000Z";
    out.push_back({time, *trust::canonicalize(json::object{{"n", i}, {"pad", std::string(i % 7, 'x')}})});
  }
  return out;
}

// Every record as stored: sequence number, time, kind, body, prev and hash.
std::vector<std::string> stored(const AuditLog& audit) {
  std::vector<std::string> out;
  EXPECT_TRUE(audit.each([&](const AuditRecord& r) {
    out.push_back(json::serialize(to_json(r)));
    return true;
  }));
  return out;
}

Result<void> grouped(State& s, const std::vector<Record>& batch) {
  return s.db->transaction([&](Db& d) -> Result<void> {
    auto head = AuditLog::head_in(d);
    if (!head) return fail(head.error());
    ChainAppender chain(d, std::move(*head));
    for (const auto& r : batch) {
      if (auto a = chain.add("call", r.time, r.body); !a) return a;
    }
    return chain.finish();
  });
}

Result<void> one_at_a_time(State& s, const std::vector<Record>& batch) {
  return s.db->transaction([&](Db& d) -> Result<void> {
    auto head = AuditLog::head_in(d);
    if (!head) return fail(head.error());
    for (const auto& r : batch) {
      if (auto a = AuditLog::append_canonical(d, *head, "call", r.time, r.body); !a) return a;
    }
    return {};
  });
}

// Batches that fill groups exactly, partly or not at all, after a record already in the chain and
// one after another (the head moves on between them), give the same records, and the chain
// verifies.
TEST(ChainAppender, GroupsMakeTheChainOneAtATimeMakes) {
  constexpr std::size_t g = ChainAppender::kGroup;
  for (const std::size_t n : {std::size_t{0}, std::size_t{1}, g - 1, g, g + 1, 2 * g + 3}) {
    mcp::test::TmpDir a, b;
    auto sa = open_state(a.path);
    auto sb = open_state(b.path);
    ASSERT_TRUE(sa && sb);
    // A record already in the chain, the same in both folders (its time is now: copied as stored).
    ASSERT_TRUE(sa->audit->append("note", json::object{{"first", true}}, Db::Durability::process_crash));
    const auto head = json::parse(stored(*sa->audit).at(0)).as_object();
    auto text = [&](std::string_view key) {
      const json::string& v = head.at(key).as_string();
      return std::string_view(v.data(), v.size());
    };
    auto copied = sb->db->transaction([&](Db& d) -> Result<void> {
      auto ins = d.prepare("INSERT INTO audit (seq, time, kind, body, prev, hash) VALUES (?, ?, ?, ?, ?, ?)");
      if (!ins) return fail(ins.error());
      ins->bind(1, head.at("seq").as_int64())
          .bind(2, text("time"))
          .bind(3, text("kind"))
          .bind(4, *trust::canonicalize(head.at("body").as_object()))
          .bind(5, text("prev"))
          .bind(6, text("hash"));
      auto done = ins->step();
      if (!done) return fail(done.error());
      return {};
    });
    ASSERT_TRUE(copied) << copied.error().message;
    const auto first = records(n, 0), second = records(n + 2, n);
    ASSERT_TRUE(grouped(*sa, first));
    ASSERT_TRUE(grouped(*sa, second));
    ASSERT_TRUE(one_at_a_time(*sb, first));
    ASSERT_TRUE(one_at_a_time(*sb, second));
    const auto got = stored(*sa->audit);
    EXPECT_EQ(got.size(), 1 + 2 * n + 2) << "batch of " << n;
    EXPECT_EQ(got, stored(*sb->audit)) << "batch of " << n;
    auto check = sa->audit->verify();
    ASSERT_TRUE(check);
    EXPECT_FALSE(check->first_broken) << check->why;
  }
}

}  // namespace
