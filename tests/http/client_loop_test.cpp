// The HTTP client transport's exchanges are coroutines on one event loop, which one thread runs
// (src/http/client_loop.hpp). Until 2026-12-02 each exchange had a thread of its own: requests in
// flight were threads, and a gateway in front of an HTTP upstream spent half its CPU waking them.
// Sending from inside a delivery runs on that very thread, which must not wait on itself.
#include <gtest/gtest.h>

#include <dirent.h>

#include <future>

#include "http/http_test_util.hpp"
#include "mcp/http/client_transport.hpp"
#include "mcp/protocol/stateless.hpp"

using namespace mcp::http::test;

namespace {

// The process's threads, from /proc/self/task.
int thread_count() {
  DIR* d = ::opendir("/proc/self/task");
  if (!d) return -1;
  int n = 0;
  while (auto* e = ::readdir(d)) n += e->d_name[0] != '.';
  ::closedir(d);
  return n;
}

std::string call_frame(int id, std::string_view tool) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":")" +
         std::string(tool) + R"(","arguments":{"text":"x"}}})";
}

mcp::SendInfo as_request() {
  mcp::SendInfo info;
  info.kind = mcp::SendInfo::Kind::request;
  return info;
}

}  // namespace

TEST(HttpClientLoop, RequestsInFlightShareOneThread) {
  // A server that accepts and never answers: every request stays in flight, on its connection.
  SilentServer silent;
  mcp::http::HttpClientOptions o;
  o.url = "http://127.0.0.1:" + std::to_string(silent.port) + "/mcp";
  o.response_timeout = 30s;
  o.standalone_stream = false;
  const int before = thread_count();
  ASSERT_GT(before, 0);
  auto t = mcp::http::HttpClientTransport::create(o);
  ASSERT_TRUE(t) << t.error().message;
  std::atomic<int> failed{0};
  mcp::Transport::Callbacks cb;
  cb.on_message = [](std::string) {};
  cb.on_request_failed = [&](const mcp::jsonrpc::Id&, const mcp::Error&) { ++failed; };
  cb.on_close = [](std::optional<mcp::Error>) {};
  ASSERT_TRUE((*t)->start(std::move(cb)));
  constexpr int kInFlight = 16;
  for (int i = 1; i <= kInFlight; ++i) ASSERT_TRUE((*t)->send(call_frame(i, "echo"), as_request())) << i;
  ASSERT_TRUE(eventually([&] { return silent.accepted_count.load() == kInFlight; }, 10s))
      << silent.accepted_count.load() << " of " << kInFlight << " connections made";
  // The loop's thread, and the resolver's that Asio starts for the first name resolution: not one
  // per request (the thread-per-exchange client had 16 here).
  EXPECT_LE(thread_count() - before, 2) << "threads started for " << kInFlight << " requests in flight";
  EXPECT_EQ(failed.load(), 0);
  (*t)->close();
  EXPECT_EQ(failed.load(), kInFlight) << "closing fails each request in flight, once";
}

TEST(HttpClientLoop, SendingFromInsideADeliveryNeitherWaitsOnItselfNorRunsInsideIt) {
  // Inside a delivery, on the loop's own thread: a notification (whose send, from a caller's
  // thread, waits for the server's 202) and a request. Neither may wait for the loop (it would
  // wait forever), nor start inside the delivery, where the transport's locks are held.
  TestServer s;
  ASSERT_TRUE(s.started);
  mcp::http::HttpClientOptions o;
  o.url = s.url();
  o.standalone_stream = false;
  auto t = mcp::http::HttpClientTransport::create(o);
  ASSERT_TRUE(t) << t.error().message;
  std::promise<void> sent_inside, echoed;
  auto sent = sent_inside.get_future();
  auto answer = echoed.get_future();
  std::atomic<int> messages{0};
  std::string inside_errors;
  mcp::Transport::Callbacks cb;
  cb.on_message = [&, tr = t->get()](std::string frame) {
    const int n = ++messages;
    if (n == 1) {  // the answer to initialize
      auto notified = tr->send(kInitialized, mcp::SendInfo{});
      auto called = tr->send(call_frame(2, "echo"), as_request());
      if (!notified) inside_errors += "notification: " + notified.error().message + "; ";
      if (!called) inside_errors += "request: " + called.error().message;
      sent_inside.set_value();
    } else if (n == 2 && frame.find("\"id\":2") != std::string::npos) {
      echoed.set_value();
    }
  };
  cb.on_close = [](std::optional<mcp::Error>) {};
  ASSERT_TRUE((*t)->start(std::move(cb)));
  ASSERT_TRUE((*t)->send(kInitialize, as_request()));
  ASSERT_EQ(sent.wait_for(20s), std::future_status::ready) << "a send inside a delivery did not return";
  EXPECT_EQ(inside_errors, "");
  ASSERT_EQ(answer.wait_for(20s), std::future_status::ready) << "the request sent inside a delivery was not answered";
  (*t)->close();
}

namespace {

// A loopback listener that never accepts, its queue filled: the kernel drops the SYNs of further
// connects, which stay in progress until their own deadline (an upstream host that is unreachable
// without saying so).
struct FullListener {
  int fd = -1;
  unsigned short port = 0;
  std::vector<int> queued;
  FullListener() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || ::listen(fd, 0) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0)
      return;
    port = ntohs(sa.sin_port);
    for (int i = 0; i < 4; ++i) {  // a backlog of 0 holds one; the rest wait in SYN_SENT themselves
      int c = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
      (void)::connect(c, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
      queued.push_back(c);
    }
  }
  ~FullListener() {
    for (int c : queued) ::close(c);
    if (fd >= 0) ::close(fd);
  }
};

struct Failures {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<mcp::Error> errors;
  mcp::Transport::Callbacks callbacks() {
    mcp::Transport::Callbacks cb;
    cb.on_message = [](std::string) {};
    cb.on_request_failed = [this](const mcp::jsonrpc::Id&, const mcp::Error& e) {
      std::lock_guard l(mu);
      errors.push_back(e);
      cv.notify_all();
    };
    cb.on_close = [](std::optional<mcp::Error>) {};
    return cb;
  }
  bool none_within(std::chrono::milliseconds d) {
    std::unique_lock l(mu);
    return !cv.wait_for(l, d, [&] { return !errors.empty(); });
  }
  std::optional<mcp::Error> first_within(std::chrono::milliseconds d) {
    std::unique_lock l(mu);
    if (!cv.wait_for(l, d, [&] { return !errors.empty(); })) return std::nullopt;
    return errors.front();
  }
};

// A transport whose first request is stuck connecting to a FullListener.
class HttpClientConnecting : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(l.port, 0);
    mcp::http::HttpClientOptions o;
    o.url = "http://127.0.0.1:" + std::to_string(l.port) + "/mcp";
    o.connect_timeout = 60s;  // what the old close waited for
    o.standalone_stream = false;
    auto made = mcp::http::HttpClientTransport::create(o);
    ASSERT_TRUE(made) << made.error().message;
    t = *made;
    ASSERT_TRUE(t->start(f.callbacks()));
  }
  // Sends `frame` as a request and checks that its connect hangs.
  void send_stuck(const std::string& frame) {
    ASSERT_TRUE(t->send(frame, as_request()));
    ASSERT_TRUE(f.none_within(300ms)) << "the connect did not hang: " << f.errors.front().message;
  }
  FullListener l;
  Failures f;
  std::shared_ptr<mcp::http::HttpClientTransport> t;
};

}  // namespace

TEST_F(HttpClientConnecting, CloseEndsAConnectInProgressAtOnce) {
  send_stuck(call_frame(1, "echo"));
  const auto began = Clock::now();
  auto closed = std::async(std::launch::async, [&] { t->close(); });
  ASSERT_EQ(closed.wait_for(20s), std::future_status::ready) << "close() waited for the connect's deadline";
  EXPECT_LT(Clock::now() - began, 5s);
  auto e = f.first_within(1s);
  ASSERT_TRUE(e) << "the request in flight was not failed";
  EXPECT_NE(e->message.find("aborted"), std::string::npos) << e->message;
}

TEST_F(HttpClientConnecting, CancellingAStatelessRequestEndsItsConnectInProgress) {
  // A 2026-07-28 request is cancelled by closing its connection; one still connecting has none
  // to close yet, and used to wait for its connect_timeout.
  send_stuck(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","_meta":{")" +
             std::string(mcp::meta_key::kProtocolVersion) + R"(":"2026-07-28"}}})");
  ASSERT_TRUE(t->send(R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}})", mcp::SendInfo{}));
  auto e = f.first_within(5s);
  ASSERT_TRUE(e) << "the cancelled request still waits for its connect";
  EXPECT_NE(e->message.find("aborted"), std::string::npos) << e->message;
  t->close();
}

// A TLS upstream that accepts and never answers the ClientHello: close() ends the handshake and
// says the connect was aborted (not "Operation canceled", the cancel's own words), and a
// handshake that outlives connect_timeout says so, naming the option.
namespace {

struct StuckHandshake {
  SilentServer silent;
  Failures f;
  std::shared_ptr<mcp::http::HttpClientTransport> t;
  explicit StuckHandshake(std::chrono::milliseconds connect_timeout) {
    mcp::http::HttpClientOptions o;
    o.url = "https://127.0.0.1:" + std::to_string(silent.port) + "/mcp";
    o.connect_timeout = connect_timeout;
    o.standalone_stream = false;
    auto made = mcp::http::HttpClientTransport::create(o);
    if (!made) return;
    t = *made;
    if (!t->start(f.callbacks())) t.reset();
  }
};

}  // namespace

TEST(HttpClientTlsHandshake, CloseEndsAHandshakeInProgressSayingItWasAborted) {
  StuckHandshake h(60s);
  ASSERT_TRUE(h.t);
  ASSERT_TRUE(h.t->send(call_frame(1, "echo"), as_request()));
  ASSERT_TRUE(eventually([&] { return h.silent.accepted_count.load() == 1; }, 10s)) << "no connection made";
  ASSERT_TRUE(h.f.none_within(200ms)) << h.f.errors.front().message;
  auto closed = std::async(std::launch::async, [&] { h.t->close(); });
  ASSERT_EQ(closed.wait_for(20s), std::future_status::ready) << "close() waited for the handshake's deadline";
  auto e = h.f.first_within(1s);
  ASSERT_TRUE(e) << "the request in flight was not failed";
  EXPECT_NE(e->message.find("was aborted"), std::string::npos) << e->message;
  EXPECT_EQ(e->message.find("Operation canceled"), std::string::npos) << e->message;
}

TEST(HttpClientTlsHandshake, AHandshakePastConnectTimeoutSaysSo) {
  StuckHandshake h(400ms);
  ASSERT_TRUE(h.t);
  ASSERT_TRUE(h.t->send(call_frame(1, "echo"), as_request()));
  auto e = h.f.first_within(10s);
  ASSERT_TRUE(e) << "the handshake did not time out";
  EXPECT_NE(e->message.find("TLS handshake"), std::string::npos) << e->message;
  EXPECT_NE(e->message.find("timed out after 400 ms (connect_timeout)"), std::string::npos) << e->message;
  h.t->close();
}

TEST(HttpClientLoop, AStreamThatFloodsTheLoopDoesNotHoldBackAnotherRequest) {
  // One loop reads every exchange of the transport. A server that pours events into one request's
  // SSE stream as fast as it can (bounded: 20 s or the other request answered) must not keep
  // the loop from the other request's answer: each read is a turn, and the others get theirs.
  std::atomic<bool> other_answered{false};
  ScriptedHttpServer server([&](const ScriptedRequest& r, const ScriptedHttpServer::Send& send) {
    if (r.body.find("\"flood\"") == std::string::npos) {
      const std::string body = R"({"jsonrpc":"2.0","id":2,"result":{"content":[]}})";
      send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\n\r\n" + body);
      return;
    }
    send("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n");
    std::string burst;
    for (int i = 0; i < 64; ++i) burst += "data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n";
    const auto until = Clock::now() + 20s;
    while (!other_answered && Clock::now() < until) send(burst);
  });
  mcp::http::HttpClientOptions o;
  o.url = "http://127.0.0.1:" + std::to_string(server.port) + "/mcp";
  o.standalone_stream = false;
  auto t = mcp::http::HttpClientTransport::create(o);
  ASSERT_TRUE(t) << t.error().message;
  std::atomic<long> flooded{0};
  std::promise<void> answered;
  auto answer = answered.get_future();
  mcp::Transport::Callbacks cb;
  cb.on_message = [&](std::string frame) {
    if (frame.find("\"id\":2") != std::string::npos) {
      other_answered = true;
      answered.set_value();
    } else {
      ++flooded;
    }
  };
  cb.on_close = [](std::optional<mcp::Error>) {};
  ASSERT_TRUE((*t)->start(std::move(cb)));
  ASSERT_TRUE((*t)->send(call_frame(1, "flood"), as_request()));
  ASSERT_TRUE(eventually([&] { return flooded.load() > 1000; }, 10s)) << "the flood did not start";
  ASSERT_TRUE((*t)->send(call_frame(2, "echo"), as_request()));
  EXPECT_EQ(answer.wait_for(5s), std::future_status::ready) << "held back behind " << flooded.load() << " flooded events";
  other_answered = true;
  (*t)->close();
}
