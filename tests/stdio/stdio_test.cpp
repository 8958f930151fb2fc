#include <gtest/gtest.h>
#include <unistd.h>

#include <condition_variable>
#include <mutex>

#include "mcp/session/session.hpp"
#include "mcp/transport/child_process.hpp"
#include "mcp/transport/stdio.hpp"
#include "stdio/line_framer.hpp"

using namespace mcp;
using namespace std::chrono_literals;

TEST(LineFramer, SplitsLinesAcrossChunksAndSkipsBlankOnes) {
  detail::LineFramer f(100);
  std::vector<std::string> out;
  auto emit = [&](std::string s) { out.push_back(std::move(s)); };
  f.feed("{\"a\":1}\n{\"b\"", emit);
  f.feed(":2}\r\n\n   \n{\"c\":3}\n", emit);
  EXPECT_EQ(out, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
  EXPECT_EQ(f.buffered(), 0u);
}

TEST(LineFramer, OversizedLineIsTruncatedToLimitPlusOneAndTheNextLineSurvives) {
  detail::LineFramer f(10);
  std::vector<std::string> out;
  auto emit = [&](std::string s) { out.push_back(std::move(s)); };
  f.feed(std::string(5000, 'x'), emit);
  f.feed(std::string(5000, 'y') + "\nok\n", emit);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].size(), 11u);
  EXPECT_EQ(out[1], "ok");
}

namespace {
struct Collect : Session::Handler {
  Result<json::value> handle_request(InboundRequest& r) override { return json::object{{"m", r.method}}; }
  void handle_notification(const jsonrpc::Notification&) override {}
};
}  // namespace

// An oversized message gets -32600 naming the limit, and the connection stays usable.
TEST(FdTransport, OversizedMessageIsRejectedAndTheConnectionSurvives) {
  int to_server[2], from_server[2];
  ASSERT_EQ(pipe(to_server), 0);
  ASSERT_EQ(pipe(from_server), 0);
  Collect h;
  Session::Options so;
  so.limits.max_message_bytes = 1024;
  auto s = Session::create(make_fd_transport(to_server[0], from_server[1], {.max_line_bytes = 1024}), h, so);
  ASSERT_TRUE(s->start());
  std::string big = R"({"jsonrpc":"2.0","id":1,"method":")" + std::string(100000, 'a') + "\"}\n";
  std::thread writer([&] {
    ASSERT_EQ(write(to_server[1], big.data(), big.size()), static_cast<ssize_t>(big.size()));
    std::string ok = R"({"jsonrpc":"2.0","id":2,"method":"after"})" "\n";
    ASSERT_EQ(write(to_server[1], ok.data(), ok.size()), static_cast<ssize_t>(ok.size()));
  });
  std::string got;
  char buf[4096];
  while (std::count(got.begin(), got.end(), '\n') < 2) {
    ssize_t n = read(from_server[0], buf, sizeof buf);
    ASSERT_GT(n, 0);
    got.append(buf, static_cast<std::size_t>(n));
  }
  writer.join();
  auto first = json::parse(got.substr(0, got.find('\n')));
  EXPECT_EQ(first.at("error").at("code"), -32600);
  EXPECT_NE(std::string(first.at("error").at("message").as_string()).find("max_message_bytes"), std::string::npos);
  auto second = json::parse(got.substr(got.find('\n') + 1));
  EXPECT_EQ(second.at("id"), 2);
  close(to_server[1]);
  s->shutdown();
  close(from_server[0]);
}

namespace {
struct Closed : Session::Handler {
  std::mutex mu;
  std::condition_variable cv;
  std::optional<std::optional<Error>> reason;
  Result<json::value> handle_request(InboundRequest&) override { return json::object{}; }
  void handle_notification(const jsonrpc::Notification&) override {}
  void handle_closed(const std::optional<Error>& r) override {
    std::lock_guard l(mu);
    reason = r;
    cv.notify_all();
  }
};
}  // namespace

TEST(ChildProcess, ReportsHowTheChildDiedWithItsLastStderrLines) {
  std::vector<std::string> stderr_lines;
  auto t = ChildProcessTransport::spawn({.program = "/bin/sh",
                                         .args = {"-c", "echo 'fatal: no config' >&2; exit 3"},
                                         .on_stderr = [&](const std::string& l) { stderr_lines.push_back(l); }});
  ASSERT_TRUE(t);
  Closed h;
  auto s = Session::create(*t, h, {});
  ASSERT_TRUE(s->start());
  std::unique_lock l(h.mu);
  ASSERT_TRUE(h.cv.wait_for(l, 5s, [&] { return h.reason.has_value(); }));
  ASSERT_TRUE(h.reason->has_value());
  const auto& msg = (*h.reason)->message;
  EXPECT_NE(msg.find("exited with status 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("fatal: no config"), std::string::npos) << msg;
  l.unlock();
  s->shutdown();
}

TEST(ChildProcess, MissingProgramIsAClearError) {
  auto t = ChildProcessTransport::spawn({.program = "/nonexistent/mcp-server"});
  ASSERT_FALSE(t);
  EXPECT_NE(t.error().message.find("cannot start /nonexistent/mcp-server"), std::string::npos);
}

TEST(ChildProcess, CloseEndsAChildThatIgnoresEndOfInput) {
  auto t = ChildProcessTransport::spawn({.program = "/bin/sh",
                                         .args = {"-c", "trap '' TERM; while true; do sleep 0.05; done"},
                                         .shutdown_grace = 200ms});
  ASSERT_TRUE(t);
  Closed h;
  auto s = Session::create(*t, h, {});
  ASSERT_TRUE(s->start());
  auto t0 = std::chrono::steady_clock::now();
  s->shutdown();  // stdin closed, then SIGTERM (ignored), then SIGKILL
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
  EXPECT_EQ((*t)->pid(), -1);
}

TEST(ChildProcess, PassesArgumentsAndEnvironment) {
  std::vector<std::string> lines;
  std::mutex mu;
  auto t = ChildProcessTransport::spawn({.program = "/bin/sh",
                                         .args = {"-c", "echo \"$1:$MCP_TEST_VAR\" >&2", "sh", "arg-one"},
                                         .env = {{"MCP_TEST_VAR", "from-env"}},
                                         .on_stderr = [&](const std::string& l) {
                                           std::lock_guard g(mu);
                                           lines.push_back(l);
                                         }});
  ASSERT_TRUE(t);
  Closed h;
  auto s = Session::create(*t, h, {});
  ASSERT_TRUE(s->start());
  {
    std::unique_lock l(h.mu);
    ASSERT_TRUE(h.cv.wait_for(l, 5s, [&] { return h.reason.has_value(); }));
  }
  s->shutdown();
  std::lock_guard g(mu);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "arg-one:from-env");
}

// `echo '{...}' | server`: the input ends right after a request, and its answer must still be written.
TEST(FdTransport, RequestsReceivedBeforeEndOfInputAreStillAnswered) {
  int to_server[2], from_server[2];
  ASSERT_EQ(pipe(to_server), 0);
  ASSERT_EQ(pipe(from_server), 0);
  struct Slow : Session::Handler {
    Result<json::value> handle_request(InboundRequest& r) override {
      std::this_thread::sleep_for(200ms);
      return json::object{{"m", r.method}};
    }
    void handle_notification(const jsonrpc::Notification&) override {}
  } h;
  auto s = Session::create(make_fd_transport(to_server[0], from_server[1]), h, {});
  ASSERT_TRUE(s->start());
  std::string req = R"({"jsonrpc":"2.0","id":1,"method":"slow"})" "\n";
  ASSERT_EQ(write(to_server[1], req.data(), req.size()), static_cast<ssize_t>(req.size()));
  close(to_server[1]);  // end of input at once
  std::string got;
  char buf[4096];
  for (;;) {
    ssize_t n = read(from_server[0], buf, sizeof buf);
    if (n <= 0) break;  // the transport closes its write side after answering
    got.append(buf, static_cast<std::size_t>(n));
  }
  close(from_server[0]);
  s->shutdown();
  ASSERT_NE(got.find('\n'), std::string::npos) << "no answer was written";
  auto v = json::parse(got.substr(0, got.find('\n')));
  EXPECT_EQ(v.at("id"), 1);
  EXPECT_EQ(v.at("result").at("m"), "slow");
}
