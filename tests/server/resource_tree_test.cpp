// SEP-2093 beyond resources/metadata, on both roles and both revisions: resources/list scoped by a
// uri (children, pagination, errors), the metadata hook, the multi-content rules (the server
// refuses its own bad answers; the client refuses a bad answer in strict mode), contents completed
// with the resource's metadata, the watches behind subscriptions, SEP-2091 templates declaring
// what they expand to, and the client's bounded walk of a cyclic, unbounded graph.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <memory>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "mcp/server/stage.hpp"
#include "mcp/transport/memory.hpp"
#include "server/tools.hpp"
#include "support/slow_watch.hpp"

using namespace mcp;
using mcp::test::Connected;

namespace {

// An in-memory graph under mem:///: "mem:///" holds a/ and b.txt; a/ holds c.txt and loop/, whose
// only child is a/ again (a cycle); many/ holds 25 files served 10 per page; deep/N/ holds
// deep/N+1/ for ever (unbounded).
struct Graph {
  std::atomic<int> watching{0};
  std::vector<std::pair<std::string, bool>> watch_calls;  // guarded by mu
  std::mutex mu;
  std::condition_variable changed;  // each watch call
  bool refuse_watch = false;

  static Resource dir(const std::string& uri, const std::string& name) {
    Resource r;
    r.uri = uri;
    r.name = name;
    r.mime_type = "inode/directory";
    r.capabilities = ResourceCapabilities{.list = true};
    return r;
  }
  static Resource file(const std::string& uri, const std::string& name) {
    Resource r;
    r.uri = uri;
    r.name = name;
    r.mime_type = "text/plain";
    r.size = static_cast<std::int64_t>(name.size());
    r.capabilities = ResourceCapabilities{.subscribe = true};
    return r;
  }

  static std::optional<std::vector<Resource>> children_of(const std::string& uri) {
    if (uri == "mem:///") return std::vector{dir("mem:///a/", "a"), file("mem:///b.txt", "b.txt"),
                                             dir("mem:///many/", "many"), dir("mem:///deep/0/", "0")};
    if (uri == "mem:///a/") return std::vector{file("mem:///a/c.txt", "c.txt"), dir("mem:///loop/", "loop")};
    if (uri == "mem:///loop/") return std::vector{dir("mem:///a/", "a")};
    if (uri == "mem:///many/") {
      std::vector<Resource> out;
      for (int i = 0; i < 25; ++i) out.push_back(file("mem:///many/" + std::to_string(100 + i), std::to_string(100 + i)));
      return out;
    }
    if (uri.starts_with("mem:///deep/")) {
      int n = std::stoi(uri.substr(12));
      return std::vector{dir("mem:///deep/" + std::to_string(n + 1) + "/", std::to_string(n + 1))};
    }
    return std::nullopt;
  }

  static Result<Resource> metadata(const std::string& uri) {
    if (uri == "mem:///") return dir(uri, "root");
    if (uri == "mem:///b.txt") return file(uri, "b.txt");
    if (uri == "mem:///a/c.txt") return file(uri, "c.txt");
    if (uri.starts_with("mem:///many/") && uri.size() > 12) return file(uri, uri.substr(12));
    if (children_of(uri)) return dir(uri, "d");
    return fail(Error{error_code::kResourceNotFound, "Resource not found: " + uri, json::object{{"uri", uri}}});
  }

  static Result<ListResourcesResult> children(const std::string& uri, const std::optional<std::string>& cursor) {
    auto all = children_of(uri);
    if (!all) {
      if (metadata(uri)) return fail(Error::invalid_params(uri + " is not listable"));
      return fail(Error{error_code::kResourceNotFound, "Resource not found: " + uri, json::object{{"uri", uri}}});
    }
    std::size_t from = 0;
    if (cursor) {
      if (cursor->empty() || cursor->find_first_not_of("0123456789") != std::string::npos)
        return fail(Error::invalid_params("invalid cursor"));
      from = std::stoul(*cursor);
    }
    ListResourcesResult page;
    for (std::size_t i = from; i < all->size() && i < from + 10; ++i) page.resources.push_back((*all)[i]);
    if (from + 10 < all->size()) page.next_cursor = std::to_string(from + 10);
    return page;
  }

  ResourceTree tree() {
    ResourceTree t;
    t.metadata = [](const std::string& uri, RequestContext&) { return metadata(uri); };
    t.children = [](const std::string& uri, const std::optional<std::string>& cursor, RequestContext&) {
      return children(uri, cursor);
    };
    t.watch = [this](const std::string& uri, bool on) -> Result<void> {
      if (on && refuse_watch) return fail(Error::invalid_params("too many watches"));
      std::lock_guard lock(mu);
      watch_calls.emplace_back(uri, on);
      watching += on ? 1 : -1;
      changed.notify_all();
      return {};
    };
    return t;
  }
};

ReadResourceResult text(const std::string& uri, std::string body) {
  ReadResourceResult r;
  r.contents.push_back(TextResourceContents{.uri = uri, .mime_type = "text/plain", .text = std::move(body)});
  return r;
}

std::shared_ptr<Server> graph_server(Graph& g) {
  auto server = std::make_shared<Server>();
  Resource root = Graph::dir("mem:///", "root");
  server->add_resource(root, [](const std::string& uri, RequestContext&) { return Result<ReadResourceResult>(text(uri, "root")); },
                       g.tree());
  ResourceTemplate t;
  t.uri_template = "mem:///{+path}";
  t.name = "mem";
  EXPECT_TRUE(server->add_resource_template(
      t, [](const std::string& uri, const UriTemplate::Variables&, RequestContext&) -> Result<ReadResourceResult> {
        return text(uri, "body of " + uri);
      },
      g.tree()));
  // Resources that break the multi-content rules, for the server's own check.
  Resource single;
  single.uri = "bad:///single";
  single.name = "single";
  single.capabilities = ResourceCapabilities{.list = false};
  server->add_resource(single, [](const std::string&, RequestContext&) -> Result<ReadResourceResult> {
    auto r = text("bad:///single", "mine");
    r.contents.push_back(TextResourceContents{.uri = "bad:///other", .text = "not mine"});
    return r;
  });
  Resource empty;
  empty.uri = "bad:///empty";
  empty.name = "empty";
  server->add_resource(empty, [](const std::string&, RequestContext&) { return Result<ReadResourceResult>(ReadResourceResult{}); });
  Resource legacy;  // no capabilities: other URIs are the deprecated, allowed case
  legacy.uri = "old:///bundle";
  legacy.name = "bundle";
  legacy.title = "Bundle";
  server->add_resource(legacy, [](const std::string&, RequestContext&) -> Result<ReadResourceResult> {
    auto r = text("old:///bundle", "one");
    r.contents.push_back(TextResourceContents{.uri = "old:///bundle/part", .text = "two"});
    return r;
  });
  return server;
}

class ResourceTrees : public ::testing::TestWithParam<const char*> {
 protected:
  ClientOptions options() const {
    ClientOptions co;
    co.protocol_version = GetParam();
    return co;
  }
  Graph graph;
};

TEST_P(ResourceTrees, AScopedListReturnsTheDirectChildrenPageByPage) {
  Connected c(graph_server(graph), options());
  auto root = c.client->list_children("mem:///");
  ASSERT_TRUE(root) << root.error().message;
  ASSERT_EQ(root->resources.size(), 4u);
  EXPECT_EQ(root->resources[0].uri, "mem:///a/");
  EXPECT_EQ(root->resources[0].capabilities->list, true);
  EXPECT_EQ(root->resources[1].uri, "mem:///b.txt");
  EXPECT_FALSE(root->next_cursor);

  std::vector<std::string> all;
  std::optional<std::string> cursor;
  int pages = 0;
  do {
    auto page = c.client->list_children("mem:///many/", cursor);
    ASSERT_TRUE(page) << page.error().message;
    for (const auto& r : page->resources) all.push_back(r.uri);
    cursor = page->next_cursor;
  } while (cursor && ++pages < 10);
  ASSERT_EQ(all.size(), 25u);
  EXPECT_EQ(all.front(), "mem:///many/100");
  EXPECT_EQ(all.back(), "mem:///many/124");
  EXPECT_EQ(pages, 2);
  // The server's own list is unchanged by the scoping.
  auto own = c.client->list_resources();
  ASSERT_TRUE(own);
  EXPECT_EQ(own->resources.size(), 4u);
}

TEST_P(ResourceTrees, AMissingOrNonListableTargetIsAClearError) {
  Connected c(graph_server(graph), options());
  auto file = c.client->list_children("mem:///b.txt");
  ASSERT_FALSE(file);
  EXPECT_EQ(file.error().code, error_code::kInvalidParams);
  EXPECT_NE(file.error().message.find("not listable"), std::string::npos) << file.error().message;
  // A registered resource without a lister is not listable either.
  auto plain = c.client->list_children("old:///bundle");
  ASSERT_FALSE(plain);
  EXPECT_NE(plain.error().message.find("is not listable"), std::string::npos) << plain.error().message;
  auto nowhere = c.client->list_children("nowhere:///x");
  ASSERT_FALSE(nowhere);
  EXPECT_NE(nowhere.error().message.find("not found"), std::string::npos) << nowhere.error().message;
  auto cursor = c.client->list_children("mem:///many/", "not-a-cursor");
  ASSERT_FALSE(cursor);
  EXPECT_EQ(cursor.error().code, error_code::kInvalidParams);
  auto ok = c.client->ping();
  EXPECT_TRUE(ok) << "the session survives every refusal";
}

TEST_P(ResourceTrees, TheMetadataHookAnswersPerUri) {
  Connected c(graph_server(graph), options());
  auto m = c.client->resource_metadata("mem:///a/c.txt");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->name, "c.txt");
  EXPECT_EQ(m->size, 5);
  EXPECT_EQ(m->capabilities->subscribe, true);
  auto missing = c.client->resource_metadata("mem:///nope");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("not found"), std::string::npos);
}

TEST_P(ResourceTrees, TheServerRefusesToSendAnswersThatBreakTheMultiContentRules) {
  Connected c(graph_server(graph), options());
  auto single = c.client->read_resource("bad:///single");
  ASSERT_FALSE(single);
  EXPECT_EQ(single.error().code, error_code::kInternalError);
  EXPECT_NE(single.error().message.find("not listable"), std::string::npos) << single.error().message;
  auto empty = c.client->read_resource("bad:///empty");
  ASSERT_FALSE(empty);
  EXPECT_NE(empty.error().message.find("no contents"), std::string::npos) << empty.error().message;
  // Capabilities absent: several URIs are still allowed, and the element read gets the metadata.
  auto legacy = c.client->read_resource("old:///bundle");
  ASSERT_TRUE(legacy) << legacy.error().message;
  ASSERT_EQ(legacy->contents.size(), 2u);
  const auto& first = std::get<TextResourceContents>(legacy->contents[0]);
  EXPECT_EQ(first.name, "bundle");
  EXPECT_EQ(first.title, "Bundle");
  EXPECT_FALSE(std::get<TextResourceContents>(legacy->contents[1]).name) << "another URI's element is not ours to fill";
}

// A server stage that rewrites reads after the server's own check: a server that breaks the rules.
class BreakRules final : public Stage {
 public:
  std::string_view name() const override { return "break-rules"; }
  void on_result(const Call& call, Result<json::value>& answer) override {
    if (call.method != method::kResourcesRead || !answer) return;
    auto& contents = answer->as_object()["contents"].as_array();
    contents[0].as_object()["capabilities"] = json::object{{"list", false}};
    contents.push_back(json::object{{"uri", "mem:///elsewhere"}, {"text", "smuggled"}});
  }
};

TEST_P(ResourceTrees, AStrictClientRefusesANonListableResourceReturningOtherUris) {
  auto server = graph_server(graph);
  server->use(std::make_shared<BreakRules>());
  {
    Connected strict(server, options());
    auto r = strict.client->read_resource("mem:///b.txt");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("mem:///elsewhere"), std::string::npos) << r.error().message;
  }
  auto co = options();
  co.resource_contents = EnforcementMode::permissive;
  Connected permissive(server, co);
  auto r = permissive.client->read_resource("mem:///b.txt");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->contents.size(), 2u);
}

TEST_P(ResourceTrees, SubscriptionsWatchAUriOnceWhateverTheNumberOfSubscribers) {
  auto server = graph_server(graph);
  {
    Connected one(server, options());
    Connected two(server, options());
    ASSERT_TRUE(one.client->subscribe("mem:///b.txt"));
    ASSERT_TRUE(two.client->subscribe("mem:///b.txt"));
    EXPECT_EQ(graph.watching.load(), 1);
    ASSERT_TRUE(one.client->unsubscribe("mem:///b.txt"));
    EXPECT_EQ(graph.watching.load(), 1) << "two still subscribes";
    // A resource without a watch hook needs nothing from the application.
    ASSERT_TRUE(two.client->subscribe("old:///bundle"));
    EXPECT_EQ(graph.watching.load(), 1);
  }
  // Both clients gone: the last subscription went with its connection. The server sees the close
  // after the client has closed, so wait for the event rather than assume it.
  std::unique_lock lock(graph.mu);
  EXPECT_TRUE(graph.changed.wait_for(lock, std::chrono::seconds(10), [&] { return graph.watching.load() == 0; }));
  // On, off, on, off...: never two watches of one URI at once (a 2026-07-28 client's new listen
  // may replace the old one in between, which lets go and takes again).
  ASSERT_GE(graph.watch_calls.size(), 2u);
  for (std::size_t i = 0; i < graph.watch_calls.size(); ++i) {
    EXPECT_EQ(graph.watch_calls[i], std::make_pair(std::string("mem:///b.txt"), i % 2 == 0)) << i;
  }
  EXPECT_EQ(graph.watch_calls.size() % 2, 0u);
}

TEST_P(ResourceTrees, AWatchTheApplicationRefusesRefusesTheSubscription) {
  graph.refuse_watch = true;
  Connected c(graph_server(graph), options());
  auto r = c.client->subscribe("mem:///b.txt");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("too many watches"), std::string::npos) << r.error().message;
  EXPECT_EQ(graph.watching.load(), 0);
}

TEST_P(ResourceTrees, AWalkEndsOnCyclesDepthAndBudgets) {
  Connected c(graph_server(graph), options());
  ResourceWalkOptions o;
  o.max_depth = 3;
  auto walk = c.client->walk_resources("mem:///", o);
  ASSERT_TRUE(walk) << walk.error().message;
  std::map<std::string, std::size_t> depth;
  for (const auto& w : walk->resources) {
    EXPECT_TRUE(depth.emplace(w.resource.uri, w.depth).second) << "reported twice: " << w.resource.uri;
  }
  EXPECT_EQ(depth.at("mem:///"), 0u);
  EXPECT_EQ(depth.at("mem:///a/c.txt"), 2u);
  EXPECT_EQ(depth.at("mem:///many/124"), 2u);
  EXPECT_EQ(depth.at("mem:///deep/2/"), 3u);
  EXPECT_FALSE(depth.contains("mem:///deep/3/")) << "past the depth limit";
  EXPECT_GE(walk->repeats, 1u) << "loop/ leads back to a/";
  ASSERT_TRUE(walk->truncated);
  EXPECT_NE(walk->truncated->find("depth"), std::string::npos);
  // Depth first, each parent before its children.
  EXPECT_EQ(walk->resources[1].resource.uri, "mem:///a/");
  EXPECT_EQ(walk->resources[2].resource.uri, "mem:///a/c.txt");

  // Cut at depth 2 under a/ (loop/), the walk still goes on into many/, a sibling.
  o.max_depth = 2;
  auto shallow = c.client->walk_resources("mem:///", o);
  ASSERT_TRUE(shallow) << shallow.error().message;
  bool many_listed = false;
  for (const auto& w : shallow->resources) many_listed |= w.resource.uri == "mem:///many/124";
  EXPECT_TRUE(many_listed) << "a depth cut stops only that branch";

  o.max_depth = 1000;
  o.max_bytes = 4096;  // about 20 resources' worth
  auto bytes = c.client->walk_resources("mem:///", o);
  ASSERT_TRUE(bytes) << bytes.error().message;
  ASSERT_TRUE(bytes->truncated);
  EXPECT_NE(bytes->truncated->find("byte budget"), std::string::npos) << *bytes->truncated;
  EXPECT_LT(bytes->resources.size(), 40u);

  o.max_bytes = 32 << 20;
  o.max_items = 40;
  auto budget = c.client->walk_resources("mem:///", o);
  ASSERT_TRUE(budget) << budget.error().message;
  EXPECT_LE(budget->resources.size(), 40u);
  ASSERT_TRUE(budget->truncated);
  o.max_items = 100'000;
  o.max_pages = 5;
  auto pages = c.client->walk_resources("mem:///", o);
  ASSERT_TRUE(pages) << pages.error().message;
  ASSERT_TRUE(pages->truncated);
  EXPECT_NE(pages->truncated->find("page budget"), std::string::npos) << *pages->truncated;
}

TEST_P(ResourceTrees, AWalkFromTheServersOwnListRecordsWhatCannotBeListed) {
  Connected c(graph_server(graph), options());
  ResourceWalkOptions o;
  o.max_depth = 2;
  auto walk = c.client->walk_resources("", o);
  ASSERT_TRUE(walk) << walk.error().message;
  ASSERT_FALSE(walk->resources.empty());
  EXPECT_EQ(walk->resources[0].resource.uri, "mem:///");
  EXPECT_EQ(walk->resources[0].depth, 0u);
}

// SEP-2091 with SEP-2093: a derived signature declares the template, so every child it expands to
// is declared, and a strict client holding lists and children to it accepts them.
TEST_P(ResourceTrees, ChildrenExpandingADeclaredTemplateAreDeclared) {
  auto server = graph_server(graph);
  ASSERT_TRUE(server->derive_signature());
  auto co = options();
  co.signature_policy = SignaturePolicy{};
  co.signature_policy->mode = EnforcementMode::strict;
  Connected c(server, co);
  auto page = c.client->list_children("mem:///a/");
  ASSERT_TRUE(page) << page.error().message;
  EXPECT_EQ(page->resources.size(), 2u);
  auto read = c.client->read_resource("mem:///a/c.txt");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_TRUE(c.client->signature_violations().empty());
}

INSTANTIATE_TEST_SUITE_P(BothRevisions, ResourceTrees, ::testing::Values("2025-11-25", "2026-07-28"));

}  // namespace

namespace {

// A watch hook slow for one URI (a gateway asking its upstream) holds up no other URI's
// subscription: the hook runs under its URI's lock only. Over the 2025-11-25 handshake, where
// each subscription is a request of its own (a 2026-07-28 client sends its whole set in one
// subscriptions/listen, which waits for every watch it names).
TEST(ResourceWatches, AHookSlowForOneUriHoldsUpNoOther) {
  test::SlowWatch watches("mem:///slow", "mem:///quick");
  const auto& server = watches.server();
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  Connected one(server, co), two(server, co);
  auto slow = std::async(std::launch::async, [&] { return one.client->subscribe("mem:///slow"); });
  ASSERT_TRUE(watches.entered_within(std::chrono::seconds(10)));
  auto quick = two.client->subscribe("mem:///quick");
  EXPECT_TRUE(quick) << quick.error().message;
  EXPECT_EQ(slow.wait_for(std::chrono::seconds(0)), std::future_status::timeout)
      << "the slow hook had already returned";
  watches.release();
  auto slowed = slow.get();
  EXPECT_TRUE(slowed) << slowed.error().message;
}

}  // namespace
