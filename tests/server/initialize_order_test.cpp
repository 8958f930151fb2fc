// The initialize result is the first thing a 2025-11-25 client receives: a change notification
// raised while the server answers initialize waits until that answer is out. The session used to
// be marked ready before its result was written, so a list_changed raced with initialize could
// reach the client first (docs/rough_edges.md said so).
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "mcp/protocol/methods.hpp"
#include "server/raw_client.hpp"
#include "server/tools.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::make_tool;

namespace {

TEST(InitializeOrder, NoChangeNotificationOvertakesTheInitializeResult) {
  auto server = std::make_shared<Server>();
  // Changes without pause: each is a tools/list_changed to every session marked ready.
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    for (int i = 0; !stop.load(); ++i) {
      const std::string name = "churn_" + std::to_string(i % 4);
      server->add_tool(make_tool(name), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
        return CallToolResult::text("x");
      });
      server->remove_tool(name);
    }
  });
  constexpr int kConnections = 1000;
  int early_total = 0;
  for (int i = 0; i < kConnections; ++i) {
    // The session engine hands a connection's messages over in order, on one thread: what the
    // client had received when the result's callback ran arrived before the result. (The promise
    // outlives the client, whose shutdown may end an unanswered request through the callback.)
    std::promise<std::size_t> before;
    auto got = before.get_future();
    mcp::test::RawClient c(server);
    c.session->request_async(method::kInitialize,
                             json::object{{"protocolVersion", "2025-11-25"},
                                          {"capabilities", json::object{}},
                                          {"clientInfo", json::object{{"name", "raw"}, {"version", "1"}}}},
                             {}, [&c, &before](Result<json::value> r) {
                               EXPECT_TRUE(r) << r.error().message;
                               before.set_value(c.notification_count());
                             });
    if (got.wait_for(10s) != std::future_status::ready) {
      ADD_FAILURE() << "initialize unanswered";  // the churn thread is still stopped and joined
      break;
    }
    early_total += static_cast<int>(got.get());
  }
  stop = true;
  churn.join();
  EXPECT_EQ(early_total, 0) << "notifications reached a client before its initialize result";
}

}  // namespace
