// What an upstream asks its client during a call (sampling, elicitation) reaches the client of that
// call through the gateway, whatever revision each side speaks (src/gateway/bridge.hpp): a
// 2026-07-28 client answers it as a multi round-trip result, a 2025-11-25 session as a request in
// the session. Against the real program, with the reference server-everything (TypeScript SDK 1.x,
// 2025-11-25 over stdio) and our everything-server (which speaks 2026-07-28 to the gateway, so the
// request arrives there as a multi round-trip result too) as upstreams.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <future>
#include <sstream>

#include "../examples/tmp_dir.hpp"
#include "gateway_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;
using mcp::gateway_test::json_string;
using mcp::gateway_test::node_dir;
using mcp::gateway_test::reference_server;
using mcp::gateway_test::text_of;
using namespace std::chrono_literals;

namespace {

class GatewayBridge : public ::testing::Test {
 protected:
  static inline std::unique_ptr<test::TmpDir> dir;
  static inline std::unique_ptr<test::BackgroundProgram> gateway;
  static inline std::map<std::string, std::string> urls;
  static inline std::string setup_error;

  static void SetUpTestSuite() {
    dir = std::make_unique<test::TmpDir>();
    const std::string node = (node_dir() / "node_modules" / ".bin" / "node").string();
    std::ofstream(dir->path / "servers.json")
        << R"({"mcpServers": {"reference": {"command": )" << json_string(node) << R"(, "args": [)"
        << json_string(reference_server("server-everything")) << R"(, "stdio"]},)"
        // The same server, whose requests to its client wait at most 2 s at the gateway.
        << R"("impatient": {"command": )" << json_string(node) << R"(, "args": [)"
        << json_string(reference_server("server-everything")) << R"(, "stdio"]},)"
        << R"("ours": {"command": )" << json_string(bin("everything-server")) << "}},"
        << R"("gateway": {"servers": {"impatient": {"timeoutSeconds": 2}}}})";
    gateway = gateway_test::start_gateway(dir->path / "servers.json", (dir->path / "state").string(), dir->path / "gw", urls,
                                          setup_error);
  }
  static void TearDownTestSuite() {
    gateway.reset();
    dir.reset();
  }
  void SetUp() override {
    ASSERT_TRUE(gateway) << setup_error;
    for (const char* name : {"reference", "impatient", "ours", "(all)"}) ASSERT_TRUE(urls.contains(name)) << name << " is not served: " << gateway->err();
  }

  // A client of `revision` at `url` with the handlers in `co`.
  std::unique_ptr<Client> client(const std::string& url, const std::string& revision, ClientOptions co) {
    co.protocol_version = revision;
    co.fallback = false;
    co.session.request_timeout = 60s;
    return gateway_test::connected_client(url, std::move(co));
  }
};

// A model that says what it was asked.
ClientRequestHandler model(std::atomic<int>& calls) {
  return [&calls](const json::object& params, const CancellationToken&) -> Result<json::value> {
    ++calls;
    const auto& text = params.at("messages").as_array().at(0).at("content").at("text").as_string();
    return json::value(json::object{{"role", "assistant"},
                                    {"content", json::object{{"type", "text"}, {"text", "the model read: " + std::string(text)}}},
                                    {"model", "test-model"},
                                    {"stopReason", "endTurn"}});
  };
}

// A user who accepts with a name.
ClientRequestHandler user(std::atomic<int>& calls) {
  return [&calls](const json::object&, const CancellationToken&) -> Result<json::value> {
    ++calls;
    return json::value(json::object{{"action", "accept"}, {"content", json::object{{"name", "Ada"}, {"check", true}}}});
  };
}

}  // namespace

TEST_F(GatewayBridge, A2026ClientAnswersA2025ServersSamplingAsAMultiRoundTrip) {
  std::atomic<int> asked{0};
  ClientOptions co;
  co.on_sampling = model(asked);
  auto c = client(urls.at("reference"), "2026-07-28", co);
  auto r = c->call_tool("trigger-sampling-request", {{"prompt", "hello from the test"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(asked.load(), 1);
  EXPECT_NE(text_of(*r).find("the model read: Resource trigger-sampling-request context: hello from the test"), std::string::npos)
      << text_of(*r);
}

TEST_F(GatewayBridge, A2025SessionAnswersA2025ServersElicitationInItsSession) {
  std::atomic<int> asked{0};
  ClientOptions co;
  co.on_elicitation = user(asked);
  auto c = client(urls.at("reference"), "2025-11-25", co);
  auto r = c->call_tool("trigger-elicitation-request", {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(asked.load(), 1);
  EXPECT_NE(text_of(*r).find("- Name: Ada"), std::string::npos) << text_of(*r);
}

// The elicitation a 2025-11-25 server sends in its session, answered by a 2026-07-28 client in a
// retry of its call (form mode: the user's answer reaches the upstream's tool whole).
TEST_F(GatewayBridge, A2026ClientAnswersA2025ServersElicitationAsAMultiRoundTrip) {
  std::atomic<int> asked{0};
  ClientOptions co;
  co.on_elicitation = user(asked);
  auto c = client(urls.at("reference"), "2026-07-28", co);
  ASSERT_EQ(c->server().protocol_version, "2026-07-28");
  auto r = c->call_tool("trigger-elicitation-request", {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(asked.load(), 1);
  EXPECT_NE(text_of(*r).find("- Name: Ada"), std::string::npos) << text_of(*r);
}

// A call whose client was asked for input and has not come back is recorded once the upstream
// answers it (here, after the gateway told the upstream its client did not answer in time), not
// when a retry claims the answer: a client that never returns leaves no call unrecorded. The
// retry that comes later gets that answer, and adds no record.
TEST_F(GatewayBridge, ACallIsRecordedWhenTheUpstreamAnswersNotWhenItsClientComesBack) {
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> asked{0};
  ClientOptions co;
  co.on_elicitation = [&asked, released](const json::object&, const CancellationToken&) -> Result<json::value> {
    ++asked;
    released.wait();  // the user takes their time
    return json::value(json::object{{"action", "decline"}});
  };
  auto c = client(urls.at("impatient"), "2026-07-28", co);
  auto call = std::async(std::launch::async, [&] { return c->call_tool("trigger-elicitation-request", {}); });
  const std::string state = (dir->path / "state").string();
  const auto records = [&] {
    auto exported = test::run_program(bin("mcp-trust"), {"audit", "export", "--state", state}, dir->path / "gw").out;
    std::istringstream lines(exported);
    std::vector<std::string> found;
    for (std::string line; std::getline(lines, line);)
      if (line.find(R"("item":"trigger-elicitation-request")") != std::string::npos &&
          line.find(R"("server":"impatient")") != std::string::npos)
        found.push_back(line);
    return found;
  };
  std::vector<std::string> found;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while ((found = records()).empty() && std::chrono::steady_clock::now() < deadline) {
  }
  ASSERT_EQ(found.size(), 1u) << "not recorded while the client was away";
  EXPECT_EQ(asked.load(), 1);
  EXPECT_EQ(found.front().find(R"("outcome":"refused")"), std::string::npos) << found.front();
  release.set_value();
  auto r = call.get();  // the retry gets the upstream's answer, whatever it made of the silence
  EXPECT_TRUE(r || r.error().from_peer) << r.error().message;
  found = records();
  EXPECT_EQ(found.size(), 1u) << "the retry that claimed the answer was recorded again: " << found.back();
}

TEST_F(GatewayBridge, BothSidesMultiRoundTripAndTheAggregateToo) {
  std::atomic<int> asked{0};
  ClientOptions co;
  co.on_elicitation = user(asked);
  auto c = client(urls.at("ours"), "2026-07-28", co);
  auto r = c->call_tool("test_input_required_result_elicitation", {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(asked.load(), 1);
  EXPECT_NE(text_of(*r).find("Ada"), std::string::npos) << text_of(*r);

  // /mcp forwards through the same proxies: the same bridge.
  auto all = client(urls.at("(all)"), "2025-11-25", co);
  auto viaAll = all->call_tool("reference__trigger-elicitation-request", {});
  ASSERT_TRUE(viaAll) << viaAll.error().message;
  EXPECT_EQ(asked.load(), 2);
  EXPECT_NE(text_of(*viaAll).find("- Name: Ada"), std::string::npos) << text_of(*viaAll);
}

TEST_F(GatewayBridge, AClientThatCannotAnswerIsNeverAskedAndTheUpstreamIsToldWhy) {
  std::atomic<int> sampled{0};
  ClientOptions co;
  co.on_sampling = model(sampled);  // sampling, but no elicitation
  auto c = client(urls.at("reference"), "2026-07-28", co);
  auto r = c->call_tool("trigger-elicitation-request", {});
  // The upstream's tool fails on the refused request; however it reports that, it says why.
  const std::string said = r ? text_of(*r) : r.error().message;
  EXPECT_TRUE(!r || r->is_error.value_or(false)) << said;
  EXPECT_NE(said.find("did not declare the 'elicitation' capability"), std::string::npos) << said;
  EXPECT_EQ(sampled.load(), 0);
  // The call ended: the client's next call is served as usual.
  auto echo = c->call_tool("echo", {{"message", "still here"}});
  ASSERT_TRUE(echo) << echo.error().message;
  EXPECT_NE(text_of(*echo).find("still here"), std::string::npos);
}

// completion/complete is forwarded too, with the context the client gave (the reference server
// completes a team member from the department already chosen), and at /mcp under NAME__prompt.
TEST_F(GatewayBridge, CompletionsAreForwardedAtTheUpstreamsPathAndAtMcp) {
  for (const char* revision : {"2025-11-25", "2026-07-28"}) {
    SCOPED_TRACE(revision);
    auto c = client(urls.at("reference"), revision, {});
    ASSERT_TRUE(c->server_supports("completions"));
    CompleteRequestParams p;
    p.ref = PromptReference{.name = "completable-prompt"};
    p.argument = CompletionArgument{.name = "name", .value = "A"};
    p.context = CompletionContext{.arguments = {{"department", "Engineering"}}};
    auto r = c->complete(p);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->completion.values, std::vector<std::string>{"Alice"});

    auto all = client(urls.at("(all)"), revision, {});
    p.ref = PromptReference{.name = "reference__completable-prompt"};
    auto via_all = all->complete(p);
    ASSERT_TRUE(via_all) << via_all.error().message;
    EXPECT_EQ(via_all->completion.values, std::vector<std::string>{"Alice"});
    // Our everything-server's prompt at /mcp, under its own name there.
    p.ref = PromptReference{.name = "ours__test_prompt_with_arguments"};
    p.argument = CompletionArgument{.name = "arg1", .value = "tes"};
    p.context.reset();
    auto ours = all->complete(p);
    ASSERT_TRUE(ours) << ours.error().message;
    EXPECT_EQ(ours->completion.values, (std::vector<std::string>{"test", "testing", "tested"}));
    // What no upstream serves is refused, not sent anywhere.
    p.ref = PromptReference{.name = "nobody__nothing"};
    auto none = all->complete(p);
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("no upstream serves"), std::string::npos) << none.error().message;
  }
}
