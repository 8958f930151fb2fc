// Our client against our server over the in-memory transport: the server API's behaviour.
#include "mcp/server/server.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <future>
#include <thread>

#include "mcp/client/client.hpp"
#include "mcp/protocol/roots.hpp"
#include "mcp/transport/memory.hpp"
#include "server/tools.hpp"
#include "support/event.hpp"

using namespace mcp;
using namespace std::chrono_literals;
using mcp::test::Event;
using mcp::test::handshake;

namespace {

// What the client was told, in order. The client calls its notification callbacks on its
// transport's reader thread, in arrival order, before it completes any later response: so once a
// request made after some server-side action has been answered, every notification that action
// sent has been recorded here. That is how these tests prove that something was NOT sent.
struct Heard {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> updated;       // notifications/resources/updated, by URI
  std::vector<std::string> list_changed;  // "tools", "resources", "prompts"

  void wire(ClientOptions& co) {
    co.on_resource_updated = [this](const std::string& uri) { add(updated, uri); };
    co.on_list_changed = [this](const std::string& list) { add(list_changed, list); };
  }
  void add(std::vector<std::string>& v, const std::string& s) {
    {
      std::lock_guard l(mu);
      v.push_back(s);
    }
    cv.notify_all();
  }
  std::vector<std::string> updates() {
    std::lock_guard l(mu);
    return updated;
  }
  std::vector<std::string> changes() {
    std::lock_guard l(mu);
    return list_changed;
  }
};

Resource make_resource(std::string uri) {
  Resource r;
  r.uri = uri;
  r.name = std::move(uri);
  return r;
}

Result<ReadResourceResult> read_v(const std::string& uri, RequestContext&) {
  ReadResourceResult out;
  out.contents.push_back(TextResourceContents{.uri = uri, .text = "v"});
  return out;
}

Tool make_tool(std::string name) {
  Tool t;
  t.name = std::move(name);
  t.description = "test tool";
  return t;
}

CallToolResult text(std::string s) {
  CallToolResult r;
  r.content.push_back(TextContent{.text = std::move(s)});
  return r;
}

struct Fixture {
  std::shared_ptr<Server> server;
  std::shared_ptr<ServerSession> session;
  std::unique_ptr<Client> client;

  explicit Fixture(ServerOptions so = {}, ClientOptions co = {}) : server(std::make_shared<Server>(so)) {
    co.session.request_timeout = 5s;
    client = std::make_unique<Client>(std::move(co));
  }
  void connect() {
    auto [a, b] = make_memory_transport_pair();
    auto s = server->connect(a);
    ASSERT_TRUE(s);
    session = *s;
    auto init = client->connect(b);
    ASSERT_TRUE(init) << init.error().message;
  }
  ~Fixture() {
    client.reset();
    session.reset();
  }
};

}  // namespace

TEST(Server, NegotiatesVersionAndDeclaresCapabilities) {
  Fixture f({}, handshake());
  f.connect();
  EXPECT_EQ(f.client->server().protocol_version, "2025-11-25");
  EXPECT_TRUE(f.client->server_supports("tools.listChanged"));
  EXPECT_TRUE(f.client->server_supports("resources.subscribe"));
  EXPECT_FALSE(f.client->server_supports("completions"));  // no completer registered
  EXPECT_EQ(f.session->client()->client_info.at("name"), "mcp-trust-client");
}

TEST(Server, AnswersOlderVersionsItSpeaksAndItsLatestOtherwise) {
  for (auto [asked, expected] : {std::pair{"2025-06-18", "2025-06-18"}, std::pair{"2025-03-26", "2025-03-26"},
                                 std::pair{"1999-01-01", "2025-11-25"}}) {
    ClientOptions co;
    co.protocol_version = asked;
    Fixture f({}, co);
    auto [a, b] = make_memory_transport_pair();
    auto s = f.server->connect(a);
    ASSERT_TRUE(s);
    f.session = *s;
    auto init = f.client->connect(b);
    if (std::string(expected) == asked) {
      ASSERT_TRUE(init);
      EXPECT_EQ(init->protocol_version, expected);
    } else {
      // The server offered 2025-11-25; this client accepts it because it speaks it.
      ASSERT_TRUE(init);
      EXPECT_EQ(init->protocol_version, expected);
    }
  }
}

TEST(Server, PaginatesListsWithOpaqueCursors) {
  ServerOptions so;
  so.page_size = 3;
  Fixture f(so);
  for (int i = 0; i < 8; ++i) {
    f.server->add_tool(make_tool("t" + std::to_string(i)),
                       [](const json::object&, RequestContext&) -> Result<CallToolResult> { return text("x"); });
  }
  f.connect();
  auto first = f.client->list_tools();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->tools.size(), 3u);
  ASSERT_TRUE(first->next_cursor);
  auto all = f.client->list_all_tools();
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 8u);
  EXPECT_EQ((*all)[7].name, "t7");
  auto bad = f.client->request("tools/list", {{"cursor", "not-a-cursor"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, error_code::kInvalidParams);
}

// A server choosing its pages cannot make list_all_* keep more than ClientOptions::max_list_bytes.
TEST(Server, AListTooBigInBytesIsAClearErrorWhateverItsPageCount) {
  ServerOptions so;
  so.page_size = 2;
  ClientOptions co;
  co.max_list_bytes = 100'000;
  Fixture f(so, co);
  for (int i = 0; i < 20; ++i) {
    Tool t = make_tool("t" + std::to_string(i));
    t.description = std::string(20'000, 'd');
    f.server->add_tool(t, [](const json::object&, RequestContext&) -> Result<CallToolResult> { return text("x"); });
  }
  f.connect();
  auto all = f.client->list_all_tools();
  ASSERT_FALSE(all);
  EXPECT_NE(all.error().message.find("max_list_bytes"), std::string::npos) << all.error().message;
  EXPECT_NE(all.error().message.find("after 3 pages"), std::string::npos) << all.error().message;
}

TEST(Server, UnknownToolIsInvalidParamsAndThrowingToolIsAToolError) {
  Fixture f;
  f.server->add_tool(make_tool("boom"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    throw std::runtime_error("kaput");
  });
  f.connect();
  auto unknown = f.client->call_tool("nope");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, error_code::kInvalidParams);
  auto boom = f.client->call_tool("boom");
  ASSERT_TRUE(boom);
  EXPECT_TRUE(boom->is_error.value_or(false));
  EXPECT_NE(std::get<TextContent>(boom->content[0]).text.find("kaput"), std::string::npos);
}

// A call's params are checked before the tool runs: a progress token that is neither a string
// nor an integer (one the server could not send progress for) is refused, as malformed params.
TEST(Server, AToolCallWithAMalformedProgressTokenIsInvalidParams) {
  Fixture f;
  std::atomic<int> ran{0};
  f.server->add_tool(make_tool("t"), [&](const json::object&, RequestContext&) -> Result<CallToolResult> {
    ++ran;
    return CallToolResult::text("ok");
  });
  f.connect();
  for (const json::value& token : {json::value(true), json::value(1.5), json::value(json::object{}), json::value(nullptr)}) {
    auto r = f.client->request("tools/call", json::object{{"name", "t"}, {"_meta", json::object{{"progressToken", token}}}});
    ASSERT_FALSE(r) << json::serialize(token);
    EXPECT_EQ(r.error().code, error_code::kInvalidParams) << json::serialize(token);
  }
  EXPECT_EQ(ran.load(), 0);
  auto ok = f.client->request("tools/call", json::object{{"name", "t"}, {"_meta", json::object{{"progressToken", "p1"}}}});
  EXPECT_TRUE(ok) << ok.error().message;
  EXPECT_EQ(ran.load(), 1);
}

TEST(Server, ListChangedReachesTheClientWhenToolsChange) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> changed;
  ClientOptions co;
  co.on_list_changed = [&](const std::string& list) {
    std::lock_guard l(mu);
    changed.push_back(list);
    cv.notify_all();
  };
  Fixture f({}, co);
  f.connect();
  f.server->add_tool(make_tool("late"), [](const json::object&, RequestContext&) -> Result<CallToolResult> { return text("x"); });
  std::unique_lock l(mu);
  ASSERT_TRUE(cv.wait_for(l, 2s, [&] { return !changed.empty(); }));
  EXPECT_EQ(changed[0], "tools");
  l.unlock();
  auto tools = f.client->list_all_tools();
  ASSERT_TRUE(tools);
  EXPECT_EQ(tools->size(), 1u);
}

TEST(Server, SubscribedClientsGetResourceUpdates) {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<std::string> updated;
  ClientOptions co;
  co.on_resource_updated = [&](const std::string& uri) {
    std::lock_guard l(mu);
    updated.push_back(uri);
    cv.notify_all();
  };
  Fixture f({}, co);
  Resource r;
  r.uri = "test://r";
  r.name = "r";
  f.server->add_resource(r, [](const std::string& uri, RequestContext&) -> Result<ReadResourceResult> {
    ReadResourceResult out;
    out.contents.push_back(TextResourceContents{.uri = uri, .text = "v"});
    return out;
  });
  f.connect();
  f.server->notify_resource_updated("test://r");  // not subscribed yet: nothing
  ASSERT_TRUE(f.client->subscribe("test://r"));
  f.server->notify_resource_updated("test://r");
  // Ordering, not time: notify_resource_updated hands its notification to the session's transport
  // before it returns, and the in-memory transport delivers in order, so whatever the two calls sent
  // reached the client before the answer to this later ping (see Heard).
  ASSERT_TRUE(f.client->ping());
  std::lock_guard l(mu);
  EXPECT_EQ(updated, std::vector<std::string>{"test://r"});
}

TEST(Server, UnsubscribedUriGetsNoMoreUpdatesWhileASubscribedOneDoes) {
  Heard heard;
  ClientOptions co;
  heard.wire(co);
  Fixture f({}, co);
  f.server->add_resource(make_resource("test://a"), read_v);
  f.server->add_resource(make_resource("test://b"), read_v);
  f.connect();
  ASSERT_TRUE(f.client->subscribe("test://a"));
  ASSERT_TRUE(f.client->subscribe("test://b"));
  f.server->notify_resource_updated("test://a");
  f.server->notify_resource_updated("test://b");
  ASSERT_TRUE(f.client->ping());  // everything sent above has been heard (see Heard)
  ASSERT_EQ(heard.updates(), (std::vector<std::string>{"test://a", "test://b"}));

  // The server forgets the subscription before it answers, so from here on an update for a is a bug.
  ASSERT_TRUE(f.client->unsubscribe("test://a"));
  f.server->notify_resource_updated("test://a");
  f.server->notify_resource_updated("test://b");  // b still gets it: updates are still being sent
  ASSERT_TRUE(f.client->ping());
  EXPECT_EQ(heard.updates(), (std::vector<std::string>{"test://a", "test://b", "test://b"}));

  // Unsubscribing what is not subscribed is harmless, and b's subscription is untouched by it.
  ASSERT_TRUE(f.client->unsubscribe("test://never"));
  f.server->notify_resource_updated("test://b");
  ASSERT_TRUE(f.client->ping());
  EXPECT_EQ(heard.updates(), (std::vector<std::string>{"test://a", "test://b", "test://b", "test://b"}));
}

TEST(Server, RemovingAResourceOrAPromptSendsListChangedAndDropsIt) {
  Heard heard;
  ClientOptions co;
  heard.wire(co);
  Fixture f({}, co);
  f.server->add_resource(make_resource("test://keep"), read_v);
  f.server->add_resource(make_resource("test://gone"), read_v);
  Prompt keep, gone;
  keep.name = "keep";
  gone.name = "gone";
  auto prompt_handler = [](const std::map<std::string, std::string>&, RequestContext&) -> Result<GetPromptResult> {
    return GetPromptResult{};
  };
  f.server->add_prompt(keep, prompt_handler);
  f.server->add_prompt(gone, prompt_handler);
  f.connect();  // registered before connecting: no list_changed so far
  ASSERT_TRUE(f.client->ping());
  ASSERT_TRUE(heard.changes().empty());

  EXPECT_TRUE(f.server->remove_resource("test://gone"));
  ASSERT_TRUE(f.client->ping());  // the notification, if sent, came before this answer (see Heard)
  EXPECT_EQ(heard.changes(), std::vector<std::string>{"resources"});
  auto resources = f.client->list_all_resources();
  ASSERT_TRUE(resources) << resources.error().message;
  ASSERT_EQ(resources->size(), 1u);
  EXPECT_EQ((*resources)[0].uri, "test://keep");
  auto read_gone = f.client->read_resource("test://gone");
  ASSERT_FALSE(read_gone);
  // 2026-07-28 has no -32002: an unknown resource is -32602 there.
  EXPECT_EQ(read_gone.error().code, f.client->stateless() ? error_code::kInvalidParams : error_code::kResourceNotFound);

  EXPECT_TRUE(f.server->remove_prompt("gone"));
  ASSERT_TRUE(f.client->ping());
  EXPECT_EQ(heard.changes(), (std::vector<std::string>{"resources", "prompts"}));
  auto prompts = f.client->list_all_prompts();
  ASSERT_TRUE(prompts) << prompts.error().message;
  ASSERT_EQ(prompts->size(), 1u);
  EXPECT_EQ((*prompts)[0].name, "keep");
  EXPECT_FALSE(f.client->get_prompt("gone", {}));

  // Removing what is not there changes nothing and tells nobody.
  EXPECT_FALSE(f.server->remove_resource("test://gone"));
  EXPECT_FALSE(f.server->remove_prompt("gone"));
  ASSERT_TRUE(f.client->ping());
  EXPECT_EQ(heard.changes(), (std::vector<std::string>{"resources", "prompts"}));
}

TEST(Server, ToolListsTheClientsRootsThroughTheContext) {
  std::atomic<int> roots_requests{0};
  ClientOptions co = handshake();
  co.on_roots = [&](const json::object&, const CancellationToken&) -> Result<json::value> {
    ++roots_requests;
    ListRootsResult r;
    r.roots.push_back(Root{.uri = "file:///work/project", .name = std::string("project")});
    r.roots.push_back(Root{.uri = "file:///tmp/scratch"});
    return to_json(r);
  };
  Fixture f({}, co);
  f.server->add_tool(make_tool("roots"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto r = ctx.list_roots();
    if (!r) return fail(r.error());
    auto roots = from_json<ListRootsResult>(*r);
    if (!roots) return fail(roots.error());
    std::string out;
    for (const auto& root : roots->roots) out += root.uri + " (" + root.name.value_or("-") + ")\n";
    return text(out);
  });
  f.connect();
  EXPECT_TRUE(f.session->client()->capabilities.contains("roots"));
  auto r = f.client->call_tool("roots");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(std::get<TextContent>(r->content[0]).text, "file:///work/project (project)\nfile:///tmp/scratch (-)\n");
  EXPECT_EQ(roots_requests.load(), 1);

  // A client without a roots handler does not declare roots: list_roots fails at once, unsent.
  Fixture bare({}, handshake());
  bare.server->add_tool(make_tool("roots"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto listed = ctx.list_roots();
    return text(listed ? "listed" : std::to_string(listed.error().code));
  });
  bare.connect();
  auto refused = bare.client->call_tool("roots");
  ASSERT_TRUE(refused) << refused.error().message;
  EXPECT_EQ(std::get<TextContent>(refused->content[0]).text, std::to_string(error_code::kMethodNotFound));
}

TEST(Server, RequestsBeyondMaxPendingInboundAreRefusedAsBusy) {
  ServerOptions so;
  so.session.max_pending_inbound = 1;
  Fixture f(so, handshake());
  auto started = std::make_shared<Event>(), release = std::make_shared<Event>();
  f.server->add_tool(make_tool("hold"), [started, release](const json::object&, RequestContext&) -> Result<CallToolResult> {
    started->set();
    return text(release->wait() ? "held" : "never released");
  });
  f.server->add_tool(make_tool("quick"), [](const json::object&, RequestContext&) -> Result<CallToolResult> { return text("quick"); });
  f.connect();
  // Retried while refused as busy: right after an answer (here, initialize's) the slot may still be
  // taken, the known bug shown by ASequentialClientIsNeverRefusedAsBusy. Polled with a generous bound.
  auto call_when_free = [&](const std::string& tool) {
    Result<CallToolResult> r = fail(Error::internal("not tried"));
    for (int i = 0; i < 1000; ++i) {
      r = f.client->call_tool(tool);
      if (r || r.error().message.find("busy") == std::string::npos) break;
      std::this_thread::sleep_for(10ms);
    }
    return r;
  };
  auto held = std::async(std::launch::async, [&] { return call_when_free("hold"); });
  ASSERT_TRUE(started->wait());  // the one slot is taken, and stays taken until we release it
  auto busy = f.client->call_tool("quick");
  ASSERT_FALSE(busy) << "a second request was accepted beyond max_pending_inbound = 1";
  EXPECT_EQ(busy.error().code, error_code::kInternalError);
  EXPECT_NE(busy.error().message.find("busy"), std::string::npos) << busy.error().message;
  // Requests answered on the reader thread (lists) count too; ping does not.
  auto list = f.client->request("tools/list", {});
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().code, error_code::kInternalError);
  EXPECT_TRUE(f.client->ping());
  release->set();
  auto h = held.get();
  ASSERT_TRUE(h) << h.error().message;
  EXPECT_EQ(std::get<TextContent>(h->content[0]).text, "held");
  // The slot is free again (retried while busy, for the same known bug).
  auto again = call_when_free("quick");
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(std::get<TextContent>(again->content[0]).text, "quick");
}

// The server's end of a connection, forwarding everything, except that it holds the first answer
// the server sends (after passing it on, as a write that is slow to return would) until the server
// has taken in the client's next request. That makes one interleaving certain: the client has its
// answer, and its next request is handled while the server's worker is still in that write.
class HoldFirstAnswer final : public Transport {
 public:
  explicit HoldFirstAnswer(std::shared_ptr<Transport> inner) : inner_(std::move(inner)) {}
  Result<void> start(Callbacks cb) override {
    cb.on_message = [this, next = std::move(cb.on_message)](std::string frame) {
      const auto v = json::parse(frame);
      const bool request = v.is_object() && v.as_object().contains("id") && v.as_object().contains("method");
      const bool arrived_while_holding = holding_;  // read first: not the request being answered
      next(std::move(frame));
      if (request && arrived_while_holding) taken_in_.set();
    };
    return inner_->start(std::move(cb));
  }
  Result<void> send(std::string frame, const SendInfo& info) override {
    if (info.kind != SendInfo::Kind::response || held_.exchange(true)) return inner_->send(std::move(frame), info);
    holding_ = true;  // before the answer leaves: whatever request arrives from now on counts
    auto r = inner_->send(std::move(frame), info);
    (void)taken_in_.wait();
    return r;
  }
  void close() override { inner_->close(); }

 private:
  std::shared_ptr<Transport> inner_;
  std::atomic<bool> held_{false}, holding_{false};
  Event taken_in_;
};

// A client that waits for each answer before it sends the next request never has more than one
// request in progress, so max_pending_inbound = 1 must never refuse it.
//
// Regression test: a request's slot used to be freed only after its answer was written, so the
// client's next request, sent the moment that answer arrived, could reach the reader thread first
// and be refused -32603 "server busy". HoldFirstAnswer makes that interleaving certain: the answer
// to initialize is held until the next request has come in.
TEST(Server, ASequentialClientIsNeverRefusedAsBusy) {
  ServerOptions so;
  so.session.max_pending_inbound = 1;
  auto server = std::make_shared<Server>(so);
  server->add_tool(make_tool("quick"), [](const json::object&, RequestContext&) -> Result<CallToolResult> { return text("quick"); });
  auto [a, b] = make_memory_transport_pair();
  auto session = server->connect(std::make_shared<HoldFirstAnswer>(a));
  ASSERT_TRUE(session);
  ClientOptions co = handshake();  // the held answer is initialize's
  co.session.request_timeout = 5s;
  Client client(co);
  ASSERT_TRUE(client.connect(b));
  auto first = client.call_tool("quick");  // initialize was answered: nothing is in progress
  EXPECT_TRUE(first) << "a request sent after the previous one was answered was refused: " << first.error().message;
  client.close();
  (*session)->close();
}

TEST(Server, ContextRefusesRequestsForUndeclaredClientCapabilities) {
  Fixture f({}, handshake());  // the client declares no sampling, elicitation or roots
  std::atomic<int> code{0};
  f.server->add_tool(make_tool("ask"), [&](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto r = ctx.create_message({{"messages", json::array{}}, {"maxTokens", 1}});
    code = r ? 0 : r.error().code;
    return text("done");
  });
  f.connect();
  ASSERT_TRUE(f.client->call_tool("ask"));
  EXPECT_EQ(code, error_code::kMethodNotFound);
}

TEST(Server, SamplingRoundTripThroughTheContext) {
  ClientOptions co = handshake();
  co.on_sampling = [](const json::object& params, const CancellationToken&) -> Result<json::value> {
    auto prompt = params.at("messages").at(0).at("content").at("text").as_string();
    return json::object{{"role", "assistant"},
                        {"content", {{"type", "text"}, {"text", "echo: " + std::string(prompt)}}},
                        {"model", "m"}};
  };
  Fixture f({}, co);
  f.server->add_tool(make_tool("ask"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto r = ctx.create_message(
        {{"messages", json::array{{{"role", "user"}, {"content", {{"type", "text"}, {"text", "hi"}}}}}}, {"maxTokens", 5}});
    if (!r) return fail(r.error());
    return text(std::string(r->at("content").at("text").as_string()));
  });
  f.connect();
  auto r = f.client->call_tool("ask");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(std::get<TextContent>(r->content[0]).text, "echo: hi");
}

TEST(Server, RequestsBeforeInitializeAreRejected) {
  auto server = std::make_shared<Server>();
  auto [a, b] = make_memory_transport_pair();
  auto s = server->connect(a);
  ASSERT_TRUE(s);
  struct Null : Session::Handler {
    Result<json::value> handle_request(InboundRequest&) override { return json::object{}; }
    void handle_notification(const jsonrpc::Notification&) override {}
  } h;
  auto raw = Session::create(b, h, {});
  ASSERT_TRUE(raw->start());
  auto r = raw->request("tools/list", {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInvalidRequest);
  raw->shutdown();
}

TEST(Server, ClientDoesNotSendRequestsForUndeclaredServerCapabilities) {
  Fixture f;
  f.connect();
  CompleteRequestParams p;
  p.ref = PromptReference{.name = "x"};
  p.argument.name = "a";
  auto r = f.client->complete(p);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMethodNotFound);
  EXPECT_NE(r.error().message.find("completions"), std::string::npos);
}

TEST(Server, NonBlockingToolsRunAndCannotSendNestedRequests) {
  ClientOptions co = handshake();
  co.on_sampling = [](const json::object&, const CancellationToken&) -> Result<json::value> {
    return json::object{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "x"}}}, {"model", "m"}};
  };
  Fixture f({}, co);
  f.server->add_tool(make_tool("quick"), [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
    auto r = ctx.create_message({{"messages", json::array{}}, {"maxTokens", 1}});
    return text(r ? "sent" : r.error().message);
  }, {.non_blocking = true});
  f.connect();
  auto r = f.client->call_tool("quick");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NE(std::get<TextContent>(r->content[0]).text.find("non_blocking"), std::string::npos);
}

// What logs and audit records name a client by: its name and version on one printable line, made
// once per view, bounded whatever the client sends.
TEST(ClientLabel, IsTheNameAndVersionPrintableAndBounded) {
  EXPECT_EQ(mcp::client_label_of(mcp::json::object{{"name", "claude-code"}, {"version", "1.2.3"}}), "claude-code/1.2.3");
  EXPECT_EQ(mcp::client_label_of(mcp::json::object{{"name", "no-version"}}), "no-version/");
  EXPECT_EQ(mcp::client_label_of(mcp::json::object{}), "");
  EXPECT_EQ(mcp::client_label_of(mcp::json::object{{"name", 42}}), "");  // not a string: not a name
  const auto forged = mcp::client_label_of(mcp::json::object{{"name", "evil\n[gateway] approved"}, {"version", "1"}});
  EXPECT_EQ(forged.find('\n'), std::string::npos) << forged;
  const auto huge = mcp::client_label_of(mcp::json::object{{"name", std::string(1 << 20, 'n')}, {"version", std::string(1 << 20, 'v')}});
  EXPECT_LE(huge.size(), mcp::kMaxClientLabelBytes + 32) << "cut to the bound, with peer_text's note of the length";
  EXPECT_EQ(huge.rfind("nnnn", 0), 0u);
}

// Both revisions' requests carry it: a 2025-11-25 session's from initialize, a 2026-07-28
// request's from its own _meta.
TEST(ClientLabel, EachRequestSeesItsClientsLabel) {
  for (const char* revision : {"2025-11-25", "2026-07-28"}) {
    SCOPED_TRACE(revision);
    auto server = std::make_shared<mcp::Server>();
    std::string seen;
    server->add_tool(mcp::test::make_tool("who"), [&](const mcp::json::object&, mcp::RequestContext& ctx) {
      seen = ctx.client_label();
      return mcp::Result<mcp::CallToolResult>(mcp::CallToolResult::text("ok"));
    });
    mcp::ClientOptions co;
    co.protocol_version = revision;
    co.info = mcp::Implementation{.name = "labelled", .version = "9.9"};
    mcp::test::Connected c(server, co);
    ASSERT_TRUE(c.client->call_tool("who"));
    EXPECT_EQ(seen, "labelled/9.9");
  }
}
