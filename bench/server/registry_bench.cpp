// A server with many items: what registering them costs, and what one request that names an item
// costs as their number grows. A gateway serves every item an upstream lists (up to 50,000 pins
// per upstream, PinStore::kMaxPinsPerServer), and /mcp all upstreams' together, so neither may
// grow with the number of items.
//
//   Register/N   N tools added to an empty server (the gateway adds each one an upstream lists)
//   Remove/N     the same N tools removed again, in registration order
//   Call/N       tools/call of the tool registered last, on a server with N tools
//   Get/N        prompts/get of the prompt registered last, on a server with N prompts
//   Read/N       resources/read of the resource registered last, on a server with N resources
//   ListAll/N    every page of tools/list (ServerOptions::page_size 100, the default), on a server
//                with N tools: what a client that lists them all makes the server do
// The calls go in process over the direct transport (no thread hand-off, no text), so what is
// left is the request's own work, the lookup of its item included.
#include <benchmark/benchmark.h>

#include <string>

#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/direct.hpp"

namespace {

using namespace mcp;

Tool tool(int i) {
  Tool t;
  t.name = "tool_" + std::to_string(i);
  t.input_schema = json::object{{"type", "object"}};
  return t;
}

Prompt prompt(int i) {
  Prompt p;
  p.name = "prompt_" + std::to_string(i);
  return p;
}

Resource resource(int i) {
  Resource r;
  r.uri = "file:///items/" + std::to_string(i);
  r.name = "item " + std::to_string(i);
  return r;
}

void add_tools(Server& server, int n) {
  for (int i = 0; i < n; ++i) {
    server.add_tool(tool(i), [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("ok")); },
                    ToolOptions{.non_blocking = true});
  }
}

void BM_Register(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  for (auto _ : state) {
    Server server;
    add_tools(server, n);
  }
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_Remove(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    Server server;
    add_tools(server, n);
    state.ResumeTiming();
    for (int i = 0; i < n; ++i) benchmark::DoNotOptimize(server.remove_tool("tool_" + std::to_string(i)));
  }
  state.SetItemsProcessed(state.iterations() * n);
}

// A client of `server` over the direct transport.
std::unique_ptr<Client> client_of(Server& server) {
  auto [a, b] = make_direct_transport_pair();
  if (!server.connect(a)) throw std::runtime_error("server session");
  auto c = std::make_unique<Client>();
  if (!c->connect(b)) throw std::runtime_error("connect");
  return c;
}

void BM_Call(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto server = std::make_shared<Server>();
  add_tools(*server, n);
  auto client = client_of(*server);
  const std::string last = "tool_" + std::to_string(n - 1);
  for (auto _ : state) {
    auto r = client->call_tool(last, json::object{});
    if (!r) state.SkipWithError(r.error().message.c_str());
  }
  client->close();
}

void BM_Get(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto server = std::make_shared<Server>();
  for (int i = 0; i < n; ++i)
    server->add_prompt(prompt(i), [](const std::map<std::string, std::string>&, RequestContext&) {
      return Result<GetPromptResult>(GetPromptResult{});
    });
  auto client = client_of(*server);
  const std::string last = "prompt_" + std::to_string(n - 1);
  for (auto _ : state) {
    auto r = client->get_prompt(last, {});
    if (!r) state.SkipWithError(r.error().message.c_str());
  }
  client->close();
}

void BM_Read(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto server = std::make_shared<Server>();
  for (int i = 0; i < n; ++i) {
    server->add_resource(resource(i), [](const std::string& uri, RequestContext&) {
      return Result<ReadResourceResult>(ReadResourceResult{.contents = {TextResourceContents{.uri = uri, .text = "x"}}});
    });
  }
  auto client = client_of(*server);
  const std::string last = "file:///items/" + std::to_string(n - 1);
  for (auto _ : state) {
    auto r = client->read_resource(last);
    if (!r) state.SkipWithError(r.error().message.c_str());
  }
  client->close();
}

void BM_ListAll(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto server = std::make_shared<Server>();
  add_tools(*server, n);
  auto client = client_of(*server);
  for (auto _ : state) {
    auto all = client->list_all_tools();
    if (!all || all->size() != static_cast<std::size_t>(n)) state.SkipWithError("list_all_tools");
  }
  state.SetItemsProcessed(state.iterations() * n);
  client->close();
}

}  // namespace

BENCHMARK(BM_Register)->Arg(1000)->Arg(10000)->Arg(50000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Remove)->Arg(1000)->Arg(10000)->Arg(50000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Call)->Arg(10)->Arg(1000)->Arg(50000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Get)->Arg(10)->Arg(1000)->Arg(50000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Read)->Arg(10)->Arg(1000)->Arg(50000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ListAll)->Arg(100)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
