// The session engine over an in-memory transport pair: ordering, timeouts, cancellation, progress,
// ping, malformed input, and closing.
#include "mcp/session/session.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <thread>

#include "mcp/transport/memory.hpp"

using namespace mcp;
using namespace std::chrono_literals;

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
  Raw() {
    auto [ta, tb] = make_memory_transport_pair();
    raw = tb;
    s = Session::create(ta, handler, {});
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
  Pair p;
  p.b_handler.fn = [](InboundRequest& r) -> Result<json::value> {
    auto ms = r.params.at("sleep").as_int64();
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return json::object{{"slept", ms}};
  };
  auto slow = std::async(std::launch::async, [&] { return p.a->request("x", {{"sleep", 300}}); });
  std::this_thread::sleep_for(20ms);
  auto t0 = std::chrono::steady_clock::now();
  auto fast = p.a->request("x", {{"sleep", 1}});
  auto fast_elapsed = std::chrono::steady_clock::now() - t0;
  ASSERT_TRUE(fast);
  EXPECT_EQ(fast->at("slept"), 1);
  // The fast answer did not wait behind the slow one.
  EXPECT_LT(fast_elapsed, 250ms);
  auto s = slow.get();
  ASSERT_TRUE(s);
  EXPECT_EQ(s->at("slept"), 300);
}

TEST(Session, TimeoutFailsTheCallAndCancelsThePeer) {
  Pair p;
  std::promise<std::string> cancelled_reason;
  p.b_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    for (int i = 0; i < 200 && !r.cancel.cancelled(); ++i) std::this_thread::sleep_for(10ms);
    cancelled_reason.set_value(r.cancel.cancelled() ? r.cancel.reason() : "not cancelled");
    return json::object{};
  };
  RequestOptions o;
  o.timeout = 100ms;
  auto r = p.a->request("slow", {}, o);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kRequestTimeout);
  auto f = cancelled_reason.get_future();
  ASSERT_EQ(f.wait_for(2s), std::future_status::ready);
  EXPECT_NE(f.get(), "not cancelled");
}

TEST(Session, CancellationReachesTheRunningHandler) {
  Pair p;
  std::atomic<bool> started{false}, saw_cancel{false};
  p.b_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    started = true;
    for (int i = 0; i < 300 && !r.cancel.cancelled(); ++i) std::this_thread::sleep_for(5ms);
    saw_cancel = r.cancel.cancelled();
    return json::object{};
  };
  RequestOptions o;
  CancellationToken tok = o.cancel;
  auto fut = std::async(std::launch::async, [&] { return p.a->request("work", {}, o); });
  while (!started) std::this_thread::sleep_for(1ms);
  tok.cancel("user pressed stop");
  auto r = fut.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kRequestCancelled);
  for (int i = 0; i < 200 && !saw_cancel; ++i) std::this_thread::sleep_for(5ms);
  EXPECT_TRUE(saw_cancel);
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
  EXPECT_TRUE(e1.at("id").is_null());
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
  Raw r;
  std::atomic<bool> started{false};
  r.handler.fn = [&](InboundRequest& req) -> Result<json::value> {
    started = true;
    for (int i = 0; i < 200 && !req.cancel.cancelled(); ++i) std::this_thread::sleep_for(5ms);
    return json::object{};
  };
  r.send(R"({"jsonrpc":"2.0","id":1,"method":"slow"})");
  while (!started) std::this_thread::sleep_for(1ms);
  r.send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"stop"}})");
  r.send(R"({"jsonrpc":"2.0","id":2,"method":"after"})");
  auto f = r.next();
  EXPECT_EQ(f.at("id"), 2);
  EXPECT_TRUE(r.next(300ms).is_null());
}

TEST(Session, ClosingFailsPendingRequests) {
  Pair p;
  p.b_handler.fn = [](InboundRequest&) -> Result<json::value> {
    std::this_thread::sleep_for(300ms);
    return json::object{};
  };
  auto fut = std::async(std::launch::async, [&] { return p.a->request("slow", {}); });
  std::this_thread::sleep_for(50ms);
  p.a->close();
  auto r = fut.get();
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kConnectionClosed);
  EXPECT_FALSE(p.a->request("after", {}));
}

TEST(Session, DuplicateInFlightIdIsRejected) {
  Raw r;
  std::atomic<int> calls{0};
  r.handler.fn = [&](InboundRequest&) -> Result<json::value> {
    ++calls;
    std::this_thread::sleep_for(200ms);
    return json::object{};
  };
  r.send(R"({"jsonrpc":"2.0","id":1,"method":"a"})");
  std::this_thread::sleep_for(20ms);
  r.send(R"({"jsonrpc":"2.0","id":1,"method":"a"})");
  auto e = r.next();
  EXPECT_EQ(e.at("error").at("code"), -32600);
  auto ok = r.next();
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
  std::atomic<bool> release{false};
  server_handler.fn = [&](InboundRequest& r) -> Result<json::value> {
    if (r.method == "slow") {
      while (!release) std::this_thread::sleep_for(1ms);
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
  std::this_thread::sleep_for(50ms);
  RequestOptions quick;
  quick.timeout = 1s;
  auto fast = client->request("fast", {}, quick);
  ASSERT_TRUE(fast) << fast.error().message;
  EXPECT_EQ(fast->at("m"), "fast");
  release = true;
  ASSERT_TRUE(slow.get());
  client->shutdown();
  server->shutdown();
}
