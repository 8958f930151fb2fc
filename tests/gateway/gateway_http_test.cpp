// `mcp-trust gateway --config FILE` in front of real, unmodified servers: the reference
// server-everything, server-filesystem and server-memory (stdio, Node), and as Streamable HTTP
// upstreams the reference server-everything (its streamableHttp mode) and our everything-server. One gateway for the suite; our client reaches each upstream at
// /servers/NAME/mcp in both revisions (a 2026-07-28 client through to 2025-11-25 stdio upstreams),
// lists and calls; a server that cannot start is reported and left out; every call lands in the
// audit log, whose chain verifies. Every wait is on an event (a printed line, an answer, an exit).
#include <gtest/gtest.h>

#include <sstream>

#include <fstream>

#include "../examples/tmp_dir.hpp"
#include "http/http_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "gateway_test_util.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;
using mcp::gateway_test::json_string;
using mcp::gateway_test::lists;
using mcp::gateway_test::node_dir;
using mcp::gateway_test::reference_server;
using mcp::gateway_test::text_of;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

class GatewayHttp : public ::testing::Test {
 protected:
  static inline std::unique_ptr<test::TmpDir> dir;
  static inline std::unique_ptr<test::BackgroundProgram> upstream_http;  // our everything-server
  static inline std::unique_ptr<test::BackgroundProgram> reference_http;  // server-everything streamableHttp
  static inline std::unique_ptr<test::BackgroundProgram> gateway;
  static inline std::map<std::string, std::string> urls;  // upstream name -> its URL at the gateway
  static inline std::string state;
  // What went wrong starting the suite's programs: each test fails with it (a failed
  // SetUpTestSuite alone would show the tests as skipped).
  static inline std::string setup_error;

  void SetUp() override { ASSERT_TRUE(setup_error.empty()) << setup_error; }

  static void SetUpTestSuite() {
    dir = std::make_unique<test::TmpDir>();
    state = (dir->path / "state").string();
    fs::create_directories(dir->path / "files");
    std::ofstream(dir->path / "files" / "hello.txt") << "hello from the filesystem server\n";
    fs::create_directories(dir->path / "up");
    upstream_http = std::make_unique<test::BackgroundProgram>(bin("everything-server"),
                                                              std::vector<std::string>{"--http", "--port", "0"}, dir->path / "up");
    const std::string up_line = upstream_http->wait_for_line("listening on ");
    if (up_line.empty()) {
      setup_error = "everything-server --http did not start: " + upstream_http->err();
      return;
    }
    const std::string up_url = up_line.substr(std::string("listening on ").size());

    const std::string node = (node_dir() / "node_modules" / ".bin" / "node").string();
    // The reference server-everything over Streamable HTTP takes its port from PORT and names
    // it only on stderr, so it runs under sh with stderr on the pipe we read and its per-request
    // stdout log discarded (unread, it would fill the pipe and stall the server). The port is one
    // the kernel just gave us and took back; another program taking it meanwhile fails setup
    // with the server's own "already in use".
    const auto [probe, ref_port] = http::test::loopback_listener();
    if (probe < 0) {
      setup_error = "no free loopback port";
      return;
    }
    ::close(probe);
    fs::create_directories(dir->path / "ref");
    const auto quoted = [](const std::string& s) { return "'" + s + "'"; };  // test paths hold no quote
    reference_http = std::make_unique<test::BackgroundProgram>(
        "/bin/sh",
        std::vector<std::string>{"-c", "PORT=" + std::to_string(ref_port) + " exec " + quoted(node) + " " +
                                           quoted(reference_server("server-everything")) +
                                           " streamableHttp 2>&1 >/dev/null"},
        dir->path / "ref");
    if (reference_http->wait_for_line("MCP Streamable HTTP Server listening on port").empty()) {
      setup_error = "server-everything streamableHttp did not start: " + reference_http->err() +
                    [&] {
                      std::string out;
                      for (const auto& l : reference_http->lines()) out += l + "\n";
                      return out;
                    }();
      return;
    }
    const std::string ref_url = "http://127.0.0.1:" + std::to_string(ref_port) + "/mcp";

    std::ofstream(dir->path / "servers.json")
        << R"({"mcpServers": {)"
        << R"("everything": {"command": )" << json_string(node) << R"(, "args": [)"
        << json_string(reference_server("server-everything")) << R"(, "stdio"]},)"
        << R"("filesystem": {"command": )" << json_string(node) << R"(, "args": [)"
        << json_string(reference_server("server-filesystem")) << ", " << json_string((dir->path / "files").string())
        << "]},"
        << R"("memory": {"command": )" << json_string(node) << R"(, "args": [)"
        << json_string(reference_server("server-memory")) << R"(], "env": {"MEMORY_FILE_PATH": )"
        << json_string((dir->path / "memory.jsonl").string()) << "}},"
        << R"("ours": {"url": )" << json_string(up_url) << "},"
        << R"("everything-http": {"url": )" << json_string(ref_url) << "},"
        << R"("broken": {"command": "/nonexistent/mcp-server"}},)"
        << R"("gateway": {"audit": {"keepRecords": 1000000}, "servers": {"memory": {"newItems": "allow"}}}})";
    gateway = gateway_test::start_gateway(dir->path / "servers.json", state, dir->path / "gw", urls, setup_error);
  }
  static void TearDownTestSuite() {
    gateway.reset();
    upstream_http.reset();
    reference_http.reset();
    dir.reset();
  }

  // A client of `revision` connected to upstream `name` through the gateway.
  static std::unique_ptr<Client> client_of(const std::string& name, const std::string& revision = "2025-11-25") {
    ClientOptions co;
    co.protocol_version = revision;
    co.session.request_timeout = 20s;
    auto c = std::make_unique<Client>(co);
    auto t = http::HttpClientTransport::create({.url = urls.at(name)});
    EXPECT_TRUE(t) << t.error().message;
    if (!t) return nullptr;
    auto init = c->connect(*t);
    EXPECT_TRUE(init) << name << ": " << init.error().message;
    return init ? std::move(c) : nullptr;
  }
};

TEST_F(GatewayHttp, EachUpstreamIsServedAtItsOwnPath) {
  for (const char* name : {"everything", "filesystem", "memory", "ours", "everything-http"}) {
    ASSERT_TRUE(urls.contains(name)) << name << "\n" << gateway->err();
    EXPECT_EQ(urls[name].substr(urls[name].find("/servers/")), std::string("/servers/") + name + "/mcp");
  }
  auto everything = client_of("everything");
  ASSERT_TRUE(everything);
  EXPECT_EQ(everything->server().server_info.name, "mcp-trust-gateway/everything");
  ASSERT_TRUE(lists(*everything, "echo"));
  auto echo = everything->call_tool("echo", {{"message", "through the gateway"}});
  ASSERT_TRUE(echo) << echo.error().message;
  EXPECT_NE(text_of(*echo).find("through the gateway"), std::string::npos) << text_of(*echo);

  auto files = client_of("filesystem");
  ASSERT_TRUE(files);
  EXPECT_FALSE(lists(*files, "echo"));  // each path is its own upstream
  auto read = files->call_tool("read_text_file", {{"path", (dir->path / "files" / "hello.txt").string()}});
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_NE(text_of(*read).find("hello from the filesystem server"), std::string::npos) << text_of(*read);

  auto memory = client_of("memory");
  ASSERT_TRUE(memory);
  auto created = memory->call_tool(
      "create_entities", {{"entities", json::array{json::object{{"name", "gateway"}, {"entityType", "test"}, {"observations", json::array{"pinned"}}}}}});
  ASSERT_TRUE(created) << created.error().message;
  auto graph = memory->call_tool("read_graph", {});
  ASSERT_TRUE(graph) << graph.error().message;
  EXPECT_NE(text_of(*graph).find("gateway"), std::string::npos) << text_of(*graph);

  auto ours = client_of("ours");
  ASSERT_TRUE(ours);
  auto simple = ours->call_tool("test_simple_text", {});
  ASSERT_TRUE(simple) << simple.error().message;
  EXPECT_FALSE(text_of(*simple).empty());
}

// The reference server-everything (TypeScript SDK 1.x) as a Streamable HTTP upstream: it answers
// in SSE streams and keeps a session of its own per gateway session; clients of both revisions
// list, call and read through it, and its tools are pinned like any upstream's.
TEST_F(GatewayHttp, AReferenceServerOverStreamableHttpIsAnUpstream) {
  for (const char* revision : {"2025-11-25", "2026-07-28"}) {
    SCOPED_TRACE(revision);
    auto c = client_of("everything-http", revision);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->server().server_info.name, "mcp-trust-gateway/everything-http");
    ASSERT_TRUE(lists(*c, "echo"));
    auto echo = c->call_tool("echo", {{"message", std::string("over http, ") + revision}});
    ASSERT_TRUE(echo) << echo.error().message;
    EXPECT_NE(text_of(*echo).find(std::string("over http, ") + revision), std::string::npos) << text_of(*echo);
    auto sum = c->call_tool("get-sum", {{"a", 2}, {"b", 40}});
    ASSERT_TRUE(sum) << sum.error().message;
    EXPECT_NE(text_of(*sum).find("42"), std::string::npos) << text_of(*sum);
    auto resources = c->list_all_resources();
    ASSERT_TRUE(resources) << resources.error().message;
    ASSERT_FALSE(resources->empty());
    auto read = c->read_resource(resources->front().uri);
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_FALSE(read->contents.empty());
  }
  auto all = client_of("(all)");
  ASSERT_TRUE(all);
  auto echo = all->call_tool("everything-http__echo", {{"message", "to all over http"}});
  ASSERT_TRUE(echo) << echo.error().message;
  EXPECT_NE(text_of(*echo).find("to all over http"), std::string::npos);

  // Run in a folder of its own: a program run in the gateway's would take over its stderr file.
  fs::create_directories(dir->path / "cli");
  const auto pins = test::run_program(bin("mcp-trust"), {"gateway", "pins", "--state", state}, dir->path / "cli");
  EXPECT_EQ(pins.code, 0) << pins.err;
  bool pinned = false;
  std::istringstream lines(pins.out);
  for (std::string line; std::getline(lines, line);)
    pinned = pinned || (line.find("everything-http") != std::string::npos && line.find("echo") != std::string::npos);
  EXPECT_TRUE(pinned) << pins.out.substr(0, 3000);
}

TEST_F(GatewayHttp, EveryUpstreamTogetherAtMcpAsNameUnderscoreUnderscoreItem) {
  ASSERT_TRUE(urls.contains("(all)")) << gateway->err();
  EXPECT_TRUE(urls["(all)"].ends_with("/mcp"));
  for (const char* revision : {"2025-11-25", "2026-07-28"}) {
    SCOPED_TRACE(revision);
    auto all = client_of("(all)", revision);
    ASSERT_TRUE(all);
    EXPECT_TRUE(lists(*all, "everything__echo"));
    EXPECT_TRUE(lists(*all, "filesystem__read_text_file"));
    EXPECT_TRUE(lists(*all, "memory__read_graph"));
    EXPECT_TRUE(lists(*all, "ours__test_simple_text"));
    EXPECT_FALSE(lists(*all, "echo"));
    auto echo = all->call_tool("everything__echo", {{"message", "to all"}});
    ASSERT_TRUE(echo) << echo.error().message;
    EXPECT_NE(text_of(*echo).find("to all"), std::string::npos) << text_of(*echo);
    auto read = all->call_tool("filesystem__read_text_file", {{"path", (dir->path / "files" / "hello.txt").string()}});
    ASSERT_TRUE(read) << read.error().message;
    EXPECT_NE(text_of(*read).find("hello from the filesystem server"), std::string::npos);
  }
}

TEST_F(GatewayHttp, PromptsResourcesAndTemplatesAreForwarded) {
  for (const char* revision : {"2025-11-25", "2026-07-28"}) {
    SCOPED_TRACE(revision);
    auto c = client_of("everything", revision);
    ASSERT_TRUE(c);
    auto prompts = c->list_all_prompts();
    ASSERT_TRUE(prompts) << prompts.error().message;
    ASSERT_FALSE(prompts->empty());
    // The first prompt that needs no argument, got through the gateway.
    auto simple = std::find_if(prompts->begin(), prompts->end(), [](const Prompt& p) {
      return std::none_of(p.arguments.begin(), p.arguments.end(),
                          [](const PromptArgument& a) { return a.required.value_or(false); });
    });
    ASSERT_NE(simple, prompts->end());
    auto got = c->get_prompt(simple->name);
    ASSERT_TRUE(got) << got.error().message;
    EXPECT_FALSE(got->messages.empty());

    auto resources = c->list_all_resources();
    ASSERT_TRUE(resources) << resources.error().message;
    ASSERT_FALSE(resources->empty());
    auto read = c->read_resource(resources->front().uri);
    ASSERT_TRUE(read) << resources->front().uri << ": " << read.error().message;
    ASSERT_FALSE(read->contents.empty());
    EXPECT_EQ(uri_of(read->contents.front()), resources->front().uri);

    auto templates = c->list_all_resource_templates();
    ASSERT_TRUE(templates) << templates.error().message;
    EXPECT_FALSE(templates->empty());
  }
}

TEST_F(GatewayHttp, A2026ClientReachesA2025StdioUpstream) {
  auto c = client_of("everything", "2026-07-28");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->server().protocol_version, "2026-07-28");
  ASSERT_TRUE(lists(*c, "echo"));
  auto echo = c->call_tool("echo", {{"message", "stateless"}});
  ASSERT_TRUE(echo) << echo.error().message;
  EXPECT_NE(text_of(*echo).find("stateless"), std::string::npos);
}

TEST_F(GatewayHttp, AServerThatCannotStartIsReportedAndLeftOut) {
  EXPECT_FALSE(urls.contains("broken"));
  EXPECT_NE(gateway->err().find("broken"), std::string::npos) << gateway->err();
  // Its path is no endpoint.
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  Client c(co);
  std::string url = urls.at("everything");
  url.replace(url.find("/servers/everything/"), std::string("/servers/everything/").size(), "/servers/broken/");
  auto t = http::HttpClientTransport::create({.url = url});
  ASSERT_TRUE(t);
  EXPECT_FALSE(c.connect(*t));
}

TEST_F(GatewayHttp, EveryCallIsInTheAuditLogAndTheChainVerifies) {
  auto c = client_of("everything");
  ASSERT_TRUE(c);
  auto echo = c->call_tool("echo", {{"message", "audited"}});
  ASSERT_TRUE(echo) << echo.error().message;
  // Who called, as known: each client's session and the name and version it gave, in either
  // revision (a 2026-07-28 client gives them in each request's _meta, with no initialize).
  for (const char* revision : {"2025-11-25", "2026-07-28"}) {
    ClientOptions co;
    co.protocol_version = revision;
    co.session.request_timeout = 20s;
    co.info = Implementation{.name = std::string("identified-") + revision, .version = "7.1"};
    auto identified = gateway_test::connected_client(urls.at("everything"), co);
    ASSERT_TRUE(identified);
    ASSERT_EQ(identified->server().protocol_version, revision);
    auto r = identified->call_tool("echo", {{"message", revision}});
    ASSERT_TRUE(r) << r.error().message;
    // And a refused call: a name the upstream does not offer.
    EXPECT_FALSE(identified->call_tool("no_such_tool", {}));
  }
  // The running gateway commits a call's record within milliseconds of answering it (its journal
  // holds it meanwhile: call_journal.hpp); another process reads it once it is in.
  test::ProgramOutcome exported;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  do {
    exported = test::run_program(bin("mcp-trust"), {"audit", "export", "--state", state}, dir->path / "gw");
    ASSERT_EQ(exported.code, 0) << exported.err;
  } while ((exported.out.find(R"("item":"echo")") == std::string::npos ||
            exported.out.find(R"("clientInfo":"identified-2026-07-28/7.1")") == std::string::npos ||
            exported.out.find(R"("clientInfo":"identified-2026-07-28/7.1","error")") == std::string::npos) &&
           std::chrono::steady_clock::now() < deadline);
  const auto verify = test::run_program(bin("mcp-trust"), {"audit", "verify", "--state", state}, dir->path / "gw");
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
  EXPECT_NE(exported.out.find(R"("server":"everything")"), std::string::npos) << exported.out.substr(0, 2000);
  EXPECT_NE(exported.out.find(R"("item":"echo")"), std::string::npos);
  // The arguments are recorded as a digest, never in clear: the record of this call has one.
  EXPECT_EQ(exported.out.find("audited"), std::string::npos);
  std::istringstream lines(exported.out);
  std::size_t echoes_with_digest = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find(R"("item":"echo")") != std::string::npos && line.find(R"("arguments":"sha256:)") != std::string::npos)
      ++echoes_with_digest;
  }
  EXPECT_GE(echoes_with_digest, 1u) << exported.out.substr(0, 2000);
  for (const std::string revision : {"2025-11-25", "2026-07-28"}) {
    SCOPED_TRACE(revision);
    const std::string who = R"("clientInfo":"identified-)" + revision + R"(/7.1")";
    std::istringstream again(exported.out);
    int calls = 0, refusals = 0;
    for (std::string line; std::getline(again, line);) {
      if (line.find(who) == std::string::npos) continue;
      EXPECT_EQ(line.find(R"("client":"")"), std::string::npos) << "a record without the client's session: " << line;
      calls += line.find(R"("item":"echo","latencyUs")") != std::string::npos && line.find(R"("outcome":"ok")") != std::string::npos;
      refusals += line.find(R"("item":"no_such_tool")") != std::string::npos &&
                  line.find(R"("outcome":"refused")") != std::string::npos &&
                  line.find(R"("server":"everything")") != std::string::npos;
    }
    EXPECT_EQ(calls, 1) << exported.out.substr(0, 4000);
    EXPECT_EQ(refusals, 1) << exported.out.substr(0, 4000);
  }
}

TEST_F(GatewayHttp, MetricsCountRequestsByUpstreamMethodAndOutcome) {
  auto c = client_of("everything");
  ASSERT_TRUE(c);
  ASSERT_TRUE(c->call_tool("echo", {{"message", "counted"}}));
  EXPECT_FALSE(c->call_tool("no_such_tool", {}));  // refused by the gateway: never forwarded, not counted
  const std::string base = urls.at("everything").substr(0, urls.at("everything").find("/servers/"));
  const auto port = static_cast<unsigned short>(std::stoi(base.substr(base.rfind(':') + 1)));
  const auto scrape = http::test::raw_exchange(port, "GET", {}, {}, "/metrics");
  ASSERT_EQ(scrape.status, 200) << scrape.body;
  EXPECT_NE(scrape.body.find(R"(mcp_gateway_requests_total{upstream="everything",method="tools/call",outcome="ok"} )"),
            std::string::npos)
      << scrape.body;
  EXPECT_NE(scrape.body.find(R"(mcp_gateway_request_duration_seconds_count{upstream="everything",method="tools/call"} )"),
            std::string::npos);
  // The refused call was never forwarded, so no tools/call of this upstream ended in an error.
  EXPECT_EQ(
      scrape.body.find(R"(mcp_gateway_requests_total{upstream="everything",method="tools/call",outcome="error"})"),
      std::string::npos)
      << scrape.body;
  EXPECT_NE(scrape.body.find(R"(mcp_gateway_quarantined_items{upstream="memory"} 0)"), std::string::npos);
  EXPECT_NE(scrape.body.find(R"(mcp_gateway_upstream_restarts_total{upstream="ours"} 0)"), std::string::npos);
  // The config's gateway.audit started a retention: nothing over a million records to prune yet.
  EXPECT_NE(scrape.body.find("\nmcp_gateway_audit_pruned_records_total 0\n"), std::string::npos) << scrape.body;
  EXPECT_NE(scrape.body.find("\nmcp_gateway_audit_chain_broken 0\n"), std::string::npos) << scrape.body;
}

}  // namespace
