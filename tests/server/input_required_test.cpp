// Multi round-trip on the server (RequestContext::input_required; src/server/input_required.cpp):
// over 2026-07-28 the handler's request for input becomes an InputRequiredResult with a signed
// requestState, and the retry brings the answers; in a 2025-11-25 session the server asks the
// client itself and runs the handler again. One handler, both revisions, both handler kinds.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "mcp/protocol/input_required.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "server/raw_client.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::Connected;
using mcp::test::handshake;
using mcp::test::make_tool;
using mcp::test::params_with;
using mcp::test::RawClient;
using mcp::test::stateless_meta;
using mcp::test::text_of;

namespace {

json::object name_form() {
  return json::object{{"message", "Your name?"},
                      {"requestedSchema", json::object{{"type", "object"},
                                                       {"properties", json::object{{"name", json::object{{"type", "string"}}}}}}}};
}

// Asks for a name (round 1), then for a colour (round 2, its state saying so), then greets.
Result<CallToolResult> two_rounds(RequestContext& ctx) {
  const auto& state = ctx.request_state();
  const bool second = state && state->is_object() && state->as_object().contains("name");
  if (second) {
    if (const json::object* colour = ctx.input_response("colour")) {
      return CallToolResult::text("hello " + json::serialize(state->at("name")) + ", " +
                                  json::serialize(colour->at("content").at("colour")));
    }
  }
  if (const json::object* name = ctx.input_response("name"); name && !second) {
    return ctx.input_required({{"colour", InputRequest::elicit(name_form())}},
                              json::object{{"name", name->at("content").at("name")}});
  }
  return ctx.input_required({{"name", InputRequest::elicit(name_form())}});
}

std::shared_ptr<Server> mrtr_server(ServerOptions o = {}) {
  auto server = std::make_shared<Server>(o);
  server->add_tool(make_tool("greet"), [](const json::object&, RequestContext& ctx) { return two_rounds(ctx); });
  // The same, answering later from another thread.
  server->add_async_tool(make_tool("greet_async"), [](const json::object&, std::shared_ptr<RequestContext> ctx,
                                                      Reply<CallToolResult> reply) {
    std::thread([ctx, reply] { reply(two_rounds(*ctx)); }).detach();
  });
  server->add_tool(make_tool("roots_and_model"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    const json::object* roots = ctx.input_response("roots");
    const json::object* model = ctx.input_response("model");
    if (roots && model) return CallToolResult::text(json::serialize(roots->at("roots")) + " " + json::serialize(model->at("model")));
    return ctx.input_required(
        {{"roots", InputRequest::list_roots()},
         {"model", InputRequest::create_message(json::object{{"messages", json::array{}}, {"maxTokens", 5}})}});
  });
  server->add_tool(make_tool("never_satisfied"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    return ctx.input_required({{"again", InputRequest::elicit(name_form())}});
  });
  server->add_tool(make_tool("url_only"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    if (ctx.input_response("u")) return CallToolResult::text("consented");
    return ctx.input_required(
        {{"u", InputRequest::elicit(json::object{{"mode", "url"}, {"message", "Sign in"}, {"url", "https://example.com/x"}})}});
  });
  return server;
}

json::object all_caps() {
  return json::object{{"elicitation", json::object{}}, {"sampling", json::object{}}, {"roots", json::object{}}};
}

json::object call_params(std::string tool, json::object extra = {}, json::object caps = all_caps()) {
  extra["name"] = std::move(tool);
  extra["arguments"] = json::object{};
  return params_with(stateless_meta(std::move(caps)), std::move(extra));
}

json::object accept(json::object content) { return json::object{{"action", "accept"}, {"content", std::move(content)}}; }

std::string text_in(const json::value& result) { return std::string(result.at("content").at(0).at("text").as_string()); }

// ---- 2026-07-28: the InputRequiredResult and the retry ----

class StatelessInput : public ::testing::TestWithParam<const char*> {};

TEST_P(StatelessInput, TwoRoundsCompleteWithTheStateEachRoundCarried) {
  RawClient c(mrtr_server());
  auto r1 = c.call(method::kToolsCall, call_params(GetParam()));
  ASSERT_TRUE(r1) << r1.error().message;
  EXPECT_EQ(r1->at("resultType"), "input_required");
  auto read = input_required_from_json(r1->as_object());
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->input_requests.count("name"), 1u);
  EXPECT_EQ(read->input_requests.at("name").method, "elicitation/create");
  ASSERT_TRUE(read->request_state);

  auto r2 = c.call(method::kToolsCall,
                   call_params(GetParam(), {{"inputResponses", json::object{{"name", accept({{"name", "Ada"}})}}},
                                            {"requestState", *read->request_state}}));
  ASSERT_TRUE(r2) << r2.error().message;
  EXPECT_EQ(r2->at("resultType"), "input_required");
  auto second = input_required_from_json(r2->as_object());
  ASSERT_TRUE(second);
  ASSERT_EQ(second->input_requests.count("colour"), 1u);
  EXPECT_NE(second->request_state, read->request_state);

  auto r3 = c.call(method::kToolsCall,
                   call_params(GetParam(), {{"inputResponses", json::object{{"colour", accept({{"colour", "blue"}})}}},
                                            {"requestState", *second->request_state}}));
  ASSERT_TRUE(r3) << r3.error().message;
  EXPECT_EQ(r3->at("resultType"), "complete");
  EXPECT_EQ(text_in(*r3), "hello \"Ada\", \"blue\"");
}

INSTANTIATE_TEST_SUITE_P(BothHandlerKinds, StatelessInput, ::testing::Values("greet", "greet_async"));

TEST(StatelessInputState, AnAlteredStateIsRefusedBeforeTheHandlerRuns) {
  RawClient c(mrtr_server());
  auto r1 = c.call(method::kToolsCall, call_params("greet"));
  ASSERT_TRUE(r1);
  std::string state(r1->at("requestState").as_string());
  const json::object name_answer{{"name", accept({{"name", "Ada"}})}};
  // Any change: one character of the body, the tag, a suffix, another version.
  std::string flipped = state;
  flipped[5] = flipped[5] == 'A' ? 'B' : 'A';
  for (const std::string& bad : {flipped, state + "-TAMPERED", state.substr(0, state.size() - 2), "v2" + state.substr(2),
                                 std::string("not a state")}) {
    auto r = c.call(method::kToolsCall, call_params("greet", {{"inputResponses", name_answer}, {"requestState", bad}}));
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, error_code::kInvalidParams);
    EXPECT_NE(r.error().message.find("requestState refused"), std::string::npos) << r.error().message;
  }
}

TEST(StatelessInputState, AStateIsBoundToItsToolAndItsCaller) {
  auto server = mrtr_server();
  RawClient c(server);
  auto r1 = c.call(method::kToolsCall, call_params("greet"));
  ASSERT_TRUE(r1);
  const json::value state = r1->at("requestState");
  auto other_tool = c.call(method::kToolsCall, call_params("greet_async", {{"requestState", state}}));
  ASSERT_FALSE(other_tool);
  EXPECT_EQ(other_tool.error().code, error_code::kInvalidParams);

  // The same state from a connection that authenticated as someone else.
  RawClient other(server);
  other.server_session->set_identity("mallory");
  auto other_caller = other.call(method::kToolsCall, call_params("greet", {{"requestState", state}}));
  ASSERT_FALSE(other_caller);
  EXPECT_EQ(other_caller.error().code, error_code::kInvalidParams);
  // ...while its own caller may use it.
  auto same = c.call(method::kToolsCall, call_params("greet", {{"requestState", state}}));
  EXPECT_TRUE(same) << same.error().message;
}

TEST(StatelessInputState, ServersSharingAKeyAcceptEachOthersStatesAndOthersDoNot) {
  ServerOptions shared;
  shared.request_state_key = std::array<std::uint8_t, 32>{1, 2, 3};
  RawClient a(mrtr_server(shared));
  RawClient b(mrtr_server(shared));
  RawClient stranger(mrtr_server());
  auto r1 = a.call(method::kToolsCall, call_params("greet"));
  ASSERT_TRUE(r1);
  json::object retry{{"inputResponses", json::object{{"name", accept({{"name", "Ada"}})}}},
                     {"requestState", r1->at("requestState")}};
  auto on_b = b.call(method::kToolsCall, call_params("greet", retry));
  ASSERT_TRUE(on_b) << on_b.error().message;
  EXPECT_EQ(on_b->at("resultType"), "input_required");
  EXPECT_TRUE(on_b->at("inputRequests").as_object().contains("colour"));
  auto on_stranger = stranger.call(method::kToolsCall, call_params("greet", retry));
  ASSERT_FALSE(on_stranger);
  EXPECT_EQ(on_stranger.error().code, error_code::kInvalidParams);
}

TEST(StatelessInputState, AnExpiredStateIsRefused) {
  ServerOptions o;
  o.request_state_lifetime = std::chrono::seconds(-1);  // issued already expired
  RawClient c(mrtr_server(o));
  auto r1 = c.call(method::kToolsCall, call_params("greet"));
  ASSERT_TRUE(r1);
  auto r2 = c.call(method::kToolsCall, call_params("greet", {{"requestState", r1->at("requestState")}}));
  ASSERT_FALSE(r2);
  EXPECT_NE(r2.error().message.find("expired"), std::string::npos) << r2.error().message;
}

TEST(StatelessInputState, MalformedAnswersAreRefusedAndMissingOnesAskedAgain) {
  RawClient c(mrtr_server());
  auto not_object = c.call(method::kToolsCall, call_params("greet", {{"inputResponses", json::array{}}}));
  ASSERT_FALSE(not_object);
  EXPECT_EQ(not_object.error().code, error_code::kInvalidParams);
  auto bad_answer = c.call(method::kToolsCall, call_params("greet", {{"inputResponses", json::object{{"name", 12345}}}}));
  ASSERT_FALSE(bad_answer);
  EXPECT_NE(bad_answer.error().message.find("inputResponses[\"name\"]"), std::string::npos);
  // With the state, an answer is checked against the method it answers: an ElicitResult needs action.
  auto r1 = c.call(method::kToolsCall, call_params("greet"));
  ASSERT_TRUE(r1);
  auto wrong_shape = c.call(method::kToolsCall, call_params("greet", {{"inputResponses", json::object{{"name", json::object{{"x", 1}}}}},
                                                                      {"requestState", r1->at("requestState")}}));
  ASSERT_FALSE(wrong_shape);
  EXPECT_NE(wrong_shape.error().message.find("does not answer elicitation/create"), std::string::npos)
      << wrong_shape.error().message;
  // null answers, or answers under other keys: the handler asks again (extra keys are ignored).
  for (json::value responses : {json::value(nullptr), json::value(json::object{{"unrelated", accept({})}})}) {
    auto again = c.call(method::kToolsCall, call_params("greet", {{"inputResponses", responses}}));
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(again->at("resultType"), "input_required");
  }
}

TEST(StatelessInputState, AskingThroughAnUndeclaredCapabilityIsMinus32021NamingIt) {
  RawClient c(mrtr_server());
  auto r = c.call(method::kToolsCall, call_params("roots_and_model", {}, json::object{{"roots", json::object{}}}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMissingRequiredClientCapability);
  ASSERT_TRUE(r.error().data);
  EXPECT_EQ(r.error().data->at("requiredCapabilities"), (json::object{{"sampling", json::object{}}}));
  auto url = c.call(method::kToolsCall, call_params("url_only", {}, json::object{{"elicitation", json::object{}}}));
  ASSERT_FALSE(url);
  EXPECT_EQ(url.error().data->at("requiredCapabilities"),
            (json::object{{"elicitation", json::object{{"url", json::object{}}}}}));
}

TEST(StatelessInputState, ListsNeverAskForInput) {
  RawClient c(mrtr_server());
  auto r = c.call(method::kToolsList, params_with(stateless_meta(all_caps())));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->at("resultType"), "complete");
}

// ---- 2025-11-25: the server asks through the session, the handler runs again ----

ClientOptions answering_client(std::atomic<int>& asked) {
  ClientOptions co;
  co.on_elicitation = [&asked](const json::object& params, const CancellationToken&) -> Result<json::value> {
    (void)params;
    const bool colour = ++asked % 2 == 0;  // the handler asks for a name, then for a colour
    return json::value(accept(colour ? json::object{{"colour", "green"}} : json::object{{"name", "Bo"}}));
  };
  co.on_roots = [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::value(json::object{{"roots", json::array{json::object{{"uri", "file:///r"}}}}});
  };
  co.on_sampling = [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::value(json::object{{"role", "assistant"},
                                    {"content", json::object{{"type", "text"}, {"text", "hi"}}},
                                    {"model", "m"}});
  };
  return co;
}

// Our client against our server, both revisions: over 2025-11-25 the server asks through the
// session; over 2026-07-28 the client answers the InputRequiredResult with the same handlers and
// sends the call again. Either way the application sees one call and its handlers asked twice.
class BothRevisionsInput : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {};

TEST_P(BothRevisionsInput, TheHandlersAnswerAndTheCallCompletes) {
  const auto [protocol, tool] = GetParam();
  std::atomic<int> asked{0};
  ClientOptions co = answering_client(asked);
  co.protocol_version = protocol;
  Connected c(mrtr_server(), co);
  EXPECT_EQ(c.client->stateless(), std::string(protocol) == "2026-07-28");
  auto r = c.client->call_tool(tool);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "hello \"Bo\", \"green\"");
  EXPECT_EQ(asked.load(), 2);
}

// Client::call_tool_async: the same call without a waiting thread. Over 2026-07-28 the answer asks
// for input, so the rounds continue on the pool; either way `done` gets the final result once.
TEST_P(BothRevisionsInput, TheAsynchronousFormCompletesWithTheSameResult) {
  const auto [protocol, tool] = GetParam();
  std::atomic<int> asked{0};
  ClientOptions co = answering_client(asked);
  co.protocol_version = protocol;
  Connected c(mrtr_server(), co);
  std::promise<Result<CallToolResult>> answered;
  std::atomic<int> calls{0};
  c.client->call_tool_async(tool, {}, {}, [&](Result<CallToolResult> r) {
    if (++calls == 1) answered.set_value(std::move(r));
  });
  auto future = answered.get_future();
  ASSERT_EQ(future.wait_for(std::chrono::seconds(20)), std::future_status::ready);
  auto r = future.get();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "hello \"Bo\", \"green\"");
  EXPECT_EQ(asked.load(), 2);
  // An unknown tool's error comes back the same way.
  std::promise<Result<CallToolResult>> refused;
  c.client->call_tool_async("no_such_tool", {}, {}, [&](Result<CallToolResult> e) { refused.set_value(std::move(e)); });
  auto e = refused.get_future().get();
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("no_such_tool"), std::string::npos) << e.error().message;
  EXPECT_EQ(calls.load(), 1);
}

INSTANTIATE_TEST_SUITE_P(BothHandlerKinds, BothRevisionsInput,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"),
                                            ::testing::Values("greet", "greet_async")));

TEST(SessionInputRounds, SeveralRequestsInOneRoundAllGoOut) {
  std::atomic<int> asked{0};
  Connected c(mrtr_server(), handshake(answering_client(asked)));
  auto r = c.client->call_tool("roots_and_model");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "[{\"uri\":\"file:///r\"}] \"m\"");
}

TEST(SessionInputRounds, AHandlerThatNeverHasEnoughIsStoppedAtTheLimit) {
  ServerOptions o;
  o.max_input_rounds = 3;
  std::atomic<int> asked{0};
  Connected c(mrtr_server(o), handshake(answering_client(asked)));
  auto r = c.client->call_tool("never_satisfied");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInternalError);
  EXPECT_NE(r.error().message.find("max_input_rounds"), std::string::npos) << r.error().message;
  EXPECT_EQ(asked.load(), 3);
}

TEST(SessionInputRounds, AClientWithoutTheCapabilityIsNotAsked) {
  Connected c(mrtr_server(), handshake());  // declares nothing
  auto r = c.client->call_tool("greet");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMissingRequiredClientCapability);
}

// Over 2026-07-28 the client stops a server that never has enough at its own limit.
TEST(ClientInputRounds, AServerThatNeverHasEnoughIsStoppedAtTheClientsLimit) {
  std::atomic<int> asked{0};
  ClientOptions co = answering_client(asked);
  co.max_input_rounds = 4;
  Connected c(mrtr_server(), co);
  ASSERT_TRUE(c.client->stateless());
  auto r = c.client->call_tool("never_satisfied");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("max_input_rounds"), std::string::npos) << r.error().message;
  EXPECT_EQ(asked.load(), 4);
}

TEST(ClientInputRounds, SeveralRequestsInOneRoundAreAllAnswered) {
  std::atomic<int> asked{0};
  Connected c(mrtr_server(), answering_client(asked));
  ASSERT_TRUE(c.client->stateless());
  auto r = c.client->call_tool("roots_and_model");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "[{\"uri\":\"file:///r\"}] \"m\"");
}
}  // namespace
