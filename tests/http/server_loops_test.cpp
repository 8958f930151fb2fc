// HttpClientOptions::run_on_server_loops (src/http/loop_host.hpp): a request a handler sends from
// an HttpServer's I/O thread runs its exchange on that thread's loop and is answered there; the
// server, stopping, ends such exchanges still running first; close() ends them as it ends the
// transport's own. The front here is an HttpServer whose async tool `relay` sends a stateless
// tools/call through a client transport, as the gateway relays a call to an HTTP upstream.
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <thread>

#include "http/http_test_util.hpp"
#include "http/loop_host.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "mcp/protocol/stateless.hpp"

using namespace mcp::http::test;
using mcp::http::HttpClientOptions;
using mcp::http::HttpClientTransport;

namespace {

std::string stateless_call(int id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"tools/call","params":{"name":"echo","arguments":{"text":"relayed"},"_meta":{")" +
         std::string(mcp::meta_key::kProtocolVersion) + R"(":"2026-07-28",")" + std::string(mcp::meta_key::kClientCapabilities) +
         R"(":{},")" + std::string(mcp::meta_key::kClientInfo) + R"(":{"name":"relay","version":"1"}}}})";
}

// A transport to `url`, and what became of the requests sent through it: the thread each answer
// or failure came on, and the failures' messages.
struct Relay {
  struct Sent {
    std::thread::id handler_thread;
    bool on_server_loop = false;  // the handler ran on one of an HttpServer's loops
    std::optional<mcp::Reply<mcp::CallToolResult>> reply;
  };
  std::mutex mu;
  std::condition_variable cv;
  std::map<int, Sent> sent;
  std::map<int, std::thread::id> answered_on;
  std::map<int, bool> answered_on_server_loop;
  std::map<int, std::string> failed;
  std::shared_ptr<HttpClientTransport> t;
  int next_id = 1;

  Relay(const std::string& url, bool on_server_loops) {
    HttpClientOptions o;
    o.url = url;
    o.standalone_stream = false;
    o.run_on_server_loops = on_server_loops;
    auto made = HttpClientTransport::create(o);
    if (!made) return;
    t = *made;
    mcp::Transport::Callbacks cb;
    cb.on_message = [this](std::string frame) {
      auto v = parse_json(frame);
      const int id = static_cast<int>(v.at("id").to_number<long long>());
      std::optional<mcp::Reply<mcp::CallToolResult>> reply;
      {
        std::lock_guard l(mu);
        answered_on[id] = std::this_thread::get_id();
        answered_on_server_loop[id] = mcp::http::LoopHost::here() != nullptr;
        if (auto it = sent.find(id); it != sent.end()) reply = std::move(it->second.reply);
        cv.notify_all();
      }
      if (reply) (*reply)(text_result("relayed"));
    };
    cb.on_request_failed = [this](const mcp::jsonrpc::Id& id, const mcp::Error& e) {
      std::optional<mcp::Reply<mcp::CallToolResult>> reply;
      {
        std::lock_guard l(mu);
        const int n = static_cast<int>(id.to_number<long long>());
        failed[n] = e.message;
        if (auto it = sent.find(n); it != sent.end()) reply = std::move(it->second.reply);
        cv.notify_all();
      }
      if (reply) (*reply)(mcp::fail(e));
    };
    cb.on_close = [](std::optional<mcp::Error>) {};
    if (!t->start(std::move(cb))) t.reset();
  }

  // The front's tool: relays each call to the upstream and answers once the upstream has.
  void serve(mcp::Server& front) {
    front.add_async_tool(named_tool("relay"), [this](const mcp::json::object&, std::shared_ptr<mcp::RequestContext>,
                                                     mcp::Reply<mcp::CallToolResult> reply) {
      int id;
      {
        std::lock_guard l(mu);
        id = next_id++;
        sent[id] = Sent{std::this_thread::get_id(), mcp::http::LoopHost::here() != nullptr, std::move(reply)};
      }
      if (auto r = t->send(stateless_call(id), mcp::SendInfo{mcp::SendInfo::Kind::request, nullptr}); !r) {
        std::optional<mcp::Reply<mcp::CallToolResult>> back;
        {
          std::lock_guard l(mu);
          back = std::move(sent[id].reply);
        }
        if (back) (*back)(mcp::fail(r.error()));
      }
    });
  }

  template <class Pred>
  bool wait(Pred pred, std::chrono::milliseconds d = 10s) {
    std::unique_lock l(mu);
    return cv.wait_for(l, d, pred);
  }
};

// The front: an HttpServer with the relay's tool (and the test server's own tools).
struct Front {
  std::shared_ptr<Gate> gate = std::make_shared<Gate>();
  std::shared_ptr<mcp::Server> server = make_test_server(gate);
  std::unique_ptr<mcp::http::HttpServer> http;
  explicit Front(Relay& relay) {
    relay.serve(*server);
    mcp::http::HttpServerOptions o;
    o.port = 0;
    o.shutdown_grace = 200ms;  // the relayed calls that never end are what these tests stop
    http = std::make_unique<mcp::http::HttpServer>(server, std::move(o));
    if (!http->start()) http.reset();
  }
  ~Front() {
    gate->release();
    if (http) http->stop();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(http->port()) + "/mcp"; }
};

std::shared_ptr<HttpClientTransport> client_transport(const std::string& url) {
  HttpClientOptions o;
  o.url = url;
  auto t = HttpClientTransport::create(o);
  return t ? *t : nullptr;
}

}  // namespace

TEST(HttpClientOnServerLoops, ARequestSentFromAServerThreadIsAnsweredOnThatThread) {
  TestServer upstream;
  ASSERT_TRUE(upstream.started);
  for (const bool on_server_loops : {true, false}) {
    Relay relay(upstream.url(), on_server_loops);
    ASSERT_TRUE(relay.t);
    Front front(relay);
    ASSERT_TRUE(front.http);
    mcp::Client client;
    ASSERT_TRUE(client.connect(client_transport(front.url())));
    for (int i = 1; i <= 20; ++i) {
      auto r = client.call_tool("relay");
      ASSERT_TRUE(r) << r.error().message;
      std::lock_guard l(relay.mu);
      ASSERT_TRUE(relay.sent[i].on_server_loop) << "the front's async handler did not run on its I/O thread";
      if (on_server_loops) {
        EXPECT_EQ(relay.answered_on[i], relay.sent[i].handler_thread) << "call " << i << " answered on another thread";
        EXPECT_TRUE(relay.answered_on_server_loop[i]);
      } else {
        // The transport's own loop thread: the hand-off the option spares.
        EXPECT_NE(relay.answered_on[i], relay.sent[i].handler_thread) << "call " << i;
        EXPECT_FALSE(relay.answered_on_server_loop[i]);
      }
    }
    client.close();
    relay.t->close();
  }
}

TEST(HttpClientOnServerLoops, AServerStoppingEndsTheExchangesOnItsLoopsFirst) {
  SilentServer silent;  // accepts and never answers: the relayed call stays in flight
  Relay relay("http://127.0.0.1:" + std::to_string(silent.port) + "/mcp", true);
  ASSERT_TRUE(relay.t);
  auto front = std::make_unique<Front>(relay);
  ASSERT_TRUE(front->http);
  mcp::Client client;
  ASSERT_TRUE(client.connect(client_transport(front->url())));
  std::promise<mcp::Result<mcp::CallToolResult>> got;
  client.call_tool_async("relay", {}, {}, [&](mcp::Result<mcp::CallToolResult> r) { got.set_value(std::move(r)); });
  ASSERT_TRUE(eventually([&] { return silent.accepted_count.load() == 1; }, 10s)) << "the relayed call was not sent";
  auto stopped = std::async(std::launch::async, [&] { front->http->stop(); });
  ASSERT_EQ(stopped.wait_for(20s), std::future_status::ready) << "the server's stop waited on the exchange on its loop";
  ASSERT_TRUE(relay.wait([&] { return relay.failed.contains(1); })) << "the relayed request was never failed";
  {
    std::lock_guard l(relay.mu);
    EXPECT_NE(relay.failed[1].find("is stopping"), std::string::npos) << relay.failed[1];
  }
  client.close();
  front.reset();
  // The transport itself goes on, on its own loop, for a sender on any other thread: a new
  // connection is made for the next request.
  ASSERT_TRUE(relay.t->send(stateless_call(99), mcp::SendInfo{mcp::SendInfo::Kind::request, nullptr}));
  EXPECT_TRUE(eventually([&] { return silent.accepted_count.load() == 2; }, 10s)) << "the next request was not sent";
  relay.t->close();
  EXPECT_TRUE(relay.wait([&] { return relay.failed.contains(99); })) << "closing did not fail the request in flight";
}

TEST(HttpClientOnServerLoops, CloseEndsTheExchangesOnAServersLoops) {
  SilentServer silent;
  Relay relay("http://127.0.0.1:" + std::to_string(silent.port) + "/mcp", true);
  ASSERT_TRUE(relay.t);
  Front front(relay);
  ASSERT_TRUE(front.http);
  mcp::Client client;
  ASSERT_TRUE(client.connect(client_transport(front.url())));
  std::promise<mcp::Result<mcp::CallToolResult>> got;
  client.call_tool_async("relay", {}, {}, [&](mcp::Result<mcp::CallToolResult> r) { got.set_value(std::move(r)); });
  ASSERT_TRUE(eventually([&] { return silent.accepted_count.load() == 1; }, 10s)) << "the relayed call was not sent";
  auto closed = std::async(std::launch::async, [&] { relay.t->close(); });
  ASSERT_EQ(closed.wait_for(20s), std::future_status::ready) << "close() waited on the exchange on the server's loop";
  auto answer = got.get_future();
  ASSERT_EQ(answer.wait_for(10s), std::future_status::ready) << "the front's call was never answered";
  EXPECT_FALSE(answer.get()) << "the relayed call was answered though its exchange was closed";
  // The front's loops still serve.
  auto echo = client.call_tool("echo", {{"text", "still here"}});
  ASSERT_TRUE(echo) << echo.error().message;
  client.close();
}
