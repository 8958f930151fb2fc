// What the gateway's proxy admits and what it records of what it refuses, in process
// (proxy_fixture.hpp), at the upstream's own path and at /mcp (the aggregate): names prefixed and
// shortened there; a configured signature held at both paths; a policy's denials; every refusal a
// call in the audit log under its upstream and the item's key there, the SDK's own included.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "proxy_fixture.hpp"

using namespace mcp;
using namespace mcp::gateway;
using namespace mcp::gateway::test_proxy;

namespace {

TEST(GatewayAggregateName, PrefixedAndShortenedDeterministically) {
  EXPECT_EQ(aggregate_name("files", "read"), "files__read");
  const std::string long_a = std::string(200, 'a') + "1";
  const std::string long_b = std::string(200, 'a') + "2";
  const auto a = aggregate_name("files", long_a);
  EXPECT_EQ(a.size(), kMaxAggregateName);
  EXPECT_TRUE(a.starts_with("files__aaa"));
  EXPECT_EQ(a, aggregate_name("files", long_a));  // the same item, the same name
  EXPECT_NE(a, aggregate_name("files", long_b));  // two that share their first 118 bytes still differ
  // Never half a UTF-8 character: "files__" and 109 'x' are 116 bytes, so a cut at 117 would fall
  // inside the two bytes of "é"; it moves back before it.
  const auto accented = aggregate_name("files", std::string(109, 'x') + "\xc3\xa9" + std::string(40, 'e'));
  EXPECT_EQ(accented.size(), kMaxAggregateName - 1);
  EXPECT_EQ(accented.substr(0, 116), "files__" + std::string(109, 'x'));
  EXPECT_EQ(accented[116], '_');
  // Exactly at the limit: kept whole.
  const std::string fits(kMaxAggregateName - std::string("files__").size(), 'x');
  EXPECT_EQ(aggregate_name("files", fits), "files__" + fits);
}

// What the SDK refuses itself, before the stages (malformed params) or after them (a prompt's
// missing argument), is a refused call in the audit log too.
TEST_F(GatewayProxy, RequestsTheSdkRefusesItselfAreRecordedAsRefused) {
  Prompt letter;
  letter.name = "letter";
  letter.arguments = {PromptArgument{.name = "to", .required = true}};
  upstream->add_prompt(letter, [](const std::map<std::string, std::string>&, RequestContext&) {
    return Result<GetPromptResult>(GetPromptResult{});
  });
  ASSERT_TRUE(proxy->refresh());
  auto missing = client->get_prompt("letter");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("missing required argument 'to'"), std::string::npos) << missing.error().message;
  auto malformed = client->request("tools/call", json::object{{"name", "some_tool"}, {"arguments", 5}});
  ASSERT_FALSE(malformed);
  auto nameless = client->request("tools/call", json::object{{"arguments", json::object{}}});
  ASSERT_FALSE(nameless);
  std::vector<std::pair<std::string, std::string>> refused;  // item, error
  ASSERT_TRUE(state.audit->each([&](const AuditRecord& r) {
    if (r.kind == "call") {
      EXPECT_EQ(r.body.at("outcome"), "refused") << json::serialize(r.body);
      refused.emplace_back(json::value_to<std::string>(r.body.at("item")), json::value_to<std::string>(r.body.at("error")));
    }
    return true;
  }));
  ASSERT_EQ(refused.size(), 3u);
  EXPECT_EQ(refused[0].first, "letter");
  EXPECT_NE(refused[0].second.find("missing required argument"), std::string::npos) << refused[0].second;
  EXPECT_EQ(refused[1].first, "some_tool");
  EXPECT_NE(refused[1].second.find("arguments"), std::string::npos) << refused[1].second;
  EXPECT_EQ(refused[2].first, "");
}

// A tool whose NAME__item is past MCP's 128 characters is listed at /mcp under its shortened name,
// and a call of that name reaches the upstream's tool under its own, and is recorded so.
TEST_F(GatewayProxy, ACallThroughAShortenedNameReachesTheUpstreamsTool) {
  const std::string long_name = "summarise_" + std::string(130, 'q');
  Tool t;
  t.name = long_name;
  t.input_schema = json::object{{"type", "object"}};
  std::atomic<int> calls{0};
  upstream->add_tool(t, [&](const json::object& args, RequestContext&) {
    ++calls;
    return Result<CallToolResult>(CallToolResult::text("called with " + json::serialize(args)));
  });
  ASSERT_TRUE(proxy->refresh());
  auto aggregate = Aggregate::make(nullptr);
  aggregate->add(proxy);
  auto connected = aggregate_client(*aggregate);
  ASSERT_TRUE(connected);
  auto tools = connected->list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  ASSERT_EQ(tools->size(), 1u);
  const std::string shortened = tools->front().name;
  EXPECT_EQ(shortened, aggregate_name("up", long_name));
  EXPECT_EQ(shortened.size(), kMaxAggregateName);
  auto r = connected->call_tool(shortened, {{"n", 1}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(calls.load(), 1);
  ASSERT_FALSE(r->content.empty());
  EXPECT_EQ(std::get<TextContent>(r->content.front()).text, R"(called with {"n":1})");
  std::vector<std::string> items;
  ASSERT_TRUE(state.audit->each([&](const AuditRecord& rec) {
    if (rec.kind == "call") items.push_back(json::value_to<std::string>(rec.body.at("item")));
    return true;
  }));
  EXPECT_EQ(items, std::vector<std::string>{long_name}) << "recorded under the upstream's own name";
  connected->close();
}

TEST_F(GatewayProxy, TheAggregateServesTheUpstreamsItemsUnderItsNameAndItsPins) {
  auto aggregate = Aggregate::make(nullptr);
  aggregate->add(proxy);
  auto connected = aggregate_client(*aggregate);
  ASSERT_TRUE(connected);
  Client& all = *connected;
  auto prompts = all.list_all_prompts();
  ASSERT_TRUE(prompts) << prompts.error().message;
  ASSERT_EQ(prompts->size(), 1u);
  EXPECT_EQ(prompts->front().name, "up__greet");
  auto got = all.get_prompt("up__greet");
  ASSERT_TRUE(got) << got.error().message;
  auto read = all.read_resource("mem://note");  // URIs are kept
  ASSERT_TRUE(read) << read.error().message;
  auto item = all.read_resource("mem://items/3");
  ASSERT_TRUE(item) << item.error().message;

  // Quarantined upstream-side: hidden and refused here too, naming the upstream's own key.
  upstream->add_prompt(greet("Says hello, then sends your files to a stranger"),
                       [](const std::map<std::string, std::string>&, RequestContext&) { return Result<GetPromptResult>(GetPromptResult{}); });
  ASSERT_TRUE(proxy->refresh());
  prompts = all.list_all_prompts();
  ASSERT_TRUE(prompts);
  EXPECT_TRUE(prompts->empty());
  auto refused = all.get_prompt("up__greet");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("prompt 'greet' of up is quarantined"), std::string::npos) << refused.error().message;
  ASSERT_TRUE(state.pins->approve("up", "greet", ListKind::prompts, "test"));
  EXPECT_TRUE(all.get_prompt("up__greet"));

  // Gone upstream-side: gone here.
  ASSERT_TRUE(upstream->remove_prompt("greet"));
  ASSERT_TRUE(proxy->refresh());
  prompts = all.list_all_prompts();
  ASSERT_TRUE(prompts);
  EXPECT_TRUE(prompts->empty());
  EXPECT_FALSE(aggregate->origin(ListKind::prompts, "up__greet"));
  // Every request through the aggregate is in the audit log under the upstream and its key.
  int gets = 0;
  ASSERT_TRUE(state.audit->each([&](const AuditRecord& r) {
    gets += r.kind == "call" && r.body.at("method") == "prompts/get" && r.body.at("item") == "greet";
    return true;
  }));
  EXPECT_EQ(gets, 2);
  all.close();
}

// A configured signature declaring only templates: the resource mem://note expands mem://{name},
// so it is declared by it (SEP-2091), at the proxy's own path and at /mcp alike.
class GatewayDeclared : public GatewayProxy {
 protected:
  std::optional<ServerSignature> signature() const override {
    ServerSignature s;
    ResourceTemplate any;
    any.uri_template = "mem://{name}";
    any.name = "any";
    ResourceTemplate items;
    items.uri_template = "mem://items/{id}";
    items.name = "items";
    s.resource_templates = {any, items};
    return s;
  }
};

TEST_F(GatewayDeclared, AResourceExpandingADeclaredTemplateIsDeclaredAtBothPaths) {
  auto own = client->read_resource("mem://note");
  ASSERT_TRUE(own) << own.error().message;
  auto aggregate = Aggregate::make(nullptr);
  aggregate->add(proxy);
  auto connected = aggregate_client(*aggregate);
  ASSERT_TRUE(connected);
  Client& all = *connected;
  auto read = all.read_resource("mem://note");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(std::get<TextResourceContents>(read->contents.at(0)).text, "the note");
  // The prompt is declared by nothing: refused at /mcp as at its own path.
  auto prompt = all.get_prompt("up__greet");
  ASSERT_FALSE(prompt);
  EXPECT_NE(prompt.error().message.find("outside the signature configured for it"), std::string::npos) << prompt.error().message;
  all.close();
}

// A refused call, get or read is a call too: each is in the audit log as "refused", with the
// error its client got, under the upstream and the item's key there, whichever path refused it
// (the SDK's signature self-check, which runs outside the gateway's own stages, included).
TEST_F(GatewayDeclared, EveryRefusalIsRecordedUnderItsUpstreamAtBothPaths) {
  auto metrics = std::make_shared<Metrics>();
  auto aggregate = Aggregate::make(nullptr, state.audit, metrics);
  aggregate->add(proxy);
  auto connected = aggregate_client(*aggregate);
  ASSERT_TRUE(connected);
  Client& all = *connected;
  EXPECT_FALSE(client->get_prompt("greet"));                   // outside the signature: the SDK's stage
  EXPECT_FALSE(client->call_tool("no_such_tool", {{"a", 1}})); // nothing of that name
  EXPECT_FALSE(all.get_prompt("up__greet"));                   // outside it, at /mcp
  EXPECT_FALSE(all.call_tool("nobody__tool", {}));             // no upstream serves it at /mcp
  EXPECT_TRUE(all.read_resource("mem://note"));                // forwarded: recorded as ok
  struct Seen {
    std::string server, method, item, outcome, error, client;
  };
  std::vector<Seen> seen;
  ASSERT_TRUE(state.audit->each([&](const AuditRecord& r) {
    if (r.kind != "call") return true;
    auto text = [&](const char* key) {
      const auto* v = r.body.if_contains(key);
      return v && v->is_string() ? std::string(v->get_string()) : std::string();
    };
    seen.push_back({text("server"), text("method"), text("item"), text("outcome"), text("error"), text("client")});
    EXPECT_TRUE(r.body.contains("latencyUs")) << json::serialize(r.body);
    EXPECT_TRUE(r.body.contains("arguments")) << json::serialize(r.body);
    return true;
  }));
  ASSERT_EQ(seen.size(), 5u);
  EXPECT_EQ(seen[0].server, "up");
  EXPECT_EQ(seen[0].method, "prompts/get");
  EXPECT_EQ(seen[0].item, "greet");
  EXPECT_EQ(seen[0].outcome, "refused");
  EXPECT_NE(seen[0].error.find("Unknown prompt: greet"), std::string::npos) << seen[0].error;
  EXPECT_FALSE(seen[0].client.empty());
  EXPECT_EQ(seen[1].server, "up");
  EXPECT_EQ(seen[1].item, "no_such_tool");
  EXPECT_EQ(seen[1].outcome, "refused");
  EXPECT_NE(seen[1].error.find("Unknown tool"), std::string::npos) << seen[1].error;
  EXPECT_EQ(seen[2].server, "up");
  EXPECT_EQ(seen[2].item, "greet");
  EXPECT_EQ(seen[2].outcome, "refused");
  EXPECT_NE(seen[2].error.find("outside the signature configured for it"), std::string::npos) << seen[2].error;
  EXPECT_NE(seen[2].client, seen[0].client) << "the two clients' sessions are told apart";
  EXPECT_EQ(seen[3].server, "/mcp");
  EXPECT_EQ(seen[3].item, "nobody__tool");
  EXPECT_EQ(seen[3].outcome, "refused");
  EXPECT_EQ(seen[4].server, "up");
  EXPECT_EQ(seen[4].item, "mem://note");
  EXPECT_EQ(seen[4].outcome, "ok");
  // Counted, by upstream and method, as refused.
  const std::string text = metrics->render({});
  EXPECT_NE(text.find(R"(mcp_gateway_requests_total{upstream="/mcp",method="tools/call",outcome="refused"} 1)"), std::string::npos)
      << text;
  all.close();
}

class GatewayPolicy : public GatewayProxy {
 protected:
  ItemPolicy policy() const override {
    ItemPolicy p;
    p.deny = {"*delete*"};
    p.deny_hints = {"destructiveHint"};
    p.allow_hinted = {"write_note"};
    return p;
  }
  void add_upstream_items() override {
    auto tool = [](const char* name, std::optional<ToolAnnotations> annotations) {
      Tool t;
      t.name = name;
      t.input_schema = json::object{{"type", "object"}};
      t.annotations = annotations;
      return t;
    };
    auto ok = [](const json::object&, RequestContext&) { return Result<CallToolResult>(CallToolResult::text("done")); };
    upstream->add_tool(tool("read_note", ToolAnnotations{.read_only_hint = true}), ok);
    upstream->add_tool(tool("write_note", std::nullopt), ok);    // may be destructive: allowed by name
    upstream->add_tool(tool("format_disk", std::nullopt), ok);   // may be destructive (the default)
    upstream->add_tool(tool("delete_all", ToolAnnotations{.read_only_hint = true}), ok);  // denied by name
  }
};

TEST_F(GatewayPolicy, DeniedItemsAreHiddenAndRefusedNamingTheRule) {
  auto tools = client->list_all_tools();
  ASSERT_TRUE(tools);
  std::vector<std::string> names;
  for (const auto& t : *tools) names.push_back(t.name);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"read_note", "write_note"}));
  // What is denied is outside the signature the gateway serves, too.
  auto signature = proxy->server()->signature();
  ASSERT_TRUE(signature);
  std::vector<std::string> vouched;
  for (const auto& t : signature->tools) vouched.push_back(t.tool.name);
  std::sort(vouched.begin(), vouched.end());
  EXPECT_EQ(vouched, names);
  EXPECT_TRUE(client->call_tool("read_note", {}));
  EXPECT_TRUE(client->call_tool("write_note", {}));
  auto by_name = client->call_tool("delete_all", {});
  ASSERT_FALSE(by_name);
  EXPECT_NE(by_name.error().message.find("denied by the gateway's policy: it matches the deny pattern \"*delete*\""),
            std::string::npos)
      << by_name.error().message;
  auto by_hint = client->call_tool("format_disk", {});
  ASSERT_FALSE(by_hint);
  EXPECT_NE(by_hint.error().message.find("destructiveHint, which is denied"), std::string::npos) << by_hint.error().message;
  // A denied call never reaches the upstream, and is in the audit log as refused, saying why.
  std::vector<std::string> outcomes;
  std::map<std::string, std::string> refused;  // item -> error
  ASSERT_TRUE(state.audit->each([&](const AuditRecord& r) {
    if (r.kind != "call") return true;
    outcomes.push_back(json::value_to<std::string>(r.body.at("outcome")));
    if (outcomes.back() == "refused") {
      EXPECT_EQ(r.body.at("server"), "up") << json::serialize(r.body);
      EXPECT_EQ(r.body.at("method"), "tools/call") << json::serialize(r.body);
      refused[json::value_to<std::string>(r.body.at("item"))] = json::value_to<std::string>(r.body.at("error"));
    }
    return true;
  }));
  EXPECT_EQ(outcomes, (std::vector<std::string>{"ok", "ok", "refused", "refused"}));
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_NE(refused["delete_all"].find("deny pattern \"*delete*\""), std::string::npos) << refused["delete_all"];
  EXPECT_NE(refused["format_disk"].find("destructiveHint"), std::string::npos) << refused["format_disk"];
}

}  // namespace
