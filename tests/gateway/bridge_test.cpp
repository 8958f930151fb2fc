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

// The asks the call's next round is given (waits for them, bounded: none after 10 s is a failure
// and an empty set, never a wait forever). The promise is shared with the callback, which may
// still come after this returns.
InputRequests next_asks(PendingCall& call) {
  auto got = std::make_shared<std::promise<InputRequests>>();
  EXPECT_TRUE(call.next([got](bool ended, InputRequests asks) {
    EXPECT_FALSE(ended);
    got->set_value(std::move(asks));
  }));
  auto f = got->get_future();
  if (f.wait_for(10s) != std::future_status::ready) {
    ADD_FAILURE() << "the call's next round was given no asks within 10 s";
    return {};
  }
  return f.get();
}

// A forwarded call as the Proxy enters one, whose promotion the test can wait on.
class Probe final : public Flight {
 public:
  explicit Probe(CancellationToken upstream = {}) : Flight(std::move(upstream)), made_(promise_.get_future().share()) {}
  // The PendingCall the upstream's first request made of it (waits, bounded; nothing if none).
  std::shared_ptr<PendingCall> call() const {
    EXPECT_EQ(made_.wait_for(10s), std::future_status::ready) << "the call was never promoted";
    return made_.wait_for(0s) == std::future_status::ready ? made_.get() : nullptr;
  }
  int promotions() const { return promotions_.load(); }

 protected:
  void promoted(const std::shared_ptr<PendingCall>& call) override {
    if (promotions_.fetch_add(1) == 0) promise_.set_value(call);
  }

 private:
  std::promise<std::shared_ptr<PendingCall>> promise_;
  std::shared_future<std::shared_ptr<PendingCall>> made_;
  std::atomic<int> promotions_{0};
};

std::shared_ptr<Probe> enter(Bridge& bridge, CancellationToken upstream = {}) {
  auto probe = std::make_shared<Probe>(std::move(upstream));
  auto entered = bridge.enter(probe);
  EXPECT_TRUE(entered) << entered.error().message;
  return probe;
}

// The upstream answered the call, as Proxy::landed goes about it.
void land(Bridge& bridge, Probe& probe) {
  if (auto call = bridge.land(probe)) call->end();
}

}  // namespace

TEST(BridgeRouting, AnUpstreamRequestReachesTheOneCallInFlightAndGetsItsAnswer) {
  Bridge bridge("up");
  auto flight = enter(bridge);
  auto asked = std::async(std::launch::async, [&] {
    return bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 10s);
  });
  auto call = flight->call();
  ASSERT_TRUE(call);
  EXPECT_EQ(bridge.find(call->id()), call) << "a retry finds the call by its id";
  auto asks = next_asks(*call);
  ASSERT_EQ(asks.size(), 1u);
  const auto& [key, request] = *asks.begin();
  EXPECT_EQ(request.method, "elicitation/create");
  EXPECT_EQ(request.params->at("message"), "who are you?");
  EXPECT_EQ(call->awaiting(), std::vector<std::string>{key});
  call->answer(key, json::value(json::object{{"action", "accept"}, {"content", json::object{{"name", "ada"}}}}));
  auto answer = asked.get();
  ASSERT_TRUE(answer) << answer.error().message;
  EXPECT_EQ(answer->at("content").at("name"), "ada");
  EXPECT_TRUE(call->awaiting().empty());
}

TEST(BridgeRouting, ACallNobodyAsksAboutIsNeverPromotedAndLandsAlone) {
  // Most calls: the upstream answers without asking anything, and no PendingCall is made.
  Bridge bridge("up");
  auto flight = enter(bridge);
  EXPECT_EQ(bridge.land(*flight), nullptr) << "the caller answers its client itself";
  EXPECT_EQ(flight->promotions(), 0);
  EXPECT_EQ(flight->promote(bridge), nullptr) << "a landed call takes no more requests";
  auto late = bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 1s);
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().message.find("no call of up is in flight"), std::string::npos) << late.error().message;
}

TEST(BridgeRouting, TwoRequestsForOneCallPromoteItOnce) {
  Bridge bridge("up");
  CancellationToken token;
  auto flight = enter(bridge, token);
  auto first =
      std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), token, 10s); });
  auto second = std::async(std::launch::async, [&] { return bridge.ask("sampling/createMessage", {}, token, 10s); });
  auto call = flight->call();
  ASSERT_TRUE(call);
  std::size_t seen = 0;
  while (seen < 2) {
    auto asks = next_asks(*call);
    ASSERT_FALSE(asks.empty()) << seen << " of the two asks came";
    for (auto& [key, request] : asks) {
      ++seen;
      call->answer(key, json::value(json::object{{"action", "decline"}}));
    }
  }
  EXPECT_TRUE(first.get());
  EXPECT_TRUE(second.get());
  EXPECT_EQ(flight->promotions(), 1);
  land(bridge, *flight);
  EXPECT_TRUE(call->ended());
}

TEST(BridgeRouting, ARequestThatCannotBePlacedIsRefusedNotGuessed) {
  Bridge bridge("up");
  auto none = bridge.ask("sampling/createMessage", {}, CancellationToken{}, 1s);
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no call of up is in flight"), std::string::npos) << none.error().message;

  auto a = enter(bridge);
  auto b = enter(bridge);
  auto two = bridge.ask("sampling/createMessage", {}, CancellationToken{}, 1s);
  ASSERT_FALSE(two);
  EXPECT_NE(two.error().message.find("2 calls of up are in flight"), std::string::npos) << two.error().message;
  EXPECT_EQ(a->promotions() + b->promotions(), 0);

  // A landed call does not count: the other is the one.
  land(bridge, *a);
  auto asked = std::async(std::launch::async, [&] { return bridge.ask("sampling/createMessage", {}, CancellationToken{}, 10s); });
  auto call = b->call();
  ASSERT_TRUE(call);
  auto asks = next_asks(*call);
  ASSERT_EQ(asks.size(), 1u);
  call->answer(asks.begin()->first, json::value(json::object{{"role", "assistant"}}));
  EXPECT_TRUE(asked.get());
  EXPECT_EQ(a->promotions(), 0);
}

TEST(BridgeRouting, AnUnansweredRequestTimesOutAndACancelOrTheCallsEndReleasesIt) {
  Bridge bridge("up");
  auto flight = enter(bridge);
  auto late = bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 100ms);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, error_code::kRequestTimeout);
  EXPECT_NE(late.error().message.find("did not answer elicitation/create within 100 ms"), std::string::npos);
  auto call = flight->call();
  ASSERT_TRUE(call);

  CancellationToken cancel;
  auto cancelled = std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), cancel, 60s); });
  (void)next_asks(*call);  // it is waiting
  cancel.cancel("the upstream gave up");
  auto c = cancelled.get();
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error().code, error_code::kRequestCancelled) << c.error().message;

  auto ended = std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 60s); });
  (void)next_asks(*call);
  land(bridge, *flight);
  auto e = ended.get();
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("has ended"), std::string::npos) << e.error().message;
}

TEST(BridgeRouting, TheCallsEndReachesAWaitingRoundAndAFinishedCallIsForgotten) {
  Bridge bridge("up");
  auto flight = enter(bridge);
  auto call = flight->promote(bridge);
  ASSERT_TRUE(call);
  EXPECT_EQ(flight->promote(bridge), call) << "promoted once";
  std::promise<bool> got;
  ASSERT_TRUE(call->next([&](bool ended, InputRequests asks) {
    EXPECT_TRUE(asks.empty());
    got.set_value(ended);
  }));
  // A second request continuing the same call (a replayed retry) is turned away, not queued.
  EXPECT_FALSE(call->next([](bool, InputRequests) { ADD_FAILURE() << "a second continuation ran"; }));
  land(bridge, *flight);
  EXPECT_TRUE(got.get_future().get());
  EXPECT_EQ(bridge.find(call->id()), call);
  bridge.finish(call->id());
  EXPECT_EQ(bridge.find(call->id()), nullptr);
  EXPECT_EQ(bridge.find("not-an-id"), nullptr);
}

TEST(BridgeRouting, CallsLeaveInAnyOrderAndTheRestStayFindable) {
  // The calls in flight are kept unordered (one that leaves gives its place to the last): a call
  // that moved must still be the one its token names.
  Bridge bridge("up");
  std::vector<CancellationToken> tokens(4);
  std::vector<std::shared_ptr<Probe>> flights;
  for (const auto& t : tokens) flights.push_back(enter(bridge, t));
  land(bridge, *flights[1]);
  land(bridge, *flights[1]);  // twice: nothing more happens
  land(bridge, *flights[0]);
  auto unnamed = bridge.ask("sampling/createMessage", {}, CancellationToken{}, 1s);
  ASSERT_FALSE(unnamed);
  EXPECT_NE(unnamed.error().message.find("2 calls of up are in flight"), std::string::npos) << unnamed.error().message;
  for (std::size_t i : {3u, 2u}) {
    auto asked =
        std::async(std::launch::async, [&] { return bridge.ask("sampling/createMessage", {}, tokens[i], 10s); });
    auto call = flights[i]->call();
    ASSERT_TRUE(call) << i;
    auto asks = next_asks(*call);
    ASSERT_EQ(asks.size(), 1u);
    call->answer(asks.begin()->first, json::value(json::object{{"role", "assistant"}}));
    EXPECT_TRUE(asked.get()) << i;
    land(bridge, *flights[i]);
  }
  for (std::size_t i : {0u, 1u}) EXPECT_EQ(flights[i]->promotions(), 0) << i;
}

TEST(BridgeRouting, FloodsOfCallsAndOfAsksHitTheirLimits) {
  Bridge bridge("up");
  std::vector<std::shared_ptr<Probe>> flights;
  for (std::size_t i = 0; i < Bridge::kMaxCalls; ++i) {
    auto f = std::make_shared<Probe>();
    ASSERT_TRUE(bridge.enter(f)) << i;
    flights.push_back(f);
  }
  auto over = bridge.enter(std::make_shared<Probe>());
  ASSERT_FALSE(over);
  EXPECT_NE(over.error().message.find("calls are already in flight"), std::string::npos) << over.error().message;
  // A call that landed frees its place.
  land(bridge, *flights.back());
  flights.pop_back();
  EXPECT_TRUE(bridge.enter(std::make_shared<Probe>()));

  // One call: its asks beyond kMaxAsks are refused while the first wait.
  auto call = std::make_shared<PendingCall>("one");
  std::vector<std::future<Result<json::value>>> waiting;
  for (std::size_t i = 0; i < PendingCall::kMaxAsks; ++i) {
    waiting.push_back(std::async(std::launch::async, [call] { return call->ask(InputRequest::list_roots(), CancellationToken{}, 60s); }));
  }
  std::size_t seen = 0;
  while (seen < PendingCall::kMaxAsks) {
    const std::size_t n = next_asks(*call).size();
    ASSERT_GT(n, 0u) << seen << " asks came, of " << PendingCall::kMaxAsks;
    seen += n;
  }
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
    auto flight = enter(bridge);
    auto call = flight->promote(bridge);
    ASSERT_TRUE(call);
    land(bridge, *flight);
    ids.push_back(call->id());
  }
  ASSERT_TRUE(bridge.enter(std::make_shared<Probe>()));  // sweeps
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
  auto other = enter(bridge);
  auto flight = enter(bridge, mine);
  auto asked = std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), mine, 10s); });
  auto call = flight->call();
  ASSERT_TRUE(call);
  auto asks = next_asks(*call);
  ASSERT_EQ(asks.size(), 1u);
  call->answer(asks.begin()->first, json::value(json::object{{"action", "decline"}}));
  auto answer = asked.get();
  ASSERT_TRUE(answer) << answer.error().message;
  EXPECT_EQ(answer->at("action"), "decline");
  EXPECT_EQ(other->promotions(), 0);
}

TEST(BridgeRouting, AClientThatNeverAnswersEndsItsCallAtTheUpstream) {
  Bridge bridge("up");
  CancellationToken upstream;
  auto flight = enter(bridge, upstream);
  auto r = bridge.ask("sampling/createMessage", {}, upstream, 50ms);
  ASSERT_FALSE(r);
  EXPECT_TRUE(upstream.cancelled()) << "the upstream's request for the abandoned call goes on";
  EXPECT_NE(upstream.reason().find("did not answer sampling/createMessage"), std::string::npos) << upstream.reason();
}

TEST(BridgeRouting, AnUnansweredRequestIsAskedAgainInTheNextRound) {
  Bridge bridge("up");
  auto flight = enter(bridge);
  auto asked = std::async(std::launch::async, [&] { return bridge.ask("elicitation/create", elicit_params(), CancellationToken{}, 10s); });
  auto call = flight->call();
  ASSERT_TRUE(call);
  auto first = next_asks(*call);
  ASSERT_EQ(first.size(), 1u);
  call->ask_again();  // a retry that carried no answer
  auto again = next_asks(*call);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again.begin()->first, first.begin()->first);
  call->answer(again.begin()->first, json::value(json::object{{"action", "cancel"}}));
  EXPECT_TRUE(asked.get());
}
