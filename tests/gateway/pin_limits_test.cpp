// What one upstream can make the state folder keep (pin_store.hpp, kMaxPinsPerServer and
// kMaxPinBytesPerServer): an upstream that renames its items on every list, or grows their
// definitions, fills the pins table to its limits and no further, and other upstreams are not
// held back by it. The table is filled by SQL first (as the gateway would have after hours of
// such lists), then the store is opened and flooded as the gateway's refreshes would.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "gateway/proxy.hpp"
#include "mcp/client/client.hpp"
#include "mcp/transport/memory.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"
#include "pin_rows.hpp"
#include "state_folder.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

using mcp::test::write_file_tool;

class PinLimits : public mcp::test::StateFolderTest {
 protected:
  // `rows` pins of `server`, approved, each with a seen and an approved definition of `bytes`.
  void fill(const std::string& server, int rows, std::size_t bytes) {
    { auto made = open(); }  // the tables
    mcp::test::insert_pins(dir_.path, server, rows, std::string(bytes, 'd'));
  }
  std::int64_t pins_of(const State& s, const std::string& server) {
    auto all = s.pins->pins(server);
    EXPECT_TRUE(all) << all.error().message;
    return all ? static_cast<std::int64_t>(all->size()) : -1;
  }
  static json::object tool(const std::string& name, std::size_t description_bytes = 10) {
    return json::object{{"name", name},
                        {"description", std::string(description_bytes, 'x')},
                        {"inputSchema", json::object{{"type", "object"}}}};
  }
};

// Before the limit, every new name an upstream listed was a pin (with its definition) and an audit
// record, for as long as it ran.
TEST_F(PinLimits, NewNamesPastTheCountAreNotPinnedAndHidden) {
  fill("renamer", static_cast<int>(PinStore::kMaxPinsPerServer), 8);
  auto s = open();
  constexpr int kFlood = 300;
  for (int i = 0; i < kFlood; ++i) {
    auto limited = PinStore::Limited::no;
    auto r = s.pins->observe("renamer", ListKind::tools, "new_" + std::to_string(i), tool("new_" + std::to_string(i)),
                             NewItems::allow, &limited);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(*r, PinState::quarantined) << "a name past the limit was served";
    ASSERT_EQ(limited, PinStore::Limited::pins) << "a name past the limit was not said to be so";
  }
  EXPECT_EQ(pins_of(s, "renamer"), PinStore::kMaxPinsPerServer);
  auto never = s.pins->state("renamer", ListKind::tools, "new_0");
  ASSERT_TRUE(never);
  EXPECT_EQ(*never, std::nullopt) << "a name past the limit was recorded";
  // What it had pinned is still compared, and another upstream is not held back.
  auto limited = PinStore::Limited::no;
  auto old = s.pins->observe("renamer", ListKind::tools, "renamed_0", tool("renamed_0"), NewItems::allow, &limited);
  ASSERT_TRUE(old) << old.error().message;
  EXPECT_EQ(*old, PinState::quarantined) << "a changed pinned item was let through";
  EXPECT_EQ(limited, PinStore::Limited::no);
  auto other =
      s.pins->observe("other", ListKind::tools, "write_file", write_file_tool("Write"), NewItems::allow, &limited);
  ASSERT_TRUE(other) << other.error().message;
  EXPECT_EQ(*other, PinState::approved);
  EXPECT_EQ(limited, PinStore::Limited::no);
}

// Past the bytes, a definition is kept as its hash only: still pinned, compared and approved.
TEST_F(PinLimits, DefinitionsPastTheBytesAreKeptAsTheirHashOnly) {
  constexpr std::size_t kBytes = 1 << 20;
  fill("grower", static_cast<int>(PinStore::kMaxPinBytesPerServer / (2 * kBytes)), kBytes);
  auto s = open();
  const auto big = tool("big", 100'000);
  auto r = s.pins->observe("grower", ListKind::tools, "big", big, NewItems::allow);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, PinState::approved);
  auto listed = s.pins->pins("grower");
  ASSERT_TRUE(listed);
  const Pin* pin = nullptr;
  for (const auto& p : *listed) pin = p.key == "big" ? &p : pin;
  ASSERT_NE(pin, nullptr);
  EXPECT_EQ(pin->seen_definition, PinStore::kNotKept);
  EXPECT_EQ(pin->approved_definition.value_or(""), PinStore::kNotKept);
  EXPECT_EQ(pin->seen_hash, trust::sha256_tag(*trust::canonicalize(big))) << "the hash is not the definition's";
  // Compared by its hash as ever: the same definition is served, a changed one quarantined until
  // approved, then served.
  EXPECT_EQ(*s.pins->observe("grower", ListKind::tools, "big", big, NewItems::allow), PinState::approved);
  const auto changed = tool("big", 100'001);
  EXPECT_EQ(*s.pins->observe("grower", ListKind::tools, "big", changed, NewItems::allow), PinState::quarantined);
  ASSERT_TRUE(s.pins->approve("grower", "big", ListKind::tools, "test"));
  EXPECT_EQ(*s.pins->observe("grower", ListKind::tools, "big", changed, NewItems::allow), PinState::approved);
  // Flooded with growing definitions of the items it has, the table stays within its bytes.
  for (int i = 0; i < 40; ++i) {
    auto grown = s.pins->observe("grower", ListKind::tools, "renamed_" + std::to_string(i), tool("renamed", kBytes),
                                 NewItems::allow);
    ASSERT_TRUE(grown) << grown.error().message;
  }
  auto after = s.pins->pins("grower");
  ASSERT_TRUE(after);
  std::int64_t bytes = 0;
  for (const auto& p : *after)
    bytes += static_cast<std::int64_t>(p.seen_definition.size() + p.approved_definition.value_or("").size());
  EXPECT_LE(bytes, PinStore::kMaxPinBytesPerServer + 4096) << "the definitions kept grew past the limit";
}

// Before the budget, an upstream changing a blocked item's definition on every list wrote an audit
// record each time, for as long as it ran. Past the budget a quarantine is still written, so the
// pin never says approved for a definition that is not (the stages read the pin).
TEST_F(PinLimits, ChangesPastTheirBudgetAreNotRecordedAndNeverLeaveAChangeApproved) {
  auto s = open();
  const auto approved = tool("kept", 1), changed = tool("kept", 2);
  ASSERT_EQ(*s.pins->observe("flipper", ListKind::tools, "kept", approved, NewItems::allow), PinState::approved);
  ASSERT_EQ(*s.pins->observe("flipper", ListKind::tools, "blocked", tool("blocked"), NewItems::quarantine),
            PinState::quarantined);
  const auto last_seq = [&] {
    auto last = s.audit->tail(1);
    EXPECT_TRUE(last && !last->empty());
    return last && !last->empty() ? last->back().seq : std::int64_t{-1};
  };
  const auto state_of = [&](const std::string& key) {
    auto st = s.pins->state("flipper", ListKind::tools, key);
    EXPECT_TRUE(st);
    return st ? *st : std::nullopt;
  };
  const std::int64_t before = last_seq();
  const auto started = std::chrono::steady_clock::now();
  const int flood = static_cast<int>(PinStore::kChangesBurst) + 200;
  json::object last;
  for (int i = 0; i < flood; ++i) {
    last = tool("blocked", 3 + static_cast<std::size_t>(i % 50));
    last["title"] = std::to_string(i);  // a new definition every time
    auto r = s.pins->observe("flipper", ListKind::tools, "blocked", last, NewItems::quarantine);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(*r, PinState::quarantined);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const std::int64_t written = last_seq() - before;
  EXPECT_LE(written, static_cast<std::int64_t>(PinStore::kChangesBurst + seconds * PinStore::kChangesPerSecond) + 1)
      << "the changes of a blocked item were all recorded";
  EXPECT_GE(written, static_cast<std::int64_t>(PinStore::kChangesBurst));
  // Its pin follows what the upstream offers, so a person approving it approves what is served.
  auto pins = s.pins->pins("flipper");
  ASSERT_TRUE(pins);
  for (const auto& p : *pins) {
    if (p.key == "blocked") {
      EXPECT_EQ(p.seen_hash, trust::sha256_tag(*trust::canonicalize(last)));
    }
  }
  // The approved item changes now: quarantined, in its pin too, and recorded, budget or not.
  const std::int64_t spent = last_seq();
  auto r = s.pins->observe("flipper", ListKind::tools, "kept", changed, NewItems::allow);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, PinState::quarantined);
  EXPECT_EQ(state_of("kept"), PinState::quarantined) << "the pin says approved for a definition that is not";
  EXPECT_EQ(last_seq(), spent + 1) << "the quarantine was not recorded";
  // Back to the approved definition: restored within the budget, else it waits, quarantined; the
  // pin and the verdict agree either way.
  auto limited = PinStore::Limited::no;
  auto back = s.pins->observe("flipper", ListKind::tools, "kept", approved, NewItems::allow, &limited);
  ASSERT_TRUE(back) << back.error().message;
  EXPECT_EQ(state_of("kept"), *back);
  if (limited == PinStore::Limited::changes) {
    EXPECT_EQ(*back, PinState::quarantined);
  }
  // Another upstream is not held back.
  limited = PinStore::Limited::no;
  auto other = s.pins->observe("other", ListKind::tools, "kept", changed, NewItems::allow, &limited);
  ASSERT_TRUE(other);
  EXPECT_EQ(limited, PinStore::Limited::no);
  EXPECT_EQ(*other, PinState::approved);
}

// Through the proxy: a name listed past the pins kept is neither listed nor callable.
TEST_F(PinLimits, ThroughTheProxyANameListedPastThePinsIsNotServed) {
  fill("up", static_cast<int>(PinStore::kMaxPinsPerServer), 8);
  auto state = open();
  auto upstream = std::make_shared<Server>();
  upstream->add_tool(Tool{.name = "fresh"},
                     [](const json::object&, RequestContext&) -> Result<CallToolResult> { return CallToolResult{}; });
  auto [a, b] = make_memory_transport_pair();
  ASSERT_TRUE(upstream->connect(a));
  auto upstream_client = std::make_shared<Client>();
  ASSERT_TRUE(upstream_client->connect(b));
  ProxyOptions po;
  po.name = "up";
  po.state_dir = dir_.path.string();
  auto proxy = Proxy::start(upstream_client, state.pins, state.audit, po);
  ASSERT_TRUE(proxy) << proxy.error().message;
  auto [c, d] = make_memory_transport_pair();
  ASSERT_TRUE((*proxy)->server()->connect(c));
  Client client;
  ASSERT_TRUE(client.connect(d));
  auto tools = client.list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  for (const auto& t : *tools) EXPECT_NE(t.name, "fresh") << "a name past the pins kept was listed";
  auto called = client.call_tool("fresh", json::object{});
  ASSERT_FALSE(called) << "a name past the pins kept was called";
  EXPECT_NE(called.error().message.find("not pinned"), std::string::npos) << called.error().message;
  client.close();
  upstream_client->close();
}

}  // namespace
