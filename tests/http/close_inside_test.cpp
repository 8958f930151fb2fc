// HttpClientTransport::close() from inside the transport's own callbacks (transport.hpp: "close may be
// called from any thread, including from inside a callback"). The callback runs on the transport's
// loop thread (until 2026-12-02, on a request thread) holding the delivery lock; close() used to
// join every request thread, that one included, and then take the delivery lock again: the thread
// waited on itself forever. Finishing the loop from inside it would do the same.
#include <gtest/gtest.h>

#include <future>

#include "http/http_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"

using namespace mcp::http::test;

namespace {

std::shared_ptr<mcp::http::HttpClientTransport> transport_for(const std::string& url) {
  mcp::http::HttpClientOptions o;
  o.url = url;
  o.connect_timeout = 3000ms;
  o.standalone_stream = false;
  auto t = mcp::http::HttpClientTransport::create(o);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  return t ? *t : nullptr;
}

// A close that never returns would hang the whole test binary; fail it by name instead (the stuck
// thread is left behind, and the process ends with the failure reported).
void expect_within(std::future<void>& f, const char* what) {
  if (f.wait_for(20s) != std::future_status::ready) {
    ADD_FAILURE() << what << " did not return within 20 s";
    std::fflush(nullptr);
    std::_Exit(1);
  }
}

}  // namespace

TEST(HttpClientClose, FromInsideItsOwnDeliveryReturnsAndReportsTheCloseOnce) {
  TestServer s;
  ASSERT_TRUE(s.started);
  auto t = transport_for(s.url());
  ASSERT_TRUE(t);
  std::promise<void> closed_inside, reported;
  auto returned = closed_inside.get_future();
  auto on_close_reported = reported.get_future();
  std::atomic<int> on_close_calls{0};
  std::atomic<bool> in_message{false}, on_close_inside_message{false};
  mcp::Transport::Callbacks cb;
  cb.on_message = [&](std::string) {
    in_message = true;
    t->close();  // the answer to initialize: close from inside its delivery
    in_message = false;
    closed_inside.set_value();
  };
  cb.on_close = [&](std::optional<mcp::Error>) {
    if (in_message) on_close_inside_message = true;
    if (++on_close_calls == 1) reported.set_value();
  };
  ASSERT_TRUE(t->start(std::move(cb)));
  mcp::SendInfo info;
  info.kind = mcp::SendInfo::Kind::request;
  ASSERT_TRUE(t->send(kInitialize, info));
  expect_within(returned, "close() inside on_message");
  expect_within(on_close_reported, "on_close after the delivery that closed");  // it follows set_value()
  EXPECT_EQ(on_close_calls.load(), 1);
  EXPECT_FALSE(on_close_inside_message.load()) << "on_close must follow the delivery, not interrupt it";
  t->close();  // idempotent
  EXPECT_EQ(on_close_calls.load(), 1);
  EXPECT_FALSE(t->send(kInitialize, info));
}

TEST(HttpClientClose, ClientClosedByItsOwnCallOnTheDeliveryThread) {
  TestServer s;
  ASSERT_TRUE(s.started);
  auto client = std::make_shared<mcp::Client>();
  ASSERT_TRUE(client->connect(transport_for(s.url())));
  std::promise<void> closed_inside;
  auto returned = closed_inside.get_future();
  // Several calls in flight at once, so other request threads are waiting to deliver while the
  // first answer closes the client.
  std::atomic<bool> first{true};
  std::atomic<int> answered{0};
  for (int i = 0; i < 4; ++i) {
    client->call_tool_async("echo", {{"text", "x"}}, {}, [&](mcp::Result<mcp::CallToolResult>) {
      ++answered;
      if (first.exchange(false)) {
        client->close();
        closed_inside.set_value();
      }
    });
  }
  expect_within(returned, "Client::close() inside a call's callback");
  auto later = std::async(std::launch::async, [&] { client.reset(); });
  expect_within(later, "releasing the closed client");
  // Every call was answered once, with its result or with the close: none lost, none twice.
  EXPECT_EQ(answered.load(), 4);
}

TEST(HttpClientClose, ReleasedByItsOwnerMidRequestItClosesThenAndThere) {
  // The request threads keep the transport alive while they run. Its owner's release used to wait
  // for them: a request the server held open (here until the server stops) kept a released
  // transport, its connection and its thread for as long as the server liked, and nobody closed it.
  TestServer s;
  ASSERT_TRUE(s.started);
  auto t = transport_for(s.url());
  ASSERT_TRUE(t);
  std::atomic<int> on_close_calls{0}, messages{0};
  std::promise<void> initialized;
  auto answered = initialized.get_future();
  mcp::Transport::Callbacks cb;
  cb.on_message = [&](std::string) {
    if (++messages == 1) initialized.set_value();
  };
  cb.on_close = [&](std::optional<mcp::Error>) { ++on_close_calls; };
  ASSERT_TRUE(t->start(std::move(cb)));
  mcp::SendInfo request;
  request.kind = mcp::SendInfo::Kind::request;
  ASSERT_TRUE(t->send(kInitialize, request));
  expect_within(answered, "the answer to initialize");
  ASSERT_TRUE(t->send(kInitialized, mcp::SendInfo{}));
  ASSERT_TRUE(t->send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block"}})", request));
  const auto deadline = std::chrono::steady_clock::now() + 10s;  // the handler is running: the request is in flight
  while (s.gate->entered.load() == 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
  ASSERT_EQ(s.gate->entered.load(), 1);
  t.reset();
  EXPECT_EQ(on_close_calls.load(), 1) << "the owner's release must close the transport, not leave it to its threads";
}
