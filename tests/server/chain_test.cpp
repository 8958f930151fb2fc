// The server's middleware chain and asynchronous tools, through our client over the in-memory
// transport: stages see requests in order and answers in reverse, can refuse, rewrite and hide; an
// asynchronous tool answers later without holding a worker, and may ask the client on the way.
#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "mcp/signature/signature.hpp"
#include "mcp/transport/memory.hpp"
#include "server/tools.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Connected;
using mcp::test::handshake;
using mcp::test::make_tool;
using mcp::test::text_of;
using mcp::test::Event;

namespace {

Result<CallToolResult> echo_name(const json::object& args, RequestContext&) {
  auto it = args.find("name");
  return CallToolResult::text(it == args.end() ? "none" : json::serialize(it->value()));
}

std::vector<std::string> tool_names(const ListToolsResult& r) {
  std::vector<std::string> names;
  for (const auto& t : r.tools) names.push_back(t.name);
  return names;
}

}  // namespace

TEST(Chain, TheDocumentedDenyStageHidesAndRefusesATool) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("rm"), echo_name);
  server->add_tool(make_tool("ls"), echo_name);
  // The example in mcp/server/stage.hpp, as written there.
  server->use(mcp::make_stage("deny-rm", {
      .on_request = [](mcp::Call& call) -> std::optional<mcp::Result<mcp::json::value>> {
        if (call.target && call.target->kind == mcp::ListKind::tools && call.target->key == "rm")
          return mcp::fail(mcp::Error::invalid_params("Unknown tool: rm"));
        return std::nullopt;
      },
      .on_list_item = [](const mcp::Call&, mcp::ListedItem& item) {
        return !(item.kind == mcp::ListKind::tools && item.key == "rm");
      }}));
  Connected c(server);
  auto list = c.client->list_tools();
  ASSERT_TRUE(list) << list.error().message;
  EXPECT_EQ(tool_names(*list), std::vector<std::string>{"ls"});
  auto rm = c.client->call_tool("rm");
  ASSERT_FALSE(rm);
  EXPECT_EQ(rm.error().code, error_code::kInvalidParams);
  EXPECT_EQ(rm.error().message, "Unknown tool: rm");
  EXPECT_TRUE(c.client->call_tool("ls"));
}

TEST(Chain, StagesSeeRequestsInOrderAndAnswersInReverse) {
  auto server = std::make_shared<Server>();
  std::mutex mu;
  std::vector<std::string> trace;
  auto record = [&](std::string s) {
    std::lock_guard l(mu);
    trace.push_back(std::move(s));
  };
  server->add_tool(make_tool("t"), [&](const json::object&, RequestContext&) -> Result<CallToolResult> {
    record("handler");
    return CallToolResult::text("ok");
  });
  for (std::string name : {"A", "B"}) {
    server->use(make_stage(name, {.on_request = [&record, name](Call& call) -> std::optional<Result<json::value>> {
                                    if (call.method == method::kToolsCall) record(name + " in");
                                    return std::nullopt;
                                  },
                                  .on_result = [&record, name](const Call& call, Result<json::value>&) {
                                    if (call.method == method::kToolsCall) record(name + " out");
                                  }}));
  }
  Connected c(server);
  ASSERT_TRUE(c.client->call_tool("t"));
  std::lock_guard l(mu);
  EXPECT_EQ(trace, (std::vector<std::string>{"A in", "B in", "handler", "B out", "A out"}));
}

TEST(Chain, AStageThatAnswersStopsTheRequestAndOnlyOuterStagesSeeTheAnswer) {
  auto server = std::make_shared<Server>();
  std::atomic<int> handler_runs{0}, inner_saw{0};
  std::atomic<bool> outer_saw_error{false};
  server->add_tool(make_tool("t"), [&](const json::object&, RequestContext&) -> Result<CallToolResult> {
    ++handler_runs;
    return CallToolResult::text("ok");
  });
  server->use(make_stage("outer", {.on_result = [&](const Call& call, Result<json::value>& answer) {
                                     if (call.method == method::kToolsCall && !answer) outer_saw_error = true;
                                   }}));
  server->use(make_stage("gate", {.on_request = [](Call& call) -> std::optional<Result<json::value>> {
                                    if (call.method == method::kToolsCall) return fail(Error::invalid_request("closed for maintenance"));
                                    return std::nullopt;
                                  }}));
  server->use(make_stage("inner", {.on_request = [&](Call& call) -> std::optional<Result<json::value>> {
                                     if (call.method == method::kToolsCall) ++inner_saw;
                                     return std::nullopt;
                                   }}));
  Connected c(server);
  auto r = c.client->call_tool("t");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "closed for maintenance");
  EXPECT_EQ(handler_runs, 0);
  EXPECT_EQ(inner_saw, 0);
  EXPECT_TRUE(outer_saw_error);
}

// An outermost stage (an audit, say) sees what the built-in stages refuse, which an inside one
// never does, and can tell a refusal from an answer its handler gave.
TEST(Chain, AnOutermostStageSeesTheSignatureSelfChecksRefusalsAndWhetherAHandlerRan) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("declared"), echo_name);
  server->add_tool(make_tool("smuggled"), echo_name);
  ServerSignature signature;
  signature.tools.push_back(SignatureTool{.tool = make_tool("declared")});
  ASSERT_TRUE(server->set_signature(signature));
  struct Seen {
    std::string tool;
    bool ok;
    bool handled;
    std::chrono::steady_clock::time_point received;
  };
  std::mutex mu;
  std::vector<Seen> outermost, inside;
  auto watcher = [&mu](std::vector<Seen>& into) {
    return make_stage("watch", {.on_result = [&mu, &into](const Call& call, Result<json::value>& answer) {
                          if (call.method != method::kToolsCall) return;
                          const auto* name = call.params.if_contains("name");
                          std::lock_guard l(mu);
                          into.push_back({name && name->is_string() ? std::string(name->get_string()) : std::string(),
                                          static_cast<bool>(answer), call.handled, call.received});
                        }});
  };
  server->use(watcher(inside));
  server->use(watcher(outermost), StagePlace::outermost);
  Connected c(server);
  const auto sent = std::chrono::steady_clock::now();
  EXPECT_TRUE(c.client->call_tool("declared"));
  auto smuggled = c.client->call_tool("smuggled");  // registered, outside the signature
  ASSERT_FALSE(smuggled);
  EXPECT_EQ(smuggled.error().message, "Unknown tool: smuggled");
  EXPECT_FALSE(c.client->call_tool("missing"));  // nothing of that name: its handler says so
  std::lock_guard l(mu);
  ASSERT_EQ(outermost.size(), 3u);
  EXPECT_EQ(outermost[0].tool, "declared");
  EXPECT_TRUE(outermost[0].ok);
  EXPECT_TRUE(outermost[0].handled);
  EXPECT_EQ(outermost[1].tool, "smuggled");
  EXPECT_FALSE(outermost[1].ok);
  EXPECT_FALSE(outermost[1].handled) << "the signature stage answered it";
  EXPECT_EQ(outermost[2].tool, "missing");
  EXPECT_FALSE(outermost[2].ok);
  for (const auto& s : outermost) EXPECT_GE(s.received, sent) << "received is when the server took the request in";
  // An inside stage never saw the request the signature stage refused.
  ASSERT_EQ(inside.size(), 2u);
  EXPECT_EQ(inside[0].tool, "declared");
  EXPECT_EQ(inside[1].tool, "missing");
}

TEST(Chain, StagesRewriteParamsAndAnswers) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("t"), echo_name);
  server->use(make_stage("rewrite", {.on_request = [](Call& call) -> std::optional<Result<json::value>> {
                                       if (call.method == method::kToolsCall)
                                         call.params["arguments"] = json::object{{"name", "from-stage"}};
                                       return std::nullopt;
                                     },
                                     .on_result = [](const Call& call, Result<json::value>& answer) {
                                       if (call.method == method::kToolsCall && answer)
                                         answer->as_object()["_meta"] = json::object{{"stamped", true}};
                                     }}));
  Connected c(server);
  auto r = c.client->call_tool("t", json::object{{"name", "from-client"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "\"from-stage\"");
  ASSERT_TRUE(r->meta);
  EXPECT_EQ(r->meta->at("stamped"), true);
}

// The request's context reads its _meta from the params as they stand (it keeps no copy): a stage
// that replaced the whole params object is seen, and the old one's members are not (under
// AddressSanitizer, a context still reading the replaced object would be a use after free).
TEST(Chain, TheContextReadsTheMetaOfParamsAStageReplaced) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("meta"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    const json::object* meta = ctx.request_meta();
    if (!meta) return CallToolResult::text("no _meta");
    const json::value* from = meta->if_contains("from");
    return CallToolResult::text(from ? json::serialize(*from) : "no from; " + json::serialize(*meta));
  });
  server->use(make_stage("replace", {.on_request = [](Call& call) -> std::optional<Result<json::value>> {
                                       if (call.method != method::kToolsCall) return std::nullopt;
                                       json::object replaced = call.params;  // a copy, then the original goes
                                       replaced["_meta"] = json::object{{"from", "stage"}};
                                       call.params = std::move(replaced);
                                       return std::nullopt;
                                     }}));
  Connected c(server);
  CallOptions o;
  o.meta = json::object{{"from", "client"}};
  auto r = c.client->call_tool("meta", {}, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "\"stage\"");
}

TEST(Chain, AStageThatThrowsIsAnInternalErrorAndTheSessionGoesOn) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("t"), echo_name);
  server->add_tool(make_tool("boom"), echo_name);
  server->use(make_stage("buggy", {.on_request = [](Call& call) -> std::optional<Result<json::value>> {
                                     if (call.target && call.target->key == "boom") throw std::runtime_error("stage bug");
                                     return std::nullopt;
                                   }}));
  Connected c(server);
  auto r = c.client->call_tool("boom");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInternalError);
  EXPECT_NE(r.error().message.find("stage bug"), std::string::npos);
  EXPECT_TRUE(c.client->call_tool("t"));
}

TEST(Chain, MalformedParamsAreRefusedNamingTheMember) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("t"), echo_name);
  Connected c(server);
  auto r = c.client->request(method::kToolsCall, json::object{{"name", 7}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInvalidParams);
  EXPECT_NE(r.error().message.find("tools/call"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("name"), std::string::npos) << r.error().message;
  auto args = c.client->request(method::kToolsCall, json::object{{"name", "t"}, {"arguments", "x"}});
  ASSERT_FALSE(args);
  EXPECT_NE(args.error().message.find("arguments"), std::string::npos) << args.error().message;
}

TEST(AsyncTool, ManyInFlightHoldNoWorker) {
  // One worker per session; twenty asynchronous calls wait unanswered while a blocking tool is
  // still served: they hold no thread. Then each is answered from this thread.
  ServerOptions so;
  so.session.max_workers = 1;
  auto server = std::make_shared<Server>(so);
  std::mutex mu;
  std::vector<Reply<CallToolResult>> waiting;
  Event all_waiting;
  server->add_async_tool(make_tool("later"), [&](const json::object&, std::shared_ptr<RequestContext>, Reply<CallToolResult> reply) {
    std::lock_guard l(mu);
    waiting.push_back(std::move(reply));
    if (waiting.size() == 20) all_waiting.set();
  });
  server->add_tool(make_tool("now"), echo_name);
  Connected c(server);
  std::vector<std::future<Result<CallToolResult>>> calls;
  for (int i = 0; i < 20; ++i) calls.push_back(std::async(std::launch::async, [&] { return c.client->call_tool("later"); }));
  ASSERT_TRUE(all_waiting.wait());
  auto now = c.client->call_tool("now");
  ASSERT_TRUE(now) << now.error().message;
  {
    std::lock_guard l(mu);
    for (std::size_t i = 0; i < waiting.size(); ++i) EXPECT_TRUE(waiting[i](CallToolResult::text("done " + std::to_string(i))));
    EXPECT_FALSE(waiting[0](CallToolResult::text("again")));  // one answer per request
  }
  for (auto& f : calls) {
    auto r = f.get();
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(text_of(*r).rfind("done ", 0), 0u);
  }
}

TEST(AsyncTool, AsksTheClientWithoutBlocking) {
  // The tool starts on the reader thread, where a blocking create_message is refused; the
  // asynchronous form works there and the tool answers with what the client's sampler said.
  auto server = std::make_shared<Server>();
  server->add_async_tool(make_tool("ask"), [](const json::object&, std::shared_ptr<RequestContext> ctx, Reply<CallToolResult> reply) {
    auto blocking = ctx->create_message(json::object{{"messages", json::array{}}, {"maxTokens", 5}});
    if (blocking) {
      reply(CallToolResult::error("a blocking nested request was allowed on the reader thread"));
      return;
    }
    ctx->create_message_async(json::object{{"messages", json::array{}}, {"maxTokens", 5}},
                              [reply](Result<json::value> answer) {
                                if (!answer) reply(fail(answer.error()));
                                else reply(CallToolResult::text(json::serialize(answer->at("content").at("text"))));
                              });
  });
  ClientOptions co = handshake();  // a session's own requests: 2025-11-25
  co.on_sampling = [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::object{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "sampled"}}}, {"model", "m"}};
  };
  Connected c(server, co);
  auto r = c.client->call_tool("ask");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "\"sampled\"");
  EXPECT_FALSE(r->is_error.value_or(false)) << text_of(*r);
}

TEST(AsyncTool, AsyncNestedRequestNeedsTheCapability) {
  auto server = std::make_shared<Server>();
  server->add_async_tool(make_tool("ask"), [](const json::object&, std::shared_ptr<RequestContext> ctx, Reply<CallToolResult> reply) {
    ctx->elicit_async(json::object{{"message", "?"}, {"requestedSchema", {{"type", "object"}, {"properties", json::object{}}}}},
                      [reply](Result<json::value> answer) {
                        reply(answer ? CallToolResult::text("asked") : CallToolResult::error(answer.error().message));
                      });
  });
  Connected c(server, handshake());  // declares no elicitation
  auto r = c.client->call_tool("ask");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(r->is_error.value_or(false));
  EXPECT_NE(text_of(*r).find("'elicitation' capability"), std::string::npos) << text_of(*r);
}

TEST(AsyncTool, ADroppedReplyIsAnInternalError) {
  auto server = std::make_shared<Server>();
  server->add_async_tool(make_tool("forgets"), [](const json::object&, std::shared_ptr<RequestContext>, Reply<CallToolResult>) {});
  Connected c(server);
  auto r = c.client->call_tool("forgets");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInternalError);
  EXPECT_NE(r.error().message.find("without answering"), std::string::npos) << r.error().message;
}

TEST(AsyncTool, AnErrorReplyReachesTheClientThroughTheChain) {
  auto server = std::make_shared<Server>();
  std::atomic<bool> stage_saw{false};
  server->use(make_stage("watch", {.on_result = [&](const Call& call, Result<json::value>& answer) {
                                     if (call.method == method::kToolsCall && !answer) stage_saw = true;
                                   }}));
  // The answer may reach the client before the handler's assignment of `answerer` has finished:
  // the lock orders that assignment before the join (TSan found the race without it).
  std::mutex answerer_mu;
  std::thread answerer;
  server->add_async_tool(make_tool("refuses"), [&](const json::object&, std::shared_ptr<RequestContext>, Reply<CallToolResult> reply) {
    std::lock_guard lock(answerer_mu);
    answerer = std::thread([reply] { reply(fail(Error::invalid_params("no such thing"))); });
  });
  Connected c(server);
  auto r = c.client->call_tool("refuses");
  {
    std::lock_guard lock(answerer_mu);
    answerer.join();
  }
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "no such thing");
  EXPECT_TRUE(stage_saw);
}

TEST(Errors, WhatThePeerSentIsToldApartFromWhatTheSdkReports) {
  auto server = std::make_shared<Server>();
  Event release;
  server->add_tool(make_tool("refuses"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    // The code our own timeouts use: the client must still see that the server sent it.
    return fail(Error::timeout("the server says it timed out"));
  });
  server->add_tool(make_tool("slow"), [&](const json::object&, RequestContext&) -> Result<CallToolResult> {
    (void)release.wait();
    return CallToolResult::text("late");
  });
  Connected c(server);
  auto sent = c.client->call_tool("refuses");
  ASSERT_FALSE(sent);
  EXPECT_EQ(sent.error().code, error_code::kRequestTimeout);
  EXPECT_TRUE(sent.error().from_peer);

  CallOptions quick;
  quick.timeout = 20ms;
  auto timed_out = c.client->call_tool("slow", {}, quick);
  release.set();
  ASSERT_FALSE(timed_out);
  EXPECT_EQ(timed_out.error().code, error_code::kRequestTimeout);
  EXPECT_FALSE(timed_out.error().from_peer);

  auto unknown = c.client->call_tool("missing");
  ASSERT_FALSE(unknown);
  EXPECT_TRUE(unknown.error().from_peer);  // the server's "Unknown tool"

  auto undeclared = c.client->complete(CompleteRequestParams{});  // the server declared no completions
  ASSERT_FALSE(undeclared);
  EXPECT_FALSE(undeclared.error().from_peer);  // refused by the client, never sent
}

TEST(Sessions, TheServerKeepsASessionWhoseHandleWasDropped) {
  auto server = std::make_shared<Server>();
  server->add_tool(make_tool("t"), echo_name);
  auto [a, b] = make_memory_transport_pair();
  ASSERT_TRUE(server->connect(a));  // the handle is dropped at once
  Event closed;
  ClientOptions co;
  co.on_closed = [&](const std::optional<Error>&) { closed.set(); };
  Client client(co);
  ASSERT_TRUE(client.connect(b));
  auto r = client.call_tool("t");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(closed.is_set());
  // Destroying the server ends what it still serves.
  server.reset();
  EXPECT_TRUE(closed.wait());
  EXPECT_FALSE(client.call_tool("t"));
}

TEST(Sessions, ClosedSessionsAreNotKeptForever) {
  // Many short connections: the server prunes the closed ones as it goes, so each session object
  // is destroyed (observed through the transport it owned) long before the server is.
  auto server = std::make_shared<Server>();
  std::vector<std::weak_ptr<Transport>> transports;
  for (int i = 0; i < 300; ++i) {
    auto [a, b] = make_memory_transport_pair();
    transports.push_back(a);
    auto session = server->connect(a);
    ASSERT_TRUE(session);
    b->close();
    // The close reaches the session on its reader thread: wait for it (under ASan it lags far
    // behind), so that pruning, not timing, decides what is kept.
    (*session)->wait_closed();
  }
  std::size_t alive = 0;
  for (auto& w : transports) alive += w.expired() ? 0 : 1;
  EXPECT_LT(alive, 200u) << "closed sessions were kept";
}
