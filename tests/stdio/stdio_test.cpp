#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <thread>

#include "mcp/session/session.hpp"
#include "mcp/stdio/child_process.hpp"
#include "mcp/stdio/stdio.hpp"
#include "stdio/line_framer.hpp"
#include "support/event.hpp"
#include "support/process.hpp"

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

namespace {
// Forwards to a transport, and sets `input_ended` when that transport reports the end of its input,
// before the session's own on_input_end runs.
class InputEndProbe final : public Transport {
 public:
  InputEndProbe(std::shared_ptr<Transport> inner, std::shared_ptr<test::Event> input_ended)
      : inner_(std::move(inner)), input_ended_(std::move(input_ended)) {}
  Result<void> start(Callbacks cb) override {
    cb.on_input_end = [next = std::move(cb.on_input_end), ended = input_ended_] {
      ended->set();
      if (next) next();
    };
    return inner_->start(std::move(cb));
  }
  Result<void> send(std::string frame, const SendInfo& info) override { return inner_->send(std::move(frame), info); }
  void close() override { inner_->close(); }

 private:
  std::shared_ptr<Transport> inner_;
  std::shared_ptr<test::Event> input_ended_;
};
}  // namespace

// `echo '{...}' | server`: the input ends right after a request, and its answer must still be written.
TEST(FdTransport, RequestsReceivedBeforeEndOfInputAreStillAnswered) {
  int to_server[2], from_server[2];
  ASSERT_EQ(pipe(to_server), 0);
  ASSERT_EQ(pipe(from_server), 0);
  // The handler answers only once the transport has seen the end of input, so the answer is always
  // written after the input ended: the case under test, by construction rather than by a delay.
  struct AfterEndOfInput : Session::Handler {
    std::shared_ptr<test::Event> input_ended = std::make_shared<test::Event>();
    std::atomic<bool> saw_end{false};
    Result<json::value> handle_request(InboundRequest& r) override {
      saw_end = input_ended->wait();
      return json::object{{"m", r.method}};
    }
    void handle_notification(const jsonrpc::Notification&) override {}
  } h;
  auto s = Session::create(std::make_shared<InputEndProbe>(make_fd_transport(to_server[0], from_server[1]), h.input_ended),
                           h, {});
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
  EXPECT_TRUE(h.saw_end) << "the transport never reported the end of input";
  auto v = json::parse(got.substr(0, got.find('\n')));
  EXPECT_EQ(v.at("id"), 1);
  EXPECT_EQ(v.at("result").at("m"), "slow");
}

// mcp-inspect -- COMMAND: our client program inspecting our everything-server over stdio, as
// scripts/run.sh runs it. Both are those of the build the test belongs to (MCP_BIN overrides).
class McpInspect : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* env = std::getenv("MCP_BIN");
    bin_ = env != nullptr && *env != '\0' ? std::filesystem::path(env) : std::filesystem::path(MCP_STDIO_BIN_FALLBACK);
    for (const char* b : {"mcp-inspect", "everything-server"})
      ASSERT_TRUE(std::filesystem::exists(bin_ / b)) << b << " is not built in " << bin_;
    dir_ = std::filesystem::temp_directory_path() /
           ("mcp-inspect-" + std::to_string(::getpid()) + "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  test::ProgramOutcome inspect(const std::vector<std::string>& args) {
    auto r = test::run_program((bin_ / "mcp-inspect").string(), args, dir_);
    EXPECT_TRUE(r.spawned) << "cannot start " << bin_ / "mcp-inspect";
    EXPECT_FALSE(r.timed_out) << "mcp-inspect did not finish in 60 s";
    return r;
  }
  std::string server() const { return (bin_ / "everything-server").string(); }

  std::filesystem::path bin_, dir_;
};

// mcp-inspect speaks 2026-07-28 to our server unless told otherwise; what it shows and calls is the
// same either way. 28 of the fixture's 31 tools, since mcp-inspect declares no sampling: the server
// hides test_ask_model and offers test_summarize_without_sampling in place of test_summarize;
// test_missing_capability lists the sampling it needs, so the client hides it (both revisions).
class McpInspectRevisions : public McpInspect, public ::testing::WithParamInterface<const char*> {};

TEST_P(McpInspectRevisions, ListsWhatTheServerOffersAndCallsATool) {
  const char* protocol = GetParam();
  const char* tool_count = "tools (28):\n";
  std::vector<std::string> args{"--call", "test_simple_text"};
  if (std::string(protocol) == "2025-11-25") args.insert(args.end(), {"--protocol", protocol});
  args.insert(args.end(), {"--", server()});
  auto r = inspect(args);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("server: mcp-trust-everything-server "), 0u) << r.out;
  EXPECT_NE(r.out.find("(protocol " + std::string(protocol) + ")\n"), std::string::npos) << r.out;
  for (const char* line : {tool_count, "  test_simple_text  Returns a simple text response\n",
                           "  test_error_handling  Always fails, as a tool error\n", "resources (3):\n",
                           "  test://static-text  static-text\n", "resource templates (1):\n",
                           "  test://template/{id}/data  template\n", "prompts (5):\n",
                           "  test_simple_prompt  A simple prompt without arguments\n"})
    EXPECT_NE(r.out.find(line), std::string::npos) << "missing: " << line << "in:\n" << r.out;
  EXPECT_NE(r.out.find("call test_simple_text:\n"
                       R"({"content":[{"type":"text","text":"This is a simple text response for testing."}]})"
                       "\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.err.find("mcp-inspect:"), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Both, McpInspectRevisions, ::testing::Values("2026-07-28", "2025-11-25"));

TEST_F(McpInspect, AToolErrorIsExitStatusOne) {
  auto r = inspect({"--call", "test_error_handling", "--", server()});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("call test_error_handling (tool error):\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("This tool intentionally returns an error for testing"), std::string::npos) << r.out;
}

TEST_F(McpInspect, ToolArgumentsArePassed) {
  // This tool answers with the arguments it was given.
  auto r = inspect({"--call", "json_schema_2020_12_tool", "--args", R"({"name":"Ada"})", "--", server()});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(R"(JSON Schema 2020-12 tool called with: {\"name\":\"Ada\"})"), std::string::npos) << r.out;
}

TEST_F(McpInspect, AToolNeedingAnUndeclaredCapabilityFailsAsAToolError) {
  // mcp-inspect declares no sampling: the server's tool says so, as a tool error.
  auto r = inspect({"--call", "test_sampling", "--args", R"({"prompt":"hi"})", "--", server()});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("call test_sampling (tool error):\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("did not declare the 'sampling' capability"), std::string::npos) << r.out;
}

TEST_F(McpInspect, UsageErrorsAndAMissingServer) {
  auto none = inspect({});
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.err.find("usage: mcp-inspect"), std::string::npos) << none.err;
  auto bad_args = inspect({"--call", "test_simple_text", "--args", "[1]", "--", server()});
  EXPECT_EQ(bad_args.code, 2);
  EXPECT_NE(bad_args.err.find("--args must be a JSON object"), std::string::npos) << bad_args.err;
  auto missing = inspect({"--", (dir_ / "no-such-server").string()});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("mcp-inspect: "), std::string::npos) << missing.err;
  EXPECT_NE(missing.err.find("no-such-server"), std::string::npos) << missing.err;
  EXPECT_TRUE(missing.out.empty()) << missing.out;
}

// Frames larger than the pipe go out in many partial writes (the write end is non-blocking):
// each arrives whole and in order, followed by its newline, whatever size the last piece has,
// including a write that stops exactly at the end of the frame with the newline still to go.
TEST(FdTransport, FramesLargerThanThePipeArriveWholeWithTheirNewlines) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  int unused[2];
  ASSERT_EQ(pipe(unused), 0);
  auto t = make_fd_transport(unused[0], p[1]);
  ASSERT_TRUE(t->start({[](std::string) {}, [](std::optional<Error>) {}}));
  // Sizes around the pipe's 64 KiB, and past it many times over; every byte tells where it is
  // (a piece written twice, or skipped, shows).
  const std::vector<std::size_t> sizes = {1, 65535, 65536, 65537, 131072, (1u << 20) + 3, 4095};
  auto frame = [&](std::size_t i) {
    std::string f(sizes[i], '\0');
    for (std::size_t k = 0; k < f.size(); ++k) f[k] = static_cast<char>('a' + (k * 31 + i) % 26);
    return f;
  };
  std::string expected;
  for (std::size_t i = 0; i < sizes.size(); ++i) expected += frame(i) + "\n";
  std::string got;
  std::thread reader([&] {
    // Small reads, so the writer keeps finding the pipe nearly full.
    char buf[3000];
    while (got.size() < expected.size()) {
      ssize_t n = ::read(p[0], buf, sizeof buf);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
  });
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    auto sent = t->send(frame(i), SendInfo{});
    ASSERT_TRUE(sent) << sent.error().message;
  }
  reader.join();
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected) << "the bytes differ from the frames sent";
  t->close();
  ::close(p[0]);
  ::close(unused[1]);
}
