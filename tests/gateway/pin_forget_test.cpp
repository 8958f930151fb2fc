// A person drops pins (PinStore::forget, `mcp-trust gateway forget`): what frees an upstream that
// filled its pins with names it no longer lists. Each test fails if a pin it drops stays, another
// one goes with it, the drop goes unrecorded, or the limits still count it. Through the proxy:
// proxy_test.cpp (AForgottenItemIsRefusedThenPinnedAfresh).
#include <gtest/gtest.h>

#include <string>

#include "gateway/pin_store.hpp"
#include "pin_rows.hpp"
#include "state_folder.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

class PinForget : public mcp::test::StateFolderTest {
 protected:
  static json::object tool(const std::string& name, const std::string& description = "d") {
    return json::object{
        {"name", name}, {"description", description}, {"inputSchema", json::object{{"type", "object"}}}};
  }
  static std::optional<PinState> state_of(const State& s, const std::string& server, const std::string& key) {
    auto st = s.pins->state(server, ListKind::tools, key);
    EXPECT_TRUE(st) << st.error().message;
    return st ? *st : std::nullopt;
  }
  static AuditRecord last_record(const State& s) {
    auto last = s.audit->tail(1);
    EXPECT_TRUE(last && !last->empty());
    return last && !last->empty() ? last->front() : AuditRecord{};
  }
};

TEST_F(PinForget, OneItemGoesRecordedAndComesBackAsNew) {
  auto s = open();
  ASSERT_EQ(*s.pins->observe("up", ListKind::tools, "a", tool("a"), NewItems::quarantine), PinState::quarantined);
  ASSERT_TRUE(s.pins->approve("up", "a", ListKind::tools, "test"));
  ASSERT_EQ(*s.pins->observe("up", ListKind::tools, "b", tool("b"), NewItems::allow), PinState::approved);

  auto gone = s.pins->forget("up", "a", std::nullopt, "cli:test");
  ASSERT_TRUE(gone) << gone.error().message;
  EXPECT_EQ(gone->key, "a");
  EXPECT_EQ(gone->state, PinState::approved);
  EXPECT_EQ(state_of(s, "up", "a"), std::nullopt) << "the pin is still there";
  EXPECT_EQ(state_of(s, "up", "b"), PinState::approved) << "another pin went with it";
  const auto record = last_record(s);
  EXPECT_EQ(record.kind, "forget");
  EXPECT_EQ(record.body.at("key"), "a");
  EXPECT_EQ(record.body.at("by"), "cli:test");
  EXPECT_EQ(record.body.at("state"), "approved");
  // Listed again, it is new: held by a quarantining policy, whatever was approved before.
  EXPECT_EQ(*s.pins->observe("up", ListKind::tools, "a", tool("a"), NewItems::quarantine), PinState::quarantined);
  auto chain = s.audit->verify();
  ASSERT_TRUE(chain) << chain.error().message;
  EXPECT_FALSE(chain->first_broken) << chain->why;

  auto missing = s.pins->forget("up", "never", std::nullopt, "cli:test");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("no pinned item 'never'"), std::string::npos) << missing.error().message;
}

// --new-only keeps every person's decision: approvals, rejections, and changes of approved items.
TEST_F(PinForget, NewOnlyDropsTheItemsHeldAsNewAndNoDecision) {
  auto s = open();
  for (const char* key : {"new1", "new2", "approved", "rejected", "changed"})
    ASSERT_EQ(*s.pins->observe("up", ListKind::tools, key, tool(key), NewItems::quarantine), PinState::quarantined);
  ASSERT_TRUE(s.pins->approve("up", "approved", ListKind::tools, "test"));
  ASSERT_TRUE(s.pins->approve("up", "changed", ListKind::tools, "test"));
  ASSERT_TRUE(s.pins->reject("up", "rejected", ListKind::tools, "test"));
  ASSERT_EQ(*s.pins->observe("up", ListKind::tools, "changed", tool("changed", "rug pull"), NewItems::quarantine),
            PinState::quarantined);
  ASSERT_EQ(*s.pins->observe("other", ListKind::tools, "new1", tool("new1"), NewItems::quarantine),
            PinState::quarantined);

  auto count = s.pins->forget_all("up", PinStore::Forget::new_only, "cli:test");
  ASSERT_TRUE(count) << count.error().message;
  EXPECT_EQ(*count, 2);
  EXPECT_EQ(state_of(s, "up", "new1"), std::nullopt);
  EXPECT_EQ(state_of(s, "up", "new2"), std::nullopt);
  EXPECT_EQ(state_of(s, "up", "approved"), PinState::approved);
  EXPECT_EQ(state_of(s, "up", "rejected"), PinState::rejected);
  EXPECT_EQ(state_of(s, "up", "changed"), PinState::quarantined) << "a quarantined change of an approved item went";
  EXPECT_EQ(state_of(s, "other", "new1"), PinState::quarantined) << "another upstream's pin went";
  const auto record = last_record(s);
  EXPECT_EQ(record.kind, "forget");
  EXPECT_EQ(record.body.at("which"), "new");
  EXPECT_EQ(record.body.at("count"), 2);

  auto all = s.pins->forget_all("up", PinStore::Forget::all, "cli:test");
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(*all, 3);
  auto left = s.pins->pins("up");
  ASSERT_TRUE(left);
  EXPECT_TRUE(left->empty());
  EXPECT_EQ(state_of(s, "other", "new1"), PinState::quarantined);
}

// The case forget is for: an upstream that renamed its tools until it reached kMaxPinsPerServer
// has its new names neither pinned nor served. Forgetting, in another process (the CLI opens the
// folder on its own), frees the serving process's count: it loads it again when it sees that
// another process changed pins, not only at its next start.
TEST_F(PinForget, ForgettingInAnotherProcessFreesTheServingProcesssLimit) {
  { auto made = open(); }
  mcp::test::insert_pins(dir_.path, "renamer", static_cast<int>(PinStore::kMaxPinsPerServer), "d");
  auto serving = open();
  auto limited = PinStore::Limited::no;
  auto before = serving.pins->observe("renamer", ListKind::tools, "fresh", tool("fresh"), NewItems::allow, &limited);
  ASSERT_TRUE(before) << before.error().message;
  ASSERT_EQ(limited, PinStore::Limited::pins) << "the folder was not at its limit";

  auto cli = open();  // a second PinStore on the folder: another process's
  auto count = cli.pins->forget_all("renamer", PinStore::Forget::all, "cli:test");
  ASSERT_TRUE(count) << count.error().message;
  EXPECT_EQ(*count, PinStore::kMaxPinsPerServer);

  limited = PinStore::Limited::no;
  auto after = serving.pins->observe("renamer", ListKind::tools, "fresh", tool("fresh"), NewItems::allow, &limited);
  ASSERT_TRUE(after) << after.error().message;
  EXPECT_EQ(limited, PinStore::Limited::no) << "the serving process still counted the forgotten pins";
  EXPECT_EQ(*after, PinState::approved);
}

// The serving process's own count follows its own forgets at once, and pins that others approve
// are counted too: a count loaded once per process let approvals by the CLI go uncounted.
TEST_F(PinForget, TheCountFollowsEveryProcesssChanges) {
  { auto made = open(); }
  constexpr auto kMax = PinStore::kMaxPinsPerServer;
  mcp::test::insert_pins(dir_.path, "up", static_cast<int>(kMax) - 1, "d");
  auto serving = open();
  auto limited = PinStore::Limited::no;
  ASSERT_EQ(*serving.pins->observe("up", ListKind::tools, "last", tool("last"), NewItems::allow, &limited),
            PinState::approved);
  ASSERT_EQ(limited, PinStore::Limited::no);
  ASSERT_EQ(*serving.pins->observe("up", ListKind::tools, "over", tool("over"), NewItems::allow, &limited),
            PinState::quarantined);
  ASSERT_EQ(limited, PinStore::Limited::pins);
  // Its own forget of one pin makes room for one.
  ASSERT_TRUE(serving.pins->forget("up", "last", ListKind::tools, "test"));
  limited = PinStore::Limited::no;
  ASSERT_EQ(*serving.pins->observe("up", ListKind::tools, "over", tool("over"), NewItems::allow, &limited),
            PinState::approved);
  EXPECT_EQ(limited, PinStore::Limited::no);
  limited = PinStore::Limited::no;
  ASSERT_EQ(*serving.pins->observe("up", ListKind::tools, "one_more", tool("one_more"), NewItems::allow, &limited),
            PinState::quarantined);
  EXPECT_EQ(limited, PinStore::Limited::pins) << "the count lost track of its own changes";
}

}  // namespace
