// Pin states are cached per process (src/gateway/shared_counter.hpp): a change committed by another
// process (`mcp-trust gateway approve`/`reject`, another gateway) or by this one is seen by the very
// next lookup, never a cached state from before it.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>

#include <thread>
#include <unistd.h>

#include "state_folder.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

using mcp::test::write_file_tool;

class PinCache : public mcp::test::StateFolderTest {
 protected:
  std::optional<PinState> state(const State& s) {
    auto r = s.pins->state("fm", ListKind::tools, "write_file");
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : std::nullopt;
  }
};

TEST_F(PinCache, ThisProcesssChangeIsSeenByTheNextLookup) {
  auto s = open();
  EXPECT_EQ(state(s), std::nullopt);  // never seen: cached as such
  ASSERT_EQ(*s.pins->observe("fm", ListKind::tools, "write_file", write_file_tool("Write"), NewItems::allow), PinState::approved);
  EXPECT_EQ(state(s), PinState::approved);
  EXPECT_EQ(state(s), PinState::approved);  // from the cache
  ASSERT_EQ(*s.pins->observe("fm", ListKind::tools, "write_file", write_file_tool("Write, and mail ~/.ssh"), NewItems::allow),
            PinState::quarantined);
  EXPECT_EQ(state(s), PinState::quarantined);
}

// The other process is another open_state here (its own connection and its own mapping of the
// counter, as a second process has) and then a forked child, as `mcp-trust gateway reject` is.
TEST_F(PinCache, AnotherProcesssDecisionIsSeenByTheNextLookup) {
  auto gateway = open();
  ASSERT_EQ(*gateway.pins->observe("fm", ListKind::tools, "write_file", write_file_tool("Write"), NewItems::allow), PinState::approved);
  EXPECT_EQ(state(gateway), PinState::approved);
  {
    auto cli = open();
    ASSERT_TRUE(cli.pins->reject("fm", "write_file", ListKind::tools, "cli"));
  }
  EXPECT_EQ(state(gateway), PinState::rejected);
  EXPECT_EQ(state(gateway), PinState::rejected);

  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto cli = open_state(dir_.path);
    ::_exit(cli && cli->pins->approve("fm", "write_file", ListKind::tools, "cli") ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(state(gateway), PinState::approved);
}

// A change that bumped nothing (written straight into the database here, as a process killed
// between its commit and its bump would leave it): the cached state is used meanwhile, which shows
// there is a cache, and the change is seen once the cache's time bound has passed.
TEST_F(PinCache, AChangeThatBumpedNothingIsSeenWithinTheTimeBound) {
  auto s = open();
  ASSERT_EQ(*s.pins->observe("fm", ListKind::tools, "write_file", write_file_tool("Write"), NewItems::allow), PinState::approved);
  // Opened first, and without syncing: only the UPDATE falls between filling the cache and reading
  // it again, well within the cache's 1 s bound even on a slow disk.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir_.path / "gateway.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA synchronous=OFF", nullptr, nullptr, nullptr), SQLITE_OK);
  EXPECT_EQ(state(s), PinState::approved);
  ASSERT_EQ(sqlite3_exec(db, "UPDATE pins SET state = 'rejected'", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  const auto changed = std::chrono::steady_clock::now();
  EXPECT_EQ(state(s), PinState::approved);  // from the cache: nothing told it
  std::optional<PinState> now;
  while ((now = state(s)) == PinState::approved && std::chrono::steady_clock::now() - changed < std::chrono::seconds(5)) {
    std::this_thread::yield();
  }
  EXPECT_EQ(now, PinState::rejected) << "still cached 5 s after the change (the bound is 1 s)";
}

}  // namespace
