// Our client against our server over the in-memory transport: the server API's behaviour.
#include "mcp/server/server.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>

#include "mcp/client/client.hpp"
#include "mcp/transport/memory.hpp"

using namespace mcp;
using namespace std::chrono_literals;

namespace {

Tool make_tool(std::string name) {
  Tool t;
  t.name = std::move(name);
  t.description = "test tool";
  return t;
}

CallToolResult text(std::string s) {
  CallToolResult r;
  r.content.push_back(TextContent{.text = std::move(s)});
  return r;
}

struct Fixture {
  std::shared_ptr<Server> server;
  std::shared_ptr<ServerSession> session;
  std::unique_ptr<Client> client;

  explicit Fixture(ServerOptions so = {}, ClientOptions co = {}) : server(std::make_shared<Server>(so)) {
    co.session.request_timeout = 5s;
    client = std::make_unique<Client>(std::move(co));
  }
  void connect() {
    auto [a, b] = make_memory_transport_pair();
    auto s = server->connect(a);
    ASSERT_TRUE(s);
    session = *s;
    auto init = client->connect(b);
    ASSERT_TRUE(init) << init.error().message;
  }
  ~Fixture() {
    client.reset();
    session.reset();
  }
};

}  // namespace

TEST(Server, NegotiatesVersionAndDeclaresCapabilities) {
  Fixture f;
  f.connect();
  EXPECT_EQ(f.client->server().protocol_version, "2025-11-25");
  EXPECT_TRUE(f.client->server_supports("tools.listChanged"));
  EXPECT_TRUE(f.client->server_supports("resources.subscribe"));
  EXPECT_FALSE(f.client->server_supports("completions"));  // no completer registered
  EXPECT_EQ(f.session->client()->client_info.at("name"), "mcp-trust-client");
}

TEST(Server, AnswersOlderVersionsItSpeaksAndItsLatestOtherwise) {
  for (auto [asked, expected] : {std::pair{"2025-06-18", "2025-06-18"}, std::pair{"2025-03-26", "2025-03-26"},
                                 std::pair{"1999-01-01", "2025-11-25"}}) {
    ClientOptions co;
    co.protocol_version = asked;
    Fixture f({}, co);
    auto [a, b] = make_memory_transport_pair();
    auto s = f.server->connect(a);
    ASSERT_TRUE(s);
    f.session = *s;
    auto init = f.client->connect(b);
    if (std::string(expected) == asked) {
      ASSERT_TRUE(init);
      EXPECT_EQ(init->protocol_version, expected);
    } else {
      // The server offered 2025-11-25; this client accepts it because it speaks it.
      ASSERT_TRUE(init);
      EXPECT_EQ(init->protocol_version, expected);
    }
  }
}

TEST(Server, PaginatesListsWithOpaqueCursors) {
  ServerOptions so;
  so.page_size = 3;
  Fixture f(so);
  for (int i = 0; i < 8; ++i) {
    f.server->add_tool(make_tool("t" + std::to_string(i)),
                       [](const json::object&, RequestContext&) -> Result<CallToolResult> { return text("x"); });
  }
  f.connect();
  auto first = f.client->list_tools();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->tools.size(), 3u);
  ASSERT_TRUE(first->next_cursor);
  auto all = f.client->list_all_tools();
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 8u);
  EXPECT_EQ((*all)[7].name, "t7");
  auto bad = f.client->request("tools/list", {{"cursor", "not-a-cursor"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, error_code::kInvalidParams);
}

TEST(Server, UnknownToolIsInvalidParamsAndThrowingToolIsAToolError) {
  Fixture f;
  f.server->add_tool(make_tool("boom"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    throw std::runtime_error("kaput");
  });
  f.connect();
  auto unknown = f.client->call_tool("nope");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, error_code::kInvalidParams);
  auto boom = f.client->call_tool("boom");
  ASSERT_TRUE(boom);
  EXPECT_TRUE(boom->is_error.value_or(false));
  EXPECT_NE(std::get<TextContent>(boom->content[0]).text.find("kaput"), std::string::npos);
}

TEST(Server, ListChangedReachesTheClientWhenToolsChange) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> changed;
  ClientOptions co;
  co.on_list_changed = [&](const std::string& list) {
    std::lock_guard l(mu);
    changed.push_back(list);
    cv.notify_all();
  };
  Fixture f({}, co);
  f.connect();
  f.server->add_tool(make_tool("late"), [](const json::object&, RequestContext&) -> Result<CallToolResult> { return text("x"); });
  std::unique_lock l(mu);
  ASSERT_TRUE(cv.wait_for(l, 2s, [&] { return !changed.empty(); }));
  EXPECT_EQ(changed[0], "tools");
  l.unlock();
  auto tools = f.client->list_all_tools();
  ASSERT_TRUE(tools);
  EXPECT_EQ(tools->size(), 1u);
}

TEST(Server, SubscribedClientsGetResourceUpdates) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> updated;
  ClientOptions co;
  co.on_resource_updated = [&](const std::string& uri) {
    std::lock_guard l(mu);
    updated.push_back(uri);
    cv.notify_all();
  };
  Fixture f({}, co);
  Resource r;
  r.uri = "test://r";
  r.name = "r";
  f.server->add_resource(r, [](const std::string& uri, RequestContext&) -> Result<ReadResourceResult> {
    ReadResourceResult out;
    out.contents.push_back(TextResourceContents{.uri = uri, .text = "v"});
    return out;
  });
  f.connect();
  f.server->notify_resource_updated("test://r");  // not subscribed yet: nothing
  ASSERT_TRUE(f.client->subscribe("test://r"));
  f.server->notify_resource_updated("test://r");
  std::unique_lock l(mu);
  ASSERT_TRUE(cv.wait_for(l, 2s, [&] { return !updated.empty(); }));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(updated, std::vector<std::string>{"test://r"});
}

TEST(Server, ContextRefusesRequestsForUndeclaredClientCapabilities) {
  Fixture f;  // the client declares no sampling, elicitation or roots
  std::atomic<int> code{0};
  f.server->add_tool(make_tool("ask"), [&](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto r = ctx.create_message({{"messages", json::array{}}, {"maxTokens", 1}});
    code = r ? 0 : r.error().code;
    return text("done");
  });
  f.connect();
  ASSERT_TRUE(f.client->call_tool("ask"));
  EXPECT_EQ(code, error_code::kMethodNotFound);
}

TEST(Server, SamplingRoundTripThroughTheContext) {
  ClientOptions co;
  co.on_sampling = [](const json::object& params, const CancellationToken&) -> Result<json::value> {
    auto prompt = params.at("messages").at(0).at("content").at("text").as_string();
    return json::object{{"role", "assistant"},
                        {"content", {{"type", "text"}, {"text", "echo: " + std::string(prompt)}}},
                        {"model", "m"}};
  };
  Fixture f({}, co);
  f.server->add_tool(make_tool("ask"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto r = ctx.create_message(
        {{"messages", json::array{{{"role", "user"}, {"content", {{"type", "text"}, {"text", "hi"}}}}}}, {"maxTokens", 5}});
    if (!r) return fail(r.error());
    return text(std::string(r->at("content").at("text").as_string()));
  });
  f.connect();
  auto r = f.client->call_tool("ask");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(std::get<TextContent>(r->content[0]).text, "echo: hi");
}

TEST(Server, RequestsBeforeInitializeAreRejected) {
  auto server = std::make_shared<Server>();
  auto [a, b] = make_memory_transport_pair();
  auto s = server->connect(a);
  ASSERT_TRUE(s);
  struct Null : Session::Handler {
    Result<json::value> handle_request(InboundRequest&) override { return json::object{}; }
    void handle_notification(const jsonrpc::Notification&) override {}
  } h;
  auto raw = Session::create(b, h, {});
  ASSERT_TRUE(raw->start());
  auto r = raw->request("tools/list", {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInvalidRequest);
  raw->shutdown();
}

TEST(Server, ClientDoesNotSendRequestsForUndeclaredServerCapabilities) {
  Fixture f;
  f.connect();
  CompleteRequestParams p;
  p.ref = PromptReference{.name = "x"};
  p.argument.name = "a";
  auto r = f.client->complete(p);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMethodNotFound);
  EXPECT_NE(r.error().message.find("completions"), std::string::npos);
}

TEST(Server, NonBlockingToolsRunAndCannotSendNestedRequests) {
  ClientOptions co;
  co.on_sampling = [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::object{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "x"}}}, {"model", "m"}};
  };
  Fixture f({}, co);
  f.server->add_tool(make_tool("quick"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto r = ctx.create_message({{"messages", json::array{}}, {"maxTokens", 1}});
    return text(r ? "sent" : r.error().message);
  }, {.non_blocking = true});
  f.connect();
  auto r = f.client->call_tool("quick");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NE(std::get<TextContent>(r->content[0]).text.find("non_blocking"), std::string::npos);
}
