// Asynchronous handlers and requests: a handler that answers later through its Responder holds no
// worker thread while it waits, and request_async() waits on no thread at all; both keep every
// guarantee of the blocking forms (one answer, timeouts, cancellation both ways, errors on close).
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <vector>

#include "mcp/session/session.hpp"
#include "mcp/transport/memory.hpp"
#include "session/timer.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Event;
using mcp::test::wait_cancelled;

namespace {

// Requests named "hold" are kept unanswered (their Responders stored); "drop" discards its
// Responder; "twice" answers two times; anything else is answered at once.
struct AsyncHandler : Session::Handler {
  std::mutex mu;
  std::vector<Responder> held;
  std::vector<CancellationToken> held_tokens;
  bool second_answer_taken = true;
  Event second_tried;  // the client may see the first answer before the second is attempted

  void start_request(InboundRequest& r, Responder reply) override {
    if (r.method == "hold") {
      std::lock_guard l(mu);
      held.push_back(std::move(reply));
      held_tokens.push_back(r.cancel);
      return;
    }
    if (r.method == "drop") return;
    if (r.method == "twice") {
      reply(json::object{{"answer", 1}});
      {
        std::lock_guard l(mu);
        second_answer_taken = reply(json::object{{"answer", 2}});
      }
      second_tried.set();
      return;
    }
    reply(json::object{{"m", r.method}});
  }
  void handle_notification(const jsonrpc::Notification&) override {}

  std::size_t held_count() {
    std::lock_guard l(mu);
    return held.size();
  }
};

struct NullHandler : Session::Handler {
  void handle_notification(const jsonrpc::Notification&) override {}
};

struct AsyncPair {
  NullHandler client_handler;
  AsyncHandler server_handler;
  std::shared_ptr<Session> client, server;
  explicit AsyncPair(Session::Options server_options = {}) {
    auto [tc, ts] = make_memory_transport_pair();
    client = Session::create(tc, client_handler, {});
    server = Session::create(ts, server_handler, std::move(server_options));
    EXPECT_TRUE(client->start());
    EXPECT_TRUE(server->start());
  }
  ~AsyncPair() {
    client->shutdown();
    server->shutdown();
  }
};

// Collects request_async callbacks.
struct Answers {
  std::mutex mu;
  std::vector<Result<json::value>> got;
  Event all;
  std::size_t expected = 1;
  std::function<void(Result<json::value>)> callback() {
    return [this](Result<json::value> r) {
      std::lock_guard l(mu);
      got.push_back(std::move(r));
      if (got.size() == expected) all.set();
    };
  }
};

}  // namespace

TEST(AsyncSession, HeldRespondersOccupyNoWorker) {
  // One worker thread, fifty requests held unanswered: a further request is still answered, which
  // it could not be if each held request kept the worker.
  Session::Options one_worker;
  one_worker.max_workers = 1;
  AsyncPair p(one_worker);
  Answers answers;
  answers.expected = 50;
  for (int i = 0; i < 50; ++i) p.client->request_async("hold", {}, {}, answers.callback());
  RequestOptions o;
  o.timeout = 10s;
  auto other = p.client->request("other", {}, o);
  ASSERT_TRUE(other) << other.error().message;
  EXPECT_EQ(other->at("m"), "other");
  // Every held request reached the handler before "other" was answered (one worker, in order).
  ASSERT_EQ(p.server_handler.held_count(), 50u);
  EXPECT_FALSE(answers.all.is_set());

  // Answered later, from this thread, not a worker.
  std::vector<Responder> held;
  {
    std::lock_guard l(p.server_handler.mu);
    held.swap(p.server_handler.held);
  }
  for (std::size_t i = 0; i < held.size(); ++i) EXPECT_TRUE(held[i](json::object{{"n", i}}));
  ASSERT_TRUE(answers.all.wait());
  std::lock_guard l(answers.mu);
  for (const auto& r : answers.got) ASSERT_TRUE(r) << r.error().message;
}

TEST(AsyncSession, ADroppedResponderAnswersWithAnError) {
  AsyncPair p;
  auto r = p.client->request("drop", {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInternalError);
  EXPECT_NE(r.error().message.find("finished without answering"), std::string::npos) << r.error().message;
}

TEST(AsyncSession, OnlyTheFirstAnswerIsSent) {
  AsyncPair p;
  auto r = p.client->request("twice", {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->at("answer"), 1);
  ASSERT_TRUE(p.server_handler.second_tried.wait());
  {
    std::lock_guard l(p.server_handler.mu);
    EXPECT_FALSE(p.server_handler.second_answer_taken);
  }
  // The session still works: the second answer did not leave a stray frame that a later request
  // could take for its own.
  EXPECT_TRUE(p.client->request("after", {}));
}

TEST(AsyncSession, RequestAsyncDeliversTheAnswer) {
  AsyncPair p;
  Answers answers;
  p.client->request_async("echo", {}, {}, answers.callback());
  ASSERT_TRUE(answers.all.wait());
  std::lock_guard l(answers.mu);
  ASSERT_TRUE(answers.got[0]) << answers.got[0].error().message;
  EXPECT_EQ(answers.got[0]->at("m"), "echo");
}

// An answered request forgets its timeout: the timer holds what is in flight, not every request of
// the last request_timeout (at the gateway's rate, hundreds of thousands of entries a minute).
TEST(AsyncSession, AnAnsweredRequestLeavesNoTimerBehind) {
  Answers answers, held;  // before the sessions: the held request is failed when they close
  AsyncPair p;
  const auto before = mcp::detail::timers_pending();
  answers.expected = 500;
  for (int i = 0; i < 500; ++i) p.client->request_async("echo", {}, {}, answers.callback());
  ASSERT_TRUE(answers.all.wait());
  EXPECT_LE(mcp::detail::timers_pending(), before);
  // One held unanswered keeps its timer until it is answered or times out.
  p.client->request_async("hold", {}, {}, held.callback());
  EXPECT_EQ(mcp::detail::timers_pending(), before + 1);
}

// Requests answered one after another within their timeout do not wake the timer's thread: each
// one's deadline comes after the one the thread already sleeps until (a wake-up per request was a
// context switch per forwarded call at the gateway).
TEST(AsyncSession, RequestsAnsweredInTimeDoNotWakeTheTimer) {
  std::deque<Answers> answers(201);  // before the sessions: a callback may still be leaving one
  AsyncPair p;
  // The first may set what the thread sleeps until.
  p.client->request_async("echo", {}, {}, answers[0].callback());
  ASSERT_TRUE(answers[0].all.wait());
  const auto before = mcp::detail::timer_wakeups();
  for (std::size_t i = 1; i < answers.size(); ++i) {
    p.client->request_async("echo", {}, {}, answers[i].callback());
    ASSERT_TRUE(answers[i].all.wait());
  }
  EXPECT_LE(mcp::detail::timer_wakeups() - before, 2u);
}

// A deadline earlier than the one the timer's thread sleeps until (a cancelled, longer one) still
// runs on time.
TEST(AsyncSession, AnEarlierDeadlineAfterACancelledLaterOneStillRuns) {
  const auto far = mcp::detail::run_at(std::chrono::steady_clock::now() + 60s, [] {});
  mcp::detail::cancel_timer(far);
  auto ran = std::make_shared<Event>();  // the callback's own: it may run after a failed wait
  (void)mcp::detail::run_at(std::chrono::steady_clock::now() + 20ms, [ran] { ran->set(); });
  EXPECT_TRUE(ran->wait());
}

TEST(AsyncSession, RequestAsyncTimesOutAndCancelsThePeer) {
  AsyncPair p;
  Answers answers;
  RequestOptions o;
  o.timeout = 50ms;
  p.client->request_async("hold", {}, o, answers.callback());
  ASSERT_TRUE(answers.all.wait());
  {
    std::lock_guard l(answers.mu);
    ASSERT_FALSE(answers.got[0]);
    EXPECT_EQ(answers.got[0].error().code, error_code::kRequestTimeout);
    EXPECT_NE(answers.got[0].error().message.find("hold timed out after 50 ms"), std::string::npos);
  }
  // The timeout told the server: the held request's token is cancelled, its Responder abandoned.
  ASSERT_EQ(p.server_handler.held_count(), 1u);
  std::lock_guard l(p.server_handler.mu);
  ASSERT_TRUE(wait_cancelled(p.server_handler.held_tokens[0]));
  EXPECT_TRUE(p.server_handler.held[0].abandoned());
}

TEST(AsyncSession, RequestAsyncCancelledByItsToken) {
  AsyncPair p;
  Answers answers;
  RequestOptions o;
  p.client->request_async("hold", {}, o, answers.callback());
  // Cancel only once the server holds it, so that the cancellation must travel to the peer.
  for (int i = 0; i < 200 && p.server_handler.held_count() == 0; ++i) {
    ASSERT_TRUE(p.client->request("sync-point", {}));  // answered in order behind the held request
  }
  ASSERT_EQ(p.server_handler.held_count(), 1u);
  o.cancel.cancel("the user gave up");
  ASSERT_TRUE(answers.all.wait());
  {
    std::lock_guard l(answers.mu);
    ASSERT_FALSE(answers.got[0]);
    EXPECT_EQ(answers.got[0].error().code, error_code::kRequestCancelled);
    EXPECT_EQ(answers.got[0].error().message, "the user gave up");
  }
  std::lock_guard l(p.server_handler.mu);
  EXPECT_TRUE(wait_cancelled(p.server_handler.held_tokens[0]));
}

TEST(AsyncSession, RequestAsyncOnAClosedSessionFailsAtOnce) {
  AsyncPair p;
  p.client->close();
  p.client->wait_closed();
  Answers answers;
  p.client->request_async("echo", {}, {}, answers.callback());
  ASSERT_TRUE(answers.all.is_set());  // called before request_async returned
  std::lock_guard l(answers.mu);
  ASSERT_FALSE(answers.got[0]);
  EXPECT_EQ(answers.got[0].error().code, error_code::kConnectionClosed);
}

TEST(AsyncSession, APendingRequestAsyncFailsWhenTheConnectionCloses) {
  AsyncPair p;
  Answers answers;
  p.client->request_async("hold", {}, {}, answers.callback());
  ASSERT_TRUE(p.client->request("sync-point", {}));
  p.server->close();
  ASSERT_TRUE(answers.all.wait());
  std::lock_guard l(answers.mu);
  ASSERT_FALSE(answers.got[0]);
  EXPECT_EQ(answers.got[0].error().code, error_code::kConnectionClosed);
}
