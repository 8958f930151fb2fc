// A session hears of the server's changes from its first message on. The server used to start a
// new session (its reader dispatching requests) before recording it for broadcasts, so a client
// that subscribed quickly, while the thread that opened the session was still on its way to
// recording it, missed what changed in between: `file_manager_root_subscribe_test` lost a
// file's notifications/resources/updated about once in a thousand runs on a loaded machine (the
// server's broadcast saw no session; traced 2026-12-01). Here the window is made certain: the
// client's messages wait in the direct transport until the server starts the session, which then
// handles them all on the thread still inside Server::connect. (A 2025-11-25 session cannot be
// driven that way: its initialize is answered on the pool, after connect() has returned.)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mcp/protocol/methods.hpp"
#include "mcp/session/session.hpp"
#include "mcp/transport/direct.hpp"
#include "server/raw_client.hpp"
#include "server/tools.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::make_tool;
using mcp::test::params_with;
using mcp::test::stateless_meta;

namespace {

// The client's end, a bare session engine: what it is told, in order.
struct Heard : Session::Handler {
  std::mutex mu;
  std::condition_variable arrived;
  std::vector<std::string> methods;
  void handle_notification(const jsonrpc::Notification& n) override {
    {
      std::lock_guard lock(mu);
      methods.push_back(n.method);
    }
    arrived.notify_all();
  }
  bool wait_for(std::string_view method) {
    std::unique_lock lock(mu);
    return arrived.wait_for(lock, 5s, [&] { return std::find(methods.begin(), methods.end(), method) != methods.end(); });
  }
};

// A server whose tool "grow" adds a tool: a tools/list_changed to every session recorded.
std::shared_ptr<Server> growing_server() {
  auto server = std::make_shared<Server>();
  std::weak_ptr<Server> weak = server;
  server->add_tool(
      make_tool("grow"),
      [weak](const json::object&, RequestContext&) -> Result<CallToolResult> {
        if (auto s = weak.lock()) {
          s->add_tool(make_tool("grown"),
                      [](const json::object&, RequestContext&) -> Result<CallToolResult> { return CallToolResult::text("x"); });
        }
        return CallToolResult::text("grew");
      },
      ToolOptions{.non_blocking = true});  // runs on the reader thread: inside Server::connect here
  return server;
}

TEST(SessionRegistration, AListenOpenedInTheSessionsFirstMessagesHearsTheChangesThatFollow) {
  auto server = growing_server();
  auto [ours, theirs] = make_direct_transport_pair();
  Heard heard;
  auto client = Session::create(theirs, heard, {});
  ASSERT_TRUE(client->start());
  // Sent before the server's end is started: delivered as it starts.
  RequestOptions forever;
  forever.timeout = std::chrono::hours(1);
  client->request_async(method::kSubscriptionsListen,
                        params_with(stateless_meta(), {{"notifications", json::object{{"toolsListChanged", true}}}}),
                        forever, [](Result<json::value>) {});
  std::mutex mu;
  std::condition_variable answered;
  std::optional<Result<json::value>> grew;
  client->request_async(method::kToolsCall, params_with(stateless_meta(), {{"name", "grow"}}), {},
                        [&](Result<json::value> r) {
                          std::lock_guard lock(mu);
                          grew = std::move(r);
                          answered.notify_all();
                        });
  auto session = server->connect(ours);
  ASSERT_TRUE(session) << session.error().message;
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(answered.wait_for(lock, 5s, [&] { return grew.has_value(); }));
    ASSERT_TRUE(*grew) << grew->error().message;
  }
  ASSERT_TRUE(heard.wait_for(method::kSubscriptionsAcknowledged));
  EXPECT_TRUE(heard.wait_for(method::kToolsListChanged)) << "the change made by the session's own call was not told to it";
  client->shutdown();
}

}  // namespace
