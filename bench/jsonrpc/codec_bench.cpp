// Encode and decode of typical MCP messages (Google Benchmark).
#include <benchmark/benchmark.h>

#include "mcp/jsonrpc/codec.hpp"
#include "mcp/protocol/tool_call.hpp"

namespace {

const std::string kCallRequest =
    R"({"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"search","arguments":{"query":"weather in Paris","limit":10},"_meta":{"progressToken":42}}})";

std::string tools_list_result(int n) {
  mcp::json::array tools;
  for (int i = 0; i < n; ++i) {
    tools.push_back({{"name", "tool_" + std::to_string(i)},
                     {"description", "Does thing number " + std::to_string(i) + " to the input it is given."},
                     {"inputSchema",
                      {{"type", "object"},
                       {"properties", {{"path", {{"type", "string"}, {"description", "A path"}}}, {"n", {{"type", "integer"}}}}},
                       {"required", mcp::json::array{"path"}}}},
                     {"annotations", {{"readOnlyHint", true}, {"openWorldHint", false}}}});
  }
  return mcp::jsonrpc::encode_result(mcp::json::value(7), mcp::json::object{{"tools", std::move(tools)}});
}

void BM_DecodeCallRequest(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mcp::jsonrpc::decode(kCallRequest));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kCallRequest.size()));
}
BENCHMARK(BM_DecodeCallRequest);

// The JSON parse alone, ours (repeated names refused, numbers read again) against Boost.JSON's.
void BM_ParseStrict(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mcp::parse_json_strict(kCallRequest));
}
BENCHMARK(BM_ParseStrict);

void BM_ParseBoost(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(boost::json::parse(kCallRequest));
}
BENCHMARK(BM_ParseBoost);

// A message's DOM in an arena of its own (a shared monotonic resource, so that pieces kept past the
// message stay valid): measured slower than the heap for frames of this size, so not used.
void BM_ParseBoostMonotonic(benchmark::State& state) {
  for (auto _ : state) {
    auto sp = boost::json::make_shared_resource<boost::json::monotonic_resource>(1024);
    benchmark::DoNotOptimize(boost::json::parse(kCallRequest, sp));
  }
}
BENCHMARK(BM_ParseBoostMonotonic);

void BM_EncodeCallResult(benchmark::State& state) {
  mcp::json::value result = {{"content", mcp::json::array{{{"type", "text"}, {"text", "Sunny, 21 degrees"}}}}};
  mcp::json::value id = 42;
  for (auto _ : state) benchmark::DoNotOptimize(mcp::jsonrpc::encode_result(id, result));
}
BENCHMARK(BM_EncodeCallResult);

// A result carrying a long text (a file read, a tool's report), with a few escapes in it.
void BM_EncodeLongText(benchmark::State& state) {
  std::string text(static_cast<std::size_t>(state.range(0)), 'a');
  for (std::size_t i = 100; i < text.size(); i += 1000) text[i] = '\n';
  mcp::json::value result = {{"content", mcp::json::array{{{"type", "text"}, {"text", text}}}}};
  mcp::json::value id = 42;
  for (auto _ : state) benchmark::DoNotOptimize(mcp::jsonrpc::encode_result(id, result));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_EncodeLongText)->Arg(16384)->Arg(1 << 20);

// A tool's result read into CallToolResult and written back: what a client does with every
// answer, and what a gateway forwarding it would do twice.
const mcp::json::value kCallResult = {{"content", mcp::json::array{{{"type", "text"}, {"text", "Sunny, 21 degrees"}}}}};

void BM_DecodeCallResultTyped(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(mcp::from_json<mcp::CallToolResult>(kCallResult));
}
BENCHMARK(BM_DecodeCallResultTyped);

void BM_EncodeCallResultTyped(benchmark::State& state) {
  const auto typed = mcp::from_json<mcp::CallToolResult>(kCallResult).value();
  for (auto _ : state) benchmark::DoNotOptimize(mcp::to_json(typed));
}
BENCHMARK(BM_EncodeCallResultTyped);

void BM_DecodeToolsList(benchmark::State& state) {
  auto text = tools_list_result(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mcp::jsonrpc::decode(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_DecodeToolsList)->Arg(10)->Arg(100);

void BM_EncodeToolsList(benchmark::State& state) {
  auto msg = mcp::jsonrpc::decode(tools_list_result(static_cast<int>(state.range(0))));
  const auto& result = std::get<mcp::jsonrpc::Response>(*msg).result;
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto s = mcp::jsonrpc::encode_result(mcp::json::value(7), result);
    bytes += s.size();
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_EncodeToolsList)->Arg(10)->Arg(100);

}  // namespace

BENCHMARK_MAIN();
