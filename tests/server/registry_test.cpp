// The server's items of one kind (src/server/registry.hpp): registration order is the order lists
// are served in, a replaced item keeps its place, a removed one leaves the others where they are,
// and each is found by its key without the others. Then the same seen from a client: tools, prompts
// and resources listed in that order through replacements and removals, and each found by a call,
// get or read; and the pages of a list, whose cursor is a place in that order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/server/server.hpp"
#include "mcp/server/stage.hpp"
#include "server/registry.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::Connected;
using mcp::test::make_tool;
using mcp::test::text_of;

namespace {

std::vector<std::string> in_order(const detail::Registry<std::string>& r) {
  std::vector<std::string> out;
  for (const auto& v : r.items()) out.push_back(v);
  return out;
}

TEST(Registry, KeepsRegistrationOrderThroughReplacementsAndRemovals) {
  detail::Registry<std::string> r;
  EXPECT_FALSE(r.upsert("a", "a1"));
  EXPECT_FALSE(r.upsert("b", "b1"));
  EXPECT_FALSE(r.upsert("c", "c1"));
  EXPECT_EQ(in_order(r), (std::vector<std::string>{"a1", "b1", "c1"}));

  // Replaced in place, the old one handed back.
  auto replaced = r.upsert("b", "b2");
  ASSERT_TRUE(replaced);
  EXPECT_EQ(*replaced, "b1");
  EXPECT_EQ(in_order(r), (std::vector<std::string>{"a1", "b2", "c1"}));

  // Removed, handed back; the others keep their order and a key added again goes last.
  auto removed = r.erase("a");
  ASSERT_TRUE(removed);
  EXPECT_EQ(*removed, "a1");
  EXPECT_FALSE(r.erase("a"));
  EXPECT_EQ(r.find("a"), nullptr);
  EXPECT_FALSE(r.upsert("a", "a2"));
  EXPECT_EQ(in_order(r), (std::vector<std::string>{"b2", "c1", "a2"}));
  EXPECT_EQ(r.size(), 3u);

  ASSERT_NE(r.find(std::string_view("c")), nullptr);
  EXPECT_EQ(*r.find("c"), "c1");
  EXPECT_EQ(r.find("d"), nullptr);
  EXPECT_EQ(r.find(""), nullptr);
}

// Many keys, removed from the middle and added again: order and lookups stay right (the index
// holds the ordered map's nodes, which must stay valid as others come and go).
TEST(Registry, StaysConsistentAcrossManyChanges) {
  detail::Registry<std::string> r;
  for (int i = 0; i < 1000; ++i) r.upsert("k" + std::to_string(i), "v" + std::to_string(i));
  for (int i = 0; i < 1000; i += 2) ASSERT_TRUE(r.erase("k" + std::to_string(i)));
  for (int i = 0; i < 1000; i += 4) r.upsert("k" + std::to_string(i), "again" + std::to_string(i));
  // The keys never removed are replaced where they stand.
  for (int i = 1; i < 1000; i += 2) ASSERT_TRUE(r.upsert("k" + std::to_string(i), "new" + std::to_string(i)).has_value());
  ASSERT_EQ(r.size(), 750u);
  std::vector<std::string> expected;
  for (int i = 1; i < 1000; i += 2) expected.push_back("new" + std::to_string(i));
  for (int i = 0; i < 1000; i += 4) expected.push_back("again" + std::to_string(i));
  EXPECT_EQ(in_order(r), expected);
  for (int i = 0; i < 1000; ++i) {
    const auto* v = r.find("k" + std::to_string(i));
    if (i % 2 == 1) ASSERT_TRUE(v && *v == "new" + std::to_string(i)) << i;
    else if (i % 4 == 0) ASSERT_TRUE(v && *v == "again" + std::to_string(i)) << i;
    else ASSERT_EQ(v, nullptr) << i;
  }
}

Result<CallToolResult> says(const std::string& what) { return CallToolResult::text(what); }

TEST(ServerRegistry, ListsInRegistrationOrderAndFindsEachItemAfterChanges) {
  auto server = std::make_shared<Server>();
  for (const char* name : {"a", "b", "c"}) {
    server->add_tool(make_tool(name), [name = std::string(name)](const json::object&, RequestContext&) { return says(name + "1"); });
    server->add_prompt(Prompt{.name = name}, [](const std::map<std::string, std::string>&, RequestContext&) {
      return Result<GetPromptResult>(GetPromptResult{});
    });
    server->add_resource(Resource{.uri = std::string("file:///") + name, .name = name}, [](const std::string& uri, RequestContext&) {
      return Result<ReadResourceResult>(ReadResourceResult{.contents = {TextResourceContents{.uri = uri, .text = uri}}});
    });
  }
  // b replaced in place, a removed and registered again (last).
  server->add_tool(make_tool("b"), [](const json::object&, RequestContext&) { return says("b2"); });
  ASSERT_TRUE(server->remove_tool("a"));
  ASSERT_FALSE(server->remove_tool("a"));
  server->add_tool(make_tool("a"), [](const json::object&, RequestContext&) { return says("a2"); });
  ASSERT_TRUE(server->remove_prompt("a"));
  server->add_prompt(Prompt{.name = "a"}, [](const std::map<std::string, std::string>&, RequestContext&) {
    return Result<GetPromptResult>(GetPromptResult{});
  });
  ASSERT_TRUE(server->remove_resource("file:///b"));

  Connected f(server);
  auto tools = f.client->list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  std::vector<std::string> names;
  for (const auto& t : *tools) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"b", "c", "a"}));
  auto prompts = f.client->list_all_prompts();
  ASSERT_TRUE(prompts) << prompts.error().message;
  names.clear();
  for (const auto& p : *prompts) names.push_back(p.name);
  EXPECT_EQ(names, (std::vector<std::string>{"b", "c", "a"}));
  auto resources = f.client->list_all_resources();
  ASSERT_TRUE(resources) << resources.error().message;
  names.clear();
  for (const auto& r : *resources) names.push_back(r.uri);
  EXPECT_EQ(names, (std::vector<std::string>{"file:///a", "file:///c"}));

  // Each call reaches the handler registered last under its name.
  for (const auto& [name, answer] : std::vector<std::pair<std::string, std::string>>{{"a", "a2"}, {"b", "b2"}, {"c", "c1"}}) {
    auto r = f.client->call_tool(name, json::object{});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(text_of(*r), answer) << name;
  }
  EXPECT_TRUE(f.client->get_prompt("a", {}));
  auto read = f.client->read_resource("file:///c");
  ASSERT_TRUE(read) << read.error().message;
  auto gone = f.client->read_resource("file:///b");
  EXPECT_FALSE(gone);
  auto unknown = f.client->call_tool("d", json::object{});
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, error_code::kInvalidParams);
}

// One page of tools/list: its tools' names and its nextCursor.
struct ToolsPage {
  std::vector<std::string> names;
  std::optional<std::string> next;
};
ToolsPage page_of(Client& client, const std::optional<std::string>& cursor) {
  json::object params;
  if (cursor) params["cursor"] = *cursor;
  auto r = client.request("tools/list", params);
  EXPECT_TRUE(r) << r.error().message;
  ToolsPage page;
  if (!r) return page;
  for (const auto& t : r->as_object().at("tools").as_array()) page.names.emplace_back(t.at("name").as_string());
  if (const auto* c = r->as_object().if_contains("nextCursor")) page.next = std::string(c->as_string());
  return page;
}

Result<CallToolResult> ok(const json::object&, RequestContext&) { return CallToolResult::text("ok"); }

// Pages are full of items the chain shows, even where a stage hides most of them; an item added
// while a client pages comes on a later page, one removed is not shown, and nothing comes twice.
TEST(ServerRegistry, PagesHoldWhatTheChainShowsAndFollowChangesMadeWhileAClientPages) {
  ServerOptions so;
  so.page_size = 10;
  auto server = std::make_shared<Server>(so);
  for (int i = 0; i < 100; ++i) server->add_tool(make_tool("t" + std::to_string(i)), ok);
  // Hides every tool whose number is not a multiple of 3 (and the added ones that end in "x").
  server->use(make_stage("thirds", {.on_list_item = [](const Call&, ListedItem& item) {
                             if (item.key.ends_with("x")) return false;
                             return std::stoi(item.key.substr(1)) % 3 == 0;
                           }}));
  Connected f(server);
  auto first = page_of(*f.client, std::nullopt);
  ASSERT_EQ(first.names.size(), 10u);
  EXPECT_EQ(first.names.front(), "t0");
  EXPECT_EQ(first.names.back(), "t27");
  ASSERT_TRUE(first.next);

  // Meanwhile: t9 (seen) and t33 (the next page's second) go, t300, t301x and t303 come (t301x
  // hidden), t3 (seen) is replaced in place and not shown again. (A cursor counting the items
  // shown would now skip t30, the next page's first: one fewer stands before it.)
  ASSERT_TRUE(server->remove_tool("t9"));
  ASSERT_TRUE(server->remove_tool("t33"));
  server->add_tool(make_tool("t300"), ok);
  server->add_tool(make_tool("t301x"), ok);
  server->add_tool(make_tool("t303"), ok);
  server->add_tool(make_tool("t3"), ok);

  std::vector<std::string> rest;
  std::optional<std::string> cursor = first.next;
  int pages = 1;
  while (cursor && pages < 20) {
    auto page = page_of(*f.client, cursor);
    EXPECT_LE(page.names.size(), 10u);
    if (page.next) EXPECT_EQ(page.names.size(), 10u) << "a page before the last is full";
    rest.insert(rest.end(), page.names.begin(), page.names.end());
    cursor = page.next;
    ++pages;
  }
  EXPECT_FALSE(cursor);
  std::vector<std::string> expected;
  for (int i = 30; i < 100; i += 3)
    if (i != 33) expected.push_back("t" + std::to_string(i));
  expected.push_back("t300");
  expected.push_back("t303");
  EXPECT_EQ(rest, expected);
}

TEST(ServerRegistry, ACursorIsAPlaceAClientCannotForge) {
  ServerOptions so;
  so.page_size = 2;
  auto server = std::make_shared<Server>(so);
  for (int i = 0; i < 3; ++i) server->add_tool(make_tool("t" + std::to_string(i)), ok);
  Connected f(server);
  for (const char* bad : {"not-a-cursor", "", "-1", "12345678901234567890123", "1e3"}) {
    auto r = f.client->request("tools/list", json::object{{"cursor", bad}});
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, error_code::kInvalidParams) << bad;
  }
  // Past the end: an empty page, the last.
  auto past = page_of(*f.client, "999999");
  EXPECT_TRUE(past.names.empty());
  EXPECT_FALSE(past.next);
}

}  // namespace
