// The gateway as its upstreams' client and as the judge of its own clients, against the real
// program: what an item needs of the client that uses it (requireCapabilities, policy.hpp), the
// roots it answers an upstream with and the log messages it asks an upstream for (config.hpp,
// upstream_log.hpp), and what its entry in the mcpServers file gives it (a stdio upstream's `cwd`,
// an HTTP upstream's `headers`). Upstreams: the reference server-filesystem (which takes its
// allowed folders from its client's roots) and server-everything (which logs on request), our
// everything-server (2026-07-28 to the gateway) and file-manager (serving the folder it runs in),
// and a scripted HTTP server that records what it is sent and answers 503.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "../examples/tmp_dir.hpp"
#include "gateway_test_util.hpp"
#include "http/http_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/protocol/capabilities.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;
using mcp::gateway_test::json_string;
using mcp::gateway_test::lists;
using mcp::gateway_test::node_dir;
using mcp::gateway_test::reference_server;
using mcp::gateway_test::text_of;
using namespace std::chrono_literals;

namespace {

class GatewayClientSide : public ::testing::Test {
 protected:
  static inline std::unique_ptr<test::TmpDir> dir;
  static inline std::unique_ptr<test::BackgroundProgram> gateway;
  static inline std::map<std::string, std::string> urls;
  static inline std::string setup_error;
  // An "upstream" that records the head of every request sent to it and refuses it (503): the
  // gateway reports it and leaves it out, having sent what its entry says.
  static inline std::unique_ptr<http::test::ScriptedHttpServer> recorder;
  static inline std::mutex recorded_mu;
  static inline std::vector<std::string> recorded_heads;

  static void SetUpTestSuite() {
    dir = std::make_unique<test::TmpDir>();
    std::filesystem::create_directories(dir->path / "shared");
    std::filesystem::create_directories(dir->path / "cli");
    std::ofstream(dir->path / "shared" / "hello.txt") << "hello from the root";
    recorder = std::make_unique<http::test::ScriptedHttpServer>([](const http::test::ScriptedRequest& r, const auto& send) {
      {
        std::lock_guard lock(recorded_mu);
        recorded_heads.push_back(r.head);
      }
      send("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
    });
    const std::string recorder_url = "http://127.0.0.1:" + std::to_string(recorder->port) + "/mcp";
    const std::string node = (node_dir() / "node_modules" / ".bin" / "node").string();
    const std::string root_uri = "file://" + (dir->path / "shared").string();
    std::ofstream(dir->path / "servers.json")
        << R"({"mcpServers": {)"
        << R"("reference": {"command": )" << json_string(node) << R"(, "args": [)"
        << json_string(reference_server("server-everything")) << R"(, "stdio"]},)"
        // No folder on its command line: it serves only the roots its client gives it.
        << R"("files": {"command": )" << json_string(node) << R"(, "args": [)" << json_string(reference_server("server-filesystem"))
        << "]},"
        << R"("ours": {"command": )" << json_string(bin("everything-server")) << "},"
        // Serves "." as file:///: the folder its entry's cwd names.
        << R"("rooted": {"command": )" << json_string(bin("file-manager")) << R"(, "args": ["--root", "."], "cwd": )"
        << json_string((dir->path / "shared").string()) << "},"
        << R"("recorded": {"url": )" << json_string(recorder_url)
        << R"(, "headers": {"X-Gateway-Test": "from-the-entry", "Authorization": "Bearer t0ken"}}},)"
        << R"("gateway": {"servers": {)"
        << R"("reference": {"logLevel": "debug"},)"
        << R"("files": {"roots": [{"uri": )" << json_string(root_uri) << R"(, "name": "shared"}], "logLevel": "off"},)"
        << R"("ours": {"requireCapabilities": [)"
        << R"({"items": "test_input_required_result_elicitation", "capabilities": {"elicitation": {}}, "whenMissing": "hide"},)"
        << R"({"items": "test_simple_*", "capabilities": {"roots": {}}}]}}}})";
    gateway = gateway_test::start_gateway(dir->path / "servers.json", (dir->path / "state").string(), dir->path / "gw", urls,
                                          setup_error);
  }
  static void TearDownTestSuite() {
    gateway.reset();
    recorder.reset();
    dir.reset();
  }
  void SetUp() override {
    ASSERT_TRUE(gateway) << setup_error;
    for (const char* name : {"reference", "files", "ours", "rooted", "(all)"})
      ASSERT_TRUE(urls.contains(name)) << name << " is not served: " << gateway->err();
  }

  std::unique_ptr<Client> client(const std::string& url, const std::string& revision, ClientOptions co = {}) {
    co.protocol_version = revision;
    co.fallback = false;
    co.session.request_timeout = 60s;
    return gateway_test::connected_client(url, std::move(co));
  }

  // Whether the gateway's stderr shows `text` within `bound` (it is written as the upstream's
  // notification arrives, on another thread than the test's).
  static bool logged_within(const std::string& text, std::chrono::milliseconds bound) {
    const auto deadline = std::chrono::steady_clock::now() + bound;
    while (gateway->err().find(text) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(20ms);  // polling a file: there is no event to wait on
    }
    return true;
  }
};

ClientRequestHandler accepting_user() {
  return [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::value(json::object{{"action", "accept"}, {"content", json::object{{"name", "Ada"}}}});
  };
}

const Tool* find_tool(const std::vector<Tool>& tools, const std::string& name) {
  for (const auto& t : tools)
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace

TEST_F(GatewayClientSide, AToolNeedingACapabilityIsHiddenFromAndRefusedToClientsWithoutIt) {
  for (const char* revision : {"2026-07-28", "2025-11-25"}) {
    SCOPED_TRACE(revision);
    auto without = client(urls.at("ours"), revision);
    EXPECT_FALSE(lists(*without, "test_input_required_result_elicitation"));
    EXPECT_TRUE(lists(*without, "test_error_handling"));  // what no rule names is listed to all
    auto r = without->call_tool("test_input_required_result_elicitation", {});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::kMissingRequiredClientCapability) << r.error().message;
    ASSERT_TRUE(r.error().data && r.error().data->is_object()) << r.error().message;
    EXPECT_TRUE(r.error().data->as_object().at("requiredCapabilities").as_object().contains("elicitation"))
        << json::serialize(*r.error().data);

    ClientOptions co;
    co.on_elicitation = accepting_user();
    auto with = client(urls.at("ours"), revision, co);
    EXPECT_TRUE(lists(*with, "test_input_required_result_elicitation"));
    auto ok = with->call_tool("test_input_required_result_elicitation", {});
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_NE(text_of(*ok).find("Ada"), std::string::npos) << text_of(*ok);
  }
  // Each refusal is a call in the audit log, with the error its client got. (The running gateway
  // commits a record within milliseconds of the answer; another process reads it once it is in.)
  const auto refusals = [](const std::string& exported) {
    std::istringstream lines(exported);
    int n = 0;
    for (std::string line; std::getline(lines, line);) {
      n += line.find(R"("item":"test_input_required_result_elicitation")") != std::string::npos &&
           line.find(R"("outcome":"refused")") != std::string::npos &&
           line.find("needs client capabilities this request did not declare") != std::string::npos;
    }
    return n;
  };
  std::string exported;
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  do {
    // Run in a folder of its own: in the gateway's, it would write over the gateway's stderr file.
    exported = test::run_program(bin("mcp-trust"), {"audit", "export", "--state", (dir->path / "state").string()},
                                 dir->path / "cli").out;
  } while (refusals(exported) < 2 && std::chrono::steady_clock::now() < deadline);
  EXPECT_GE(refusals(exported), 2) << exported.substr(0, 4000);
}

TEST_F(GatewayClientSide, AShownRequirementMarksTheToolWithWhatItNeeds) {
  // Listed to every request, marked with what it needs (our Client then leaves out what it cannot
  // use); called only by a request that declares it.
  ClientOptions co;
  co.on_roots = [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::value(json::object{{"roots", json::array{}}});
  };
  auto with = client(urls.at("ours"), "2026-07-28", co);
  auto tools = with->list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  const Tool* simple = find_tool(*tools, "test_simple_text");
  ASSERT_NE(simple, nullptr);
  ASSERT_TRUE(simple->meta) << "test_simple_text is listed without what it needs";
  const auto* needs = simple->meta->if_contains(kRequiredCapabilitiesKey);
  ASSERT_NE(needs, nullptr) << json::serialize(*simple->meta);
  EXPECT_TRUE(needs->as_object().contains("roots")) << json::serialize(*needs);
  EXPECT_TRUE(with->call_tool("test_simple_text", {}));

  auto without = client(urls.at("ours"), "2026-07-28");
  EXPECT_FALSE(lists(*without, "test_simple_text"));
  auto r = without->call_tool("test_simple_text", {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMissingRequiredClientCapability) << r.error().message;
}

TEST_F(GatewayClientSide, TheAggregateRequiresTheSameOfItsClients) {
  auto without = client(urls.at("(all)"), "2026-07-28");
  EXPECT_FALSE(lists(*without, "ours__test_input_required_result_elicitation"));
  EXPECT_TRUE(lists(*without, "ours__test_error_handling"));
  auto r = without->call_tool("ours__test_input_required_result_elicitation", {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMissingRequiredClientCapability) << r.error().message;

  ClientOptions co;
  co.on_elicitation = accepting_user();
  auto with = client(urls.at("(all)"), "2025-11-25", co);
  EXPECT_TRUE(lists(*with, "ours__test_input_required_result_elicitation"));
  auto ok = with->call_tool("ours__test_input_required_result_elicitation", {});
  ASSERT_TRUE(ok) << ok.error().message;
  EXPECT_NE(text_of(*ok).find("Ada"), std::string::npos) << text_of(*ok);
}

TEST_F(GatewayClientSide, AnUpstreamGetsTheConfiguredRootsAsItsAllowedFolders) {
  auto c = client(urls.at("files"), "2025-11-25");
  // server-filesystem asks for the roots once initialized, and applies them when they arrive.
  std::string allowed;
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  do {
    auto r = c->call_tool("list_allowed_directories", {});
    ASSERT_TRUE(r) << r.error().message;
    allowed = text_of(*r);
    if (allowed.find((dir->path / "shared").string()) != std::string::npos) break;
    std::this_thread::sleep_for(50ms);
  } while (std::chrono::steady_clock::now() < deadline);
  EXPECT_NE(allowed.find((dir->path / "shared").string()), std::string::npos) << allowed;
  auto read = c->call_tool("read_text_file", {{"path", (dir->path / "shared" / "hello.txt").string()}});
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_NE(text_of(*read).find("hello from the root"), std::string::npos) << text_of(*read);
  // Outside the roots, the upstream itself refuses.
  auto outside = c->call_tool("read_text_file", {{"path", (dir->path / "servers.json").string()}});
  ASSERT_TRUE(outside) << outside.error().message;
  EXPECT_TRUE(outside->is_error.value_or(false)) << text_of(*outside);
}

TEST_F(GatewayClientSide, AnUpstreamsLogMessagesGoToTheGatewaysLogWithItsName) {
  auto c = client(urls.at("reference"), "2026-07-28");
  // Sends one message at once (a random level: "debug" asks for all of them), then one every 5 s.
  auto r = c->call_tool("toggle-simulated-logging", {});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(logged_within("-level message", 20s)) << gateway->err();
  const std::string err = gateway->err();
  const auto at = err.find("-level message");
  ASSERT_NE(at, std::string::npos);
  const auto line_start = err.rfind('\n', at);
  const std::string line = err.substr(line_start == std::string::npos ? 0 : line_start + 1, at - line_start);
  EXPECT_NE(line.find("[reference]"), std::string::npos) << line;
  EXPECT_NE(line.find("notifications/message ["), std::string::npos) << line;
  (void)c->call_tool("toggle-simulated-logging", {});  // stops it
}

TEST_F(GatewayClientSide, AStdioUpstreamRunsInItsEntrysCwd) {
  auto c = client(urls.at("rooted"), "2025-11-25");
  auto read = c->read_resource("file:///hello.txt");
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_FALSE(read->contents.empty());
  const auto* text = std::get_if<TextResourceContents>(&read->contents.front());
  ASSERT_NE(text, nullptr);
  EXPECT_EQ(text->text, "hello from the root");
}

TEST_F(GatewayClientSide, AnHttpUpstreamIsSentItsEntrysHeaders) {
  // It answered 503 to the gateway's first request: reported and left out.
  EXPECT_FALSE(urls.contains("recorded"));
  EXPECT_NE(gateway->err().find("recorded"), std::string::npos) << gateway->err();
  std::vector<std::string> heads;
  {
    std::lock_guard lock(recorded_mu);
    heads = recorded_heads;
  }
  ASSERT_FALSE(heads.empty()) << "the gateway never reached the HTTP upstream";
  for (const auto& head : heads) {
    EXPECT_EQ(head.rfind("POST /mcp ", 0), 0u) << head;
    EXPECT_NE(head.find("X-Gateway-Test: from-the-entry\r\n"), std::string::npos) << head;
    EXPECT_NE(head.find("Authorization: Bearer t0ken\r\n"), std::string::npos) << head;
  }
}
