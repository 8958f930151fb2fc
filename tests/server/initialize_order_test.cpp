// The initialize result is the first thing a 2025-11-25 client receives: a change notification
// raised while the server answers initialize waits until that answer is out. The session used to
// be marked ready before its result was written, so a list_changed raced with initialize could
// reach the client first (docs/rough_edges.md said so).
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "mcp/protocol/methods.hpp"
#include "server/raw_client.hpp"
#include "server/tools.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::make_tool;

namespace {

// Counts what arrives on one connection before its initialize result. The session engine hands a
// connection's messages over in order, on one thread: a notification handled before the result's
// callback ran arrived before it.
struct Watcher {
  std::mutex mu;
  std::condition_variable cv;
  bool answered = false;
  int early = 0;
};

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
    auto watcher = std::make_shared<Watcher>();
    struct Client : mcp::test::RawClient {
      std::shared_ptr<Watcher> w;
      Client(std::shared_ptr<Server> s, std::shared_ptr<Watcher> watcher)
          : RawClient(std::move(s)), w(std::move(watcher)) {}
      void handle_notification(const jsonrpc::Notification& n) override {
        std::lock_guard lock(w->mu);
        if (!w->answered) ++w->early;
        (void)n;
      }
    } c(server, watcher);
    c.session->request_async(method::kInitialize,
                             json::object{{"protocolVersion", "2025-11-25"},
                                          {"capabilities", json::object{}},
                                          {"clientInfo", json::object{{"name", "raw"}, {"version", "1"}}}},
                             {}, [watcher](Result<json::value> r) {
                               EXPECT_TRUE(r) << r.error().message;
                               std::lock_guard lock(watcher->mu);
                               watcher->answered = true;
                               watcher->cv.notify_all();
                             });
    std::unique_lock lock(watcher->mu);
    ASSERT_TRUE(watcher->cv.wait_for(lock, 10s, [&] { return watcher->answered; })) << "initialize unanswered";
    early_total += watcher->early;
  }
  stop = true;
  churn.join();
  EXPECT_EQ(early_total, 0) << "notifications reached a client before its initialize result";
}

}  // namespace
