// MCP 2026-07-28 on the server (src/server/stateless.cpp), spoken by a raw session over the
// in-memory transport: no initialize, each request judged by its own _meta; what every answer
// gains (resultType, serverInfo, caching hints); the revision's errors; per-request capabilities
// and log level, with nothing carried from one request to the next; and 2025-11-25 requests on
// the same connection still answered by the handshake's view (one code path).
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/stateless.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"
#include "server/raw_client.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::make_tool;
using mcp::test::params_with;
using mcp::test::RawClient;
using mcp::test::stateless_meta;

namespace {

std::shared_ptr<Server> test_server() {
  ServerOptions o;
  o.info = {.name = "stateless-test", .version = "2.0"};
  o.cache_ttl = std::chrono::milliseconds(1500);
  o.cache_scope = CacheScope::public_;
  auto server = std::make_shared<Server>(o);
  // Reports what this request's client declared: proves each request is judged by its own _meta.
  server->add_tool(make_tool("caps"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    return CallToolResult::text(ctx.client_supports("sampling") ? "sampling" : "no sampling");
  });
  server->add_tool(make_tool("logs"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    ctx.log("info", "working");
    return CallToolResult::text("done");
  });
  server->add_tool(make_tool("asks"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto r = ctx.create_message(json::object{{"messages", json::array{}}, {"maxTokens", 10}});
    if (r) return CallToolResult::text("asked");
    return CallToolResult::error(r.error().message);
  });
  return server;
}

std::string first_text(const json::value& result) {
  return std::string(result.at("content").at(0).at("text").as_string());
}

TEST(Stateless, DiscoverNamesTheVersionsCapabilitiesAndServer) {
  RawClient c(test_server());
  auto r = c.call(method::kServerDiscover, params_with(stateless_meta()));
  ASSERT_TRUE(r) << r.error().message;
  auto read = from_json<DiscoverResult>(*r);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->result_type, "complete");
  EXPECT_EQ(read->supported_versions, std::vector<std::string>{"2026-07-28"});
  EXPECT_TRUE(read->capabilities.tools);
  EXPECT_EQ(read->ttl_ms, 1500);
  EXPECT_EQ(read->cache_scope, CacheScope::public_);
  ASSERT_TRUE(read->meta);
  EXPECT_EQ(read->meta->at(meta_key::kServerInfo).at("name").as_string(), "stateless-test");
}

TEST(Stateless, ListsAndCallsWithoutAHandshakeCarryTheRevisionsFields) {
  RawClient c(test_server());
  auto list = c.call(method::kToolsList, params_with(stateless_meta()));
  ASSERT_TRUE(list) << list.error().message;
  const auto& l = list->as_object();
  EXPECT_EQ(l.at("resultType").as_string(), "complete");
  EXPECT_EQ(l.at("ttlMs").as_int64(), 1500);
  EXPECT_EQ(l.at("cacheScope").as_string(), "public");
  EXPECT_EQ(l.at("_meta").at(meta_key::kServerInfo).at("version").as_string(), "2.0");
  EXPECT_EQ(l.at("tools").as_array().size(), 3u);

  auto call = c.call(method::kToolsCall, params_with(stateless_meta(), {{"name", "caps"}}));
  ASSERT_TRUE(call) << call.error().message;
  EXPECT_EQ(call->at("resultType").as_string(), "complete");
  EXPECT_FALSE(call->as_object().contains("ttlMs"));  // a call is not cacheable
  EXPECT_EQ(call->at("_meta").at(meta_key::kServerInfo).at("name").as_string(), "stateless-test");
}

TEST(Stateless, EachRequestIsJudgedByItsOwnCapabilitiesOnly) {
  RawClient c(test_server());
  auto with = c.call(method::kToolsCall,
                     params_with(stateless_meta(json::object{{"sampling", json::object{}}}), {{"name", "caps"}}));
  ASSERT_TRUE(with) << with.error().message;
  EXPECT_EQ(first_text(*with), "sampling");
  // The very next request on the same connection declares nothing: nothing carries over.
  auto without = c.call(method::kToolsCall, params_with(stateless_meta(), {{"name", "caps"}}));
  ASSERT_TRUE(without) << without.error().message;
  EXPECT_EQ(first_text(*without), "no sampling");
}

// A session reuses the view it made for the previous request while the envelope is the same
// (ServerSessionImpl::stateless_view): each change of capabilities or client info, and a return to
// an earlier envelope, is seen by the very request that carries it.
TEST(Stateless, TheClientViewFollowsEveryChangeOfTheEnvelope) {
  auto server = test_server();
  server->add_tool(make_tool("who"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    return CallToolResult::text(std::string(ctx.client_info().at("name").as_string()) + "/" +
                                (ctx.client_supports("sampling") ? "sampling" : "none"));
  });
  RawClient c(server);
  auto envelope = [](const char* name, bool sampling) {
    auto meta = stateless_meta(sampling ? json::object{{"sampling", json::object{}}} : json::object{});
    meta[meta_key::kClientInfo] = json::object{{"name", name}, {"version", "1"}};
    return meta;
  };
  const std::vector<std::pair<json::object, std::string>> steps = {
      {envelope("one", true), "one/sampling"},  {envelope("one", true), "one/sampling"},
      {envelope("one", false), "one/none"},     {envelope("two", false), "two/none"},
      {envelope("one", true), "one/sampling"},
  };
  for (const auto& [meta, expected] : steps) {
    auto r = c.call(method::kToolsCall, params_with(meta, {{"name", "who"}}));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(first_text(*r), expected);
  }
}

TEST(Stateless, LogNotificationsOnlyForARequestThatAskedForThem) {
  RawClient c(test_server());
  ASSERT_TRUE(c.call(method::kToolsCall, params_with(stateless_meta(), {{"name", "logs"}})));
  EXPECT_EQ(c.notification_count(), 0u);
  auto meta = stateless_meta();
  meta[meta_key::kLogLevel] = "info";
  ASSERT_TRUE(c.call(method::kToolsCall, params_with(meta, {{"name", "logs"}})));
  // The notification travels before the answer on this ordered transport.
  ASSERT_EQ(c.notification_count(), 1u);
  EXPECT_EQ(c.notifications[0].method, method::kLoggingMessage);
  meta[meta_key::kLogLevel] = "error";  // above the tool's "info": nothing
  ASSERT_TRUE(c.call(method::kToolsCall, params_with(meta, {{"name", "logs"}})));
  EXPECT_EQ(c.notification_count(), 1u);
}

TEST(Stateless, AHandlerCannotSendTheClientARequest) {
  RawClient c(test_server());
  auto r = c.call(method::kToolsCall,
                  params_with(stateless_meta(json::object{{"sampling", json::object{}}}), {{"name", "asks"}}));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->at("isError").as_bool());
  EXPECT_NE(first_text(*r).find("a 2026-07-28 request cannot send requests to the client"), std::string::npos);
}

TEST(Stateless, MalformedOrMissingMetaIsInvalidParamsNamingTheKey) {
  RawClient c(test_server());
  json::object no_caps{{meta_key::kProtocolVersion, "2026-07-28"}};
  auto r = c.call(method::kToolsList, params_with(no_caps));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInvalidParams);
  EXPECT_NE(r.error().message.find("io.modelcontextprotocol/clientCapabilities"), std::string::npos);

  auto bad_level = stateless_meta();
  bad_level[meta_key::kLogLevel] = "loud";
  r = c.call(method::kToolsList, params_with(bad_level));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInvalidParams);
  EXPECT_NE(r.error().message.find("io.modelcontextprotocol/logLevel"), std::string::npos);
}

TEST(Stateless, AnUnsupportedVersionIsMinus32022WithWhatIsSupported) {
  RawClient c(test_server());
  auto r = c.call(method::kToolsList, params_with(stateless_meta({}, "v999.0.0")));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kUnsupportedProtocolVersion);
  ASSERT_TRUE(r.error().data);
  EXPECT_EQ(r.error().data->at("requested").as_string(), "v999.0.0");
  EXPECT_EQ(r.error().data->at("supported"), json::value(json::array{"2026-07-28"}));
}

TEST(Stateless, MethodsTheRevisionRemovedAreUnknown) {
  RawClient c(test_server());
  for (std::string_view m : {method::kInitialize, method::kPing, method::kLoggingSetLevel, method::kResourcesSubscribe}) {
    auto r = c.call(m, params_with(stateless_meta(), {{"uri", "file:///x"}, {"level", "info"}}));
    ASSERT_FALSE(r) << m;
    EXPECT_EQ(r.error().code, error_code::kMethodNotFound) << m;
  }
}

TEST(Stateless, AMissingResourceIsInvalidParamsNamingItsUri) {
  RawClient c(test_server());
  auto r = c.call(method::kResourcesRead, params_with(stateless_meta(), {{"uri", "file:///nowhere"}}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInvalidParams);
  ASSERT_TRUE(r.error().data);
  EXPECT_EQ(r.error().data->at("uri").as_string(), "file:///nowhere");
}

// One code path: after an initialize, a 2025-11-25 request is judged by the handshake's
// capabilities, while a stateless one on the same connection still brings its own.
TEST(Stateless, HandshakeRequestsOnTheSameConnectionKeepTheHandshakesView) {
  RawClient c(test_server());
  auto init = c.call(method::kInitialize,
                     json::object{{"protocolVersion", "2025-11-25"},
                                  {"capabilities", json::object{{"sampling", json::object{}}}},
                                  {"clientInfo", json::object{{"name", "legacy"}, {"version", "1"}}}});
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_EQ(init->at("protocolVersion").as_string(), "2025-11-25");
  auto legacy = c.call(method::kToolsCall, json::object{{"name", "caps"}});
  ASSERT_TRUE(legacy) << legacy.error().message;
  EXPECT_EQ(first_text(*legacy), "sampling");
  EXPECT_FALSE(legacy->as_object().contains("resultType"));  // a 2025-11-25 answer gains nothing
  auto stateless = c.call(method::kToolsCall, params_with(stateless_meta(), {{"name", "caps"}}));
  ASSERT_TRUE(stateless) << stateless.error().message;
  EXPECT_EQ(first_text(*stateless), "no sampling");
}

// subscriptions/listen: acknowledged first with what is honoured, then only what it opted in to,
// each tagged with its id, until the client cancels it.
TEST(Stateless, ListenAcknowledgesThenCarriesWhatItOptedInToUntilCancelled) {
  auto server = test_server();
  RawClient c(server);
  CancellationToken token;
  RequestOptions options;
  options.cancel = token;
  json::object filter{{"toolsListChanged", true}, {"resourceSubscriptions", json::array{"file:///a"}}};
  c.session->request_async(method::kSubscriptionsListen, params_with(stateless_meta(), {{"notifications", filter}}),
                           options, [](Result<json::value>) {});
  ASSERT_TRUE(c.wait_for_notifications(1));
  auto ack = c.notification(0);
  EXPECT_EQ(ack.method, method::kSubscriptionsAcknowledged);
  ASSERT_TRUE(ack.params);
  EXPECT_EQ(ack.params->at("notifications"), json::value(filter));
  const json::value id = ack.params->at("_meta").at(meta_key::kSubscriptionId);

  Prompt p;
  p.name = "new_prompt";
  server->add_prompt(p, [](const std::map<std::string, std::string>&, RequestContext&) -> Result<GetPromptResult> {
    return GetPromptResult{};
  });  // prompts were not asked for
  server->add_tool(make_tool("new_tool"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text("x");
  });
  ASSERT_TRUE(c.wait_for_notifications(2));
  auto changed = c.notification(1);
  EXPECT_EQ(changed.method, method::kToolsListChanged);
  EXPECT_EQ(changed.params->at("_meta").at(meta_key::kSubscriptionId), id);
  server->notify_resource_updated("file:///b");  // not subscribed
  server->notify_resource_updated("file:///a");
  ASSERT_TRUE(c.wait_for_notifications(3));
  EXPECT_EQ(c.notification(2).method, method::kResourcesUpdated);
  EXPECT_EQ(c.notification(2).params->at("uri").as_string(), "file:///a");

  token.cancel("done listening");
  // The cancellation and then a request travel in order: once the request is answered the
  // listen is gone, and a change sent before the next answer would have arrived before it.
  ASSERT_TRUE(c.call(method::kToolsList, params_with(stateless_meta())));
  server->remove_tool("new_tool");
  ASSERT_TRUE(c.call(method::kToolsList, params_with(stateless_meta())));
  EXPECT_EQ(c.notification_count(), 3u);
}

TEST(Stateless, ListensAreBoundedPerConnection) {
  ServerOptions o;
  o.max_listens = 2;
  RawClient c(std::make_shared<Server>(o));
  for (int i = 0; i < 2; ++i)
    c.session->request_async(method::kSubscriptionsListen,
                             params_with(stateless_meta(), {{"notifications", json::object{{"toolsListChanged", true}}}}),
                             {}, [](Result<json::value>) {});
  ASSERT_TRUE(c.wait_for_notifications(2));
  auto third = c.call(method::kSubscriptionsListen,
                      params_with(stateless_meta(), {{"notifications", json::object{{"toolsListChanged", true}}}}));
  ASSERT_FALSE(third);
  EXPECT_EQ(third.error().code, error_code::kInvalidParams);
  EXPECT_NE(third.error().message.find("max_listens"), std::string::npos);
}

}  // namespace
