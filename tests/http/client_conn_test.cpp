// How the HTTP client transport writes a request and reads its answer on a plain connection
// (src/http/client_conn.cpp): the request goes with send(2) first, without waiting, and only what
// does not fit the socket's buffers is written by the event loop under write_timeout; the answer
// is read over recv(2) and poll(2) under response_timeout and stream_idle_timeout. Both halves of
// a long request must arrive, in order, and a server that stops must end the request at the
// deadline, saying which.
#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <fstream>
#include <mutex>

#include "http/http_test_util.hpp"
#include "mcp/http/client_transport.hpp"

using namespace mcp::http::test;
using mcp::http::HttpClientOptions;
using mcp::http::HttpClientTransport;

namespace {

// What a transport hands its session, collected for a test to wait on.
struct Received {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> frames;
  std::vector<mcp::Error> failures;

  mcp::Transport::Callbacks callbacks() {
    mcp::Transport::Callbacks cb;
    cb.on_message = [this](std::string f) {
      std::lock_guard l(mu);
      frames.push_back(std::move(f));
      cv.notify_all();
    };
    cb.on_close = [](std::optional<mcp::Error>) {};
    cb.on_request_failed = [this](const mcp::jsonrpc::Id&, const mcp::Error& e) {
      std::lock_guard l(mu);
      failures.push_back(e);
      cv.notify_all();
    };
    return cb;
  }
  bool wait_for_one(std::chrono::seconds limit) {
    std::unique_lock l(mu);
    return cv.wait_for(l, limit, [&] { return !frames.empty() || !failures.empty(); });
  }
};

// More bytes than a loopback connection can hold in the kernel (the sender's send buffer and the
// receiver's receive buffer at their largest, tcp_wmem and tcp_rmem), with 4 MiB to spare: a
// request this long cannot be taken by send(2) alone while nobody reads it. 12 MiB at least.
std::size_t more_than_the_kernel_buffers() {
  auto largest = [](const char* file) {
    std::ifstream f(file);
    std::size_t low = 0, initial = 0, max = 0;
    f >> low >> initial >> max;
    return max;
  };
  const std::size_t held = largest("/proc/sys/net/ipv4/tcp_wmem") + largest("/proc/sys/net/ipv4/tcp_rmem");
  return std::max<std::size_t>(12u << 20, held + (4u << 20));
}

// A tools/call request whose one argument is `text`.
std::string call_with(const std::string& text) {
  return R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"big","arguments":{"text":")" + text + R"("}}})";
}

mcp::SendInfo request_info() {
  mcp::SendInfo info;
  info.kind = mcp::SendInfo::Kind::request;
  return info;
}

// Sends `frame` as a request through a new transport (options `o`, its URL the loopback `port`)
// and waits, at most 30 s, for its answer or its failure in `got`. The transport is closed, its
// threads joined, before this returns.
void send_and_wait(unsigned short port, HttpClientOptions o, const std::string& frame, Received& got) {
  o.url = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
  o.standalone_stream = false;
  auto t = HttpClientTransport::create(o);
  ASSERT_TRUE(t);
  ASSERT_TRUE((*t)->start(got.callbacks()));
  ASSERT_TRUE((*t)->send(frame, request_info()));
  ASSERT_TRUE(got.wait_for_one(30s));
}

}  // namespace

TEST(HttpClientWrite, ARequestLargerThanTheSocketBuffersArrivesWhole) {
  // More than the kernel can buffer, so send(2) takes part of it and the event loop writes the
  // rest. The server answers with the body's length and hash, so a lost, repeated or reordered
  // piece shows.
  std::string text(more_than_the_kernel_buffers(), 'a');
  for (std::size_t i = 0; i < text.size(); i += 4096) text[i] = static_cast<char>('b' + (i / 4096) % 20);
  text.replace(text.size() - 6, 6, "-end-!");
  const std::string frame = call_with(text);
  ScriptedHttpServer server([](const ScriptedRequest& r, const ScriptedHttpServer::Send& send) {
    const auto digest = std::to_string(r.body.size()) + ":" + std::to_string(std::hash<std::string>{}(r.body));
    const std::string body = R"({"jsonrpc":"2.0","id":7,"result":{"seen":")" + digest + R"("}})";
    send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body);
  });
  Received got;
  ASSERT_NO_FATAL_FAILURE(send_and_wait(server.port, {}, frame, got));
  ASSERT_TRUE(got.failures.empty()) << got.failures.front().message;
  const auto expected = std::to_string(frame.size()) + ":" + std::to_string(std::hash<std::string>{}(frame));
  EXPECT_NE(got.frames.front().find(expected), std::string::npos) << got.frames.front();
}

TEST(HttpClientWrite, AServerThatReadsNothingEndsTheRequestAtWriteTimeout) {
  // What fits the buffers goes at once; the rest waits for a reader that never comes, and the
  // request fails at write_timeout, saying so, instead of holding its thread forever.
  SilentServer silent;
  HttpClientOptions o;
  o.write_timeout = 300ms;
  o.response_timeout = 60s;  // not this one
  Received got;
  const auto t0 = Clock::now();
  ASSERT_NO_FATAL_FAILURE(send_and_wait(silent.port, o, call_with(std::string(more_than_the_kernel_buffers(), 'a')), got));
  ASSERT_EQ(got.failures.size(), 1u);
  EXPECT_NE(got.failures.front().message.find("write_timeout"), std::string::npos) << got.failures.front().message;
  EXPECT_LT(Clock::now() - t0, 20s);
}

TEST(HttpClientRead, AnAnswerThatStopsMidBodyEndsAtStreamIdleTimeout) {
  // The head and half the body, then silence on an open connection: the read waits
  // stream_idle_timeout for the rest, then the request fails saying so.
  ScriptedHttpServer server([](const ScriptedRequest&, const ScriptedHttpServer::Send& send) {
    const std::string body = R"({"jsonrpc":"2.0","id":7,"result":{}})";
    send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body.substr(0, body.size() / 2));
  });
  HttpClientOptions o;
  o.stream_idle_timeout = 300ms;
  Received got;
  ASSERT_NO_FATAL_FAILURE(send_and_wait(server.port, o, call_with("x"), got));
  ASSERT_EQ(got.failures.size(), 1u);
  EXPECT_NE(got.failures.front().message.find("stream_idle_timeout"), std::string::npos) << got.failures.front().message;
}

TEST(HttpClientRead, AJsonAnswerCutShortByTheServerFailsSayingSo) {
  // The server closes the connection halfway through the body it announced.
  // (ScriptedHttpServer keeps its connections open: a raw listener that closes.)
  auto [fd, port] = loopback_listener();
  ASSERT_GE(fd, 0);
  std::thread server([fd = fd] {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10000) <= 0) return;
    const int c = ::accept(fd, nullptr, nullptr);
    if (c < 0) return;
    std::string got;
    char buf[4096];
    while (got.find("\r\n\r\n") == std::string::npos) {  // the head; the request's body is small
      pollfd q{c, POLLIN, 0};
      if (::poll(&q, 1, 10000) <= 0) break;
      const auto n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      got.append(buf, static_cast<std::size_t>(n));
    }
    const std::string body = R"({"jsonrpc":"2.0","id":7,"result":{}})";
    const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\n\r\n" + body.substr(0, body.size() / 2);
    (void)::send(c, answer.data(), answer.size(), MSG_NOSIGNAL);
    ::close(c);
  });
  Received got;
  send_and_wait(port, {}, call_with("x"), got);  // on failure, still join and close below
  server.join();
  ::close(fd);
  ASSERT_EQ(got.failures.size(), 1u);
  EXPECT_NE(got.failures.front().message.find("cut short"), std::string::npos) << got.failures.front().message;
}
