// The gateway's own work per forwarded tools/call, piece by piece, without the thread hand-offs of
// any transport: the pin lookup (PinStore::state, what the pins stage asks on every call and list
// item), the policy check, the arguments' digest (RFC 8785 + SHA-256), the audit record (journaled,
// as the gateway does: call_journal.hpp; and committed on the call's thread, the fallback), the
// metrics, and all of them together (journaled); and what a retention's pass costs per record.
// State folders on disk.
//
//   bench_gateway_per_call [--benchmark_* flags]   (the state folder is made in the current folder)
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "gateway/audit_retention.hpp"
#include "gateway/metrics.hpp"
#include "gateway/policy.hpp"
#include "gateway/state.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace {

using namespace mcp;
using namespace mcp::gateway;

struct Fixture {
  std::filesystem::path dir = std::filesystem::current_path() / ("bench-gateway-per-call-" + std::to_string(::getpid()));
  State state;
  State journaled;  // another folder, its call records through the journal
  ItemPolicy policy;
  Metrics metrics;
  Tool tool;
  json::object arguments{{"path", "/srv/notes/today.md"}, {"content", std::string(200, 'x')}, {"append", true}};
  Fixture() {
    auto s = open_state(dir);
    if (!s) throw std::runtime_error(s.error().message);
    state = *s;
    auto j = open_state(dir / "journaled");
    if (!j || !j->audit->start_journal()) throw std::runtime_error("journaled state");
    journaled = *j;
    tool.name = "write_note";
    tool.input_schema = json::object{{"type", "object"}};
    (void)state.pins->observe("files", ListKind::tools, tool.name, to_json(tool).as_object(), NewItems::allow);
    policy.deny = {"*delete*", "format_*"};
    policy.deny_hints = {"destructiveHint"};
    policy.allow_hinted = {"write_*"};
  }
  ~Fixture() { std::filesystem::remove_all(dir); }
  std::string digest() const { return trust::sha256_tag(*trust::canonicalize(arguments)); }
  json::object call_record(const std::string& digest) const {
    return json::object{{"server", "files"}, {"method", "tools/call"}, {"item", tool.name}, {"arguments", digest},
                        {"client", "0123456789abcdef0123456789abcdef"}, {"latencyUs", 42}, {"outcome", "ok"}};
  }
  void record(const std::string& digest) {
    if (!state.audit->append("call", call_record(digest), Db::Durability::process_crash)) throw std::runtime_error("append");
  }
  void journal(const std::string& digest) {
    if (!journaled.audit->append_call(call_record(digest))) throw std::runtime_error("append_call");
  }
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

void PinLookup(benchmark::State& s) {
  auto& f = fixture();
  for (auto _ : s) benchmark::DoNotOptimize(f.state.pins->state("files", ListKind::tools, f.tool.name));
}
BENCHMARK(PinLookup);

void PolicyCheck(benchmark::State& s) {
  auto& f = fixture();
  for (auto _ : s) benchmark::DoNotOptimize(f.policy.denies(ListKind::tools, f.tool.name, &f.tool));
}
BENCHMARK(PolicyCheck);

void ArgumentsDigest(benchmark::State& s) {
  auto& f = fixture();
  for (auto _ : s) benchmark::DoNotOptimize(f.digest());
}
BENCHMARK(ArgumentsDigest);

void AuditRecordJournaled(benchmark::State& s) {
  auto& f = fixture();
  const std::string d = f.digest();
  for (auto _ : s) f.journal(d);
}
BENCHMARK(AuditRecordJournaled);

void AuditRecordCommitted(benchmark::State& s) {
  auto& f = fixture();
  const std::string d = f.digest();
  for (auto _ : s) f.record(d);
}
BENCHMARK(AuditRecordCommitted);

// What the audit writer does per call record: a batch of journaled records (as one busy interval
// gathers) committed to the hash chain in one transaction, here on the calling thread.
void AuditBatchCommitted(benchmark::State& s) {
  auto& f = fixture();
  const std::string d = f.digest();
  const auto batch = s.range(0);
  for (auto _ : s) {
    s.PauseTiming();
    for (std::int64_t i = 0; i < batch; ++i) f.journal(d);
    s.ResumeTiming();
    if (!f.journaled.audit->flush()) throw std::runtime_error("flush");
  }
  s.SetItemsProcessed(s.iterations() * batch);
}
BENCHMARK(AuditBatchCommitted)->Arg(200);

// What a retention (gateway.audit, audit_retention.hpp) adds per call record: a pass over a batch
// of records new since the last one (verified, then pruned to the newest keepRecords), as the
// retention's thread runs it once a tenth more than keepRecords has come.
void AuditRetentionPass(benchmark::State& s) {
  auto& f = fixture();
  const std::string d = f.digest();
  const auto batch = s.range(0);
  auto retention =
      AuditRetention::start(f.journaled.audit, RetentionPolicy{.keep_records = batch * 10}, std::chrono::hours(1));
  // Its first pass walks the whole chain the benchmarks before this one left: not what is timed.
  if (!retention->wait_for_rounds(1, std::chrono::minutes(5))) throw std::runtime_error("retention's first pass");
  for (auto _ : s) {
    s.PauseTiming();
    for (std::int64_t i = 0; i < batch; ++i) f.journal(d);
    if (!f.journaled.audit->flush()) throw std::runtime_error("flush");
    s.ResumeTiming();
    if (!retention->run_once(std::chrono::system_clock::now())) throw std::runtime_error("retention pass");
  }
  s.SetItemsProcessed(s.iterations() * batch);
}
BENCHMARK(AuditRetentionPass)->Arg(1000);

void MetricsObserve(benchmark::State& s) {
  auto& f = fixture();
  for (auto _ : s) f.metrics.observe("files", "tools/call", "ok", std::chrono::microseconds(42));
}
BENCHMARK(MetricsObserve);

// What the proxy adds to one call: the pins stage and the policy on the way in, digest, record and
// metrics on the way out.
void WholeCall(benchmark::State& s) {
  auto& f = fixture();
  for (auto _ : s) {
    benchmark::DoNotOptimize(f.policy.denies(ListKind::tools, f.tool.name, &f.tool));
    benchmark::DoNotOptimize(f.state.pins->state("files", ListKind::tools, f.tool.name));
    f.journal(f.digest());
    f.metrics.observe("files", "tools/call", "ok", std::chrono::microseconds(42));
  }
}
BENCHMARK(WholeCall);

}  // namespace

BENCHMARK_MAIN();
