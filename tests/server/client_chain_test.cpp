// The client's middleware chain (mcp/client/stage.hpp) against our server: stages see each call
// before it is sent and its answer after, can refuse a call without sending it, rewrite answers,
// and end the session from a list; they see notifications.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"
#include "server/tools.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::make_tool;

namespace {

// Records every hook, and refuses or rewrites as configured.
struct Recorder final : ClientStage {
  explicit Recorder(std::string n) : label(std::move(n)) {}
  std::string_view name() const override { return label; }
  Result<void> on_request(std::string_view method, json::object& params) override {
    record(label + " request " + std::string(method));
    if (method == method::kToolsCall && params.at("name") == json::value(refuse_tool)) return fail(Error::invalid_request("refused by " + label));
    return {};
  }
  Result<void> on_result(std::string_view method, json::value& result) override {
    record(label + " result " + std::string(method));
    if (stamp && method == method::kToolsCall) result.as_object()["_meta"] = json::object{{"seen_by", label}};
    return {};
  }
  Result<void> on_list(ListKind kind, const json::value& result, bool, ClientStageHost&) override {
    record(label + " list " + std::string(result_key(kind)));
    if (end_on_list && kind == ListKind::tools && result.at("tools").as_array().size() > 1)
      return fail(Error::invalid_request("too many tools for " + label));
    return {};
  }
  void on_notification(const jsonrpc::Notification& n) override {
    record(label + " note " + n.method);
    if (n.method == method::kToolsListChanged) list_changed.set();
  }
  void record(std::string s) {
    std::lock_guard l(mu);
    if (both) both->push_back(s);
    trace.push_back(std::move(s));
  }
  std::vector<std::string> take() {
    std::lock_guard l(mu);
    return std::exchange(trace, {});
  }

  std::string label;
  std::string refuse_tool = "-";
  bool stamp = false;
  bool end_on_list = false;
  std::mutex mu;
  std::vector<std::string> trace;
  std::vector<std::string>* both = nullptr;  // one trace for several stages (calls are sequential here)
  test::Event list_changed;
};

struct Upstream {
  std::shared_ptr<Server> server = std::make_shared<Server>();
  std::shared_ptr<ServerSession> session;
  std::atomic<int> calls{0};
  Upstream() {
    server->add_tool(make_tool("a"), [this](const json::object&, RequestContext&) -> Result<CallToolResult> {
      ++calls;
      return CallToolResult::text("a");
    });
  }
  std::unique_ptr<Client> connect(std::vector<std::shared_ptr<ClientStage>> stages) {
    ClientOptions co;
    co.session.request_timeout = 10s;
    co.stages = std::move(stages);
    auto client = std::make_unique<Client>(std::move(co));
    auto [a, b] = make_memory_transport_pair();
    auto s = server->connect(a);
    EXPECT_TRUE(s);
    session = *s;
    auto init = client->connect(b);
    EXPECT_TRUE(init) << init.error().message;
    return client;
  }
};

}  // namespace

TEST(ClientChain, StagesSeeCallsInOrderAndAnswersInReverse) {
  Upstream s;
  auto outer = std::make_shared<Recorder>("outer");
  auto inner = std::make_shared<Recorder>("inner");
  auto client = s.connect({outer, inner});
  std::vector<std::string> both;
  outer->both = inner->both = &both;
  ASSERT_TRUE(client->call_tool("a"));
  EXPECT_EQ(both, (std::vector<std::string>{"outer request tools/call", "inner request tools/call",
                                            "inner result tools/call", "outer result tools/call"}));
  outer->both = inner->both = nullptr;
  (void)inner->take();
  ASSERT_TRUE(client->list_tools());
  EXPECT_EQ(inner->take(), (std::vector<std::string>{"inner request tools/list", "inner result tools/list", "inner list tools"}));
}

TEST(ClientChain, AStageRefusesACallWithoutSendingIt) {
  Upstream s;
  auto stage = std::make_shared<Recorder>("gate");
  stage->refuse_tool = "a";
  auto client = s.connect({stage});
  auto r = client->call_tool("a");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "refused by gate");
  EXPECT_EQ(s.calls, 0);
  EXPECT_FALSE(client->closed());  // a refused call is not a refused session
}

TEST(ClientChain, AStageRewritesTheAnswer) {
  Upstream s;
  auto stage = std::make_shared<Recorder>("stamper");
  stage->stamp = true;
  auto client = s.connect({stage});
  auto r = client->call_tool("a");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->meta);
  EXPECT_EQ(r->meta->at("seen_by"), "stamper");
}

TEST(ClientChain, AStageRefusingAListEndsTheSession) {
  Upstream s;
  s.server->add_tool(make_tool("b"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text("b");
  });
  auto stage = std::make_shared<Recorder>("limit");
  stage->end_on_list = true;
  auto client = s.connect({stage});
  auto list = client->list_tools();
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().message, "too many tools for limit");
  EXPECT_TRUE(client->closed());
  auto later = client->call_tool("a");
  ASSERT_FALSE(later);
  EXPECT_EQ(later.error().message, "too many tools for limit");  // every later call says why
  EXPECT_EQ(s.calls, 0);
}

TEST(ClientChain, StagesSeeNotifications) {
  Upstream s;
  auto stage = std::make_shared<Recorder>("ears");
  auto client = s.connect({stage});
  s.server->add_tool(make_tool("c"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text("c");
  });
  EXPECT_TRUE(stage->list_changed.wait());
}
