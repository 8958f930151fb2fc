// A server's requests to its client with the protocol types on both ends: the client's typed
// handlers (mcp/client/typed_handlers.hpp) in both revisions, a 2025-11-25 server's typed
// create_message / elicit / list_roots (mcp/server/typed_requests.hpp), and what each does with
// a request or an answer that does not fit its type.
#include <gtest/gtest.h>

#include <atomic>
#include <future>

#include "mcp/client/typed_handlers.hpp"
#include "mcp/server/server.hpp"
#include "mcp/server/typed_requests.hpp"
#include "mcp/transport/direct.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::make_tool;

namespace {

struct Linked {
  std::shared_ptr<Server> server = std::make_shared<Server>();
  std::unique_ptr<Client> client;
  explicit Linked(ClientOptions co) : client(std::make_unique<Client>(std::move(co))) {}
  void connect() {
    auto [a, b] = make_direct_transport_pair();
    ASSERT_TRUE(server->connect(a));
    auto init = client->connect(b);
    ASSERT_TRUE(init) << init.error().message;
  }
  // Connects, then has a tool's handler send one request to the client (`ask`) and returns the
  // error it failed with ("answered" if it did not fail); the call itself must succeed.
  template <class Ask>
  Error nested_error(Ask ask) {
    std::promise<Error> failed;
    server->add_tool(make_tool("nested"), [&](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
      auto r = ask(ctx);
      failed.set_value(r ? Error::internal("answered") : r.error());
      return CallToolResult::text("done");
    });
    connect();
    EXPECT_EQ(call("nested"), "done");
    return failed.get_future().get();
  }
  std::string call(const std::string& tool) {
    auto r = client->call_tool(tool, {});
    if (!r) return "error: " + r.error().message;
    if (r->content.empty()) return "(no content)";
    return std::get<TextContent>(r->content[0]).text;
  }
};

SamplingMessage user_says(std::string text) {
  SamplingMessage m;
  m.content = std::vector<SamplingMessageContentBlock>{TextContent{.text = std::move(text)}};
  return m;
}

std::string first_text(const OneOrMany<SamplingMessageContentBlock>& content) {
  const TextContent* t = content.empty() ? nullptr : std::get_if<TextContent>(&content[0]);
  return t ? t->text : "";
}

ElicitRequestFormParams name_form() {
  ElicitRequestFormParams form;
  form.message = "Your name?";
  form.requested_schema.properties = json::object{{"name", json::object{{"type", "string"}}}};
  return form;
}

// The client: every handler typed, each checking what it was given.
ClientOptions typed_client(std::string revision, std::atomic<int>& sampled) {
  ClientOptions co;
  co.protocol_version = std::move(revision);
  co.on_sampling = sampling_handler([&sampled](const CreateMessageRequestParams& p, const CancellationToken&) -> Result<CreateMessageResult> {
    ++sampled;
    if (p.max_tokens != 42 || p.messages.size() != 1) return fail(Error::invalid_params("unexpected sampling params"));
    CreateMessageResult r;
    r.model = "model-for-" + first_text(p.messages[0].content);
    r.content = std::vector<SamplingMessageContentBlock>{TextContent{.text = "Paris"}};
    r.stop_reason = std::string(stop_reason::kEndTurn);
    return r;
  });
  co.on_elicitation = elicitation_handler([](const ElicitRequestParams& p, const CancellationToken&) -> Result<ElicitResult> {
    const auto* form = std::get_if<ElicitRequestFormParams>(&p);
    if (!form || form->message != "Your name?") return fail(Error::invalid_params("expected the name form"));
    return ElicitResult{.action = ElicitAction::accept, .content = json::object{{"name", "Ada"}}};
  });
  co.on_roots = roots_handler([](const CancellationToken&) -> Result<ListRootsResult> {
    return ListRootsResult{.roots = {Root{.uri = "file:///work", .name = std::string("work")}}};
  });
  return co;
}

// Asks for all three through input_required (either revision: over 2025-11-25 the server asks
// the client itself), then reports what came back, read with input_response_as.
Result<CallToolResult> ask_all(RequestContext& ctx) {
  auto model = ctx.input_response_as<CreateMessageResult>("model");
  auto name = ctx.input_response_as<ElicitResult>("name");
  auto roots = ctx.input_response_as<ListRootsResult>("roots");
  if (!model || !name || !roots) return CallToolResult::text("unreadable answer");
  if (*model && *name && *roots) {
    const auto& r = (*roots)->roots;
    return CallToolResult::text((*model)->model + " " + first_text((*model)->content) + " " +
                                json::serialize((*name)->content.value_or(json::object{}).at("name")) + " " +
                                (r.empty() ? std::string("no roots") : r[0].uri));
  }
  CreateMessageRequestParams question;
  question.messages.push_back(user_says("capital"));
  question.max_tokens = 42;
  return ctx.input_required({{"model", InputRequest::create_message(to_json(question).as_object())},
                             {"name", InputRequest::elicit(to_json(ElicitRequestParams(name_form())).as_object())},
                             {"roots", InputRequest::list_roots()}});
}

class TypedClientHandlers : public ::testing::TestWithParam<std::string> {};

TEST_P(TypedClientHandlers, AnswerSamplingElicitationAndRootsInBothRevisions) {
  std::atomic<int> sampled = 0;
  Linked l(typed_client(GetParam(), sampled));
  l.server->add_tool(make_tool("ask_all"), [](const json::object&, RequestContext& ctx) { return ask_all(ctx); });
  l.connect();
  EXPECT_EQ(l.call("ask_all"), "model-for-capital Paris \"Ada\" file:///work");
  EXPECT_EQ(sampled.load(), 1);
}

INSTANTIATE_TEST_SUITE_P(Revisions, TypedClientHandlers, ::testing::Values("2025-11-25", "2026-07-28"));

TEST(TypedClientHandlers, ARequestThatDoesNotFitIsRefusedBeforeTheHandlerRuns) {
  std::atomic<int> sampled = 0;
  Linked l(typed_client("2025-11-25", sampled));
  // No maxTokens: a CreateMessageRequestParams requires it.
  const Error e = l.nested_error([](RequestContext& ctx) { return ctx.create_message(json::object{{"messages", json::array{}}}); });
  EXPECT_EQ(e.code, error_code::kInvalidParams);
  EXPECT_NE(e.message.find("sampling/createMessage"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("maxTokens"), std::string::npos) << e.message;
  EXPECT_EQ(sampled.load(), 0);
}

// ---- the server's typed requests (a 2025-11-25 session: a stateless request has no channel) ----

// A client answering in JSON, as a peer written in any language would.
ClientOptions json_client(json::value sampling_answer) {
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  co.on_sampling = [answer = std::move(sampling_answer)](const json::object& p, const CancellationToken&) -> Result<json::value> {
    if (p.at("maxTokens") != 7) return fail(Error::invalid_params("maxTokens"));
    return answer;
  };
  co.on_elicitation = [](const json::object& p, const CancellationToken&) -> Result<json::value> {
    return json::object{{"action", p.at("message") == "Your name?" ? "accept" : "decline"}, {"content", json::object{{"name", "Ada"}}}};
  };
  co.on_roots = [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::object{{"roots", json::array{json::object{{"uri", "file:///a"}}, json::object{{"uri", "file:///b"}}}}};
  };
  return co;
}

json::value good_sampling_answer() {
  return json::object{{"role", "assistant"}, {"content", json::object{{"type", "text"}, {"text", "hi"}}}, {"model", "m1"}};
}

CreateMessageRequestParams seven_tokens() {
  CreateMessageRequestParams p;
  p.messages.push_back(user_says("hello"));
  p.max_tokens = 7;
  return p;
}

TEST(TypedServerRequests, SamplingElicitationAndRootsComeBackTyped) {
  Linked l(json_client(good_sampling_answer()));
  l.server->add_tool(make_tool("typed"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto sampled = create_message(ctx, seven_tokens());
    if (!sampled) return fail(sampled.error());
    auto named = elicit(ctx, name_form());
    if (!named) return fail(named.error());
    auto roots = list_roots(ctx);
    if (!roots) return fail(roots.error());
    return CallToolResult::text(sampled->model + "/" + first_text(sampled->content) + "/" +
                                std::string(to_string(named->action)) + "/" + std::to_string(roots->roots.size()) + "/" +
                                roots->roots[1].uri);
  });
  l.connect();
  EXPECT_EQ(l.call("typed"), "m1/hi/accept/2/file:///b");
}

TEST(TypedServerRequests, TheAsynchronousFormsAnswerTyped) {
  Linked l(json_client(good_sampling_answer()));
  l.server->add_async_tool(make_tool("typed_async"), [](const json::object&, std::shared_ptr<RequestContext> ctx,
                                                        Reply<CallToolResult> reply) {
    create_message_async(*ctx, seven_tokens(), [ctx, reply](Result<CreateMessageResult> sampled) {
      if (!sampled) return void(reply(fail(sampled.error())));
      list_roots_async(*ctx, [reply, model = sampled->model](Result<ListRootsResult> roots) {
        if (!roots) return void(reply(fail(roots.error())));
        reply(CallToolResult::text(model + " " + std::to_string(roots->roots.size())));
      });
    });
  });
  l.connect();
  EXPECT_EQ(l.call("typed_async"), "m1 2");
}

TEST(TypedServerRequests, AnAnswerThatDoesNotFitItsTypeIsAnErrorNamingTheMember) {
  // No model: a CreateMessageResult requires it.
  Linked l(json_client(json::object{{"role", "assistant"}, {"content", json::object{{"type", "text"}, {"text", "hi"}}}}));
  const Error e = l.nested_error([](RequestContext& ctx) { return create_message(ctx, seven_tokens()); });
  EXPECT_EQ(e.code, error_code::kInternalError);
  EXPECT_NE(e.message.find("invalid sampling/createMessage result from the client"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("model"), std::string::npos) << e.message;
}

TEST(TypedServerRequests, ACapabilityTheClientDidNotDeclareFailsBeforeAnythingIsSent) {
  ClientOptions co;
  co.protocol_version = "2025-11-25";  // no handlers: nothing declared
  Linked l(std::move(co));
  EXPECT_EQ(l.nested_error([](RequestContext& ctx) { return elicit(ctx, name_form()); }).code, error_code::kMethodNotFound);
}

}  // namespace
