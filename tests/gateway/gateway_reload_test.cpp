// `mcp-trust gateway --config FILE` reloads FILE on SIGHUP: an unchanged upstream keeps running and
// its clients keep their sessions; a removed one stops (its path answers 404); a new one is served,
// alone and in /mcp; a file that does not parse changes nothing; an audit retention comes and goes
// with the file's gateway.audit. Against the real program, with our
// everything-server as the upstreams; every wait is on a printed line or an answer.
#include <gtest/gtest.h>
#include <signal.h>

#include <fstream>
#include <sstream>

#include "../examples/tmp_dir.hpp"
#include "gateway_test_util.hpp"
#include "http/http_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;
using mcp::gateway_test::json_string;
using mcp::gateway_test::lists;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

class GatewayReload : public ::testing::Test {
 protected:
  test::TmpDir dir;
  std::unique_ptr<test::BackgroundProgram> gateway;
  std::map<std::string, std::string> urls;

  void write_config(const std::vector<std::string>& names, const std::string& gateway_section = "") {
    std::string servers;
    for (const auto& n : names) {
      servers += (servers.empty() ? "" : ",") + json_string(n) + R"(: {"command": )" + json_string(bin("everything-server")) + "}";
    }
    std::ofstream(dir.path / "servers.json") << R"({"mcpServers": {)" << servers << "}"
                                             << (gateway_section.empty() ? "" : ", \"gateway\": " + gateway_section) << "}";
  }

  void start(const std::vector<std::string>& extra = {}) {
    std::string error;
    gateway = gateway_test::start_gateway(dir.path / "servers.json", (dir.path / "state").string(), dir.path / "gw", urls,
                                          error, extra);
    ASSERT_TRUE(gateway) << error;
  }

  // SIGHUP, then the gateway's "reloaded ..." (or "reload failed") line.
  std::string reload() {
    ::kill(gateway->pid(), SIGHUP);
    std::string line = gateway->wait_for_line("reload", 60s);
    gateway_test::take_urls(*gateway, urls);
    return line;
  }

  std::unique_ptr<Client> client_of(const std::string& url) {
    ClientOptions co;
    co.protocol_version = "2025-11-25";
    co.session.request_timeout = 20s;
    auto c = std::make_unique<Client>(co);
    auto t = http::HttpClientTransport::create({.url = url});
    EXPECT_TRUE(t);
    if (!t) return nullptr;
    auto init = c->connect(*t);
    EXPECT_TRUE(init) << url << ": " << init.error().message;
    return init ? std::move(c) : nullptr;
  }

  void TearDown() override {
    if (gateway) {
      EXPECT_EQ(gateway->stop(), 0) << gateway->err();
    }
  }
};

TEST_F(GatewayReload, UnchangedUpstreamsKeepTheirSessionsRemovedStopNewStart) {
  write_config({"a", "b"});
  start();
  ASSERT_TRUE(urls.contains("a") && urls.contains("b")) << gateway->err();
  auto a = client_of(urls["a"]);
  auto b = client_of(urls["b"]);
  ASSERT_TRUE(a && b);
  ASSERT_TRUE(a->call_tool("test_simple_text", {}));
  const std::string b_url = urls["b"];

  write_config({"a", "c"});
  EXPECT_EQ(reload(), "reloaded kept=a started=c stopped=b") << gateway->err();
  // a's session goes on (our client does not start a new one on its own: an ended session fails).
  auto still = a->call_tool("test_simple_text", {});
  ASSERT_TRUE(still) << still.error().message;
  EXPECT_FALSE(b->call_tool("test_simple_text", {}));  // b's ended with it
  // b is gone: its path is no endpoint.
  auto fresh_b = std::make_unique<Client>();
  auto t = http::HttpClientTransport::create({.url = b_url});
  ASSERT_TRUE(t);
  EXPECT_FALSE(fresh_b->connect(*t));
  // c is served, alone and in /mcp.
  ASSERT_TRUE(urls.contains("c"));
  auto c = client_of(urls["c"]);
  ASSERT_TRUE(c);
  EXPECT_TRUE(c->call_tool("test_simple_text", {}));
  auto all = client_of(urls.at("(all)"));
  ASSERT_TRUE(all);
  EXPECT_TRUE(lists(*all, "a__test_simple_text"));
  EXPECT_TRUE(lists(*all, "c__test_simple_text"));
  EXPECT_FALSE(lists(*all, "b__test_simple_text"));

  // A changed entry (its policy) restarts that upstream only.
  write_config({"a", "c"}, R"({"servers": {"c": {"deny": ["test_simple_text"]}}})");
  EXPECT_EQ(reload(), "reloaded kept=a started=c stopped=c") << gateway->err();
  EXPECT_FALSE(c->call_tool("test_simple_text", {}));  // the old c's session ended
  auto c2 = client_of(urls["c"]);
  ASSERT_TRUE(c2);
  EXPECT_FALSE(lists(*c2, "test_simple_text"));
  ASSERT_TRUE(a->call_tool("test_simple_text", {}));

  // A changed entry that does not start leaves the running upstream as it was.
  std::ofstream(dir.path / "servers.json") << R"({"mcpServers": {"a": {"command": "/nonexistent/mcp-server"}, "c": {"command": )"
                                           << json_string(bin("everything-server"))
                                           << R"(}}, "gateway": {"servers": {"c": {"deny": ["test_simple_text"]}}}})";
  EXPECT_EQ(reload(), "reloaded kept=a,c started=- stopped=-") << gateway->err();
  EXPECT_NE(gateway->err().find("the running one is kept"), std::string::npos) << gateway->err();
  ASSERT_TRUE(a->call_tool("test_simple_text", {}));

  // Each reload is in the audit log.
  const auto exported = test::run_program(bin("mcp-trust"), {"audit", "export", "--state", (dir.path / "state").string()}, dir.path);
  ASSERT_EQ(exported.code, 0) << exported.err;
  EXPECT_NE(exported.out.find(R"("event":"reload")"), std::string::npos) << exported.out.substr(0, 2000);
}

// A retention given by a reload (gateway.audit) prunes the log at once, and names its policy in the
// chain; one taken away by a reload stops. The wait for the prune is on /metrics, which counts it.
TEST_F(GatewayReload, AnAuditRetentionComesAndGoesWithTheFile) {
  write_config({"a"});
  start();
  auto a = client_of(urls.at("a"));
  ASSERT_TRUE(a);
  for (int i = 0; i < 30; ++i) ASSERT_TRUE(a->call_tool("test_simple_text", {}));
  const std::string base = urls.at("a").substr(0, urls.at("a").find("/servers/"));
  const auto port = static_cast<unsigned short>(std::stoi(base.substr(base.rfind(':') + 1)));
  auto metrics = [&] { return http::test::raw_exchange(port, "GET", {}, {}, "/metrics").body; };
  EXPECT_EQ(metrics().find("mcp_gateway_audit_pruned_records_total"), std::string::npos) << "no retention yet";

  write_config({"a"}, R"({"audit": {"keepRecords": 5}})");
  EXPECT_EQ(reload(), "reloaded kept=a started=- stopped=-") << gateway->err();
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  std::string text = metrics();
  while (text.find("\nmcp_gateway_audit_pruned_records_total 0\n") != std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    text = metrics();  // each scrape is an answer waited for; the retention's first pass runs at once
  }
  EXPECT_NE(text.find("mcp_gateway_audit_pruned_records_total "), std::string::npos) << text;
  EXPECT_EQ(text.find("\nmcp_gateway_audit_pruned_records_total 0\n"), std::string::npos) << "never pruned: " << text;
  const auto verify =
      test::run_program(bin("mcp-trust"), {"audit", "verify", "--state", (dir.path / "state").string()}, dir.path);
  EXPECT_EQ(verify.code, 0) << verify.err;
  EXPECT_NE(verify.out.find(" pruned)"), std::string::npos) << verify.out;
  const auto exported =
      test::run_program(bin("mcp-trust"), {"audit", "export", "--state", (dir.path / "state").string()}, dir.path);
  EXPECT_NE(exported.out.find(R"x("by":"gateway:retention (keepRecords 5)")x"), std::string::npos) << exported.out;

  write_config({"a"});
  EXPECT_EQ(reload(), "reloaded kept=a started=- stopped=-") << gateway->err();
  EXPECT_EQ(metrics().find("mcp_gateway_audit_pruned_records_total"), std::string::npos) << "the retention stopped";
  EXPECT_TRUE(a->call_tool("test_simple_text", {})) << "the session went on throughout";
}

// The I/O threads the gateway process runs now (the HTTP server names them).
std::size_t io_threads_of(int pid) {
  std::size_t n = 0;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
    std::ifstream comm(task.path() / "comm");
    std::string name;
    std::getline(comm, name);
    n += name == "mcp-http-io";
  }
  return n;
}

TEST_F(GatewayReload, TheIoThreadsAreTheFilesAndAChangeWaitsForARestart) {
  write_config({"a"}, R"({"ioThreads": 3})");
  start();
  EXPECT_EQ(io_threads_of(gateway->pid()), 3u) << "not the default of 2";
  auto a = client_of(urls.at("a"));
  ASSERT_TRUE(a);
  // More calls at once than loops: each connection is served by one of the three.
  std::vector<std::unique_ptr<Client>> more;
  for (int i = 0; i < 4; ++i) more.push_back(client_of(urls.at("a")));
  for (auto& c : more) {
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->call_tool("test_simple_text", {}));
  }

  write_config({"a"}, R"({"ioThreads": 1})");
  EXPECT_EQ(reload(), "reloaded kept=a started=- stopped=-") << gateway->err();
  EXPECT_NE(gateway->err().find("gateway.ioThreads changed: restart the gateway"), std::string::npos) << gateway->err();
  EXPECT_EQ(io_threads_of(gateway->pid()), 3u) << "a reload does not stop loops with connections on them";
  EXPECT_TRUE(a->call_tool("test_simple_text", {})) << "the session went on";
}

TEST_F(GatewayReload, AFileThatDoesNotParseChangesNothing) {
  write_config({"a"});
  start();
  auto a = client_of(urls.at("a"));
  ASSERT_TRUE(a);
  std::ofstream(dir.path / "servers.json") << R"({"mcpServers": {"a": {"command": )";
  EXPECT_EQ(reload(), "reload failed");
  EXPECT_NE(gateway->err().find("not JSON"), std::string::npos) << gateway->err();
  EXPECT_TRUE(a->call_tool("test_simple_text", {}));
}

TEST_F(GatewayReload, WithJsonLogsEveryStderrLineIsOneJsonObject) {
  write_config({"a"});
  start({"--log-format", "json"});
  // A reload that reports a problem, so the log has more than the start-up lines.
  std::ofstream(dir.path / "servers.json") << R"({"mcpServers": {"a": {"command": )" << json_string(bin("everything-server"))
                                           << R"(}, "broken": {"command": "/nonexistent/mcp-server"}}})";
  EXPECT_EQ(reload(), "reloaded kept=a started=- stopped=-");
  ASSERT_EQ(gateway->stop(), 0);
  std::istringstream err(gateway->err());
  int lines = 0;
  bool problem = false;
  for (std::string line; std::getline(err, line);) {
    boost::system::error_code ec;
    auto v = json::parse(line, ec);
    ASSERT_FALSE(ec) << "not JSON: " << line;
    ASSERT_TRUE(v.is_object()) << line;
    EXPECT_TRUE(v.as_object().contains("time") && v.as_object().contains("level") && v.as_object().contains("msg")) << line;
    problem = problem || line.find("broken") != std::string::npos;
    ++lines;
  }
  EXPECT_GE(lines, 2);  // "signing as ...", the problem
  EXPECT_TRUE(problem) << gateway->err();
  gateway.reset();
}

}  // namespace
