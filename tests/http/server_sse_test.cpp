// HttpServer SSE behaviour: priming events, SSE polling with Last-Event-ID, streaming of related
// messages, the standalone stream, JSON mode.
#include <gtest/gtest.h>

#include "http/http_test_util.hpp"

using namespace mcp::http::test;
using mcp::http::HttpServerOptions;
using mcp::http::SseEvent;

namespace {

bool is_result(const SseEvent& e) { return e.data.find("\"result\"") != std::string::npos; }

std::string method_of(const boost::json::value& m) {
  auto* o = m.if_object();
  return o && o->contains("method") ? std::string(o->at("method").as_string()) : std::string();
}

}  // namespace

TEST(HttpServerSse, AnswerStartsWithAPrimingEventWithIdAndRetry) {
  HttpServerOptions o;
  o.sse_retry = 250ms;
  TestServer s(o);
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  auto r = raw_exchange(s.port, "POST", mcp_post_headers(sid), rpc(2, "tools/list"));
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), "text/event-stream");
  EXPECT_EQ(r.header("mcp-session-id"), sid);
  std::vector<SseEvent> events;
  auto msgs = sse_messages(r.body, &events);
  ASSERT_GE(events.size(), 2u) << r.body;
  EXPECT_TRUE(events[0].id) << "no event id on the priming event";
  EXPECT_EQ(events[0].retry_ms, 250);
  EXPECT_TRUE(events[0].data.empty());
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(msgs[0].at("id"), 2);
  EXPECT_TRUE(msgs[0].at("result").as_object().contains("tools"));
  // Ids are unique within the session and name the stream.
  ASSERT_TRUE(events[1].id);
  EXPECT_NE(*events[0].id, *events[1].id);
  EXPECT_EQ(events[0].id->substr(0, events[0].id->find('_')), events[1].id->substr(0, events[1].id->find('_')));
  // The stream ends after the answer (the body was read to its last chunk).
}

TEST(HttpServerSse, ToolClosingItsStreamIsAnsweredOnGetWithLastEventId) {
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  auto t0 = Clock::now();
  auto post = raw_exchange(s.port, "POST", mcp_post_headers(sid), rpc(2, "tools/call", R"({"name":"poll"})"));
  ASSERT_EQ(post.status, 200);
  EXPECT_LT(Clock::now() - t0, 450ms) << "the POST stream was not closed before the tool finished";
  std::vector<SseEvent> events;
  auto msgs = sse_messages(post.body, &events);
  EXPECT_TRUE(msgs.empty()) << "the answer came on the cut stream: " << post.body;
  ASSERT_FALSE(events.empty());
  ASSERT_TRUE(events.back().id);
  ASSERT_TRUE(events.front().retry_ms);
  // A client waits the retry delay before reconnecting (reconnecting at once can race the end of
  // the previous response: see StreamIsFreeOnceItsResponseEnded).
  auto retry = std::chrono::milliseconds(*events.front().retry_ms);
  std::this_thread::sleep_for(retry);
  auto resumed = raw_exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", *events.back().id}},
                              {}, "/mcp", 5s);
  ASSERT_EQ(resumed.status, 200) << resumed.body;
  auto answer = sse_messages(resumed.body);
  ASSERT_EQ(answer.size(), 1u) << resumed.body;
  EXPECT_EQ(answer[0].at("id"), 2);
  EXPECT_EQ(answer[0].at("result").at("content").at(0).at("text"), "polled");
  // The answer stays stored: resuming from the same id again replays it again.
  std::this_thread::sleep_for(retry);
  auto again = raw_exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", *events.back().id}});
  EXPECT_EQ(sse_messages(again.body).size(), 1u);
}

TEST(HttpServerSse, UnknownLastEventIdIsRefused) {
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  auto r = raw_exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", "999_3"}});
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("999_3"), std::string::npos);
}

TEST(HttpServerSse, ProgressAndLogsArriveOnTheRequestStreamBeforeTheResult) {
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  // A standalone stream is open: related messages must still not go there.
  RawConn get(s.port);
  ASSERT_TRUE(get.send_all(make_request("GET", "/mcp", s.port, {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}}, {})));
  auto get_head = get.read_head();
  ASSERT_TRUE(get_head);
  ASSERT_EQ(get_head->status, 200);
  auto r = raw_exchange(s.port, "POST", mcp_post_headers(sid),
                        rpc(2, "tools/call", R"({"name":"progress","arguments":{},"_meta":{"progressToken":"tok"}})"));
  ASSERT_EQ(r.status, 200);
  auto msgs = sse_messages(r.body);
  ASSERT_EQ(msgs.size(), 4u) << r.body;
  EXPECT_EQ(method_of(msgs[0]), "notifications/progress");
  EXPECT_EQ(msgs[0].at("params").at("progressToken"), "tok");
  EXPECT_EQ(msgs[0].at("params").at("progress").to_number<double>(), 1.0);
  EXPECT_EQ(method_of(msgs[1]), "notifications/message");
  EXPECT_EQ(msgs[1].at("params").at("data"), "working");
  EXPECT_EQ(method_of(msgs[2]), "notifications/progress");
  EXPECT_EQ(msgs[3].at("id"), 2);
  EXPECT_EQ(msgs[3].at("result").at("content").at(0).at("text"), "progress done");
  auto on_get = get.read_events(*get_head, [](const SseEvent& e) { return !e.data.empty(); }, 300ms);
  for (const auto& e : on_get) EXPECT_TRUE(e.data.empty()) << "broadcast to the GET stream: " << e.data;
}

TEST(HttpServerSse, StandaloneStreamCarriesUnrelatedNotifications) {
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  RawConn get(s.port);
  ASSERT_TRUE(get.send_all(make_request("GET", "/mcp", s.port, {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}}, {})));
  auto head = get.read_head();
  ASSERT_TRUE(head);
  ASSERT_EQ(head->status, 200);
  auto priming = get.read_events(*head, [](const SseEvent&) { return true; }, 3s);
  ASSERT_EQ(priming.size(), 1u);
  ASSERT_TRUE(priming[0].id);
  EXPECT_TRUE(priming[0].retry_ms);
  std::this_thread::sleep_for(50ms);
  s.server->add_tool(named_tool("late"), [](const mcp::json::object&, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
    return text_result("late");
  });
  auto events = get.read_events(*head, [](const SseEvent& e) { return !e.data.empty(); }, 3s);
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events.back().data.find("notifications/tools/list_changed"), std::string::npos) << events.back().data;
  ASSERT_TRUE(events.back().id);
  EXPECT_EQ(events.back().data.find("\"result\""), std::string::npos);
}

TEST(HttpServerSse, StandaloneStreamResumesAfterTheReaderVanished) {
  TestServer s;  // default sse_keepalive (15 s): the server has no reason to write meanwhile
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  Headers get_h{{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}};
  std::string last_id;
  {
    RawConn get(s.port);
    ASSERT_TRUE(get.send_all(make_request("GET", "/mcp", s.port, get_h, {})));
    auto head = get.read_head();
    ASSERT_TRUE(head);
    ASSERT_EQ(head->status, 200);
    auto priming = get.read_events(*head, [](const SseEvent&) { return true; }, 3s);
    ASSERT_EQ(priming.size(), 1u);
    std::this_thread::sleep_for(50ms);
    s.server->add_tool(named_tool("late"), [](const mcp::json::object&, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
      return text_result("late");
    });
    auto first = get.read_events(*head, [](const SseEvent& e) { return !e.data.empty(); }, 3s);
    ASSERT_FALSE(first.empty());
    ASSERT_TRUE(first.back().id);
    last_id = *first.back().id;
  }  // the connection drops (a network blip, a client restart)
  s.server->remove_tool("late");  // pushed while nobody reads
  std::this_thread::sleep_for(200ms);
  get_h.emplace_back("Last-Event-ID", last_id);
  RawConn again(s.port);
  ASSERT_TRUE(again.send_all(make_request("GET", "/mcp", s.port, get_h, {})));
  auto h2 = again.read_head();
  ASSERT_TRUE(h2);
  // Guards a fixed bug: connection.cpp:231 a resuming GET gets 409 while the vanished reader's pump is still
  //  attached (it only notices on a failed write, up to sse_keepalive later)
  ASSERT_EQ(h2->status, 200);
  auto replay = again.read_events(*h2, [](const SseEvent& e) { return !e.data.empty(); }, 3s);
  ASSERT_FALSE(replay.empty());
  EXPECT_NE(replay.back().data.find("notifications/tools/list_changed"), std::string::npos);
}

TEST(HttpServerSse, JsonOnlyClientGetsApplicationJson) {
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  Headers h{{"Content-Type", "application/json"}, {"Accept", "application/json"}, {"Mcp-Session-Id", sid},
            {"MCP-Protocol-Version", "2025-11-25"}};
  auto r = raw_exchange(s.port, "POST", h, rpc(2, "tools/call", R"({"name":"progress","_meta":{"progressToken":1}})"));
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(r.header("mcp-session-id"), sid);
  auto v = parse_json(r.body);
  ASSERT_TRUE(v.is_object()) << r.body;
  EXPECT_EQ(v.at("id"), 2);
  EXPECT_EQ(v.at("result").at("content").at(0).at("text"), "progress done");
  // initialize in JSON mode too.
  Headers hi{{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  auto init = raw_exchange(s.port, "POST", hi, kInitialize);
  EXPECT_EQ(init.status, 200);
  EXPECT_EQ(init.header("content-type"), "application/json");
  EXPECT_FALSE(init.header("mcp-session-id").empty());
}

TEST(HttpServerSse, PreferJsonResponseAnswersJsonToClientsAcceptingBoth) {
  HttpServerOptions o;
  o.prefer_json_response = true;
  TestServer s(o);
  auto r = raw_exchange(s.port, "POST", mcp_post_headers(), kInitialize);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(parse_json(r.body).at("result").at("protocolVersion"), "2025-11-25");
  // An SSE-only client still gets SSE.
  auto sse_only = mcp_post_headers();
  sse_only[1].second = "text/event-stream";
  auto r2 = raw_exchange(s.port, "POST", sse_only, kInitialize);
  EXPECT_EQ(r2.header("content-type"), "text/event-stream");
}

TEST(HttpServerSse, OlderProtocolGetsNoPrimingEvent) {
  TestServer s;
  std::string init = kInitialize;
  init.replace(init.find("2025-11-25"), 10, "2025-06-18");
  auto r = raw_exchange(s.port, "POST", mcp_post_headers({}, "2025-06-18"), init);
  ASSERT_EQ(r.status, 200);
  std::vector<SseEvent> events;
  auto msgs = sse_messages(r.body, &events);
  ASSERT_EQ(msgs.size(), 1u);
  EXPECT_EQ(events.size(), 1u) << "a 2025-06-18 client got a priming event (empty data it may not expect)";
  EXPECT_EQ(msgs[0].at("result").at("protocolVersion"), "2025-06-18");
}

TEST(HttpServerSse, EventsArriveAsTheyAreProducedNotAtTheEnd) {
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  s.server->add_tool(named_tool("drip"), [](const mcp::json::object&, mcp::RequestContext& ctx) -> mcp::Result<mcp::CallToolResult> {
    ctx.progress(1);
    std::this_thread::sleep_for(700ms);
    return text_result("dripped");
  });
  RawConn c(s.port);
  ASSERT_TRUE(c.send_all(make_request("POST", "/mcp", s.port, mcp_post_headers(sid),
                                      rpc(2, "tools/call", R"({"name":"drip","_meta":{"progressToken":"p"}})"))));
  auto head = c.read_head();
  ASSERT_TRUE(head);
  auto t0 = Clock::now();
  auto first = c.read_events(*head, [](const SseEvent& e) { return e.data.find("progress") != std::string::npos; }, 3s);
  ASSERT_FALSE(first.empty());
  EXPECT_NE(first.back().data.find("notifications/progress"), std::string::npos);
  EXPECT_LT(Clock::now() - t0, 500ms) << "progress was held back until the result";
  auto rest = c.read_events(*head, is_result, 3s);
  ASSERT_FALSE(rest.empty());
  EXPECT_NE(rest.back().data.find("dripped"), std::string::npos);
}

TEST(HttpServerSse, RequestStreamResumesAfterTheClientDroppedMidCall) {
  // Disconnection is not cancellation: the answer must reach a client that resumes with
  // Last-Event-ID while the tool is still running.
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  std::string priming_id;
  {
    RawConn c(s.port);
    ASSERT_TRUE(c.send_all(make_request("POST", "/mcp", s.port, mcp_post_headers(sid),
                                        rpc(2, "tools/call", R"({"name":"slow","arguments":{"ms":1500}})"))));
    auto head = c.read_head();
    ASSERT_TRUE(head);
    ASSERT_EQ(head->status, 200);
    auto priming = c.read_events(*head, [](const SseEvent&) { return true; }, 3s);
    ASSERT_EQ(priming.size(), 1u);
    ASSERT_TRUE(priming[0].id);
    priming_id = *priming[0].id;
  }  // dropped while the tool runs
  std::this_thread::sleep_for(100ms);
  RawConn g(s.port);
  ASSERT_TRUE(g.send_all(make_request("GET", "/mcp", s.port,
                                      {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", priming_id}}, {})));
  auto head = g.read_head();
  ASSERT_TRUE(head);
  // Guards a fixed bug: connection.cpp:231 resuming a POST stream whose client vanished gets 409 until the
  //  server's next write to the dead connection fails (here: only when the tool answers)
  ASSERT_EQ(head->status, 200);
  auto events = g.read_events(*head, is_result, 5s);
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events.back().data.find("slow done"), std::string::npos);
}

TEST(HttpServerSse, GetMustAcceptEventStream) {
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  EXPECT_EQ(raw_exchange(s.port, "GET", {{"Accept", "application/json"}, {"Mcp-Session-Id", sid}}).status, 406);
}

TEST(HttpServerSse, StreamIsFreeOnceItsResponseEnded) {
  // When the server has ended a response (last chunk sent), the stream has no reader any more: a
  // client reconnecting at once must not be refused with 409.
  TestServer s;
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  int conflicts = 0;
  for (int i = 0; i < 50; ++i) {
    auto post = raw_exchange(s.port, "POST", mcp_post_headers(sid), rpc(100 + i, "ping"));
    ASSERT_EQ(post.status, 200);
    std::vector<SseEvent> events;
    (void)sse_messages(post.body, &events);
    ASSERT_FALSE(events.empty());
    ASSERT_TRUE(events.front().id);
    auto get = raw_exchange(s.port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", *events.front().id}});
    conflicts += get.status == 409;
  }
  // Guards a fixed bug: connection.cpp pump() detaches from the Stream only after the final write completes,
  //  so a GET resuming right after the response ended gets 409.
  EXPECT_EQ(conflicts, 0) << conflicts << "/50 resuming GETs right after the response ended were refused with 409";
}
