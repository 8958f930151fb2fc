// The cost of per-request capability filtering (mcp/server/requirements.hpp) on a 1,000-tool
// tools/list, served statelessly (MCP 2026-07-28) to a client that declares nothing, in process
// over the memory transport: the whole request, decoding, the chain, the list and its JSON.
//
//   List/none         no item has a requirement (the baseline)
//   List/show         every tool needs sampling and is listed with its requirement
//   List/hide         every tool needs sampling and is hidden (the answer is nearly empty)
//   List/substitute   every other tool needs sampling and is replaced by its neighbour
//   List/related      as show, the request declaring sampling for related requests
// The difference to `none` is the filtering's price; `hide` also shows what not serialising costs.
#include <benchmark/benchmark.h>

#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"

namespace {

using namespace mcp;
using When = CapabilityRequirement::WhenMissing;

enum Policy { none, show, hide, substitute, related };

struct Fixture : Session::Handler {
  std::shared_ptr<Server> server;
  std::shared_ptr<Session> client;
  json::object params;

  explicit Fixture(Policy policy) {
    ServerOptions o;
    o.page_size = 0;  // the 1,000 tools in one answer
    server = std::make_shared<Server>(o);
    const json::object sampling{{"sampling", json::object{}}};
    for (int i = 0; i < 1000; ++i) {
      Tool t;
      t.name = "tool_" + std::to_string(i);
      t.description = "Tool number " + std::to_string(i) + ", which does one thing well";
      t.input_schema = json::object{{"type", "object"},
                                    {"properties", json::object{{"path", json::object{{"type", "string"}}}}},
                                    {"required", json::array{"path"}}};
      server->add_tool(t, [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("")); });
    }
    for (int i = 0; i < 1000; ++i) {
      const std::string name = "tool_" + std::to_string(i);
      switch (policy) {
        case none: break;
        case show:
        case related: server->require_capabilities(ListKind::tools, name, {.capabilities = sampling}); break;
        case hide: server->require_capabilities(ListKind::tools, name, {.capabilities = sampling, .when_missing = When::hide}); break;
        case substitute:
          if (i % 2 == 0) {
            server->require_capabilities(ListKind::tools, name,
                                         {.capabilities = sampling, .when_missing = When::substitute,
                                          .substitute = "tool_" + std::to_string(i + 1)});
          }
          break;
      }
    }
    auto [a, b] = make_memory_transport_pair();
    (void)server->connect(a);
    client = Session::create(b, *this, {});
    (void)client->start();
    json::object meta{{meta_key::kProtocolVersion, "2026-07-28"},
                      {meta_key::kClientCapabilities, json::object{}},
                      {meta_key::kClientInfo, json::object{{"name", "bench"}, {"version", "1"}}}};
    if (policy == related) meta[kRelatedRequestCapabilitiesKey] = sampling;
    params = json::object{{"_meta", std::move(meta)}};
  }
  ~Fixture() override { client->shutdown(); }
  void handle_notification(const jsonrpc::Notification&) override {}
};

void List(benchmark::State& state) {
  Fixture f(static_cast<Policy>(state.range(0)));
  std::size_t listed = 0;
  for (auto _ : state) {
    auto r = f.client->request(method::kToolsList, f.params);
    if (!r) {
      state.SkipWithError(r.error().message.c_str());
      return;
    }
    listed = r->at("tools").as_array().size();
    benchmark::DoNotOptimize(listed);
  }
  state.counters["tools_listed"] = static_cast<double>(listed);
}

}  // namespace

BENCHMARK(List)->ArgName("policy")->Arg(none)->Arg(show)->Arg(hide)->Arg(substitute)->Arg(related)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
