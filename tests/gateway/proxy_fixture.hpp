// The in-process fixture of the proxy's tests (proxy_test.cpp, proxy_admission_test.cpp): an
// upstream Server of ours, a Client to it, the Proxy (named "up") with the fixture's policy and
// signature, and a downstream client of the Proxy's Server, over memory transports.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "../examples/tmp_dir.hpp"
#include "gateway/aggregate.hpp"
#include "gateway/proxy.hpp"
#include "gateway/state.hpp"
#include "mcp/transport/memory.hpp"

namespace mcp::gateway::test_proxy {

inline Prompt greet(const std::string& description) {
  Prompt p;
  p.name = "greet";
  p.description = description;
  return p;
}

inline Resource note(const std::string& description) {
  Resource r;
  r.uri = "mem://note";
  r.name = "note";
  r.description = description;
  return r;
}

inline ReadResourceResult text_at(const std::string& uri, const std::string& text) {
  TextResourceContents c;
  c.uri = uri;
  c.text = text;
  return ReadResourceResult{{c}};
}

class GatewayProxy : public ::testing::Test {
 protected:
  test::TmpDir dir;
  State state;
  std::shared_ptr<Server> upstream = std::make_shared<Server>();
  std::shared_ptr<Client> upstream_client;
  std::shared_ptr<Proxy> proxy;
  std::unique_ptr<Client> client;
  std::atomic<int> list_changes{0};

  // A client of `aggregate`'s Server, in memory (null if it did not connect).
  static std::unique_ptr<Client> aggregate_client(Aggregate& aggregate) {
    auto [a, b] = make_memory_transport_pair();
    auto c = std::make_unique<Client>();
    if (!aggregate.server()->connect(a) || !c->connect(b)) return nullptr;
    return c;
  }

  virtual ItemPolicy policy() const { return {}; }
  virtual std::optional<ServerSignature> signature() const { return std::nullopt; }
  virtual void add_upstream_items() {}

  void SetUp() override {
    add_upstream_items();
    auto s = open_state(dir.path);
    ASSERT_TRUE(s) << s.error().message;
    state = *s;
    upstream->add_prompt(greet("Says hello"), [](const std::map<std::string, std::string>&, RequestContext&) {
      GetPromptResult r;
      r.messages.push_back(PromptMessage{Role::user, TextContent{.text = "hello"}});
      return Result<GetPromptResult>(r);
    });
    upstream->add_resource(note("A note"), [](const std::string& uri, RequestContext&) {
      return Result<ReadResourceResult>(text_at(uri, "the note"));
    });
    ResourceTemplate items;
    items.uri_template = "mem://items/{id}";
    items.name = "items";
    ASSERT_TRUE(upstream->add_resource_template(items, [](const std::string& uri, const UriTemplate::Variables&, RequestContext&) {
      return Result<ReadResourceResult>(text_at(uri, "an item"));
    }));
    auto [a, b] = make_memory_transport_pair();
    ASSERT_TRUE(upstream->connect(a));
    upstream_client = std::make_shared<Client>();
    ASSERT_TRUE(upstream_client->connect(b));
    ProxyOptions po;
    po.name = "up";
    po.state_dir = dir.path.string();
    po.policy = policy();
    po.signature = signature();
    auto p = Proxy::start(upstream_client, state.pins, state.audit, po);
    ASSERT_TRUE(p) << p.error().message;
    proxy = *p;
    auto [c, d] = make_memory_transport_pair();
    ASSERT_TRUE(proxy->server()->connect(c));
    ClientOptions co;
    co.on_list_changed = [this](const std::string&) { ++list_changes; };
    client = std::make_unique<Client>(co);
    ASSERT_TRUE(client->connect(d));
  }
  void TearDown() override {
    if (client) client->close();
    if (upstream_client) upstream_client->close();
  }

  std::optional<PinState> pin_state(ListKind kind, const std::string& key) {
    auto s = state.pins->state("up", kind, key);
    EXPECT_TRUE(s) << s.error().message;
    return s ? *s : std::nullopt;
  }
};

}  // namespace mcp::gateway::test_proxy
