// MCP 2026-07-28 over Streamable HTTP (src/http/request_checks.cpp check_stateless_post,
// connection.cpp handle_stateless), over loopback with raw requests: no session, the standard
// headers checked against the body in the order the conformance cases fix, the revision's status
// codes, JSON answers unless the server sends something first, and no state kept between POSTs
// (a connection's requests share one session, one request at a time).
#include <gtest/gtest.h>

#include "http/header_value.hpp"
#include "http_test_util.hpp"

namespace mcp::http::test {
namespace {

std::string meta_json(std::string_view version = "2026-07-28", std::string_view caps = "{}") {
  return R"("_meta":{"io.modelcontextprotocol/protocolVersion":")" + std::string(version) +
         R"(","io.modelcontextprotocol/clientCapabilities":)" + std::string(caps) +
         R"(,"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}})";
}

// A stateless POST's body: `params` without its braces, the _meta added.
std::string stateless_rpc(int id, std::string_view method, std::string_view params = "",
                          std::string_view version = "2026-07-28") {
  std::string p = "{" + meta_json(version) + (params.empty() ? "" : ",") + std::string(params) + "}";
  return rpc(id, method, p);
}

Headers stateless_headers(std::string_view method, std::string_view name = {}, std::string_view version = "2026-07-28") {
  Headers h{{"Content-Type", "application/json"},
            {"Accept", "application/json, text/event-stream"},
            {"MCP-Protocol-Version", std::string(version)},
            {"Mcp-Method", std::string(method)}};
  if (!name.empty()) h.emplace_back("Mcp-Name", std::string(name));
  return h;
}

int error_code_of(const RawResponse& r) {
  auto v = parse_json(r.body);
  const auto* o = v.if_object();
  if (!o || !o->contains("error")) return 0;
  return static_cast<int>(o->at("error").at("code").as_int64());
}

TEST(HttpStateless, ACallNeedsNoSessionAndGetsAJsonAnswerWithTheRevisionsFields) {
  TestServer s;
  ASSERT_TRUE(s.started);
  auto r = raw_exchange(s.port, "POST", stateless_headers("tools/call", "echo"),
                        stateless_rpc(1, "tools/call", R"("name":"echo","arguments":{"text":"hi"})"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_TRUE(r.header("mcp-session-id").empty());  // no session is minted or echoed
  auto v = parse_json(r.body);
  EXPECT_EQ(v.at("result").at("content").at(0).at("text").as_string(), "hi");
  EXPECT_EQ(v.at("result").at("resultType").as_string(), "complete");
  EXPECT_TRUE(v.at("result").at("_meta").as_object().contains("io.modelcontextprotocol/serverInfo"));
}

TEST(HttpStateless, DiscoverAndListsCarryCachingHints) {
  TestServer s;
  ASSERT_TRUE(s.started);
  auto d = raw_exchange(s.port, "POST", stateless_headers("server/discover"), stateless_rpc(1, "server/discover"));
  ASSERT_EQ(d.status, 200) << d.body;
  EXPECT_EQ(parse_json(d.body).at("result").at("supportedVersions"), json::value(json::array{"2026-07-28"}));
  auto l = raw_exchange(s.port, "POST", stateless_headers("tools/list"), stateless_rpc(2, "tools/list"));
  ASSERT_EQ(l.status, 200) << l.body;
  auto result = parse_json(l.body).at("result");
  EXPECT_TRUE(result.as_object().contains("ttlMs"));
  EXPECT_EQ(result.at("cacheScope").as_string(), "private");
}

// The ladder: each step's refusal wins over the later ones (docs/protocol-2026-07-28.md §3.2).
TEST(HttpStateless, EnvelopeErrorsComeInTheConformanceOrderWithTheirStatus) {
  TestServer s;
  ASSERT_TRUE(s.started);
  // 3: a modern header without _meta: -32602 naming what is missing, not a session error.
  auto r = raw_exchange(s.port, "POST", stateless_headers("tools/list"), rpc(1, "tools/list", "{}"));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(error_code_of(r), error_code::kInvalidParams);
  // 4 before 5: header 2026-07-28 with _meta v999.0.0 is a mismatch, not an unsupported version.
  r = raw_exchange(s.port, "POST", stateless_headers("tools/list"), stateless_rpc(1, "tools/list", "", "v999.0.0"));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(error_code_of(r), error_code::kHeaderMismatch);
  // 5: both say v999.0.0: unsupported, with what is supported.
  r = raw_exchange(s.port, "POST", stateless_headers("tools/list", {}, "v999.0.0"),
                   stateless_rpc(1, "tools/list", "", "v999.0.0"));
  EXPECT_EQ(r.status, 400);
  ASSERT_EQ(error_code_of(r), error_code::kUnsupportedProtocolVersion);
  EXPECT_EQ(parse_json(r.body).at("error").at("data").at("requested").as_string(), "v999.0.0");
  // 4: Mcp-Method disagrees with the body (values are case-sensitive).
  r = raw_exchange(s.port, "POST", stateless_headers("TOOLS/LIST"), stateless_rpc(1, "tools/list"));
  EXPECT_EQ(error_code_of(r), error_code::kHeaderMismatch);
  // 6: Mcp-Name missing, different, or malformed Base64.
  const auto call = stateless_rpc(1, "tools/call", R"("name":"echo","arguments":{"text":"x"})");
  EXPECT_EQ(error_code_of(raw_exchange(s.port, "POST", stateless_headers("tools/call"), call)), error_code::kHeaderMismatch);
  EXPECT_EQ(error_code_of(raw_exchange(s.port, "POST", stateless_headers("tools/call", "slow"), call)),
            error_code::kHeaderMismatch);
  EXPECT_EQ(error_code_of(raw_exchange(s.port, "POST", stateless_headers("tools/call", "=?base64?ZWNo?="), call)),
            error_code::kHeaderMismatch);
  // ... while an encoded or padded but equal name passes.
  EXPECT_EQ(raw_exchange(s.port, "POST", stateless_headers("tools/call", encode_header_value(" echo")),
                         stateless_rpc(1, "tools/call", R"("name":" echo")"))
                .status,
            200);  // an unknown tool, but past the headers: its error travels in a 200
  EXPECT_EQ(raw_exchange(s.port, "POST", stateless_headers("tools/call", "=?base64?ZWNobw==?="), call).status, 200);
  // 7: a method the revision removed, or one nobody defined: 404 with a JSON-RPC body.
  for (std::string_view m : {"initialize", "ping", "logging/setLevel", "unknown/method"}) {
    r = raw_exchange(s.port, "POST", stateless_headers(m), stateless_rpc(1, m));
    EXPECT_EQ(r.status, 404) << m << ": " << r.body;
    EXPECT_EQ(error_code_of(r), error_code::kMethodNotFound) << m;
  }
}

TEST(HttpStateless, ARequestThatSendsNotificationsFirstIsAnsweredOnAStreamWithoutEventIds) {
  TestServer s;
  ASSERT_TRUE(s.started);
  // The progress tool logs at info: with a logLevel in its _meta the log line comes first.
  std::string body = rpc(2, "tools/call",
                         "{" + meta_json().substr(0, meta_json().size() - 1) +
                             R"(,"io.modelcontextprotocol/logLevel":"info"},"name":"progress"})");
  auto r = raw_exchange(s.port, "POST", stateless_headers("tools/call", "progress"), body);
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(r.header("content-type"), "text/event-stream");
  EXPECT_EQ(r.header("x-accel-buffering"), "no");
  std::vector<SseEvent> events;
  auto messages = sse_messages(r.body, &events);
  ASSERT_GE(messages.size(), 2u);
  EXPECT_EQ(messages.front().at("method").as_string(), "notifications/message");
  EXPECT_EQ(messages.back().at("result").at("content").at(0).at("text").as_string(), "progress done");
  for (const auto& e : events) EXPECT_FALSE(e.id) << "2026-07-28 streams carry no event ids";
}

// Two requests, two different capability declarations: each judged by its own (the server
// keeps no session between POSTs, so there is nothing to carry over).
TEST(HttpStateless, SamplingIsNotAvailableToAStatelessRequest) {
  TestServer s;
  ASSERT_TRUE(s.started);
  std::string body = rpc(1, "tools/call",
                         "{" + meta_json("2026-07-28", R"({"sampling":{}})") + R"(,"name":"sample"})");
  auto r = raw_exchange(s.port, "POST", stateless_headers("tools/call", "sample"), body);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(parse_json(r.body).at("result").at("content").at(0).at("text").as_string().find("cannot be sent"),
            std::string::npos);
}

// 2025-11-25 clients on the same endpoint are unaffected: handshake, session, old header.
TEST(HttpStateless, HandshakeClientsKeepTheirSessions) {
  TestServer s;
  ASSERT_TRUE(s.started);
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  auto r = raw_exchange(s.port, "POST", mcp_post_headers(sid), rpc(2, "tools/call", R"({"name":"echo","arguments":{"text":"old"}})"));
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("old"), std::string::npos);
  EXPECT_EQ(r.body.find("resultType"), std::string::npos);
}

// subscriptions/listen over HTTP: an SSE stream that opens with the acknowledgement, carries the
// change notifications it opted in to, and ends (with the request's session) when the client
// closes it.
TEST(HttpStateless, ListenIsAStreamOfTheChangesItOptedInTo) {
  TestServer s;
  ASSERT_TRUE(s.started);
  RawConn c(s.port);
  ASSERT_TRUE(c.ok());
  std::string body = stateless_rpc(9, "subscriptions/listen", R"("notifications":{"toolsListChanged":true})");
  ASSERT_TRUE(c.send_all(make_request("POST", "/mcp", s.port, stateless_headers("subscriptions/listen"), body)));
  auto head = c.read_head();
  ASSERT_TRUE(head);
  ASSERT_EQ(head->status, 200);
  ASSERT_EQ(head->header("content-type"), "text/event-stream");
  auto first = c.read_events(*head, [](const SseEvent&) { return true; });
  ASSERT_EQ(first.size(), 1u);
  auto ack = parse_json(first[0].data);
  EXPECT_EQ(ack.at("method").as_string(), "notifications/subscriptions/acknowledged");
  EXPECT_EQ(ack.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), json::value(9));

  s.server->add_tool(named_tool("appeared"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return text_result("x");
  });
  auto next = c.read_events(*head, [](const SseEvent&) { return true; });
  ASSERT_EQ(next.size(), 1u);
  auto changed = parse_json(next[0].data);
  EXPECT_EQ(changed.at("method").as_string(), "notifications/tools/list_changed");
  EXPECT_EQ(changed.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), json::value(9));
}

TEST(HttpStateless, AListenNeedsAClientThatReadsEventStreams) {
  TestServer s;
  ASSERT_TRUE(s.started);
  auto h = stateless_headers("subscriptions/listen");
  h[1].second = "application/json";
  auto r = raw_exchange(s.port, "POST", h, stateless_rpc(1, "subscriptions/listen", R"("notifications":{"toolsListChanged":true})"));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_EQ(error_code_of(r), error_code::kInvalidRequest);
}

// Over HTTP, a 2026-07-28 client cancels by closing the connection: a request waiting for its
// answer in JSON mode notices, and the handler sees the cancellation.
TEST(HttpStateless, ClosingTheConnectionCancelsTheRequest) {
  TestServer s;
  ASSERT_TRUE(s.started);
  {
    RawConn c(s.port);
    auto h = stateless_headers("tools/call", "stuck");
    h[1].second = "application/json";
    ASSERT_TRUE(c.send_all(make_request("POST", "/mcp", s.port, h, stateless_rpc(1, "tools/call", R"("name":"stuck")"))));
    ASSERT_TRUE(eventually([&] { return s.gate->entered.load() == 1; }));
  }  // the client leaves
  EXPECT_TRUE(eventually([&] { return s.gate->saw_cancel.load() == 1; }, 5s));
}

// One stateless call on an open connection, its JSON answer read whole; the connection stays open.
std::optional<json::value> call_on(RawConn& c, unsigned short port, int id, std::string_view path = "/mcp") {
  auto h = stateless_headers("tools/call", "echo");
  h[1].second = "application/json";
  if (!c.send_all(make_request("POST", path, port, h, stateless_rpc(id, "tools/call", R"("name":"echo","arguments":{"text":"hi"})")))) {
    return std::nullopt;
  }
  auto head = c.read_head();
  if (!head || head->status != 200) return std::nullopt;
  auto body = c.next_chunk(*head);
  if (!body) return std::nullopt;
  return parse_json(*body);
}

// A connection's stateless requests are served by one session, made at the first and closed with
// the connection (src/http/stateless_conn.hpp): a request is over before the next is read, so an id
// answered is free again, and each connection has a session of its own.
TEST(HttpStatelessConnection, ItsRequestsShareOneSessionThatEndsWithIt) {
  TestServer s;
  ASSERT_TRUE(s.started);
  auto a = std::make_unique<RawConn>(s.port);
  for (int id : {1, 2, 1}) {
    auto r = call_on(*a, s.port, id);
    ASSERT_TRUE(r) << "request " << id;
    EXPECT_EQ(r->at("id"), json::value(id));
    EXPECT_EQ(r->at("result").at("content").at(0).at("text").as_string(), "hi");
  }
  EXPECT_EQ(s.http->stateless_session_count(), 1u);
  RawConn b(s.port);
  ASSERT_TRUE(call_on(b, s.port, 1));
  EXPECT_EQ(s.http->stateless_session_count(), 2u);
  a.reset();  // the client leaves: its session goes with the connection
  EXPECT_TRUE(eventually([&] { return s.http->stateless_session_count() == 1; }));
  ASSERT_TRUE(call_on(b, s.port, 2));  // the other connection's is untouched
}

// Removing an endpoint (a gateway's reload dropping an upstream) ends the stateless sessions made
// for it; a connection's next request there is served by whatever serves the path then.
TEST(HttpStatelessConnection, RemovingTheEndpointEndsItsSessionAndTheNextRequestMakesANewOne) {
  auto server_with = [](std::string tool) {
    auto srv = std::make_shared<Server>(ServerOptions{});
    srv->add_tool(named_tool("echo"), [tool](const json::object&, RequestContext&) -> Result<CallToolResult> {
      return CallToolResult::text(tool);
    });
    return srv;
  };
  HttpServerOptions o;
  o.more_endpoints["/servers/b/mcp"] = server_with("first");
  TestServer s(std::move(o));
  ASSERT_TRUE(s.started);
  RawConn c(s.port);
  auto first = call_on(c, s.port, 1, "/servers/b/mcp");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->at("result").at("content").at(0).at("text").as_string(), "first");
  EXPECT_EQ(s.http->stateless_session_count(), 1u);
  ASSERT_TRUE(s.http->remove_endpoint("/servers/b/mcp"));
  EXPECT_EQ(s.http->stateless_session_count(), 0u);
  ASSERT_TRUE(s.http->add_endpoint("/servers/b/mcp", server_with("second")));
  auto second = call_on(c, s.port, 2, "/servers/b/mcp");  // the same connection
  ASSERT_TRUE(second);
  EXPECT_EQ(second->at("result").at("content").at(0).at("text").as_string(), "second");
  EXPECT_EQ(s.http->stateless_session_count(), 1u);
}

// Shutdown with a listen still open ends it: the server stops promptly (a listen is not waited
// for) and tears the request down without touching freed state (this crashed on a double free).
// It ends gracefully: the listen is answered, SubscriptionsListenResult, before the stream closes.
TEST(HttpStateless, StoppingTheServerEndsAnOpenListen) {
  auto s = std::make_unique<TestServer>();
  ASSERT_TRUE(s->started);
  RawConn c(s->port);
  std::string body = stateless_rpc(3, "subscriptions/listen", R"("notifications":{"promptsListChanged":true})");
  ASSERT_TRUE(c.send_all(make_request("POST", "/mcp", s->port, stateless_headers("subscriptions/listen"), body)));
  auto head = c.read_head();
  ASSERT_TRUE(head);
  ASSERT_EQ(c.read_events(*head, [](const SseEvent&) { return true; }).size(), 1u);
  const auto started = Clock::now();
  s.reset();
  EXPECT_LT(Clock::now() - started, 3s);  // shutdown_grace is not spent waiting for the listen
  auto last = c.read_events(*head, [](const SseEvent&) { return true; });
  ASSERT_EQ(last.size(), 1u) << "the listen ended unanswered";
  auto answer = parse_json(last[0].data);
  EXPECT_EQ(answer.at("id"), json::value(3));
  EXPECT_EQ(answer.at("result").at("resultType").as_string(), "complete");
  EXPECT_EQ(answer.at("result").at("_meta").at("io.modelcontextprotocol/subscriptionId"), json::value(3));
  EXPECT_TRUE(c.closed_by_peer());
}

}  // namespace
}  // namespace mcp::http::test

namespace mcp::http::test {
namespace {

// A tool that mirrors `region` (string) and `priority` (integer) into Mcp-Param headers.
void add_region_tool(Server& server) {
  Tool t;
  t.name = "regional";
  t.description = "runs in a region";
  t.input_schema = json::object{
      {"type", "object"},
      {"properties", json::object{{"region", json::object{{"type", "string"}, {"x-mcp-header", "Region"}}},
                                  {"priority", json::object{{"type", "integer"}, {"x-mcp-header", "Priority"}}}}}};
  server.add_tool(t, [](const json::object& args, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text("ran in " + json::serialize(args.at("region")));
  });
}

RawResponse call_regional(unsigned short port, std::string_view arguments, Headers extra) {
  Headers h = stateless_headers("tools/call", "regional");
  for (auto& e : extra) h.push_back(std::move(e));
  return raw_exchange(port, "POST", h, stateless_rpc(1, "tools/call", R"("name":"regional","arguments":)" + std::string(arguments)));
}

TEST(HttpStatelessParamHeaders, MatchingHeadersPassPlainOrBase64) {
  TestServer s;
  ASSERT_TRUE(s.started);
  add_region_tool(*s.server);
  auto plain = call_regional(s.port, R"({"region":"us west 1","priority":3})",
                             {{"Mcp-Param-Region", "us west 1"}, {"mcp-param-priority", "3"}});
  EXPECT_EQ(plain.status, 200) << plain.body;
  EXPECT_EQ(error_code_of(plain), 0) << plain.body;
  auto encoded = call_regional(s.port, R"({"region":"Hello"})", {{"Mcp-Param-Region", "=?base64?SGVsbG8=?="}});
  EXPECT_EQ(error_code_of(encoded), 0) << encoded.body;
  // A value that only looks like Base64, or half a sentinel, is taken literally.
  auto literal = call_regional(s.port, R"({"region":"=?base64?SGVsbG8="})", {{"Mcp-Param-Region", "=?base64?SGVsbG8="}});
  EXPECT_EQ(error_code_of(literal), 0) << literal.body;
  // No argument, no header: nothing to check.
  auto none = call_regional(s.port, R"({})", {});
  EXPECT_EQ(error_code_of(none), 0) << none.body;
}

TEST(HttpStatelessParamHeaders, AMissingWrongOrMalformedHeaderIsMinus32020With400) {
  TestServer s;
  ASSERT_TRUE(s.started);
  add_region_tool(*s.server);
  const std::vector<std::pair<std::string, Headers>> cases = {
      {R"({"region":"test-value"})", {}},                                     // required header missing
      {R"({"region":"Hello"})", {{"Mcp-Param-Region", "Goodbye"}}},           // different value
      {R"({"region":"Hello"})", {{"Mcp-Param-Region", "=?base64?SGVsbG8?="}}},    // bad padding
      {R"({"region":"Hello"})", {{"Mcp-Param-Region", "=?base64?SGVs!!!bG8=?="}}},  // bad characters
      {R"({"region":"eu","priority":3})", {{"Mcp-Param-Region", "eu"}, {"Mcp-Param-Priority", "4"}}},
      {R"({})", {{"Mcp-Param-Region", "eu"}}},                                 // a header the body does not back
  };
  for (const auto& [arguments, headers] : cases) {
    auto r = call_regional(s.port, arguments, headers);
    EXPECT_EQ(r.status, 400) << arguments << " " << r.body;
    EXPECT_EQ(error_code_of(r), error_code::kHeaderMismatch) << arguments << " " << r.body;
  }
}

}  // namespace
}  // namespace mcp::http::test
