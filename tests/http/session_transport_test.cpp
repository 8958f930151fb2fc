// SessionTransport: how one HTTP session routes the engine's messages onto SSE streams.
#include "http/session_transport.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using mcp::SendInfo;
using mcp::http::SessionTransport;
namespace json = boost::json;

namespace {

SendInfo response_to(json::value id) { return SendInfo{SendInfo::Kind::response, std::move(id)}; }
SendInfo notification_for(json::value id) { return SendInfo{SendInfo::Kind::notification, std::move(id)}; }
SendInfo request_for(json::value id) { return SendInfo{SendInfo::Kind::request, std::move(id)}; }
SendInfo unrelated() { return SendInfo{SendInfo::Kind::notification, nullptr}; }

struct Started {
  std::shared_ptr<SessionTransport> t;
  std::mutex mu;
  std::vector<std::string> delivered;
  std::atomic<int> closes{0};
  explicit Started(SessionTransport::Limits l = {}) : t(std::make_shared<SessionTransport>("sid", l)) {
    auto r = t->start({[this](std::string f) {
                         std::lock_guard lock(mu);
                         delivered.push_back(std::move(f));
                       },
                       [this](std::optional<mcp::Error>) { ++closes; }});
    EXPECT_TRUE(r);
  }
};

std::vector<std::string> datas(mcp::http::Stream& s, std::uint64_t after = 0) {
  std::vector<std::string> out;
  for (auto& e : s.take_after(after).events) out.push_back(e.data);
  return out;
}

}  // namespace

TEST(SessionTransport, ResponseEndsItsOwnRequestStream) {
  Started s;
  auto a = s.t->open_request_stream(1);
  auto b = s.t->open_request_stream(2);
  ASSERT_TRUE(a && b);
  EXPECT_NE((*a)->id(), (*b)->id());
  ASSERT_TRUE(s.t->send("answer-2", response_to(2)));
  ASSERT_TRUE(s.t->send("answer-1", response_to(1)));
  EXPECT_EQ(datas(**a), std::vector<std::string>{"answer-1"});
  EXPECT_EQ(datas(**b), std::vector<std::string>{"answer-2"});
  EXPECT_TRUE((*a)->finished());
  EXPECT_TRUE((*b)->finished());
}

TEST(SessionTransport, StringAndNumberIdsAreDifferentRequests) {
  Started s;
  auto num = s.t->open_request_stream(7);
  auto str = s.t->open_request_stream("7");
  ASSERT_TRUE(num && str);
  ASSERT_TRUE(s.t->send("for-string", response_to("7")));
  EXPECT_TRUE(datas(**num).empty());
  EXPECT_EQ(datas(**str), std::vector<std::string>{"for-string"});
}

TEST(SessionTransport, RelatedMessagesGoOnTheRequestStreamBeforeItsAnswer) {
  Started s;
  auto standalone = s.t->standalone_stream();
  auto a = s.t->open_request_stream(1);
  ASSERT_TRUE(standalone && a);
  ASSERT_TRUE(s.t->send("progress", notification_for(1)));
  ASSERT_TRUE(s.t->send("sampling-request", request_for(1)));
  ASSERT_TRUE(s.t->send("log", notification_for(1)));
  EXPECT_FALSE((*a)->finished());
  ASSERT_TRUE(s.t->send("answer", response_to(1)));
  EXPECT_EQ(datas(**a), (std::vector<std::string>{"progress", "sampling-request", "log", "answer"}));
  EXPECT_TRUE(datas(**standalone).empty()) << "a related message was broadcast to the standalone stream";
}

TEST(SessionTransport, UnrelatedMessagesGoToTheStandaloneStream) {
  Started s;
  auto a = s.t->open_request_stream(1);
  auto standalone = s.t->standalone_stream();
  ASSERT_TRUE(a && standalone);
  ASSERT_TRUE(s.t->send("list-changed", unrelated()));
  ASSERT_TRUE(s.t->send("server-request", SendInfo{SendInfo::Kind::request, nullptr}));
  EXPECT_EQ(datas(**standalone), (std::vector<std::string>{"list-changed", "server-request"}));
  EXPECT_TRUE(datas(**a).empty());
  // The standalone stream is one stream for the session.
  auto again = s.t->standalone_stream();
  ASSERT_TRUE(again);
  EXPECT_EQ(again->get(), standalone->get());
}

TEST(SessionTransport, UnrelatedMessagesAreDroppedWithoutAStandaloneStream) {
  Started s;
  auto a = s.t->open_request_stream(1);
  ASSERT_TRUE(a);
  EXPECT_TRUE(s.t->send("nobody-listens", unrelated()));  // dropped, not an error
  EXPECT_TRUE(datas(**a).empty());
  auto standalone = s.t->standalone_stream();
  ASSERT_TRUE(standalone);
  EXPECT_EQ((*standalone)->last_seq(), 0u) << "a dropped message was stored for later";
}

TEST(SessionTransport, MessageRelatedToAnAnsweredRequestFallsBackToStandalone) {
  Started s;
  auto standalone = s.t->standalone_stream();
  auto a = s.t->open_request_stream(1);
  ASSERT_TRUE(standalone && a);
  ASSERT_TRUE(s.t->send("answer", response_to(1)));
  ASSERT_TRUE(s.t->send("late-log", notification_for(1)));
  EXPECT_EQ(datas(**a), std::vector<std::string>{"answer"});
  EXPECT_EQ(datas(**standalone), std::vector<std::string>{"late-log"});
}

TEST(SessionTransport, ResponseWithoutARequestStreamNeverGoesToStandalone) {
  // 2025-11-25: the server MUST NOT send a JSON-RPC response on the standalone GET stream.
  Started s;
  auto standalone = s.t->standalone_stream();
  ASSERT_TRUE(standalone);
  (void)s.t->send(R"({"jsonrpc":"2.0","id":99,"result":{}})", response_to(99));
  // Guards a fixed bug: session_transport.cpp:98 a response whose request has no open stream is pushed to the
  //  standalone GET stream
  EXPECT_TRUE(datas(**standalone).empty());
}

TEST(SessionTransport, MaxStreamsBoundsConcurrentRequests) {
  Started s(SessionTransport::Limits{.max_streams = 2, .max_events_per_stream = 8, .max_remembered_streams = 16});
  ASSERT_TRUE(s.t->open_request_stream(1));
  ASSERT_TRUE(s.t->open_request_stream(2));
  auto third = s.t->open_request_stream(3);
  ASSERT_FALSE(third);
  EXPECT_NE(third.error().message.find("max_streams_per_session"), std::string::npos) << third.error().message;
  ASSERT_TRUE(s.t->send("done", response_to(1)));
  EXPECT_TRUE(s.t->open_request_stream(3)) << "an answered request still counts against the limit";
  // The standalone stream does not count.
  EXPECT_TRUE(s.t->standalone_stream());
}

TEST(SessionTransport, DuplicateIdInProgressIsInvalidRequest) {
  Started s;
  ASSERT_TRUE(s.t->open_request_stream(5));
  auto dup = s.t->open_request_stream(5);
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, mcp::error_code::kInvalidRequest);
  ASSERT_TRUE(s.t->send("x", response_to(5)));
  EXPECT_TRUE(s.t->open_request_stream(5)) << "an id may be reused once answered";
}

TEST(SessionTransport, LastEventIdFindsTheStreamAndPosition) {
  Started s;
  auto a = s.t->open_request_stream(1);
  auto b = s.t->open_request_stream(2);
  ASSERT_TRUE(a && b);
  (*a)->push("x", false);
  (*a)->push("y", false);
  auto hit = s.t->find_event((*a)->id() + "_1");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->first.get(), a->get());
  EXPECT_EQ(hit->second, 1u);
  EXPECT_EQ(datas(*hit->first, hit->second), std::vector<std::string>{"y"});
  auto prime = s.t->find_event((*b)->id() + "_0");
  ASSERT_TRUE(prime);
  EXPECT_EQ(prime->first.get(), b->get());
  EXPECT_EQ(prime->second, 0u);
  for (const char* bad : {"", "_", "1_", "_1", "abc", "1_x", "1_-1", "999_1", "1_99999999999999999999999"}) {
    EXPECT_FALSE(s.t->find_event(bad)) << "'" << bad << "'";
  }
}

TEST(SessionTransport, AnsweredStreamsStayFindableWithinTheBound) {
  Started s(SessionTransport::Limits{.max_streams = 32, .max_events_per_stream = 8, .max_remembered_streams = 3});
  std::vector<std::string> ids;
  for (int i = 1; i <= 6; ++i) {
    auto st = s.t->open_request_stream(i);
    ASSERT_TRUE(st);
    ids.push_back((*st)->id());
    ASSERT_TRUE(s.t->send("answer", response_to(i)));
  }
  EXPECT_TRUE(s.t->find_event(ids.back() + "_0")) << "the newest answered stream was forgotten";
  EXPECT_FALSE(s.t->find_event(ids.front() + "_0")) << "finished streams are not bounded";
}

TEST(SessionTransport, OpenStreamsAreNeverForgotten) {
  Started s(SessionTransport::Limits{.max_streams = 32, .max_events_per_stream = 8, .max_remembered_streams = 2});
  auto open = s.t->open_request_stream(100);
  ASSERT_TRUE(open);
  for (int i = 1; i <= 5; ++i) {
    ASSERT_TRUE(s.t->open_request_stream(i));
    ASSERT_TRUE(s.t->send("answer", response_to(i)));
  }
  EXPECT_TRUE(s.t->find_event((*open)->id() + "_0"));
}

mcp::jsonrpc::Message note(std::string method) { return mcp::jsonrpc::Notification{std::move(method), {}}; }

TEST(SessionTransport, DeliverEncodesForAnEngineThatTakesOnlyFrames) {
  Started s;
  s.t->deliver(note("one"), 3);
  s.t->deliver(note("two"), 3);
  std::lock_guard lock(s.mu);
  EXPECT_EQ(s.delivered, (std::vector<std::string>{R"({"jsonrpc":"2.0","method":"one"})", R"({"jsonrpc":"2.0","method":"two"})"}));
}

TEST(SessionTransport, DeliverHandsTheDecodedMessageOverWithoutAFrame) {
  // The HTTP layer decoded the body to route it; the session takes that message as it is.
  auto t = std::make_shared<SessionTransport>("sid", SessionTransport::Limits{});
  std::vector<std::string> frames, methods;
  std::vector<std::size_t> sizes;
  mcp::Transport::Callbacks cb;
  cb.on_message = [&](std::string f) { frames.push_back(std::move(f)); };
  cb.on_close = [](std::optional<mcp::Error>) {};
  cb.on_decoded = [&](mcp::jsonrpc::Message m, std::size_t bytes) {
    methods.push_back(std::get<mcp::jsonrpc::Notification>(m).method);
    sizes.push_back(bytes);
  };
  ASSERT_TRUE(t->start(std::move(cb)));
  t->deliver(note("one"), 42);
  EXPECT_TRUE(frames.empty());
  EXPECT_EQ(methods, std::vector<std::string>{"one"});
  EXPECT_EQ(sizes, std::vector<std::size_t>{42});
  t->close();
}

TEST(SessionTransport, CloseFinishesStreamsAndRefusesMore) {
  Started s;
  auto a = s.t->open_request_stream(1);
  auto standalone = s.t->standalone_stream();
  ASSERT_TRUE(a && standalone);
  s.t->close();
  s.t->close();
  EXPECT_EQ(s.closes.load(), 1);
  EXPECT_TRUE(s.t->closed());
  EXPECT_TRUE((*a)->finished());
  EXPECT_TRUE((*standalone)->finished());
  EXPECT_TRUE((*a)->take_after(0).done);
  EXPECT_FALSE(s.t->send("x", response_to(1)));
  EXPECT_FALSE(s.t->open_request_stream(2));
  EXPECT_FALSE(s.t->standalone_stream());
  s.t->deliver(note("after close"), 11);
  std::lock_guard lock(s.mu);
  EXPECT_TRUE(s.delivered.empty());
}

TEST(SessionTransport, CloseRequestStreamCutsOnlyThatStream) {
  Started s;
  auto a = s.t->open_request_stream(1);
  auto b = s.t->open_request_stream(2);
  ASSERT_TRUE(a && b);
  s.t->close_request_stream(1);
  EXPECT_TRUE((*a)->take_after(0).done);
  EXPECT_FALSE((*a)->finished());
  EXPECT_FALSE((*b)->take_after(0).done);
  // The answer still reaches the cut stream (for the resuming GET).
  ASSERT_TRUE(s.t->send("late answer", response_to(1)));
  EXPECT_EQ(datas(**a), std::vector<std::string>{"late answer"});
  s.t->close_request_stream(42);  // unknown: nothing happens
}

TEST(SessionTransport, TouchMovesLastActivity) {
  Started s;
  auto before = s.t->last_activity();
  // Wait for the clock itself to move past `before` (a state, not a duration), so that a touch that
  // records "now" is distinguishable from one that does nothing.
  auto later = std::chrono::steady_clock::now();
  while (later <= before) later = std::chrono::steady_clock::now();
  s.t->touch();
  EXPECT_GE(s.t->last_activity(), later);
  EXPECT_EQ(s.t->session_id(), "sid");
}

// A stateless request's stream, which nothing resumes, is let go as soon as its answer is out
// (connection.cpp handle_stateless): a connection's session serves many requests, and must not
// keep their answers until max_remembered_streams or the byte budget push them out.
TEST(SessionTransport, AForgottenStreamGoesWithItsEventsButNotWhileItsRequestIsAnswering) {
  Started s;
  auto opened = s.t->open_request_stream(1);
  ASSERT_TRUE(opened);
  auto st = std::move(*opened);
  const std::string resume_from = st->id() + "_0";
  s.t->forget_stream(st);  // still answering: kept
  EXPECT_TRUE(s.t->find_event(resume_from));
  ASSERT_TRUE(s.t->send(R"({"jsonrpc":"2.0","id":1,"result":{}})", response_to(1)));
  EXPECT_GT(s.t->stored_bytes(), 0u);
  EXPECT_TRUE(s.t->find_event(resume_from));  // answered: remembered, for a resumption
  s.t->forget_stream(st);
  EXPECT_FALSE(s.t->find_event(resume_from));
  st.reset();  // the writer's reference, the last one
  EXPECT_EQ(s.t->stored_bytes(), 0u);
}
