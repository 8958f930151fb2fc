// The session engine over an in-memory transport pair: ordering, timeouts, cancellation, progress,
// ping, malformed input, and closing.
#include "mcp/session/session.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <thread>

#include "mcp/transport/memory.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Event;
using mcp::test::wait_cancelled;

namespace {

// A handler driven by a function; records notifications.
struct FnHandler : Session::Handler {
  std::function<Result<json::value>(InboundRequest&)> fn = [](InboundRequest& r) -> Result<json::value> {
    return json::object{{"echo", r.method}};
  };
  std::mutex mu;
  std::vector<jsonrpc::Notification> notes;
  std::condition_variable cv;

  Result<json::value> handle_request(InboundRequest& r) override { return fn(r); }
  void handle_notification(const jsonrpc::Notification& n) override {
    std::lock_guard l(mu);
    notes.push_back(n);
    cv.notify_all();
  }
  bool wait_for_note(const std::string& method, std::chrono::milliseconds d = 2s) {
    std::unique_lock l(mu);
    return cv.wait_for(l, d, [&] {
      for (auto& n : notes) if (n.method == method) return true;
      return false;
    });
  }
};

struct Pair {
  FnHandler a_handler, b_handler;
  std::shared_ptr<Session> a, b;
  Pair() {
    auto [ta, tb] = make_memory_transport_pair();
    a = Session::create(ta, a_handler, {});
    b = Session::create(tb, b_handler, {});
    EXPECT_TRUE(a->start());
    EXPECT_TRUE(b->start());
  }
  ~Pair() {
    a->shutdown();
    b->shutdown();
  }
};

// A session on one end and raw frames on the other.
struct Raw {
  FnHandler handler;
  std::shared_ptr<Transport> raw;
  std::shared_ptr<Session> s;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> frames;
  explicit Raw(Session::Options options = {}) {
    auto [ta, tb] = make_memory_transport_pair();
    raw = tb;
    s = Session::create(ta, handler, options);
    EXPECT_TRUE(s->start());
    EXPECT_TRUE(raw->start({[this](std::string f) {
                              std::lock_guard l(mu);
                              frames.push_back(std::move(f));
                              cv.notify_all();
                            },
                            [](std::optional<Error>) {}}));
  }
  ~Raw() { s->shutdown(); }
  json::value next(std::chrono::milliseconds d = 2s) {
    std::unique_lock l(mu);
    if (!cv.wait_for(l, d, [&] { return !frames.empty(); })) return nullptr;
    auto f = frames.front();
    frames.erase(frames.begin());
    return json::parse(f);
  }
  void send(const std::string& f) { ASSERT_TRUE(raw->send(f, {})); }
};

}  // namespace

TEST(Session, ConcurrentRequestsAreAnsweredOutOfOrder) {
  // The first request is held until the second one has been answered: if answers were ordered, the
  // second would wait behind the first and both would time out.
  Pair p;
  Event first_started, second_answered;
  p.b_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    if (r.method == "first") {
      first_started.set();
      if (!second_answered.wait()) return fail(Error::internal("the second request was never answered"));
    }
    return json::object{{"m", r.method}};
  };
  auto first = std::async(std::launch::async, [&] { return p.a->request("first", {}); });
  ASSERT_TRUE(first_started.wait());
  RequestOptions o;
  o.timeout = 5s;
  auto second = p.a->request("second", {}, o);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->at("m"), "second");
  second_answered.set();
  auto f = first.get();
  ASSERT_TRUE(f) << f.error().message;
  EXPECT_EQ(f->at("m"), "first");
}

TEST(Session, TimeoutFailsTheCallAndCancelsThePeer) {
  Pair p;
  std::promise<std::string> cancelled_reason;
  p.b_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    cancelled_reason.set_value(wait_cancelled(r.cancel) ? r.cancel.reason() : "not cancelled");
    return json::object{};
  };
  RequestOptions o;
  o.timeout = 100ms;
  auto r = p.a->request("slow", {}, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kRequestTimeout);
  auto f = cancelled_reason.get_future();
  ASSERT_EQ(f.wait_for(15s), std::future_status::ready);
  EXPECT_NE(f.get(), "not cancelled");
}

TEST(Session, CancellationReachesTheRunningHandler) {
  Pair p;
  Event started, handler_done;
  std::atomic<bool> saw_cancel{false};
  std::string reason;
  p.b_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    started.set();
    saw_cancel = wait_cancelled(r.cancel);
    reason = r.cancel.reason();
    handler_done.set();
    return json::object{};
  };
  RequestOptions o;
  CancellationToken tok = o.cancel;
  auto fut = std::async(std::launch::async, [&] { return p.a->request("work", {}, o); });
  ASSERT_TRUE(started.wait());
  tok.cancel("user pressed stop");
  auto r = fut.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kRequestCancelled);
  ASSERT_TRUE(handler_done.wait());
  EXPECT_TRUE(saw_cancel);
  EXPECT_EQ(reason, "user pressed stop");
}

TEST(Session, ProgressIsRoutedToItsRequest) {
  Pair p;
  p.b_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    EXPECT_TRUE(r.progress_token);
    for (int i = 1; i <= 3; ++i) {
      (void)p.b->notify("notifications/progress",
                        {{"progressToken", *r.progress_token}, {"progress", i}, {"total", 3}, {"message", "step"}}, r.id);
    }
    return json::object{};
  };
  std::vector<double> seen;
  RequestOptions o;
  o.on_progress = [&](const ProgressInfo& info) {
    seen.push_back(info.progress);
    EXPECT_EQ(info.total, 3);
    EXPECT_EQ(info.message, "step");
  };
  ASSERT_TRUE(p.a->request("work", {}, o));
  EXPECT_EQ(seen, (std::vector<double>{1, 2, 3}));
}

TEST(Session, PingIsAnsweredWithEmptyResult) {
  Raw r;
  r.send(R"({"jsonrpc":"2.0","id":"p1","method":"ping"})");
  auto f = r.next();
  ASSERT_TRUE(f.is_object());
  EXPECT_EQ(f.at("id"), "p1");
  EXPECT_TRUE(f.at("result").as_object().empty());
}

TEST(Session, MalformedInputGetsErrorsAndTheConnectionStaysUsable) {
  Raw r;
  r.send("this is not json");
  auto e1 = r.next();
  EXPECT_EQ(e1.at("error").at("code"), -32700);
  EXPECT_FALSE(e1.as_object().contains("id"));  // unknown id: left out (MCP has no null id)
  r.send(R"({"jsonrpc":"2.0","id":5,"method":"x","params":"str"})");
  auto e2 = r.next();
  EXPECT_EQ(e2.at("error").at("code"), -32602);
  EXPECT_EQ(e2.at("id"), 5);
  r.send(R"({"jsonrpc":"2.0","id":6,"result":{}})");  // answers nothing we asked: dropped silently
  r.send(R"({"jsonrpc":"2.0","id":7,"method":"hello"})");
  auto ok = r.next();
  EXPECT_EQ(ok.at("id"), 7);
  EXPECT_EQ(ok.at("result").at("echo"), "hello");
}

TEST(Session, HandlerErrorsBecomeJsonRpcErrors) {
  Raw r;
  r.handler.fn = [](InboundRequest& req) -> Result<json::value> { return fail(Error::method_not_found(req.method)); };
  r.send(R"({"jsonrpc":"2.0","id":1,"method":"nope"})");
  auto e = r.next();
  EXPECT_EQ(e.at("error").at("code"), -32601);
  EXPECT_EQ(e.at("id"), 1);
}

TEST(Session, PeerCancelledRequestIsNotAnswered) {
  // One worker: "after" runs only once "slow" has returned and its answer, had there been one, was
  // written. So the first frame being "after"'s proves "slow" was never answered.
  Session::Options one_worker;
  one_worker.max_workers = 1;
  Raw r(one_worker);
  Event started;
  std::atomic<bool> saw_cancel{false};
  r.handler.fn = [&](InboundRequest& req) -> Result<json::value> {
    if (req.method != "slow") return json::object{{"m", req.method}};
    started.set();
    saw_cancel = wait_cancelled(req.cancel);
    return json::object{{"m", "slow"}};  // returned after the cancellation: must be dropped
  };
  r.send(R"({"jsonrpc":"2.0","id":1,"method":"slow"})");
  ASSERT_TRUE(started.wait());
  r.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"stop"}})");
  r.send(R"({"jsonrpc":"2.0","id":2,"method":"after"})");
  auto f = r.next(10s);
  ASSERT_TRUE(f.is_object());
  EXPECT_EQ(f.at("id"), 2);
  EXPECT_TRUE(saw_cancel);
}

TEST(Session, ClosingFailsPendingRequests) {
  Pair p;
  Event started;
  p.b_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    started.set();
    (void)wait_cancelled(r.cancel);  // the closing session cancels it
    return json::object{};
  };
  auto fut = std::async(std::launch::async, [&] { return p.a->request("slow", {}); });
  ASSERT_TRUE(started.wait());  // the request is in flight
  p.a->close();
  auto r = fut.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kConnectionClosed);
  EXPECT_FALSE(p.a->request("after", {}));
}

TEST(Session, DuplicateInFlightIdIsRejected) {
  Raw r;
  std::atomic<int> calls{0};
  Event started, release;
  r.handler.fn = [&](InboundRequest&) -> Result<json::value> {
    ++calls;
    started.set();
    (void)release.wait();
    return json::object{};
  };
  r.send(R"({"jsonrpc":"2.0","id":1,"method":"a"})");
  ASSERT_TRUE(started.wait());  // id 1 is in flight
  r.send(R"({"jsonrpc":"2.0","id":1,"method":"a"})");
  auto e = r.next(10s);
  ASSERT_TRUE(e.is_object());
  EXPECT_EQ(e.at("error").at("code"), -32600);
  release.set();
  auto ok = r.next(10s);
  ASSERT_TRUE(ok.is_object());
  EXPECT_TRUE(ok.as_object().contains("result"));
  EXPECT_EQ(calls, 1);
}

// A request the handler declares non-blocking runs on the reader thread, so it is answered even
// while every worker is busy.
TEST(Session, InlineRequestsAreAnsweredWhileWorkersAreBusy) {
  struct Inline : FnHandler {
    bool runs_inline(const std::string& method, const json::object*) const override { return method == "fast"; }
  };
  Inline server_handler;
  Event slow_started, release;
  server_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    if (r.method == "slow") {
      slow_started.set();
      (void)release.wait();
    }
    return json::object{{"m", r.method}};
  };
  FnHandler client_handler;
  auto [ta, tb] = make_memory_transport_pair();
  Session::Options one_worker;
  one_worker.max_workers = 1;
  auto server = Session::create(ta, server_handler, one_worker);
  auto client = Session::create(tb, client_handler, {});
  ASSERT_TRUE(server->start());
  ASSERT_TRUE(client->start());
  auto slow = std::async(std::launch::async, [&] { return client->request("slow", {}); });
  ASSERT_TRUE(slow_started.wait());  // the only worker is busy
  RequestOptions quick;
  quick.timeout = 5s;
  auto fast = client->request("fast", {}, quick);
  release.set();
  ASSERT_TRUE(fast) << fast.error().message;
  EXPECT_EQ(fast->at("m"), "fast");
  ASSERT_TRUE(slow.get());
  client->shutdown();
  server->shutdown();
}
