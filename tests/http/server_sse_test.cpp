// HttpServer SSE behaviour: priming events, SSE polling with Last-Event-ID, streaming of related
// messages, the standalone stream, JSON mode.
#include <gtest/gtest.h>

#include "http/http_test_util.hpp"
#include "http/stream.hpp"
#include "support/event.hpp"

using namespace mcp::http::test;
using mcp::http::HttpServerOptions;
using mcp::http::SseEvent;
using mcp::test::Event;

namespace {

bool is_result(const SseEvent& e) { return e.data.find("\"result\"") != std::string::npos; }
bool has_data(const SseEvent& e) { return !e.data.empty(); }

// A tool that runs until the test releases it: the test decides what has happened before it ends,
// instead of guessing from how long the tool sleeps. With `cut`, it first closes its POST stream
// (SSE polling). `cancelled_at_end` records whether the request had been cancelled when it returned.
struct GatedTool {
  std::shared_ptr<Event> started = std::make_shared<Event>();
  std::shared_ptr<Event> release = std::make_shared<Event>();
  std::shared_ptr<std::atomic<bool>> cancelled_at_end = std::make_shared<std::atomic<bool>>(false);

  GatedTool() = default;
  GatedTool(const GatedTool&) = delete;
  GatedTool& operator=(const GatedTool&) = delete;
  ~GatedTool() { release->set(); }  // a test that stopped early does not leave the tool waiting

  void add_to(mcp::Server& server, std::string name, std::string answer, bool cut) const {
    server.add_tool(named_tool(std::move(name)),
                    [started = started, release = release, cancelled = cancelled_at_end, answer, cut](
                        const mcp::json::object&, mcp::RequestContext& ctx) -> mcp::Result<mcp::CallToolResult> {
                      started->set();  // first: a POST stream that ends after the cut implies it
                      if (cut) ctx.close_stream();
                      ctx.progress(1);  // a no-op without a progressToken
                      if (!release->wait()) return text_result("never released");
                      *cancelled = ctx.cancelled();
                      return text_result(answer);
                    });
  }
};

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
  GatedTool poll;
  poll.add_to(*s.server, "gated_poll", "polled", /*cut=*/true);
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  // The tool cannot finish before we release it, so a POST response that ends at all proves the
  // stream was closed before the tool finished.
  RawConn post_conn(s.port);
  ASSERT_TRUE(post_conn.send_all(make_request("POST", "/mcp", s.port, mcp_post_headers(sid),
                                              rpc(2, "tools/call", R"({"name":"gated_poll"})"))));
  auto post_head = post_conn.read_head(10s);
  ASSERT_TRUE(post_head);
  ASSERT_EQ(post_head->status, 200);
  RawResponse post = *post_head;
  ASSERT_TRUE(post_conn.read_body(post, 10s)) << "the POST stream did not end before the tool finished: " << post.body;
  ASSERT_TRUE(poll.started->is_set());
  EXPECT_FALSE(poll.release->is_set());
  std::vector<SseEvent> events;
  auto msgs = sse_messages(post.body, &events);
  EXPECT_TRUE(msgs.empty()) << "the answer came on the cut stream: " << post.body;
  ASSERT_FALSE(events.empty());
  ASSERT_TRUE(events.back().id);
  ASSERT_TRUE(events.front().retry_ms);
  // Resuming at once, without waiting the retry delay: a Last-Event-ID resumption takes the stream
  // over, and the stream is released before its last write anyway (StreamIsFreeOnceItsResponseEnded).
  Headers resume_h{{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", *events.back().id}};
  RawConn resumed(s.port);
  ASSERT_TRUE(resumed.send_all(make_request("GET", "/mcp", s.port, resume_h, {})));
  auto head = resumed.read_head(10s);
  ASSERT_TRUE(head);
  ASSERT_EQ(head->status, 200);
  poll.release->set();  // only now can the answer exist: it must come on the resumed stream
  bool ended = false;
  auto answer = resumed.read_events(*head, is_result, 10s, &ended);
  ASSERT_FALSE(answer.empty());
  ASSERT_TRUE(is_result(answer.back())) << "no answer on the resumed stream";
  auto v = parse_json(answer.back().data);
  EXPECT_EQ(v.at("id"), 2);
  EXPECT_EQ(v.at("result").at("content").at(0).at("text"), "polled");
  // The answer stays stored: resuming from the same id again replays it again.
  auto again = raw_exchange(s.port, "GET", resume_h, {}, "/mcp", 10s);
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(sse_messages(again.body).size(), 1u) << again.body;
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
  // Nothing of that call went to the GET stream. Ordering, not time: the standalone stream is one
  // ordered log, and the progress and log messages were sent before the answer we hold; an
  // unrelated list_changed sent now comes after them, so if it is the first message on the GET
  // stream, none of them was put there.
  s.server->add_tool(named_tool("marker"), [](const mcp::json::object&, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
    return text_result("marker");
  });
  auto on_get = get.read_events(*get_head, has_data, 10s);
  ASSERT_FALSE(on_get.empty());
  for (std::size_t i = 0; i + 1 < on_get.size(); ++i) EXPECT_TRUE(on_get[i].data.empty()) << on_get[i].data;
  EXPECT_NE(on_get.back().data.find("notifications/tools/list_changed"), std::string::npos)
      << "broadcast to the GET stream: " << on_get.back().data;
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
  // No pause needed: the GET took its position in the stream and attached before it wrote the
  // priming event (connection.cpp handle_get, pump), so what is pushed from now on reaches it.
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
    // Having read the priming event, the GET is attached (see StandaloneStreamCarriesUnrelatedNotifications).
    s.server->add_tool(named_tool("late"), [](const mcp::json::object&, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
      return text_result("late");
    });
    auto first = get.read_events(*head, [](const SseEvent& e) { return !e.data.empty(); }, 3s);
    ASSERT_FALSE(first.empty());
    ASSERT_TRUE(first.back().id);
    last_id = *first.back().id;
  }  // the connection drops (a network blip, a client restart)
  // Pushed while nobody reads: remove_tool stores the list_changed in the standalone stream before
  // it returns (SessionTransport::send), so it is there to replay. Resuming at once is the case the
  // guard below is about: the vanished reader's pump may well still be attached.
  s.server->remove_tool("late");
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
  // The tool sends progress, then cannot finish until we have read that progress: had the server
  // held it back until the result, we would never read it (and the tool would never be released).
  GatedTool drip;
  drip.add_to(*s.server, "drip", "dripped", /*cut=*/false);
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  RawConn c(s.port);
  ASSERT_TRUE(c.send_all(make_request("POST", "/mcp", s.port, mcp_post_headers(sid),
                                      rpc(2, "tools/call", R"({"name":"drip","_meta":{"progressToken":"p"}})"))));
  auto head = c.read_head(10s);
  ASSERT_TRUE(head);
  auto first = c.read_events(*head, [](const SseEvent& e) { return e.data.find("progress") != std::string::npos; }, 10s);
  const bool progress_first = !first.empty() && first.back().data.find("notifications/progress") != std::string::npos;
  drip.release->set();
  ASSERT_TRUE(progress_first) << "progress was held back until the result";
  auto rest = c.read_events(*head, is_result, 10s);
  ASSERT_FALSE(rest.empty());
  EXPECT_NE(rest.back().data.find("dripped"), std::string::npos);
}

TEST(HttpServerSse, RequestStreamResumesAfterTheClientDroppedMidCall) {
  // Disconnection is not cancellation: the answer must reach a client that resumes with
  // Last-Event-ID while the tool is still running.
  //
  // A short keep-alive only bounds how long the superseded writer below may take to notice it was
  // taken over: take_over wakes it by cancelling its timer wait, which does nothing if it is not
  // waiting yet (it sets no signal), and then it notices at its next keep-alive (1 s instead of
  // 15 s), well within the bounds below. Nothing waits for a keep-alive to pass.
  HttpServerOptions o;
  o.sse_keepalive = std::chrono::seconds(1);
  TestServer s(o);
  GatedTool slow;  // runs until released: "still running" is a fact here, not a guess
  slow.add_to(*s.server, "gated_slow", "slow done", /*cut=*/false);
  auto sid = s.open_session();
  ASSERT_FALSE(sid.empty());
  RawConn c(s.port);
  ASSERT_TRUE(c.send_all(make_request("POST", "/mcp", s.port, mcp_post_headers(sid),
                                      rpc(2, "tools/call", R"({"name":"gated_slow"})"))));
  auto post_head = c.read_head(10s);
  ASSERT_TRUE(post_head);
  ASSERT_EQ(post_head->status, 200);
  auto priming = c.read_events(*post_head, [](const SseEvent&) { return true; }, 10s);
  ASSERT_EQ(priming.size(), 1u);
  ASSERT_TRUE(priming[0].id);
  ASSERT_TRUE(slow.started->wait());
  // The client goes away mid-call (FIN). The server does not read during an SSE response, so, as
  // with a vanished client, its writer stays attached to the stream until a write fails; we keep
  // our receiving side, so its writes (keep-alives) do not fail, and to see that writer end below.
  ASSERT_EQ(::shutdown(c.fd(), SHUT_WR), 0);
  // Resuming at once, while that writer is still attached: the case the guard below is about.
  RawConn g(s.port);
  ASSERT_TRUE(g.send_all(make_request("GET", "/mcp", s.port,
                                      {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sid}, {"Last-Event-ID", *priming[0].id}}, {})));
  auto head = g.read_head(10s);
  ASSERT_TRUE(head);
  // Guards a fixed bug: connection.cpp:231 resuming a POST stream whose client vanished gets 409 until the
  //  server's next write to the dead connection fails (here: only when the tool answers)
  ASSERT_EQ(head->status, 200);
  // The superseded writer ends the old response (taken over, it sends nothing more there). Only
  // then is the answer produced, so only the new writer is left to send it.
  bool old_ended = false;
  auto old_rest = c.read_events(*post_head, has_data, 10s, &old_ended);
  EXPECT_TRUE(old_rest.empty()) << "the old response got " << old_rest.front().data;
  ASSERT_TRUE(old_ended) << "the superseded response did not end";
  EXPECT_FALSE(slow.release->is_set());  // the tool is still running
  slow.release->set();
  auto events = g.read_events(*head, is_result, 10s);
  ASSERT_FALSE(events.empty());
  EXPECT_NE(events.back().data.find("slow done"), std::string::npos);
  EXPECT_FALSE(slow.cancelled_at_end->load()) << "the dropped connection cancelled the request";
}

// A resumption takes a stream over from a writer that may still be attached (connection.cpp pump,
// Stream::take_over). The writer that took over is woken by its waker, which only cancels a
// pending timer wait; if it is not waiting yet, it relies on consume_signal() before it sleeps.
// The superseded writer must not clear that signal when it finally runs and finds itself
// superseded, or the new writer sleeps with the answer unsent until the next keep-alive
// (sse_keepalive, 15 s by default).
// Guards a fixed bug: stream.cpp take_after(after, generation) cleared the shared wake-up signal for a
//  superseded writer too; seen end to end on one busy core as a resumed POST stream getting its answer
//  only at the next keep-alive
TEST(StreamTakeOver, SupersededWriterKeepsTheNewWritersWakeUp) {
  mcp::http::Stream st("7", 100);
  int old_wakes = 0, new_wakes = 0;
  ASSERT_TRUE(st.attach([&] { ++old_wakes; }));
  const auto old_gen = st.generation();
  auto before = st.take_after(0, old_gen);  // the old writer sent what there was and sleeps
  EXPECT_TRUE(before.events.empty());
  // A client resumes: the new writer takes over (waking the old one), drains, and is about to sleep.
  const auto new_gen = st.take_over([&] { ++new_wakes; });
  EXPECT_EQ(old_wakes, 1);
  auto drained = st.take_after(0, new_gen);
  EXPECT_TRUE(drained.events.empty());
  EXPECT_FALSE(drained.done);
  // The answer is pushed before the new writer sleeps, and before the old one has run.
  st.push("answer", /*final=*/true);
  EXPECT_EQ(new_wakes, 1);
  // The old writer runs now, finds itself superseded and ends.
  auto old = st.take_after(0, old_gen);
  EXPECT_TRUE(old.done);
  EXPECT_TRUE(old.events.empty());
  st.detach(old_gen);
  // The new writer checks for a wake-up before it sleeps: it must see the push.
  EXPECT_TRUE(st.consume_signal()) << "the superseded writer swallowed the new writer's wake-up";
  auto answer = st.take_after(0, new_gen);
  ASSERT_EQ(answer.events.size(), 1u);
  EXPECT_TRUE(answer.done);
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
