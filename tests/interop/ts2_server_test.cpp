// Our C++ client against the reference TypeScript SDK 2.x server (@modelcontextprotocol/server,
// tests/interop/node/ts2_server.mjs), over stdio and Streamable HTTP: it speaks MCP 2026-07-28 by
// default (probe, per-request _meta, standard and Mcp-Param headers), answers the server's multi
// round-trip results with its own elicitation handler, and still speaks 2025-11-25 when asked.
// The peer is a real process on loopback; a missing Node or package fails the test.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "mcp/stdio/child_process.hpp"
#include "support/source_root.hpp"

using namespace mcp;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

using mcp::test::node_dir;
fs::path node_binary() { return node_dir() / "node_modules" / ".bin" / "node"; }
fs::path script() { return mcp::test::source_root() / "tests" / "interop" / "node" / "ts2_server.mjs"; }

// The HTTP server, started as a child; its URL is the first line it prints (read with poll, bounded).
class HttpPeer {
 public:
  HttpPeer() {
    int fds[2];
    if (pipe(fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(fds[1], STDOUT_FILENO);
      close(fds[0]);
      close(fds[1]);
      setenv("MCP_NODE_DIR", node_dir().c_str(), 1);
      execl(node_binary().c_str(), "node", script().c_str(), "http", "0", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    std::string line;
    pollfd p{fds[0], POLLIN, 0};
    while (line.find('\n') == std::string::npos && poll(&p, 1, 15000) == 1) {
      char buf[256];
      const ssize_t n = read(fds[0], buf, sizeof buf);
      if (n <= 0) break;
      line.append(buf, static_cast<std::size_t>(n));
    }
    close(fds[0]);
    const auto at = line.find("http://");
    if (at != std::string::npos) url_ = line.substr(at, line.find('\n', at) - at);
  }
  ~HttpPeer() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  const std::string& url() const { return url_; }

 private:
  pid_t pid_ = -1;
  std::string url_;
};

class Ts2Server : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(node_binary())) << "Node is not installed at " << node_binary() << ": run scripts/setup.sh";
    if (std::string(GetParam()) == "http") {
      http_ = std::make_unique<HttpPeer>();
      ASSERT_FALSE(http_->url().empty()) << "the TypeScript 2.x server did not start";
    }
  }

  std::shared_ptr<Transport> transport() {
    if (http_) {
      auto t = http::HttpClientTransport::create({.url = http_->url()});
      EXPECT_TRUE(t);
      return t ? std::shared_ptr<Transport>(*t) : nullptr;
    }
    ChildProcessOptions child;
    child.program = node_binary().string();
    child.args = {script().string(), "stdio"};
    child.env["MCP_NODE_DIR"] = node_dir().string();
    auto t = ChildProcessTransport::spawn(child);
    EXPECT_TRUE(t) << (t ? "" : t.error().message);
    return t ? std::shared_ptr<Transport>(*t) : nullptr;
  }

  static ClientOptions options() {
    ClientOptions co;
    co.session.request_timeout = 15s;
    return co;
  }

  std::unique_ptr<HttpPeer> http_;
};

std::string text_of(const CallToolResult& r) {
  const auto* t = r.content.empty() ? nullptr : std::get_if<TextContent>(&r.content.front());
  return t ? t->text : "";
}

TEST_P(Ts2Server, SpeaksTheNewRevisionAndCalls) {
  Client client(options());
  auto init = client.connect(transport());
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_TRUE(client.stateless());
  EXPECT_EQ(init->protocol_version, "2026-07-28");
  EXPECT_EQ(init->server_info.name, "reference-ts2-server");
  auto tools = client.list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  EXPECT_EQ(tools->size(), 5u);
  auto sum = client.call_tool("add", {{"a", 2}, {"b", 3}});
  ASSERT_TRUE(sum) << sum.error().message;
  EXPECT_EQ(text_of(*sum), "5");
  auto note = client.read_resource("mem://note");
  ASSERT_TRUE(note) << note.error().message;
  auto greet = client.get_prompt("greet");
  ASSERT_TRUE(greet) << greet.error().message;
  EXPECT_EQ(greet->messages.size(), 1u);
}

TEST_P(Ts2Server, AnswersItsMultiRoundTripResultWithTheElicitationHandler) {
  std::atomic<int> asked{0};
  auto co = options();
  co.on_elicitation = [&](const json::object& params, const CancellationToken&) -> Result<json::value> {
    ++asked;
    EXPECT_EQ(params.at("message"), "Proceed?");
    return json::value{{"action", "accept"}, {"content", {{"go", true}}}};
  };
  Client client(co);
  ASSERT_TRUE(client.connect(transport()));
  auto r = client.call_tool("confirm");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), R"(confirmed: {"go":true})");
  EXPECT_EQ(asked.load(), 1);
}

TEST_P(Ts2Server, MirrorsAnArgumentIntoItsHeaderEvenWhenItMustBeEncoded) {
  Client client(options());
  ASSERT_TRUE(client.connect(transport()));
  ASSERT_TRUE(client.list_all_tools());  // the header annotations come with the list
  auto r = client.call_tool("regional", {{"region", " eu west \xc3\xa9"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "ran in  eu west \xc3\xa9");
}

TEST_P(Ts2Server, ACallThatTimesOutLeavesTheClientUsable) {
  Client client(options());
  ASSERT_TRUE(client.connect(transport()));
  CallOptions quick;
  quick.timeout = 1ms;
  auto r = client.call_tool("slow", {}, quick);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kRequestTimeout);
  auto again = client.call_tool("add", {{"a", 1}, {"b", 1}});
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(text_of(*again), "2");
}

TEST_P(Ts2Server, StillSpeaksTheHandshakeRevisionWhenAsked) {
  auto co = options();
  co.protocol_version = "2025-11-25";
  Client client(co);
  auto init = client.connect(transport());
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_FALSE(client.stateless());
  EXPECT_EQ(init->protocol_version, "2025-11-25");
  auto sum = client.call_tool("add", {{"a", 20}, {"b", 22}});
  ASSERT_TRUE(sum) << sum.error().message;
  EXPECT_EQ(text_of(*sum), "42");
}

INSTANTIATE_TEST_SUITE_P(Transports, Ts2Server, ::testing::Values("stdio", "http"));

}  // namespace
