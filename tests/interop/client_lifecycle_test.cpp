// Our client against server-everything: errors, concurrency, closing the child; and a child that dies writing garbage.
#include "everything_fixture.hpp"

#include <cstring>

using namespace interop_test;

namespace {

// gtest needs one fixture class per test suite name across the binary: one suite per file.
class EverythingLifecycle : public EverythingServer {};

TEST_F(EverythingLifecycle, UnknownToolAndBadArgumentsAreCleanErrors) {
  auto r = call("no-such-tool", {{"x", 1}});
  // The TypeScript SDK reports an unknown tool as a tool error (isError); the specification also
  // allows a JSON-RPC -32602. Either way the name must be in the message and nothing else breaks.
  if (r) {
    EXPECT_EQ(r->is_error, true);
    const std::string text = all_text(*r);
    EXPECT_TRUE(contains(text, "no-such-tool") && contains(text, "not found")) << text;
  } else {
    EXPECT_EQ(r.error().code, error_code::kInvalidParams) << describe(r.error());
    EXPECT_TRUE(contains(r.error().message, "no-such-tool")) << describe(r.error());
  }

  auto bad = call("echo", {{"not-message", "x"}});
  ASSERT_TRUE(bad) << describe(bad.error());
  EXPECT_EQ(bad->is_error, true);
  EXPECT_TRUE(contains(all_text(*bad), "message")) << all_text(*bad);

  // A method the server does not know: its -32601, as sent.
  auto unknown = client->request("no/such/method", {}, bounded());
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, error_code::kMethodNotFound) << describe(unknown.error());

  EXPECT_TRUE(client->ping());
  auto echo = call("echo", {{"message", "after errors"}});
  ASSERT_TRUE(echo) << describe(echo.error());
  EXPECT_EQ(text_of(echo->content, 0), "Echo: after errors");
}

TEST_F(EverythingLifecycle, ConcurrentCallsFromManyThreads) {
  constexpr int kThreads = 6, kCalls = 8;
  std::atomic<int> ok{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCalls; ++i) {
        const std::string msg = "thread " + std::to_string(t) + " call " + std::to_string(i);
        auto r = call("echo", {{"message", msg}});
        if (r && !r->content.empty() && std::holds_alternative<TextContent>(r->content[0]) &&
            std::get<TextContent>(r->content[0]).text == "Echo: " + msg)
          ++ok;
        else
          ADD_FAILURE() << msg << ": " << (r ? all_text(*r) : describe(r.error()));
      }
    });
  }
  // A server->client round trip (sampling) in the middle of it all.
  auto s = call("trigger-sampling-request", {{"prompt", "concurrent"}});
  for (auto& th : threads) th.join();
  EXPECT_EQ(ok.load(), kThreads * kCalls);
  ASSERT_TRUE(s) << describe(s.error());
  EXPECT_TRUE(contains(text_of(s->content, 0), kCannedText));
}

// --- capabilities decide what the server offers ---------------------------------------------------

TEST_F(EverythingLifecycle, WithoutClientCapabilitiesTheServerOffersNoClientDependentTools) {
  client.reset();
  EXPECT_EQ(transport->pid(), -1);
  start(/*with_handlers=*/false);
  if (HasFatalFailure()) return;
  auto tools = client->list_all_tools();
  ASSERT_TRUE(tools) << describe(tools.error());
  EXPECT_NE(find_named(*tools, "echo"), nullptr);
  for (const char* absent : {"get-roots-list", "trigger-elicitation-request", "trigger-url-elicitation",
                             "trigger-sampling-request"})
    EXPECT_EQ(find_named(*tools, absent), nullptr) << absent << " offered to a client that cannot serve it";
  // No roots/list comes to a client that did not declare roots. Ordering, not time: the server
  // asks for roots from a 350 ms timer started at initialization; this call waits on its own 1 s
  // timer started later, so it is answered only after that timer fired, and a roots/list sent
  // from it would have reached us (in order, on the same pipe) before the answer.
  auto r = call("trigger-long-running-operation", {{"duration", 1}, {"steps", 1}});
  ASSERT_TRUE(r) << describe(r.error());
  std::lock_guard l(rec->mu);
  EXPECT_EQ(rec->roots_requests, 0);
  EXPECT_EQ(std::ranges::count(rec->notifications, "notifications/message"), 0);
}

// --- lifecycle ----------------------------------------------------------------------------------

TEST_F(EverythingLifecycle, DestroyingTheClientClosesTheChildAndReapsIt) {
  const int pid = transport->pid();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, 0), 0) << "the server is not running";

  client.reset();

  EXPECT_EQ(transport->pid(), -1);
  // Reaped by us: no zombie is left, and the pid is no longer our child.
  int status = 0;
  errno = 0;
  EXPECT_EQ(::waitpid(pid, &status, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
  // Closing stdin is enough for this server (it exits once its event loop is empty): it exited on
  // its own, and was not ended by the SIGTERM that follows the grace period.
  auto how = transport->wait_status();
  ASSERT_TRUE(how);
  EXPECT_TRUE(WIFEXITED(*how)) << "ended by signal " << (WIFSIGNALED(*how) ? WTERMSIG(*how) : 0);
  std::lock_guard l(rec->mu);
  ASSERT_EQ(rec->closes.size(), 1u);
  EXPECT_FALSE(rec->closes[0].has_value()) << "an orderly close reported " << describe(*rec->closes[0]);
}

TEST_F(EverythingLifecycle, CallsAfterCloseFailFast) {
  client->close();
  EXPECT_EQ(transport->pid(), -1);  // close() waited for the child
  // The session learns of the close on the transport's reader thread, so closed() may lag close()
  // by a moment; it must not lag for long.
  for (int i = 0; i < 200 && !client->closed(); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(client->closed());
  // Failing fast means failing as closed, not waiting for the request timeout.
  auto r = call("echo", {{"message", "too late"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kConnectionClosed) << describe(r.error());
  auto ping = client->ping();
  ASSERT_FALSE(ping);
  EXPECT_EQ(ping.error().code, error_code::kConnectionClosed) << describe(ping.error());
}

// --- a child that is not an MCP server ----------------------------------------------------------

ChildProcessOptions garbage_child(const std::shared_ptr<Recorder>& rec) {
  ChildProcessOptions o;
  o.program = "/bin/sh";
  o.args = {"-c", "echo garbage; echo 'not an MCP server' >&2; exit 3"};
  o.on_stderr = [rec](const std::string& line) { rec->update([&] { rec->stderr_lines.push_back(line); }); };
  return o;
}

ClientOptions short_client_options(const std::shared_ptr<Recorder>& rec) {
  auto o = make_client_options(rec, /*with_handlers=*/false);
  o.session.request_timeout = 5s;
  return o;
}

// connect() right after spawn(). Whether initialize is written before the child exits is a race, so
// this is tried several times: the answer must name the exit status either way.
//
// Known SDK bug (fails here intermittently, in the next test always): when the child is already gone
// as initialize is sent, the error is the bare "write failed: Broken pipe" of FdTransport::send
// (src/stdio/fd_transport.cpp), returned as is by Session::request (src/session/session.cpp, the
// `if (!sent)` branch); and if the reader saw end of file first, Session::request answers a bare
// "connection closed". The close reason that ChildProcessTransport computed ("... exited with status
// 3; last stderr lines: ...") only reaches pending requests and the on_closed callback.
TEST(GarbageChild, ConnectFailsSayingHowTheChildExited) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    SCOPED_TRACE("attempt " + std::to_string(attempt));
    auto rec = std::make_shared<Recorder>();
    auto t = ChildProcessTransport::spawn(garbage_child(rec));
    ASSERT_TRUE(t) << describe(t.error());
    Client client(short_client_options(rec));
    auto start = std::chrono::steady_clock::now();
    auto r = client.connect(*t);
    ASSERT_FALSE(r) << "connect succeeded against /bin/sh";
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s) << "connect waited for its timeout";
    EXPECT_TRUE(contains(r.error().message, "exited with status 3")) << describe(r.error());
    client.close();
    EXPECT_EQ((*t)->pid(), -1);
  }
}

// connect() once the child has certainly exited: the message must still say how it ended, whichever
// of "write to a dead pipe" and "read end of file" the client notices first.
TEST(GarbageChild, ConnectAfterTheChildExitedStillSaysHowItExited) {
  for (int attempt = 0; attempt < 3; ++attempt) {
    SCOPED_TRACE("attempt " + std::to_string(attempt));
    auto rec = std::make_shared<Recorder>();
    auto t = ChildProcessTransport::spawn(garbage_child(rec));
    ASSERT_TRUE(t) << describe(t.error());
    ASSERT_TRUE(rec->wait([&] { return !rec->stderr_lines.empty(); })) << "the child never ran";
    // Wait until it has exited, without reaping it (WNOWAIT): the transport, not started yet, is
    // the one to reap it. Polled with a generous bound so that a broken child fails, not hangs.
    siginfo_t info{};
    for (int i = 0; i < 1000 && info.si_pid == 0; ++i) {
      ASSERT_EQ(::waitid(P_PID, static_cast<id_t>((*t)->pid()), &info, WEXITED | WNOHANG | WNOWAIT), 0) << std::strerror(errno);
      if (info.si_pid == 0) std::this_thread::sleep_for(10ms);
    }
    ASSERT_NE(info.si_pid, 0) << "the child did not exit within 10 s";
    EXPECT_EQ(info.si_code, CLD_EXITED);
    EXPECT_EQ(info.si_status, 3);
    Client client(short_client_options(rec));
    auto r = client.connect(*t);
    ASSERT_FALSE(r) << "connect succeeded against /bin/sh";
    EXPECT_TRUE(contains(r.error().message, "exited with status 3")) << describe(r.error());
    client.close();
    EXPECT_EQ((*t)->pid(), -1);
  }
}


}  // namespace
