// Server::batch_changes: while a batch lives, registering and removing items does not tell the
// sessions one by one; when the last batch ends, each list that changed is announced once. The
// changes themselves are seen by requests at once.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>

#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::Connected;
using mcp::test::handshake;
using mcp::test::make_tool;

namespace {

// A 2025-11-25 client that counts the list_changed notifications it gets, by list ("tools", ...).
struct Counting {
  std::mutex mu;
  std::map<std::string, int> seen;
  ClientOptions options() {
    ClientOptions co = handshake();
    co.on_list_changed = [this](const std::string& list) {
      std::lock_guard lock(mu);
      ++seen[list];
    };
    return co;
  }
  int of(const std::string& list) {
    std::lock_guard lock(mu);
    auto it = seen.find(list);
    return it == seen.end() ? 0 : it->second;
  }
};

Result<CallToolResult> ok(const json::object&, RequestContext&) { return CallToolResult::text("ok"); }

TEST(ChangeBatch, ManyChangesAreAnnouncedOncePerListWhenTheLastBatchEnds) {
  auto server = std::make_shared<Server>();
  Counting counts;
  Connected f(server, counts.options());
  ASSERT_TRUE(f.client->ping());  // a round trip: the session is ready

  {
    auto outer = server->batch_changes();
    {
      auto inner = server->batch_changes();
      for (int i = 0; i < 100; ++i) server->add_tool(make_tool("t" + std::to_string(i)), ok);
      server->add_prompt(Prompt{.name = "p"}, [](const std::map<std::string, std::string>&, RequestContext&) {
        return Result<GetPromptResult>(GetPromptResult{});
      });
      ASSERT_TRUE(server->remove_tool("t0"));
    }
    // The inner batch ended, the outer lives: nothing told yet, though requests see the changes.
    auto tools = f.client->list_all_tools();
    ASSERT_TRUE(tools) << tools.error().message;
    EXPECT_EQ(tools->size(), 99u);
    ASSERT_TRUE(f.client->call_tool("t99", json::object{}));
    EXPECT_EQ(counts.of("tools"), 0);
    EXPECT_EQ(counts.of("prompts"), 0);
    server->availability_changed(ListKind::tools);
  }
  // Sent when the last batch ended, before this request: its answer comes after them.
  ASSERT_TRUE(f.client->ping());
  EXPECT_EQ(counts.of("tools"), 1);
  EXPECT_EQ(counts.of("prompts"), 1);
  EXPECT_EQ(counts.of("resources"), 0);  // nothing of it changed

  // Without a batch, each change is told as it happens.
  server->add_tool(make_tool("u1"), ok);
  server->add_tool(make_tool("u2"), ok);
  ASSERT_TRUE(f.client->ping());
  EXPECT_EQ(counts.of("tools"), 3);

  // A batch in which nothing changed tells nothing; a moved-from one ends nothing.
  {
    auto first = server->batch_changes();
    auto moved = std::move(first);
  }
  ASSERT_TRUE(f.client->ping());
  EXPECT_EQ(counts.of("tools"), 3);
}

}  // namespace
