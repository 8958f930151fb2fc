// Our client speaking MCP 2026-07-28 (src/client/stateless.cpp, listen.cpp, response_cache.cpp):
// the probe and its fallback, against scripted servers that speak only what a test says; and,
// against our server, the cache, the dropped tools, the hidden requirements, the per-request log
// level and the listen that carries changes.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <mutex>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"
#include "client/response_cache.hpp"
#include "server/tools.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Connected;
using mcp::test::handshake;
using mcp::test::make_tool;
using mcp::test::text_of;

namespace {

// A server that answers each request with what `script` says, and records what it was sent.
struct ScriptedServer : Session::Handler {
  using Script = std::function<Result<json::value>(const std::string& method, const json::object& params)>;
  Script script;
  std::shared_ptr<Session> session;
  std::mutex mu;
  std::vector<std::pair<std::string, json::object>> seen;

  explicit ScriptedServer(Script s) : script(std::move(s)) {}
  std::shared_ptr<Transport> start() {
    auto [a, b] = make_memory_transport_pair();
    session = Session::create(a, *this, {});
    EXPECT_TRUE(session->start());
    return b;
  }
  ~ScriptedServer() override {
    if (session) session->shutdown();
  }
  Result<json::value> handle_request(InboundRequest& r) override {
    {
      std::lock_guard lock(mu);
      seen.emplace_back(r.method, r.params);
    }
    return script(r.method, r.params);
  }
  void handle_notification(const jsonrpc::Notification&) override {}
  std::vector<std::pair<std::string, json::object>> requests() {
    std::lock_guard lock(mu);
    return seen;
  }
};

json::value initialize_result() {
  return json::object{{"protocolVersion", "2025-11-25"},
                      {"capabilities", json::object{{"tools", json::object{}}}},
                      {"serverInfo", json::object{{"name", "legacy"}, {"version", "1"}}}};
}

json::value discover_result() {
  return json::object{{"resultType", "complete"},
                      {"supportedVersions", json::array{"2026-07-28"}},
                      {"capabilities", json::object{{"tools", json::object{}}}},
                      {"ttlMs", 0},
                      {"cacheScope", "private"},
                      {"_meta", json::object{{meta_key::kServerInfo, json::object{{"name", "modern"}, {"version", "2"}}}}}};
}

// A 2025-11-25 server: server/discover is unknown to it.
Result<json::value> legacy(const std::string& m, const json::object&) {
  if (m == method::kInitialize) return initialize_result();
  if (m == method::kToolsList) return json::value(json::object{{"tools", json::array{}}});
  return fail(Error::method_not_found(m));
}

TEST(ClientProbe, AServerWithoutTheRevisionGetsTheHandshake) {
  ScriptedServer server(legacy);
  Client client;
  auto init = client.connect(server.start());
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_FALSE(client.stateless());
  EXPECT_EQ(init->protocol_version, "2025-11-25");
  ASSERT_TRUE(client.list_tools());
  auto seen = server.requests();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0].first, "server/discover");
  EXPECT_EQ(seen[1].first, "initialize");
  EXPECT_FALSE(is_stateless_request(seen[2].second));  // after the fallback: no per-request _meta
}

TEST(ClientProbe, WithoutFallbackSuchAServerIsRefusedClearly) {
  ScriptedServer server(legacy);
  ClientOptions co;
  co.fallback = false;
  Client client(co);
  auto init = client.connect(server.start());
  ASSERT_FALSE(init);
  EXPECT_NE(init.error().message.find("does not speak 2026-07-28"), std::string::npos) << init.error().message;
}

TEST(ClientProbe, AVersionRefusalNamingOursIsTriedOnceMore) {
  std::atomic<int> discovers{0};
  ScriptedServer server([&](const std::string& m, const json::object&) -> Result<json::value> {
    if (m != method::kServerDiscover) return json::value(json::object{{"tools", json::array{}}});
    // The first request of a connection is refused, whatever it says (conformance request-metadata).
    if (discovers++ == 0) {
      return fail(Error{error_code::kUnsupportedProtocolVersion, "Unsupported protocol version",
                        json::object{{"supported", json::array{"2026-07-28"}}, {"requested", "2026-07-28"}}});
    }
    return discover_result();
  });
  Client client;
  auto init = client.connect(server.start());
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_TRUE(client.stateless());
  EXPECT_EQ(init->server_info.name, "modern");
  EXPECT_EQ(discovers.load(), 2);
  ASSERT_TRUE(client.list_tools());
  auto seen = server.requests();
  const json::object& meta = seen.back().second.at("_meta").as_object();
  EXPECT_EQ(meta.at(meta_key::kProtocolVersion), "2026-07-28");
  EXPECT_EQ(meta.at(meta_key::kClientInfo).at("name"), "mcp-trust-client");
  EXPECT_TRUE(meta.at(meta_key::kClientCapabilities).is_object());
}

TEST(ClientProbe, AForcedHandshakeRevisionSkipsTheProbe) {
  ScriptedServer server(legacy);
  Client client(handshake());
  ASSERT_TRUE(client.connect(server.start()));
  EXPECT_EQ(server.requests().front().first, "initialize");
}

// A hostile server asking a thousand questions at once: refused before any handler runs.
TEST(ClientInput, AFloodOfInputRequestsIsRefusedWithoutAskingAnything) {
  ScriptedServer server([](const std::string& m, const json::object&) -> Result<json::value> {
    if (m == method::kServerDiscover) return discover_result();
    json::object requests;
    for (int i = 0; i < 1000; ++i) {
      requests["q" + std::to_string(i)] = json::object{{"method", "roots/list"}};
    }
    return json::value(json::object{{"resultType", "input_required"}, {"inputRequests", std::move(requests)}});
  });
  std::atomic<int> asked{0};
  ClientOptions co;
  co.on_roots = [&](const json::object&, const CancellationToken&) -> Result<json::value> {
    ++asked;
    return json::value(json::object{{"roots", json::array{}}});
  };
  Client client(co);
  ASSERT_TRUE(client.connect(server.start()));
  auto r = client.request("tools/call", json::object{{"name", "x"}, {"arguments", json::object{}}});
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("over the limit of 32"), std::string::npos) << r.error().message;
  EXPECT_EQ(asked.load(), 0);
}

// ---- against our server ----

// Counts the requests of each method that reach the server.
struct Counter : Stage {
  std::mutex mu;
  std::map<std::string, int> counts;
  std::string_view name() const override { return "counter"; }
  std::optional<Result<json::value>> on_request(Call& call) override {
    std::lock_guard lock(mu);
    ++counts[std::string(call.method)];
    return std::nullopt;
  }
  int count(const std::string& m) {
    std::lock_guard lock(mu);
    return counts[m];
  }
};

TEST(ClientCache, AListIsReusedForItsTtlAndForgottenWhenItChanges) {
  ServerOptions so;
  so.cache_ttl = 60s;
  auto server = std::make_shared<Server>(so);
  auto counter = std::make_shared<Counter>();
  server->use(counter);
  server->add_tool(make_tool("a"), [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("a")); });
  mcp::test::Event changed;
  ClientOptions co;
  co.on_list_changed = [&](const std::string&) { changed.set(); };
  Connected c(server, co);
  ASSERT_TRUE(c.client->stateless());
  ASSERT_EQ(c.client->list_all_tools()->size(), 1u);
  ASSERT_EQ(c.client->list_all_tools()->size(), 1u);
  EXPECT_EQ(counter->count("tools/list"), 1);  // the second came from the cache
  server->add_tool(make_tool("b"), [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("b")); });
  ASSERT_TRUE(changed.wait());
  EXPECT_EQ(c.client->list_all_tools()->size(), 2u);  // the change forgot the cached list
  EXPECT_EQ(counter->count("tools/list"), 2);
}

TEST(ClientCache, NothingIsReusedWithoutATtl) {
  auto server = std::make_shared<Server>();  // ttlMs 0 by default
  auto counter = std::make_shared<Counter>();
  server->use(counter);
  Connected c(server);
  ASSERT_TRUE(c.client->list_tools());
  ASSERT_TRUE(c.client->list_tools());
  EXPECT_EQ(counter->count("tools/list"), 2);
}

// A server may give every result a long ttlMs and a different cursor each time: the cache keeps at
// most its byte bound, the oldest entries going first, and serves only fresh, equal requests.
TEST(ClientCache, AFloodOfCacheableResultsStaysWithinTheByteBound) {
  const std::size_t bound = 64 * 1024;
  ResponseCache cache(json::object{{"sampling", json::object{}}}, bound);
  const auto now = ResponseCache::Clock::now();
  // What the client does with each request: its key once, then find or store under it.
  auto store = [&](std::string_view m, const json::object& params, const json::value& result) {
    if (auto k = cache.key(m, params)) cache.store(*k, m, params, result, now);
  };
  auto find = [&](std::string_view m, const json::object& params, ResponseCache::Clock::time_point at) {
    auto k = cache.key(m, params);
    return k ? cache.find(*k, at) : std::nullopt;
  };
  const json::value page{{"tools", json::array{json::object{{"name", std::string(900, 'x')}}}}, {"ttlMs", 3600000}};
  for (int i = 0; i < 10000; ++i) {
    store("tools/list", json::object{{"cursor", std::to_string(i)}}, page);
    ASSERT_LE(cache.bytes(), bound) << "after " << i + 1 << " results";
  }
  EXPECT_TRUE(find("tools/list", json::object{{"cursor", "9999"}}, now));   // the newest is kept
  EXPECT_FALSE(find("tools/list", json::object{{"cursor", "0"}}, now));     // the oldest went
  EXPECT_FALSE(find("tools/list", json::object{{"cursor", "9999"}}, now + std::chrono::hours(2)));  // expired
  // Never kept: no ttlMs, a retry carrying input, a method that is not cacheable.
  store("prompts/list", {}, json::value{{"prompts", json::array{}}});
  store("resources/read", json::object{{"uri", "a"}, {"requestState", "s"}}, json::value{{"ttlMs", 5000}});
  store("tools/call", json::object{{"name", "t"}}, json::value{{"ttlMs", 5000}});
  EXPECT_FALSE(find("prompts/list", {}, now));
  EXPECT_FALSE(find("resources/read", json::object{{"uri", "a"}, {"requestState", "s"}}, now));
  EXPECT_FALSE(find("tools/call", json::object{{"name", "t"}}, now));
  EXPECT_FALSE(cache.key("tools/call", json::object{{"name", "t"}}));
}

TEST(ClientTools, AToolWithAnInvalidHeaderAnnotationIsDroppedOverTheNewRevisionOnly) {
  auto server = std::make_shared<Server>();
  Tool bad = make_tool("bad");
  bad.input_schema = json::object{{"type", "object"},
                                  {"properties", json::object{{"score", json::object{{"type", "number"}, {"x-mcp-header", "Score"}}}}}};
  server->add_tool(bad, [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("bad")); });
  server->add_tool(make_tool("good"), [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("good")); });
  Connected modern(server);
  auto listed = modern.client->list_all_tools();
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ((*listed)[0].name, "good");
  Connected old(server, handshake());
  EXPECT_EQ(old.client->list_all_tools()->size(), 2u);  // x-mcp-header is a 2026-07-28 rule
}

TEST(ClientTools, ItemsListingRequirementsTheClientCannotMeetAreHidden) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("needs_sampling"), [](const json::object&, RequestContext&) {
    return Result<CallToolResult>(CallToolResult::text("x"));
  });
  server->require_capabilities(ListKind::tools, "needs_sampling",
                               CapabilityRequirement{.capabilities = json::object{{"sampling", json::object{}}}});
  Connected without(server);
  EXPECT_TRUE(without.client->list_all_tools()->empty());
  ClientOptions co;
  co.on_sampling = [](const json::object&, const CancellationToken&) -> Result<json::value> { return json::object{}; };
  Connected with(server, co);
  EXPECT_EQ(with.client->list_all_tools()->size(), 1u);
}

TEST(ClientLogging, TheLevelTravelsWithEachRequest) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("logs"), [](const json::object&, RequestContext& ctx) {
    ctx.log("debug", "quiet");
    ctx.log("warning", "loud");
    return Result<CallToolResult>(CallToolResult::text("done"));
  });
  std::mutex mu;
  std::vector<std::string> heard;
  ClientOptions co;
  co.on_log = [&](const LoggingMessageNotificationParams& p) {
    std::lock_guard lock(mu);
    heard.push_back(json::serialize(p.data));
  };
  Connected c(server, co);
  ASSERT_TRUE(c.client->stateless());
  ASSERT_TRUE(c.client->call_tool("logs"));  // no level asked: no log notifications at all
  ASSERT_TRUE(c.client->set_log_level(LoggingLevel::warning));
  ASSERT_TRUE(c.client->call_tool("logs"));
  std::lock_guard lock(mu);
  EXPECT_EQ(heard, std::vector<std::string>{"\"loud\""});
}

}  // namespace
