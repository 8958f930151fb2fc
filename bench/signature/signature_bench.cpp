// Checking a 100-tool tools/list result (~117 KB, bench/trust/data/tools_100.json) against a
// capability signature that declares every tool, half of them with a second annotation variant.
//
//   CheckStrict      the client's strict mode: keys, annotations, and title, description, inputSchema,
//                    outputSchema held (json::value in, as the client has it after decoding)
//   CheckLax         permissive / advisory: keys and annotations only
//   CheckFreezing    no signature: every member compared with the pinned first list
//   BytesUncached    raw bytes in, first sight: SHA-256 + parse + strict check
//   BytesCached      raw bytes in, equal to the last clean result: one SHA-256, nothing else
//   Parse            the parse alone, for reference (the session has already paid it on the client)
//   SerializeAndHash what a client holding only the DOM would pay to use the cache (serialize + SHA-256)
#include <benchmark/benchmark.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "mcp/signature/checker.hpp"
#include "mcp/signature/derive.hpp"
#include "mcp/trust/sha256.hpp"

namespace {

using namespace mcp;

struct Fixture {
  std::string bytes;       // the tools/list result as served
  std::string bytes_other; // the same list in another member order: equal meaning, other bytes
  json::value result;
  std::shared_ptr<const ServerSignature> signature;

  Fixture() {
    std::ifstream in(MCP_SIGNATURE_BENCH_TOOLS, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " MCP_SIGNATURE_BENCH_TOOLS);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    result = json::parse(bytes);
    std::vector<Tool> tools;
    SignatureDeclarations d;
    int i = 0;
    for (const auto& t : result.at("tools").as_array()) {
      tools.push_back(*from_json<Tool>(t));
      if (i++ % 2 == 0) {
        ToolAnnotations writing;
        writing.read_only_hint = false;
        writing.destructive_hint = true;
        d.tool_variants[tools.back().name] = {writing};
      }
    }
    signature = std::make_shared<const ServerSignature>(derive_signature(tools, {}, {}, {}, d));
    json::array reversed;
    for (auto it = result.at("tools").as_array().rbegin(); it != result.at("tools").as_array().rend(); ++it)
      reversed.push_back(*it);
    // The tools in reverse order: a permitted list whose bytes differ, so the cache misses.
    bytes_other = to_string(json::object{{"tools", std::move(reversed)}});
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

void report_bytes(benchmark::State& state) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(fixture().bytes.size()));
}

void CheckStrict(benchmark::State& state) {
  const auto& f = fixture();
  SignatureChecker c(f.signature, CheckOptions{.hold_definitions = true});
  for (auto _ : state) {
    auto v = c.check_list(ListKind::tools, f.result, true);
    if (!v.empty()) state.SkipWithError(v.front().describe().c_str());
    benchmark::DoNotOptimize(v);
  }
  report_bytes(state);
}
BENCHMARK(CheckStrict);

void CheckLax(benchmark::State& state) {
  const auto& f = fixture();
  SignatureChecker c(f.signature, CheckOptions{.hold_definitions = false});
  for (auto _ : state) {
    auto v = c.check_list(ListKind::tools, f.result, true);
    benchmark::DoNotOptimize(v);
  }
  report_bytes(state);
}
BENCHMARK(CheckLax);

void CheckFreezing(benchmark::State& state) {
  const auto& f = fixture();
  SignatureChecker c;
  (void)c.check_list(ListKind::tools, f.result, true);  // pins
  for (auto _ : state) {
    auto v = c.check_list(ListKind::tools, f.result, true);
    if (!v.empty()) state.SkipWithError(v.front().describe().c_str());
    benchmark::DoNotOptimize(v);
  }
  report_bytes(state);
}
BENCHMARK(CheckFreezing);

void BytesUncached(benchmark::State& state) {
  const auto& f = fixture();
  SignatureChecker c(f.signature, CheckOptions{.hold_definitions = true});
  bool flip = false;
  for (auto _ : state) {
    // Alternating two different clean lists: the cache holds only the last, so every check misses.
    auto v = c.check_list_bytes(ListKind::tools, flip ? f.bytes_other : f.bytes, true);
    if (!v.empty()) state.SkipWithError(v.front().describe().c_str());
    flip = !flip;
    benchmark::DoNotOptimize(v);
  }
  report_bytes(state);
}
BENCHMARK(BytesUncached);

void BytesCached(benchmark::State& state) {
  const auto& f = fixture();
  SignatureChecker c(f.signature, CheckOptions{.hold_definitions = true});
  (void)c.check_list_bytes(ListKind::tools, f.bytes, true);
  for (auto _ : state) {
    auto v = c.check_list_bytes(ListKind::tools, f.bytes, true);
    benchmark::DoNotOptimize(v);
  }
  report_bytes(state);
}
BENCHMARK(BytesCached);

void Parse(benchmark::State& state) {
  const auto& f = fixture();
  for (auto _ : state) {
    boost::system::error_code ec;
    json::value v = json::parse(f.bytes, ec);
    benchmark::DoNotOptimize(v);
  }
  report_bytes(state);
}
BENCHMARK(Parse);

void SerializeAndHash(benchmark::State& state) {
  const auto& f = fixture();
  for (auto _ : state) {
    auto d = trust::sha256(to_string(f.result));
    benchmark::DoNotOptimize(d);
  }
  report_bytes(state);
}
BENCHMARK(SerializeAndHash);

}  // namespace

BENCHMARK_MAIN();
