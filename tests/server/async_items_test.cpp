// Asynchronous resource readers, template readers, prompt handlers and completers, through our
// client over the in-memory transport. Each kind is driven the same way (the typed tests): it
// answers later from any thread, holds no worker while it waits and needs none to start, answers
// once, and a dropped Reply or a throwing handler still answers. Then what each kind guarantees
// whichever way its handler runs: a template's variables, a prompt's required arguments and its
// availability checked before the handler, a completion capped at 100 values.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "server/tools.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Connected;
using mcp::test::Event;
using mcp::test::Workers;
using mcp::test::make_tool;

namespace {

// What a test makes an asynchronous handler do: it gets the context and the Reply, nothing else.
template <class Answer>
using Start = std::function<void(std::shared_ptr<RequestContext>, Reply<Answer>)>;

// One kind of item with an asynchronous handler, as the typed tests drive it: register `start` as
// its handler, ask for it as a client does, make an answer that carries a text, and read it back.
struct ResourceKind {
  using Answer = ReadResourceResult;
  static constexpr std::string_view kMethod = method::kResourcesRead;
  static void add(Server& s, Start<Answer> start) {
    Resource r;
    r.uri = "mem://a";
    r.name = "a";
    s.add_async_resource(std::move(r), [start](const std::string&, std::shared_ptr<RequestContext> ctx,
                                               Reply<Answer> reply) { start(std::move(ctx), std::move(reply)); });
  }
  static Answer answer(std::string text) {
    Answer a;
    a.contents.push_back(TextResourceContents{.uri = "mem://a", .text = std::move(text)});
    return a;
  }
  static Result<std::string> ask(Client& c) {
    auto r = c.read_resource("mem://a");
    if (!r) return fail(r.error());
    return text(*r);
  }
  static std::string text(const Answer& a) {
    const auto* t = a.contents.empty() ? nullptr : std::get_if<TextResourceContents>(&a.contents.front());
    return t ? t->text : "";
  }
};

struct TemplateKind {
  using Answer = ReadResourceResult;
  static constexpr std::string_view kMethod = method::kResourcesRead;
  static void add(Server& s, Start<Answer> start) {
    ResourceTemplate t;
    t.uri_template = "mem://items/{id}";
    t.name = "items";
    auto added = s.add_async_resource_template(
        std::move(t), [start](const std::string&, const UriTemplate::Variables&, std::shared_ptr<RequestContext> ctx,
                              Reply<Answer> reply) { start(std::move(ctx), std::move(reply)); });
    EXPECT_TRUE(added) << added.error().message;
  }
  static Answer answer(std::string text) { return ResourceKind::answer(std::move(text)); }
  static Result<std::string> ask(Client& c) {
    auto r = c.read_resource("mem://items/42");
    if (!r) return fail(r.error());
    return ResourceKind::text(*r);
  }
};

struct PromptKind {
  using Answer = GetPromptResult;
  static constexpr std::string_view kMethod = method::kPromptsGet;
  static void add(Server& s, Start<Answer> start) {
    Prompt p;
    p.name = "p";
    s.add_async_prompt(std::move(p), [start](const std::map<std::string, std::string>&,
                                             std::shared_ptr<RequestContext> ctx,
                                             Reply<Answer> reply) { start(std::move(ctx), std::move(reply)); });
  }
  static Answer answer(std::string text) {
    Answer a;
    a.messages.push_back(PromptMessage{.role = Role::user, .content = TextContent{.text = std::move(text)}});
    return a;
  }
  static Result<std::string> ask(Client& c) {
    auto r = c.get_prompt("p");
    if (!r) return fail(r.error());
    return text(*r);
  }
  static std::string text(const Answer& a) {
    const auto* t = a.messages.empty() ? nullptr : std::get_if<TextContent>(&a.messages.front().content);
    return t ? t->text : "";
  }
};

CompleteRequestParams complete_params() {
  CompleteRequestParams p;
  p.ref = PromptReference{.name = "p"};
  p.argument = CompletionArgument{.name = "who", .value = "a"};
  return p;
}

struct CompletionKind {
  using Answer = CompleteResult;
  static constexpr std::string_view kMethod = method::kCompletionComplete;
  static void add(Server& s, Start<Answer> start) {
    s.set_async_completer([start](const CompleteRequestParams&, std::shared_ptr<RequestContext> ctx,
                                  Reply<Answer> reply) { start(std::move(ctx), std::move(reply)); });
  }
  static Answer answer(std::string text) {
    Answer a;
    a.completion.values.push_back(std::move(text));
    return a;
  }
  static Result<std::string> ask(Client& c) {
    auto r = c.complete(complete_params());
    if (!r) return fail(r.error());
    return r->completion.values.empty() ? "" : r->completion.values.front();
  }
};

// Replies an asynchronous handler was given and has not used, for the test to answer with.
template <class Answer>
struct Held {
  std::mutex mu;
  std::vector<Reply<Answer>> replies;
  Event reached;  // `expected` replies are held
  std::size_t expected = 1;

  Start<Answer> start() {
    return [this](std::shared_ptr<RequestContext>, Reply<Answer> reply) {
      std::lock_guard l(mu);
      replies.push_back(std::move(reply));
      if (replies.size() == expected) reached.set();
    };
  }
  std::vector<Reply<Answer>> take() {
    std::vector<Reply<Answer>> taken;
    std::lock_guard l(mu);
    taken.swap(replies);
    return taken;
  }
};

Result<CallToolResult> echo(const json::object&, RequestContext&) { return CallToolResult::text("now"); }

template <class Kind>
class AsyncItem : public ::testing::Test {};

using Kinds = ::testing::Types<ResourceKind, TemplateKind, PromptKind, CompletionKind>;

struct KindNames {
  template <class Kind>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<Kind, ResourceKind>) return "Resource";
    if constexpr (std::is_same_v<Kind, TemplateKind>) return "Template";
    if constexpr (std::is_same_v<Kind, PromptKind>) return "Prompt";
    return "Completion";
  }
};

}  // namespace

TYPED_TEST_SUITE(AsyncItem, Kinds, KindNames);

TYPED_TEST(AsyncItem, AnswersLaterFromAnotherThread) {
  using Answer = typename TypeParam::Answer;
  Workers workers;
  Event started, go;
  auto server = std::make_shared<Server>();
  // The handler starts its work on a thread of its own and returns; the work answers once told to.
  TypeParam::add(*server, [&](std::shared_ptr<RequestContext>, Reply<Answer> reply) {
    workers.start([&go, reply] {
      EXPECT_TRUE(go.wait());
      EXPECT_TRUE(reply(TypeParam::answer("later")));
    });
    started.set();
  });
  Connected c(server);
  auto asked = std::async(std::launch::async, [&] { return TypeParam::ask(*c.client); });
  ASSERT_TRUE(started.wait());
  // The handler has returned without an answer: none can have reached the client yet.
  EXPECT_EQ(asked.wait_for(0s), std::future_status::timeout);
  go.set();
  auto r = asked.get();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "later");
}

TYPED_TEST(AsyncItem, HeldRepliesOccupyNoWorker) {
  // One worker per session; twenty requests wait unanswered while a blocking tool is still served:
  // they hold no thread. Then each is answered from this thread.
  ServerOptions so;
  so.session.max_workers = 1;
  auto server = std::make_shared<Server>(so);
  Held<typename TypeParam::Answer> held;
  held.expected = 20;
  TypeParam::add(*server, held.start());
  server->add_tool(make_tool("now"), echo);
  Connected c(server);
  std::vector<std::future<Result<std::string>>> asked;
  for (int i = 0; i < 20; ++i) {
    asked.push_back(std::async(std::launch::async, [&] { return TypeParam::ask(*c.client); }));
  }
  ASSERT_TRUE(held.reached.wait());
  auto now = c.client->call_tool("now");
  ASSERT_TRUE(now) << now.error().message;
  auto replies = held.take();
  for (const auto& reply : replies) EXPECT_TRUE(reply(TypeParam::answer("done")));
  for (auto& f : asked) {
    auto r = f.get();
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(*r, "done");
  }
}

TYPED_TEST(AsyncItem, StartsWithoutAWorker) {
  // The session's only worker is busy with a blocking tool: the asynchronous handler is still
  // started and answered, so it runs on the reader thread, not queued behind the worker.
  ServerOptions so;
  so.session.max_workers = 1;
  auto server = std::make_shared<Server>(so);
  Event busy, release;
  server->add_tool(make_tool("busy"), [&](const json::object&, RequestContext&) -> Result<CallToolResult> {
    busy.set();
    EXPECT_TRUE(release.wait());
    return CallToolResult::text("free");
  });
  TypeParam::add(*server, [](std::shared_ptr<RequestContext>, Reply<typename TypeParam::Answer> reply) {
    reply(TypeParam::answer("started"));
  });
  Connected c(server);
  auto blocking = std::async(std::launch::async, [&] { return c.client->call_tool("busy"); });
  ASSERT_TRUE(busy.wait());
  auto r = TypeParam::ask(*c.client);
  release.set();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "started");
  EXPECT_TRUE(blocking.get());
}

TYPED_TEST(AsyncItem, ADroppedReplyIsAnInternalError) {
  auto server = std::make_shared<Server>();
  TypeParam::add(*server, [](std::shared_ptr<RequestContext>, Reply<typename TypeParam::Answer>) {});
  Connected c(server);
  auto r = TypeParam::ask(*c.client);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInternalError);
  EXPECT_NE(r.error().message.find("without answering"), std::string::npos) << r.error().message;
}

TYPED_TEST(AsyncItem, OnlyTheFirstReplyIsSent) {
  auto server = std::make_shared<Server>();
  Held<typename TypeParam::Answer> held;
  TypeParam::add(*server, held.start());
  Connected c(server);
  auto asked = std::async(std::launch::async, [&] { return TypeParam::ask(*c.client); });
  ASSERT_TRUE(held.reached.wait());
  auto replies = held.take();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_TRUE(replies[0](TypeParam::answer("first")));
  EXPECT_FALSE(replies[0](TypeParam::answer("second")));
  EXPECT_FALSE(replies[0](fail(Error::internal("third"))));
  auto r = asked.get();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "first");
  // The session still works: no stray second answer for a later request to take as its own.
  EXPECT_TRUE(c.client->ping());
}

TYPED_TEST(AsyncItem, AThrowingHandlerIsAnsweredWithAClearError) {
  auto server = std::make_shared<Server>();
  TypeParam::add(*server, [](std::shared_ptr<RequestContext>, Reply<typename TypeParam::Answer>) {
    throw std::runtime_error("the backend is down");
  });
  Connected c(server);
  auto r = TypeParam::ask(*c.client);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInternalError);
  EXPECT_NE(r.error().message.find("the backend is down"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(TypeParam::kMethod), std::string::npos) << r.error().message;
  EXPECT_TRUE(c.client->ping());  // the connection survives it
}

TYPED_TEST(AsyncItem, TheAnswerGoesOutThroughTheStages) {
  // Answered on another thread, the answer still passes the chain's on_result stages.
  Workers workers;
  auto server = std::make_shared<Server>();
  std::atomic<bool> stage_saw{false};
  server->use(make_stage("watch", {.on_result = [&](const Call& call, Result<json::value>& answer) {
                                     if (call.method == TypeParam::kMethod && answer) stage_saw = true;
                                   }}));
  TypeParam::add(*server, [&](std::shared_ptr<RequestContext>, Reply<typename TypeParam::Answer> reply) {
    workers.start([reply] { reply(TypeParam::answer("seen")); });
  });
  Connected c(server);
  auto r = TypeParam::ask(*c.client);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "seen");
  EXPECT_TRUE(stage_saw);
}

TEST(AsyncTemplate, GetsTheUriAndItsVariablesAndStaticResourcesWin) {
  Workers workers;
  auto server = std::make_shared<Server>();
  ResourceTemplate t;
  t.uri_template = "mem://items/{id}";
  t.name = "items";
  std::atomic<int> template_reads{0};
  ASSERT_TRUE(server->add_async_resource_template(
      std::move(t), [&](const std::string& uri, const UriTemplate::Variables& variables,
                        std::shared_ptr<RequestContext>, Reply<ReadResourceResult> reply) {
        ++template_reads;
        // Copied: the arguments are valid only during the call.
        workers.start([reply, text = uri + " id=" + variables.at("id")] { reply(ResourceKind::answer(text)); });
      }));
  Resource fixed;
  fixed.uri = "mem://items/7";
  fixed.name = "seven";
  server->add_resource(std::move(fixed), [](const std::string&, RequestContext&) -> Result<ReadResourceResult> {
    return ResourceKind::answer("the static one");
  });
  Connected c(server);
  auto r = c.client->read_resource("mem://items/42");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(ResourceKind::text(*r), "mem://items/42 id=42");
  auto fixed_read = c.client->read_resource("mem://items/7");
  ASSERT_TRUE(fixed_read) << fixed_read.error().message;
  EXPECT_EQ(ResourceKind::text(*fixed_read), "the static one");
  EXPECT_EQ(template_reads, 1);
  auto unknown = c.client->read_resource("mem://other/1");
  ASSERT_FALSE(unknown);
  // 2026-07-28 has no -32002: an unknown resource is -32602 there.
  EXPECT_EQ(unknown.error().code, c.client->stateless() ? error_code::kInvalidParams : error_code::kResourceNotFound);
}

namespace {

// A prompt with one required argument, answered asynchronously with a greeting; counts its runs.
std::shared_ptr<Server> greeting_server(Workers& workers, std::atomic<int>& runs) {
  auto server = std::make_shared<Server>();
  Prompt p;
  p.name = "greet";
  p.arguments.push_back(PromptArgument{.name = "who", .required = true});
  server->add_async_prompt(std::move(p), [&workers, &runs](const std::map<std::string, std::string>& arguments,
                                                  std::shared_ptr<RequestContext>, Reply<GetPromptResult> reply) {
    ++runs;
    workers.start([reply, who = arguments.at("who")] { reply(PromptKind::answer("hello " + who)); });
  });
  return server;
}

}  // namespace

TEST(AsyncPrompt, AMissingRequiredArgumentIsRefusedBeforeTheHandler) {
  Workers workers;
  std::atomic<int> runs{0};
  Connected c(greeting_server(workers, runs));
  auto missing = c.client->get_prompt("greet");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, error_code::kInvalidParams);
  EXPECT_NE(missing.error().message.find("missing required argument 'who'"), std::string::npos)
      << missing.error().message;
  EXPECT_EQ(runs, 0);
  auto given = c.client->get_prompt("greet", {{"who", "ada"}});
  ASSERT_TRUE(given) << given.error().message;
  EXPECT_EQ(PromptKind::text(*given), "hello ada");
  EXPECT_EQ(runs, 1);
}

TEST(AsyncPrompt, AnUnavailablePromptIsRefusedBeforeTheHandler) {
  Workers workers;
  std::atomic<int> runs{0};
  auto server = greeting_server(workers, runs);
  server->set_availability(AvailabilityHooks{.item = [](ListKind kind, const std::string& key, const RequestContext&) {
    return !(kind == ListKind::prompts && key == "greet");
  }});
  Connected c(server);
  auto r = c.client->get_prompt("greet", {{"who", "ada"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInvalidParams);
  EXPECT_EQ(runs, 0);
}

TEST(AsyncCompletion, IsCappedAtOneHundredValuesWithHasMore) {
  Workers workers;
  auto server = std::make_shared<Server>();
  std::atomic<std::size_t> stage_saw{0};
  server->use(make_stage("count", {.on_result = [&](const Call& call, Result<json::value>& answer) {
                                     if (call.method == method::kCompletionComplete && answer)
                                       stage_saw = answer->at("completion").at("values").as_array().size();
                                   }}));
  server->set_async_completer([&workers](const CompleteRequestParams&, std::shared_ptr<RequestContext>,
                                         Reply<CompleteResult> reply) {
    workers.start([reply] {
      CompleteResult many;
      for (int i = 0; i < 150; ++i) many.completion.values.push_back("v" + std::to_string(i));
      reply(std::move(many));
    });
  });
  Connected c(server);
  auto r = c.client->complete(complete_params());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->completion.values.size(), 100u);
  EXPECT_EQ(r->completion.values.back(), "v99");
  EXPECT_EQ(r->completion.has_more, true);
  EXPECT_EQ(r->completion.total, 150);
  EXPECT_EQ(stage_saw, 100u);  // capped before the stages, as a blocking completer's answer is
}

TEST(AsyncCompletion, ReplacesTheBlockingCompleter) {
  auto server = std::make_shared<Server>();
  server->set_completer([](const CompleteRequestParams&, RequestContext&) -> Result<CompleteResult> {
    return CompletionKind::answer("blocking");
  });
  server->set_async_completer([](const CompleteRequestParams&, std::shared_ptr<RequestContext>,
                                 Reply<CompleteResult> reply) { reply(CompletionKind::answer("async")); });
  Connected c(server);
  auto r = CompletionKind::ask(*c.client);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, "async");
}
