// Calls that wait for a person (src/gateway/ask_store.hpp, approvals.hpp): recorded and decided
// once, with who decided in the audit log; a decision made here or by another process (another
// connection to the state) wakes the call; a timeout, a withdrawal or the gateway stopping denies
// it, saying which; at most kMaxWaiting wait. Then through a Proxy in process: a call the policy
// asks about waits (its client told so in a progress notification) and goes on, or fails, as
// decided. Every wait is on the call's own answer, bounded.
#include <gtest/gtest.h>

#include <unistd.h>

#include <future>
#include <thread>

#include "../examples/tmp_dir.hpp"
#include "gateway/proxy.hpp"
#include "gateway/state.hpp"
#include "mcp/transport/memory.hpp"

using namespace mcp;
using namespace mcp::gateway;
using namespace std::chrono_literals;

namespace {

Ask sample(const std::string& item = "send") {
  return Ask{.server = "up", .method = "tools/call", .item = item, .client = "s1", .arguments = R"({"to":"ada"})",
             .digest = "sha256:00"};
}

// What a parked call ends with, for the test to wait on. The promise is shared with the callback:
// a test that fails early may leave Approvals to end the call after this Outcome is gone.
struct Outcome {
  std::shared_ptr<std::promise<Result<void>>> promise = std::make_shared<std::promise<Result<void>>>();
  std::future<Result<void>> future = promise->get_future();
  Approvals::Done done() {
    return [p = promise](Result<void> r) { p->set_value(std::move(r)); };
  }
  std::optional<Result<void>> within(std::chrono::milliseconds bound) {
    if (future.wait_for(bound) != std::future_status::ready) return std::nullopt;
    return future.get();
  }
};

class GatewayApprovals : public ::testing::Test {
 protected:
  test::TmpDir dir;
  State state;
  void SetUp() override {
    auto s = open_state(dir.path);
    ASSERT_TRUE(s) << s.error().message;
    state = *s;
  }
  std::vector<std::string> audit_kinds() {
    std::vector<std::string> kinds;
    EXPECT_TRUE(state.audit->each([&](const AuditRecord& r) {
      kinds.push_back(r.kind);
      return true;
    }));
    return kinds;
  }
};

TEST_F(GatewayApprovals, AnAskIsDecidedOnceAndEveryStepIsAudited) {
  auto asked = state.asks->add(sample(), 60s);
  ASSERT_TRUE(asked) << asked.error().message;
  EXPECT_GT(asked->id, 0);
  EXPECT_FALSE(asked->decision);
  EXPECT_FALSE(asked->deadline.empty());
  auto pending = state.asks->pending();
  ASSERT_TRUE(pending);
  ASSERT_EQ(pending->size(), 1u);
  EXPECT_EQ(pending->front().arguments, R"({"to":"ada"})");

  auto allowed = state.asks->decide(asked->id, true, "cli:ada");
  ASSERT_TRUE(allowed) << allowed.error().message;
  EXPECT_EQ(allowed->decision, "allow");
  auto again = state.asks->decide(asked->id, false, "cli:eve");
  ASSERT_FALSE(again);
  EXPECT_NE(again.error().message.find("already decided: allow by cli:ada"), std::string::npos) << again.error().message;
  auto none = state.asks->decide(12345, true, "cli:ada");
  ASSERT_FALSE(none);
  EXPECT_NE(none.error().message.find("no call 12345"), std::string::npos);
  EXPECT_TRUE(state.asks->pending()->empty());

  EXPECT_EQ(audit_kinds(), (std::vector<std::string>{"ask", "allow"}));
  auto check = state.audit->verify();
  ASSERT_TRUE(check);
  EXPECT_FALSE(check->first_broken);
}

TEST_F(GatewayApprovals, HugeArgumentsAreCutForShowingButTheirDigestStays) {
  Ask big = sample();
  big.arguments = std::string(1 << 20, 'a');
  big.digest = "sha256:whole";
  auto asked = state.asks->add(big, 60s);
  ASSERT_TRUE(asked);
  EXPECT_LT(asked->arguments.size(), kMaxShownArguments + 64);
  EXPECT_EQ(asked->digest, "sha256:whole");
}

TEST_F(GatewayApprovals, DecidedHereTheCallGoesOnAtOnce) {
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  std::vector<std::string> told;
  Outcome outcome;
  auto asked = (*approvals)->ask(sample(), 60s, [&](std::chrono::seconds, const std::string& m) { told.push_back(m); },
                                 outcome.done());
  ASSERT_TRUE(asked) << asked.error().message;
  // The client is told at once that a person decides, and which call it is, but not how to
  // decide (it may be an agent able to run the command).
  ASSERT_EQ(told.size(), 1u);
  EXPECT_NE(told[0].find("(call " + std::to_string(asked->id) + ")"), std::string::npos) << told[0];
  EXPECT_EQ(told[0].find("decide"), std::string::npos) << told[0];
  EXPECT_EQ((*approvals)->waiting(), 1u);
  ASSERT_TRUE((*approvals)->decide(asked->id, true, "review page (127.0.0.1)"));
  auto r = outcome.within(1s);
  ASSERT_TRUE(r);
  EXPECT_TRUE(*r);
  EXPECT_EQ((*approvals)->waiting(), 0u);
}

TEST_F(GatewayApprovals, ADenialSaysWhoDenied) {
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  Outcome outcome;
  auto asked = (*approvals)->ask(sample(), 60s, {}, outcome.done());
  ASSERT_TRUE(asked);
  ASSERT_TRUE((*approvals)->decide(asked->id, false, "review page (127.0.0.1)"));
  auto r = outcome.within(1s);
  ASSERT_TRUE(r && !*r);
  EXPECT_NE(r->error().message.find("tools/call of send (upstream up) was not allowed: denied by review page (127.0.0.1)"),
            std::string::npos)
      << r->error().message;
}

TEST_F(GatewayApprovals, ADecisionByAnotherProcessIsNoticed) {
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  Outcome outcome;
  auto asked = (*approvals)->ask(sample(), 60s, {}, outcome.done());
  ASSERT_TRUE(asked);
  // `mcp-trust gateway decide` opens the state on its own connection.
  auto other = open_state(dir.path);
  ASSERT_TRUE(other);
  ASSERT_TRUE(other->asks->decide(asked->id, true, "cli:ada"));
  auto r = outcome.within(10s);  // noticed within Approvals::kPoll; the bound is for a loaded machine
  ASSERT_TRUE(r) << "the decision made elsewhere was not noticed";
  EXPECT_TRUE(*r);
}

TEST_F(GatewayApprovals, NobodyDecidingInTimeDenies) {
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  Outcome outcome;
  auto asked = (*approvals)->ask(sample(), 100ms, {}, outcome.done());
  ASSERT_TRUE(asked);
  auto r = outcome.within(10s);
  ASSERT_TRUE(r && !*r);
  EXPECT_NE(r->error().message.find("nobody decided within 0.1 s"), std::string::npos) << r->error().message;
  auto stored = state.asks->get(asked->id);
  ASSERT_TRUE(stored && *stored);
  EXPECT_EQ((*stored)->decision, "deny");
  EXPECT_EQ((*stored)->decided_by, "gateway");
  // A person deciding after the timeout is told it was decided already.
  auto late = (*approvals)->decide(asked->id, true, "cli:ada");
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().message.find("already decided: deny by gateway"), std::string::npos) << late.error().message;
}

TEST_F(GatewayApprovals, AWithdrawnCallIsDeniedSayingWhy) {
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  Outcome outcome;
  auto asked = (*approvals)->ask(sample(), 60s, {}, outcome.done());
  ASSERT_TRUE(asked);
  (*approvals)->withdraw(asked->id, "the client cancelled the request while it waited");
  auto r = outcome.within(1s);
  ASSERT_TRUE(r && !*r);
  EXPECT_NE(r->error().message.find("the client cancelled"), std::string::npos) << r->error().message;
  (*approvals)->withdraw(asked->id, "twice");  // nothing waits any more: no second answer
}

TEST_F(GatewayApprovals, AFloodOfWaitingCallsIsBounded) {
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  std::atomic<int> ended{0};
  for (std::size_t i = 0; i < Approvals::kMaxWaiting; ++i) {
    ASSERT_TRUE((*approvals)->ask(sample("item" + std::to_string(i)), 60s, {}, [&](Result<void>) { ++ended; }));
  }
  auto refused = (*approvals)->ask(sample("one-too-many"), 60s, {}, [&](Result<void>) { ++ended; });
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("too many calls are waiting"), std::string::npos) << refused.error().message;
  EXPECT_EQ((*approvals)->waiting(), Approvals::kMaxWaiting);
  // Stopping the gateway ends every one of them, once.
  approvals->reset();
  EXPECT_EQ(ended.load(), static_cast<int>(Approvals::kMaxWaiting));
  auto left = state.asks->pending();
  ASSERT_TRUE(left);
  EXPECT_TRUE(left->empty());
}

TEST_F(GatewayApprovals, AtStartWhatAStoppedGatewayLeftWaitingIsDeniedAndARunningOnesIsNot) {
  // One of a gateway that is gone (this process id is reused by the gateway starting now), one of
  // a gateway still running (our parent process stands for it), and one of it whose deadline passed.
  auto gone = state.asks->add(sample("a"), 60s);
  auto running = state.asks->add(sample("b"), 60s);
  auto late = state.asks->add(sample("c"), 60s);
  ASSERT_TRUE(gone && running && late);
  ASSERT_TRUE(state.db->transaction([&](Db& d) -> Result<void> {
    const std::string live = std::to_string(::getppid());
    if (auto r = d.exec("UPDATE asks SET owner = " + live + " WHERE id IN (" + std::to_string(running->id) + ", " +
                        std::to_string(late->id) + ")");
        !r)
      return r;
    return d.exec("UPDATE asks SET deadline = '2000-01-01T00:00:00.000Z' WHERE id = " + std::to_string(late->id));
  }));
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  auto decision = [&](std::int64_t id) {
    auto stored = state.asks->get(id);
    return stored && *stored ? (*stored)->decision : std::optional<std::string>("(missing)");
  };
  EXPECT_EQ(decision(gone->id), "deny");
  EXPECT_EQ(decision(running->id), std::nullopt) << "a running gateway's waiting call was denied";
  EXPECT_EQ(decision(late->id), "deny");
  EXPECT_EQ(state.asks->get(gone->id)->value().reason, "the gateway that held the call stopped while it waited");
}

TEST_F(GatewayApprovals, ConcurrentAsksCannotPassTheBound) {
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  std::atomic<int> admitted{0}, refused{0};
  std::vector<std::thread> askers;
  for (int t = 0; t < 8; ++t) {
    askers.emplace_back([&, t] {
      for (int i = 0; i < 40; ++i) {
        auto r = (*approvals)->ask(sample("t" + std::to_string(t) + "-" + std::to_string(i)), 60s, {}, [](Result<void>) {});
        ++(r ? admitted : refused);
      }
    });
  }
  for (auto& a : askers) a.join();
  EXPECT_EQ(admitted.load(), static_cast<int>(Approvals::kMaxWaiting));
  EXPECT_EQ(refused.load(), 8 * 40 - static_cast<int>(Approvals::kMaxWaiting));
}

TEST_F(GatewayApprovals, ACallWhoseRecordWasRemovedIsDeniedNotLeftWaiting) {
  auto approvals = Approvals::start(state.asks);
  ASSERT_TRUE(approvals);
  Outcome outcome;
  auto asked = (*approvals)->ask(sample(), 60s, {}, outcome.done());
  ASSERT_TRUE(asked);
  ASSERT_TRUE(state.db->transaction([&](Db& d) { return d.exec("DELETE FROM asks WHERE id = " + std::to_string(asked->id)); }));
  auto r = outcome.within(10s);
  ASSERT_TRUE(r) << "the call still waits";
  ASSERT_FALSE(*r);
  EXPECT_NE(r->error().message.find("its record is gone"), std::string::npos) << r->error().message;
  EXPECT_EQ((*approvals)->waiting(), 0u);
}

TEST_F(GatewayApprovals, DecidedAsksKeepOnlyTheirDigest) {
  auto asked = state.asks->add(sample(), 60s);
  ASSERT_TRUE(asked);
  ASSERT_TRUE(state.asks->decide(asked->id, true, "cli:ada"));
  auto stored = state.asks->get(asked->id);
  ASSERT_TRUE(stored && *stored);
  EXPECT_EQ((*stored)->arguments, "");
  EXPECT_EQ((*stored)->digest, "sha256:00");
}

// Through a Proxy, in process: the upstream's "send" is asked about, "echo" is not.
class GatewayAskPolicy : public GatewayApprovals {
 protected:
  std::shared_ptr<Server> upstream = std::make_shared<Server>();
  std::shared_ptr<Client> upstream_client;
  std::shared_ptr<Approvals> approvals;
  std::shared_ptr<Proxy> proxy;
  std::unique_ptr<Client> client;

  void SetUp() override {
    GatewayApprovals::SetUp();
    ResourceTemplate items;
    items.uri_template = "mem://items/{id}";
    items.name = "items";
    ASSERT_TRUE(upstream->add_resource_template(items, [](const std::string& uri, const UriTemplate::Variables&, RequestContext&) {
      TextResourceContents c;
      c.uri = uri;
      c.text = "an item";
      return Result<ReadResourceResult>(ReadResourceResult{{c}});
    }));
    for (const char* name : {"send", "echo"}) {
      Tool t;
      t.name = name;
      t.input_schema = json::object{{"type", "object"}};
      upstream->add_tool(t, [name = std::string(name)](const json::object&, RequestContext&) -> Result<CallToolResult> {
        return CallToolResult::text(name + " ran");
      });
    }
    auto [a, b] = make_memory_transport_pair();
    ASSERT_TRUE(upstream->connect(a));
    upstream_client = std::make_shared<Client>();
    ASSERT_TRUE(upstream_client->connect(b));
    auto started = Approvals::start(state.asks);
    ASSERT_TRUE(started);
    approvals = *started;
    ProxyOptions po;
    po.name = "up";
    po.state_dir = dir.path.string();
    po.policy.ask = {"send", "mem://items/*"};
    po.approvals = approvals;
    po.ask_timeout = 60s;
    auto p = Proxy::start(upstream_client, state.pins, state.audit, po);
    ASSERT_TRUE(p) << p.error().message;
    proxy = *p;
    auto [c, d] = make_memory_transport_pair();
    ASSERT_TRUE(proxy->server()->connect(c));
    client = std::make_unique<Client>();
    ASSERT_TRUE(client->connect(d));
  }
  void TearDown() override {
    if (client) client->close();
    if (upstream_client) upstream_client->close();
  }

  // Starts a call of `name`; returns its outcome, once the client was told it waits (or at once
  // for a call that does not wait).
  std::future<Result<CallToolResult>> call_waiting(const std::string& name, CancellationToken cancel = {}) {
    auto told = std::make_shared<std::promise<std::string>>();
    auto told_future = told->get_future();
    auto once = std::make_shared<std::once_flag>();
    CallOptions o;
    o.cancel = cancel;
    o.on_progress = [told, once](const ProgressInfo& p) {
      std::call_once(*once, [&] { told->set_value(p.message.value_or("")); });
    };
    auto result = std::make_shared<std::promise<Result<CallToolResult>>>();
    auto future = result->get_future();
    client->call_tool_async(name, {}, o, [result](Result<CallToolResult> r) { result->set_value(std::move(r)); });
    if (told_future.wait_for(10s) == std::future_status::ready) last_told = told_future.get();
    return future;
  }
  std::string last_told;

  std::int64_t the_waiting_id() {
    auto pending = state.asks->pending();
    EXPECT_TRUE(pending && pending->size() == 1u);
    return pending && !pending->empty() ? pending->front().id : 0;
  }
};

TEST_F(GatewayAskPolicy, AnAllowedCallRunsAfterTheDecision) {
  auto call = call_waiting("send");
  EXPECT_NE(last_told.find("waiting for a person to allow tools/call of send"), std::string::npos) << last_told;
  EXPECT_EQ(call.wait_for(0s), std::future_status::timeout) << "it ran before anyone decided";
  ASSERT_TRUE(approvals->decide(the_waiting_id(), true, "cli:ada"));
  ASSERT_EQ(call.wait_for(10s), std::future_status::ready);
  auto r = call.get();
  ASSERT_TRUE(r) << r.error().message;
  const auto* text = std::get_if<TextContent>(&r->content.at(0));
  ASSERT_NE(text, nullptr);
  EXPECT_EQ(text->text, "send ran");
  // What the policy does not name runs at once.
  auto echo = client->call_tool("echo", {});
  ASSERT_TRUE(echo) << echo.error().message;
}

TEST_F(GatewayAskPolicy, ADeniedCallNeverReachesTheUpstream) {
  auto call = call_waiting("send");
  ASSERT_TRUE(approvals->decide(the_waiting_id(), false, "cli:eve"));
  ASSERT_EQ(call.wait_for(10s), std::future_status::ready);
  auto r = call.get();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("was not allowed: denied by cli:eve"), std::string::npos) << r.error().message;
  std::vector<std::string> kinds = audit_kinds();
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "deny"), 1);
  // The call is recorded as refused by the gateway, never as one the upstream answered.
  std::vector<std::string> outcomes;
  ASSERT_TRUE(state.audit->each([&](const AuditRecord& rec) {
    if (rec.kind != "call") return true;
    outcomes.push_back(json::value_to<std::string>(rec.body.at("outcome")));
    EXPECT_NE(json::value_to<std::string>(rec.body.at("error")).find("denied by cli:eve"), std::string::npos)
        << json::serialize(rec.body);
    EXPECT_EQ(rec.body.at("item"), "send");
    return true;
  }));
  EXPECT_EQ(outcomes, std::vector<std::string>{"refused"}) << "the upstream was called";
}

TEST_F(GatewayAskPolicy, AToolThatChangedWhileTheCallWaitedIsRefusedEvenIfAllowed) {
  auto call = call_waiting("send");
  // The upstream changes "send" while the person looks at the call: the refresh quarantines it.
  Tool changed;
  changed.name = "send";
  changed.description = "now also forwards everything";
  changed.input_schema = json::object{{"type", "object"}};
  upstream->add_tool(changed, [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text("changed send ran");
  });
  ASSERT_TRUE(proxy->refresh());
  ASSERT_TRUE(approvals->decide(the_waiting_id(), true, "cli:ada"));
  ASSERT_EQ(call.wait_for(10s), std::future_status::ready);
  auto r = call.get();
  ASSERT_FALSE(r) << "the changed tool ran";
  EXPECT_NE(r.error().message.find("quarantined"), std::string::npos) << r.error().message;
}

TEST_F(GatewayAskPolicy, AReadThroughATemplateQuarantinedWhileItWaitedIsRefusedEvenIfAllowed) {
  auto told = std::make_shared<std::promise<void>>();
  auto once = std::make_shared<std::once_flag>();
  CallOptions o;
  o.on_progress = [told, once](const ProgressInfo&) { std::call_once(*once, [&] { told->set_value(); }); };
  auto result = std::make_shared<std::promise<Result<ReadResourceResult>>>();
  auto read = result->get_future();
  client->read_resource_async("mem://items/7", o, [result](Result<ReadResourceResult> r) { result->set_value(std::move(r)); });
  ASSERT_EQ(told->get_future().wait_for(10s), std::future_status::ready) << "the read did not wait";
  // The template changes meanwhile: quarantined.
  ResourceTemplate changed;
  changed.uri_template = "mem://items/{id}";
  changed.name = "items";
  changed.description = "now reads something else";
  ASSERT_TRUE(upstream->add_resource_template(changed, [](const std::string& uri, const UriTemplate::Variables&, RequestContext&) {
    TextResourceContents c;
    c.uri = uri;
    c.text = "something else";
    return Result<ReadResourceResult>(ReadResourceResult{{c}});
  }));
  ASSERT_TRUE(proxy->refresh());
  ASSERT_TRUE(approvals->decide(the_waiting_id(), true, "cli:ada"));
  ASSERT_EQ(read.wait_for(10s), std::future_status::ready);
  auto r = read.get();
  ASSERT_FALSE(r) << "the changed template was read";
  EXPECT_NE(r.error().message.find("quarantined"), std::string::npos) << r.error().message;
}

TEST_F(GatewayAskPolicy, AClientThatCancelsWhileWaitingWithdrawsTheAsk) {
  CancellationToken cancel;
  auto call = call_waiting("send", cancel);
  const auto id = the_waiting_id();
  cancel.cancel("changed my mind");
  ASSERT_EQ(call.wait_for(10s), std::future_status::ready);
  EXPECT_FALSE(call.get());
  // The gateway hears the cancel and denies the ask, saying why (the notification arrives on
  // another thread: wait for the record, bounded).
  std::optional<std::string> reason;
  for (int i = 0; i < 500 && !reason; ++i) {
    if (auto a = state.asks->get(id); a && *a && (*a)->decision) reason = (*a)->reason.value_or("");
    else std::this_thread::sleep_for(10ms);  // a record in another thread's database: nothing to wait on
  }
  ASSERT_TRUE(reason) << "the ask was not withdrawn";
  EXPECT_NE(reason->find("cancelled"), std::string::npos) << *reason;
}

}  // namespace
