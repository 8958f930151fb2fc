// PinStore::observe_all: a list's items pinned in one transaction (a refresh of thousands of new
// items is one flush to the disk, not one each) with the verdicts observe() gives each alone, the
// limits counted item by item inside it, and nothing written when any item cannot be observed.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "gateway/pin_store.hpp"
#include "pin_rows.hpp"
#include "state_folder.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

json::object tool(const std::string& name, const std::string& description = "does a thing") {
  return json::object{{"name", name}, {"description", description}, {"inputSchema", json::object{{"type", "object"}}}};
}

// observe_all of (key, definition) pairs, which must succeed.
std::vector<PinStore::Observation> observe(PinStore& pins, const std::string& server,
                                           const std::vector<std::pair<std::string, json::object>>& items, NewItems policy) {
  std::vector<PinStore::Observed> observed;
  for (const auto& [key, definition] : items) observed.push_back({.key = key, .definition = &definition});
  auto r = pins.observe_all(server, ListKind::tools, observed, policy);
  EXPECT_TRUE(r) << r.error().message;
  return r ? *r : std::vector<PinStore::Observation>{};
}

std::map<std::string, int> record_kinds(const State& s) {
  std::map<std::string, int> kinds;
  for (const auto& r : mcp::test::audit_records(s)) ++kinds[r.kind];
  return kinds;
}

class PinBatch : public mcp::test::StateFolderTest {};

TEST_F(PinBatch, AListIsPinnedAsEachItemAloneWouldBe) {
  auto s = open();
  auto first = observe(*s.pins, "up", {{"a", tool("a")}, {"b", tool("b")}, {"c", tool("c")}}, NewItems::allow);
  ASSERT_EQ(first.size(), 3u);
  for (const auto& o : first) {
    EXPECT_EQ(o.state, PinState::approved);
    EXPECT_EQ(o.limited, PinStore::Limited::no);
  }
  // b changed, c unchanged, d new (held for approval this time), a gone from the list.
  auto second = observe(*s.pins, "up", {{"b", tool("b", "does another thing")}, {"c", tool("c")}, {"d", tool("d")}},
                        NewItems::quarantine);
  ASSERT_EQ(second.size(), 3u);
  EXPECT_EQ(second[0].state, PinState::quarantined);
  EXPECT_EQ(second[1].state, PinState::approved);
  EXPECT_EQ(second[2].state, PinState::quarantined);
  for (const auto& [key, want] : std::map<std::string, PinState>{
           {"a", PinState::approved}, {"b", PinState::quarantined}, {"c", PinState::approved}, {"d", PinState::quarantined}}) {
    auto st = s.pins->state("up", ListKind::tools, key);
    ASSERT_TRUE(st && *st) << key;
    EXPECT_EQ(**st, want) << key;
  }
  const auto kinds = record_kinds(s);
  EXPECT_EQ(kinds.at("pin"), 3);
  EXPECT_EQ(kinds.at("quarantine"), 2);  // b's change and d
}

// The count limit is counted item by item inside the one transaction: the first items to fit are
// pinned, the rest said to be past it.
TEST_F(PinBatch, TheLimitOnPinsIsReachedWithinOneList) {
  { auto made = open(); }  // the tables
  mcp::test::insert_pins(dir_.path, "up", static_cast<int>(PinStore::kMaxPinsPerServer) - 2, "{}");
  auto s = open();
  std::vector<std::pair<std::string, json::object>> items;
  for (int i = 0; i < 5; ++i) items.emplace_back("new_" + std::to_string(i), tool("new_" + std::to_string(i)));
  auto seen = observe(*s.pins, "up", items, NewItems::allow);
  ASSERT_EQ(seen.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(seen[i].state, i < 2 ? PinState::approved : PinState::quarantined) << i;
    EXPECT_EQ(seen[i].limited, i < 2 ? PinStore::Limited::no : PinStore::Limited::pins) << i;
  }
  auto all = s.pins->pins("up");
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(static_cast<std::int64_t>(all->size()), PinStore::kMaxPinsPerServer);
}

// One item with no canonical form (a string that is not UTF-8) fails the whole list: none of it is
// pinned or recorded, so a refresh never serves part of a list it could not pin.
TEST_F(PinBatch, OneItemThatCannotBePinnedLeavesTheWholeListUnpinned) {
  auto s = open();
  json::object broken = tool("broken");
  broken["description"] = std::string("\xff\xfe", 2);
  std::vector<PinStore::Observed> observed;
  const std::string a = "a", bad = "broken";
  const json::object fine = tool("a");
  observed.push_back({.key = a, .definition = &fine});
  observed.push_back({.key = bad, .definition = &broken});
  auto r = s.pins->observe_all("up", ListKind::tools, observed, NewItems::allow);
  ASSERT_FALSE(r);
  auto all = s.pins->pins("up");
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_TRUE(all->empty());
  EXPECT_TRUE(mcp::test::audit_records(s).empty());
}

}  // namespace
