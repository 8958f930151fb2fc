// A Client and a Server joined by the direct transport (mcp/transport/direct.hpp): every kind of
// handler works when messages are delivered on the sending thread — quick ones inline, blocking
// ones on workers (and asking the client for sampling from there), asynchronous ones answering
// later from another thread — and closing either side ends both.
#include <gtest/gtest.h>

#include <thread>

#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/direct.hpp"
#include "server/tools.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::make_tool;

namespace {

struct DirectPair {
  std::shared_ptr<Server> server = std::make_shared<Server>();
  std::unique_ptr<Client> client;
  explicit DirectPair(ClientOptions co = {}) : client(std::make_unique<Client>(std::move(co))) {}
  Result<void> connect() {
    auto [a, b] = make_direct_transport_pair();
    if (auto s = server->connect(a); !s) return fail(s.error());
    auto init = client->connect(b);
    if (!init) return fail(init.error());
    return {};
  }
};

std::string text_of(const CallToolResult& r) {
  return r.content.empty() ? "" : std::get<TextContent>(r.content[0]).text;
}

class DirectLinkBoth : public ::testing::TestWithParam<std::string> {};

TEST_P(DirectLinkBoth, QuickBlockingAndAsynchronousToolsAnswer) {
  ClientOptions co;
  co.protocol_version = GetParam();
  DirectPair p(std::move(co));
  std::thread::id quick_thread, blocking_thread;
  p.server->add_tool(make_tool("quick"),
                     [&](const json::object&, RequestContext&) {
                       quick_thread = std::this_thread::get_id();
                       return Result<CallToolResult>(CallToolResult::text("quick"));
                     },
                     ToolOptions{.non_blocking = true});
  p.server->add_tool(make_tool("blocking"), [&](const json::object&, RequestContext&) {
    blocking_thread = std::this_thread::get_id();
    return Result<CallToolResult>(CallToolResult::text("blocking"));
  });
  std::vector<std::jthread> later;
  p.server->add_async_tool(make_tool("later"), [&](const json::object&, std::shared_ptr<RequestContext>, Reply<CallToolResult> reply) {
    later.emplace_back([reply] { reply(CallToolResult::text("later")); });
  });
  ASSERT_TRUE(p.connect());
  for (const char* name : {"quick", "blocking", "later", "quick"}) {
    auto r = p.client->call_tool(name, {});
    ASSERT_TRUE(r) << name << ": " << r.error().message;
    EXPECT_EQ(text_of(*r), name);
  }
  EXPECT_EQ(quick_thread, std::this_thread::get_id());  // delivered and run on the caller's thread
  EXPECT_NE(blocking_thread, std::this_thread::get_id());
  auto unknown = p.client->call_tool("none", {});
  EXPECT_FALSE(unknown);
  p.client->close();
}

INSTANTIATE_TEST_SUITE_P(BothRevisions, DirectLinkBoth, ::testing::Values("2025-11-25", "2026-07-28"));

// A blocking tool asks the client for sampling (2025-11-25: a request from the server): it crosses
// back on the worker's thread and its answer reaches the waiting worker.
TEST(DirectLink, ABlockingToolAsksTheClient) {
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  co.on_sampling = [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::value(json::object{{"role", "assistant"}, {"content", json::object{{"type", "text"}, {"text", "sampled"}}},
                                    {"model", "m"}});
  };
  DirectPair p(std::move(co));
  p.server->add_tool(make_tool("ask"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto m = ctx.create_message(json::object{{"messages", json::array{}}, {"maxTokens", 5}});
    if (!m) return fail(m.error());
    return CallToolResult::text(std::string(m->at("content").at("text").as_string()));
  });
  ASSERT_TRUE(p.connect());
  auto r = p.client->call_tool("ask", {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "sampled");
}

TEST(DirectLink, ClosingTheClientEndsTheServersSessionAndCallsFailAfter) {
  DirectPair p;
  p.server->add_tool(make_tool("quick"), [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("q")); },
                     ToolOptions{.non_blocking = true});
  ASSERT_TRUE(p.connect());
  ASSERT_TRUE(p.client->call_tool("quick", {}));
  p.client->close();
  auto after = p.client->call_tool("quick", {});
  ASSERT_FALSE(after);
  p.client.reset();  // destroyed after its close: nothing waits on a thread that is not there
  SUCCEED();
}

}  // namespace
