// The gateway's bridge (src/gateway/bridge.hpp): an upstream's request to its client goes to the
// one call in flight, waits for that call's client, and is refused clearly when it cannot be
// placed, is not answered in time, or comes when too many already wait. Bounded in calls and asks.
#include <gtest/gtest.h>

#include <future>
#include <thread>

#include "gateway/bridge.hpp"

using namespace mcp;
using namespace mcp::gateway;
using namespace std::chrono_literals;

namespace {

json::object elicit_params() { return json::object{{"message", "who are you?"}, {"requestedSchema", json::object{{"type", "object"}}}}; }

// The asks the call's next round is given (waits for them, bounded).
InputRequests next_asks(PendingCall& call) {
  std::promise<InputRequests> got;
  EXPECT_TRUE(call.next([&](bool ended, InputRequests asks) {
    EXPECT_FALSE(ended);
    got.set_value(std::move(asks));
  }));
  auto f = got.get_future();
  EXPECT_EQ(f.wait_for(10s), std::future_status::ready);
  return f.get();
}

}  // namespace

TEST(BridgeRouting, AnUpstreamRequestReachesTheOneCallInFlightAndGetsItsAnswer) {
  Bridge bridge("up");
  auto call = bridge.begin();
  ASSERT_TRUE(call);
  auto asked = std::async(std::launch::async, [&] {
    return bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 10s);
  });
  auto asks = next_asks(**call);
  ASSERT_EQ(asks.size(), 1u);
  const auto& [key, request] = *asks.begin();
  EXPECT_EQ(request.method, "elicitation/create");
  EXPECT_EQ(request.params->at("message"), "who are you?");
  EXPECT_EQ((*call)->awaiting(), std::vector<std::string>{key});
  (*call)->answer(key, json::value(json::object{{"action", "accept"}, {"content", json::object{{"name", "ada"}}}}));
  auto answer = asked.get();
  ASSERT_TRUE(answer) << answer.error().message;
  EXPECT_EQ(answer->at("content").at("name"), "ada");
  EXPECT_TRUE((*call)->awaiting().empty());
}

TEST(BridgeRouting, ARequestThatCannotBePlacedIsRefusedNotGuessed) {
  Bridge bridge("up");
  auto none = bridge.ask("sampling/createMessage", {}, CancellationToken{}, 1s);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no call of up is in flight"), std::string::npos) << none.error().message;

  auto a = bridge.begin();
  auto b = bridge.begin();
  ASSERT_TRUE(a && b);
  auto two = bridge.ask("sampling/createMessage", {}, CancellationToken{}, 1s);
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().message.find("2 calls of up are in flight"), std::string::npos) << two.error().message;

  // An ended call does not count: the other is the one.
  (*a)->end();
  auto asked = std::async(std::launch::async, [&] { return bridge.ask("sampling/createMessage", {}, CancellationToken{}, 10s); });
  auto asks = next_asks(**b);
  ASSERT_EQ(asks.size(), 1u);
  (*b)->answer(asks.begin()->first, json::value(json::object{{"role", "assistant"}}));
  EXPECT_TRUE(asked.get());
}

TEST(BridgeRouting, AnUnansweredRequestTimesOutAndACancelOrTheCallsEndReleasesIt) {
  Bridge bridge("up");
  auto call = bridge.begin();
  ASSERT_TRUE(call);
  auto late = bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 100ms);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, error_code::kRequestTimeout);
  EXPECT_NE(late.error().message.find("did not answer elicitation/create within 100 ms"), std::string::npos);

  CancellationToken cancel;
  auto cancelled = std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), cancel, 60s); });
  (void)next_asks(**call);  // it is waiting
  cancel.cancel("the upstream gave up");
  auto c = cancelled.get();
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, error_code::kRequestCancelled) << c.error().message;

  auto ended = std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 60s); });
  (void)next_asks(**call);
  (*call)->end();
  auto e = ended.get();
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("has ended"), std::string::npos) << e.error().message;
}

TEST(BridgeRouting, TheCallsEndReachesAWaitingRoundAndAFinishedCallIsForgotten) {
  Bridge bridge("up");
  auto call = bridge.begin();
  ASSERT_TRUE(call);
  std::promise<bool> got;
  ASSERT_TRUE((*call)->next([&](bool ended, InputRequests asks) {
    EXPECT_TRUE(asks.empty());
    got.set_value(ended);
  }));
  // A second request continuing the same call (a replayed retry) is turned away, not queued.
  EXPECT_FALSE((*call)->next([](bool, InputRequests) { ADD_FAILURE() << "a second continuation ran"; }));
  (*call)->end();
  EXPECT_TRUE(got.get_future().get());
  EXPECT_EQ(bridge.find((*call)->id()), *call);
  bridge.finish((*call)->id());
  EXPECT_EQ(bridge.find((*call)->id()), nullptr);
  EXPECT_EQ(bridge.find("not-an-id"), nullptr);
}

TEST(BridgeRouting, FloodsOfCallsAndOfAsksHitTheirLimits) {
  Bridge bridge("up");
  std::vector<std::shared_ptr<PendingCall>> calls;
  for (std::size_t i = 0; i < Bridge::kMaxCalls; ++i) {
    auto c = bridge.begin();
    ASSERT_TRUE(c) << i;
    calls.push_back(*c);
  }
  auto over = bridge.begin();
  ASSERT_FALSE(over);
  EXPECT_NE(over.error().message.find("calls are already in flight"), std::string::npos) << over.error().message;
  // A finished call frees its place.
  bridge.finish(calls.back()->id());
  calls.pop_back();
  EXPECT_TRUE(bridge.begin());

  // One call: its asks beyond kMaxAsks are refused while the first wait.
  auto call = std::make_shared<PendingCall>("one");
  std::vector<std::future<Result<json::value>>> waiting;
  for (std::size_t i = 0; i < PendingCall::kMaxAsks; ++i) {
    waiting.push_back(std::async(std::launch::async, [call] { return call->ask(InputRequest::list_roots(), CancellationToken{}, 60s); }));
  }
  std::size_t seen = 0;
  while (seen < PendingCall::kMaxAsks) seen += next_asks(*call).size();
  auto refused = call->ask(InputRequest::list_roots(), CancellationToken{}, 60s);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("already wait for the client"), std::string::npos) << refused.error().message;
  call->end();
  for (auto& w : waiting) EXPECT_FALSE(w.get());
}

TEST(BridgeRouting, AnswersNobodyCameBackForAreKeptOnlyUpToTheirLimit) {
  // Each ended call not taken by its client holds its answer: a client that never comes back
  // must not make the gateway keep answers without end.
  Bridge bridge("up");
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < Bridge::kMaxUnclaimed + 10; ++i) {
    auto c = bridge.begin();
    ASSERT_TRUE(c);
    (*c)->end();
    ids.push_back((*c)->id());
  }
  ASSERT_TRUE(bridge.begin());  // sweeps
  EXPECT_EQ(bridge.find(ids.front()), nullptr);
  EXPECT_NE(bridge.find(ids.back()), nullptr);
  std::size_t kept = 0;
  for (const auto& id : ids) kept += bridge.find(id) ? 1 : 0;
  EXPECT_EQ(kept, Bridge::kMaxUnclaimed);
}

TEST(BridgeRouting, ARequestThatNamesItsCallGoesThereHoweverManyAreInFlight) {
  // A 2026-07-28 upstream's input requests are answered under the call's own token.
  Bridge bridge("up");
  CancellationToken mine;
  auto other = bridge.begin();
  auto call = bridge.begin(mine);
  ASSERT_TRUE(other && call);
  auto asked = std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), mine, 10s); });
  auto asks = next_asks(**call);
  ASSERT_EQ(asks.size(), 1u);
  (*call)->answer(asks.begin()->first, json::value(json::object{{"action", "decline"}}));
  auto answer = asked.get();
  ASSERT_TRUE(answer) << answer.error().message;
  EXPECT_EQ(answer->at("action"), "decline");
  EXPECT_TRUE((*other)->awaiting().empty());
}

TEST(BridgeRouting, AClientThatNeverAnswersEndsItsCallAtTheUpstream) {
  Bridge bridge("up");
  CancellationToken upstream;
  auto call = bridge.begin(upstream);
  ASSERT_TRUE(call);
  auto r = bridge.ask("sampling/createMessage", {}, upstream, 50ms);
  ASSERT_FALSE(r);
  EXPECT_TRUE(upstream.cancelled()) << "the upstream's request for the abandoned call goes on";
  EXPECT_NE(upstream.reason().find("did not answer sampling/createMessage"), std::string::npos) << upstream.reason();
}

TEST(BridgeRouting, AnUnansweredRequestIsAskedAgainInTheNextRound) {
  Bridge bridge("up");
  auto call = bridge.begin();
  ASSERT_TRUE(call);
  auto asked = std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 10s); });
  auto first = next_asks(**call);
  ASSERT_EQ(first.size(), 1u);
  (*call)->ask_again();  // a retry that carried no answer
  auto again = next_asks(**call);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again.begin()->first, first.begin()->first);
  (*call)->answer(again.begin()->first, json::value(json::object{{"action", "cancel"}}));
  EXPECT_TRUE(asked.get());
}
