// The gateway keeps working when an upstream does not (src/gateway/upstream.hpp): an upstream that
// crashes mid-call fails that call with an error naming it and how it ended, is started again, and
// clients are told to list again; one that hangs times the call out (gateway.servers.NAME.
// timeoutSeconds) and keeps serving other calls. The upstream is tests/gateway/flaky_server.cpp
// behind `mcp-trust gateway --config`, reached over HTTP. Every wait is on an event.
#include <gtest/gtest.h>

#include <condition_variable>
#include <fstream>
#include <mutex>
#include <sstream>

#include "../examples/tmp_dir.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "gateway_test_util.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;
using mcp::gateway_test::text_of;
using namespace std::chrono_literals;

namespace {

class GatewayRestart : public ::testing::Test {
 protected:
  test::TmpDir dir;
  std::unique_ptr<test::BackgroundProgram> gateway;
  std::string url;
  std::mutex mu;
  std::condition_variable cv;
  int list_changes = 0;
  std::unique_ptr<Client> client;

  void SetUp() override {
    std::ofstream(dir.path / "servers.json")
        << R"({"mcpServers": {"flaky": {"command": ")" << FLAKY_SERVER << R"("}},)"
        << R"("gateway": {"servers": {"flaky": {"timeoutSeconds": 1}}}})";
    gateway = std::make_unique<test::BackgroundProgram>(
        bin("mcp-trust"),
        std::vector<std::string>{"gateway", "--config", (dir.path / "servers.json").string(), "--listen", "127.0.0.1:0",
                                 "--state", (dir.path / "state").string()},
        dir.path);
    const std::string line = gateway->wait_for_line("flaky ");
    ASSERT_FALSE(line.empty()) << gateway->err();
    url = line.substr(line.find(' ') + 1);
    ClientOptions co;
    co.protocol_version = "2025-11-25";
    co.session.request_timeout = 20s;
    co.on_list_changed = [this](const std::string& list) {
      if (list != "tools") return;
      std::lock_guard lock(mu);
      ++list_changes;
      cv.notify_all();
    };
    client = std::make_unique<Client>(co);
    auto t = http::HttpClientTransport::create({.url = url});
    ASSERT_TRUE(t);
    ASSERT_TRUE(client->connect(*t));
  }
  void TearDown() override {
    if (client) client->close();
    if (gateway) {
      EXPECT_EQ(gateway->stop(), 0) << gateway->err();
    }
  }

  // Calls `tool`, which makes the upstream exit: its error, once the gateway has told its clients
  // to list again (it restarted the upstream). A failed wait fails the test (checked by the caller
  // with HasFailure).
  Result<CallToolResult> crash_and_wait_for_restart(const std::string& tool) {
    int seen;
    {
      std::lock_guard lock(mu);
      seen = list_changes;
    }
    auto crashed = client->call_tool(tool, {});
    std::unique_lock lock(mu);
    EXPECT_TRUE(cv.wait_for(lock, 30s, [&] { return list_changes > seen; })) << gateway->err().substr(0, 2000);
    return crashed;
  }

  std::string pid() {
    auto r = client->call_tool("pid", {});
    EXPECT_TRUE(r) << r.error().message;
    return r ? text_of(*r) : std::string();
  }
};

TEST_F(GatewayRestart, ACrashedUpstreamFailsItsCallClearlyAndIsStartedAgain) {
  const std::string first = pid();
  ASSERT_FALSE(first.empty());
  // Restarted: the gateway tells its clients to list again, and calls reach a new process.
  auto crashed = crash_and_wait_for_restart("crash");
  ASSERT_FALSE(HasFailure()) << "the upstream was not restarted";
  ASSERT_FALSE(crashed);
  EXPECT_NE(crashed.error().message.find("upstream flaky"), std::string::npos) << crashed.error().message;
  EXPECT_NE(crashed.error().message.find("status 3"), std::string::npos) << crashed.error().message;
  const std::string second = pid();
  EXPECT_FALSE(second.empty());
  EXPECT_NE(second, first);
  // The exit and the restart are in the audit log.
  const auto exported = test::run_program(bin("mcp-trust"), {"audit", "export", "--state", (dir.path / "state").string()}, dir.path);
  EXPECT_NE(exported.out.find(R"("event":"exited")"), std::string::npos) << exported.out.substr(0, 2000);
  EXPECT_NE(exported.out.find(R"("event":"restarted")"), std::string::npos);
}

// An upstream that crashes again soon after it was started waits longer each time before the next
// start (0.5 s, then 1 s, ...): a crash loop is never a restart loop. Read from the gateway's log
// line for each restart, which says how long it waits.
TEST_F(GatewayRestart, AnUpstreamThatKeepsCrashingWaitsLongerEachTime) {
  ASSERT_FALSE(pid().empty());
  (void)crash_and_wait_for_restart("crash");
  ASSERT_FALSE(HasFailure()) << "the upstream was not restarted";
  (void)crash_and_wait_for_restart("crash");
  ASSERT_FALSE(HasFailure()) << "the upstream was not restarted a second time";
  const std::string err = gateway->err();
  const auto first = err.find("starting it again in 500 ms");
  const auto second = err.find("starting it again in 1000 ms");
  ASSERT_NE(first, std::string::npos) << err.substr(0, 3000);
  ASSERT_NE(second, std::string::npos) << err.substr(0, 3000);
  EXPECT_LT(first, second);
  EXPECT_FALSE(pid().empty()) << "serving again after the second restart";
}

// What the upstream wrote on its way out is quoted cut short and escaped: in the failed call's
// error, the gateway's log and the review page's status. Its own stderr lines, passed through
// prefixed "[flaky] ", are cut and escaped too.
TEST_F(GatewayRestart, AnUpstreamsLastWordsAreQuotedBoundedAndCannotForgeALogLine) {
  const std::string first = pid();
  ASSERT_FALSE(first.empty());
  auto crashed = crash_and_wait_for_restart("crash_loud");
  ASSERT_FALSE(HasFailure()) << "the upstream was not restarted";
  ASSERT_FALSE(crashed);
  EXPECT_NE(crashed.error().message.find("status 3"), std::string::npos) << crashed.error().message.substr(0, 500);
  EXPECT_LT(crashed.error().message.size(), 16u * 1024);
  EXPECT_NE(pid(), first);
  // The restart's log line was written before the new process answered.
  std::istringstream log(gateway->err());
  std::size_t longest = 0, forged = 0, ended = 0;
  std::string forged_lines;
  std::string previous;
  std::size_t longest_passed = 0;
  for (std::string line; std::getline(log, line); previous = line.substr(0, 300)) {
    if (line.starts_with("[flaky] ")) {  // the child's own stderr, passed through as such
      longest_passed = std::max(longest_passed, line.size());
      continue;
    }
    longest = std::max(longest, line.size());
    if (line.find_first_not_of(' ') != std::string::npos &&
        line.substr(line.find_first_not_of(' ')).starts_with("[00:00:00.000]")) {
      ++forged;
      forged_lines += "after: " + previous + "\n" + line.substr(0, 200) + "\n";
    }
    if (line.find("connection ended") != std::string::npos) ++ended;
  }
  EXPECT_EQ(ended, 1u) << gateway->err().substr(0, 2000);
  EXPECT_EQ(forged, 0u) << "a line the upstream wrote passed for the gateway's own:\n" << forged_lines;
  EXPECT_LT(longest, 4096u) << "the gateway's own log lines quote the upstream cut short";
  EXPECT_GT(longest_passed, 0u) << "the upstream's stderr is passed through";
  EXPECT_LT(longest_passed, 8192u) << "a passed-through line is cut";
  EXPECT_EQ(gateway->err().find('\x1b'), std::string::npos) << "a terminal escape reached the gateway's stderr";
}

TEST_F(GatewayRestart, AHungUpstreamTimesOutAndOtherCallsGoOn) {
  auto hung = client->call_tool("hang", {});
  ASSERT_FALSE(hung);
  EXPECT_NE(hung.error().message.find("upstream flaky"), std::string::npos) << hung.error().message;
  EXPECT_NE(hung.error().message.find("timed out"), std::string::npos) << hung.error().message;
  EXPECT_FALSE(pid().empty());
}

}  // namespace
