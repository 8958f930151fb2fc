// The server's side of SEP-2091 with our Server: it advertises and returns its signature, lists the
// worst case, never sends what it did not declare (dropping it with an error naming it), and lets
// availability change within the signature. Each test runs a client in every mode, which must see
// no violation: a server built with this SDK keeps the rules by construction.
#include "fixtures.hpp"
#include "harness.hpp"

namespace mcp {
namespace {

using namespace sigtest;

CallToolResult ok_result() {
  CallToolResult r;
  r.content.push_back(TextContent{.text = "ok"});
  return r;
}
ToolHandler ok_handler() {
  return [](const json::object&, RequestContext&) -> Result<CallToolResult> { return ok_result(); };
}

class ServerBehavior : public ::testing::TestWithParam<EnforcementMode> {
 protected:
  ServerBehavior() : server(std::make_shared<Server>()) {}
  // 2026-07-28 by default: the signature then comes in server/discover. A test of what a session
  // keeps asks for 2025-11-25.
  void connect(std::string protocol = "2026-07-28") {
    client = std::make_unique<PolicedClient>(policy(GetParam()), std::move(protocol));
    auto [a, b] = make_memory_transport_pair();
    auto s = server->connect(a);
    ASSERT_TRUE(s);
    session = *s;
    auto init = client->client->connect(b);
    ASSERT_TRUE(init) << init.error().message;
    init_result = *init;
  }
  void TearDown() override {
    if (client) {
      const auto v = client->violations();
      EXPECT_TRUE(v.empty()) << v.front().describe();
    }
    client.reset();
    session.reset();
  }
  std::shared_ptr<Server> server;
  std::shared_ptr<ServerSession> session;
  std::unique_ptr<PolicedClient> client;
  InitializeResult init_result;
};

TEST_P(ServerBehavior, CapabilityDeclaration_AdvertisesWhereTheSignatureIs) {
  ASSERT_TRUE(server->set_signature(proposal_signature(), SignatureServing{.in_initialize = true, .in_server_card = true}));
  connect();
  EXPECT_TRUE(client->client->server_supports("signature.inInitialize"));
  EXPECT_TRUE(client->client->server_supports("signature.inServerCard"));
  ASSERT_TRUE(init_result.extra.contains("signature"));
  auto received = parse_server_signature(init_result.extra.at("signature"));
  ASSERT_TRUE(received);
  EXPECT_TRUE(same_signature(*received, *server->signature()));
}

TEST_P(ServerBehavior, CapabilityDeclaration_ASessionIsGivenTheSignatureAtInitialize) {
  ASSERT_TRUE(server->set_signature(proposal_signature(), SignatureServing{.in_initialize = true, .in_server_card = true}));
  connect("2025-11-25");
  ASSERT_TRUE(init_result.extra.contains("signature"));
  ASSERT_TRUE(session->signature());
  EXPECT_TRUE(same_signature(*session->signature(), *server->signature()));
}

TEST_P(ServerBehavior, NoSignatureConfigured_NothingIsAdvertised) {
  server->add_tool(tool("a"), ok_handler());
  connect();
  EXPECT_FALSE(client->client->server_supports("signature"));
  EXPECT_FALSE(init_result.extra.contains("signature"));
  EXPECT_TRUE(client->client->list_all_tools());
}

TEST_P(ServerBehavior, WorstCaseReduction_ToolsListShowsTheMostPermissiveCombination) {
  ServerSignature sig = proposal_signature();
  server->add_tool(sig.tools[0].tool, ok_handler());
  ASSERT_TRUE(server->set_signature(sig));
  connect();
  auto tools = client->client->list_all_tools();
  ASSERT_TRUE(tools);
  ASSERT_EQ(tools->size(), 1u);
  EXPECT_EQ(to_json(*(*tools)[0].annotations), json::parse(R"({"destructiveHint":true,"readOnlyHint":false})"));
}

TEST_P(ServerBehavior, Completeness_AnUndeclaredItemIsDroppedWithAnErrorNamingIt) {
  server->add_tool(tool("read_file"), ok_handler());
  server->add_tool(tool("smuggled"), ok_handler());
  server->add_prompt(Prompt{.name = "smuggled_prompt"}, [](const auto&, RequestContext&) -> Result<GetPromptResult> {
    return GetPromptResult{};
  });
  ASSERT_TRUE(server->set_signature(tools_signature({"read_file"})));
  connect();
  Result<std::vector<Tool>> tools;
  const auto logs = logged_during([&] { tools = client->client->list_all_tools(); });
  ASSERT_TRUE(tools);
  ASSERT_EQ(tools->size(), 1u);
  EXPECT_EQ((*tools)[0].name, "read_file");
  EXPECT_THAT(logs, ::testing::HasSubstr("not listing tool 'smuggled'"));
  auto prompts = client->client->list_all_prompts();
  ASSERT_TRUE(prompts);
  EXPECT_TRUE(prompts->empty());
  // And what is not listed cannot be used.
  auto call = client->client->call_tool("smuggled");
  ASSERT_FALSE(call);
  EXPECT_EQ(call.error().code, error_code::kInvalidParams);
  EXPECT_TRUE(client->client->call_tool("read_file"));
}

TEST_P(ServerBehavior, AnnotationCompleteness_AHookMayPickADeclaredVariantButNoOther) {
  ServerSignature sig = proposal_signature();
  server->add_tool(sig.tools[0].tool, ok_handler());
  ASSERT_TRUE(server->set_signature(sig));
  std::atomic<int> choice{0};
  server->set_availability(AvailabilityHooks{.tool = [&](const Tool&, const RequestContext&) {
    ToolAvailability av;
    if (choice == 1) av.annotations = hints(true, false);   // declared: reading
    if (choice == 2) av.annotations = hints(false, false);  // undeclared
    return av;
  }});
  connect();
  choice = 1;
  auto tools = client->client->list_all_tools();
  ASSERT_TRUE(tools);
  ASSERT_EQ(tools->size(), 1u);
  EXPECT_EQ((*tools)[0].annotations->read_only_hint, true);
  choice = 2;
  const auto logs = logged_during([&] { tools = client->client->list_all_tools(); });
  ASSERT_TRUE(tools);
  EXPECT_TRUE(tools->empty());
  EXPECT_THAT(logs, ::testing::HasSubstr("not listing tool 'manage_files'"));
  EXPECT_THAT(logs, ::testing::HasSubstr("annotation-completeness"));
}

TEST_P(ServerBehavior, Stability_ASessionKeepsItsSignatureWhenTheServerChangesIt) {
  server->add_tool(tool("a"), ok_handler());
  ASSERT_TRUE(server->set_signature(tools_signature({"a"})));
  connect("2025-11-25");
  server->add_tool(tool("b"), ok_handler());
  ASSERT_TRUE(server->set_signature(tools_signature({"a", "b"})));
  ASSERT_TRUE(session->signature());
  EXPECT_EQ(session->signature()->tools.size(), 1u);
  logged_during([&] {
    auto tools = client->client->list_all_tools();
    ASSERT_TRUE(tools);
    EXPECT_EQ(tools->size(), 1u);  // "b" is outside this session's signature
  });
}

TEST_P(ServerBehavior, Derived_FromWhatIsRegisteredPlusDeclaredVariants) {
  Tool manage = proposal_signature().tools[0].tool;
  manage.annotations = hints(true, false);
  server->add_tool(manage, ok_handler());
  server->add_tool(tool("read_file"), ok_handler());
  SignatureDeclarations d;
  d.tool_variants["manage_files"] = {hints(false, true)};
  d.also.tools.push_back(signature_tool(tool("admin_delete")));
  ASSERT_TRUE(server->derive_signature(d));
  connect();
  auto sig = client->client->signature();
  ASSERT_NE(sig, nullptr);
  ASSERT_EQ(sig->tools.size(), 3u);
  EXPECT_EQ(sig->tools[0].annotations.size(), 2u);
  EXPECT_TRUE(sig->tools[0].annotations_array);
  EXPECT_EQ(sig->tools[2].tool.name, "admin_delete");
  auto tools = client->client->list_all_tools();
  ASSERT_TRUE(tools);
  EXPECT_EQ(tools->size(), 2u);
  EXPECT_EQ(client->client->available_if_enabled().at(0).key, "admin_delete");
}

TEST_P(ServerBehavior, Derived_OverTheLimitIsRefused) {
  server->add_tool(tool("a"), ok_handler());
  SignatureServing serving;
  serving.limits.max_bytes = 10;
  auto r = server->derive_signature({}, serving);
  ASSERT_FALSE(r);
  EXPECT_THAT(r.error().message, ::testing::HasSubstr("SignatureLimits::max_bytes"));
  auto e = server->set_signature(tools_signature({"a"}), serving);
  ASSERT_FALSE(e);
}

// "Tools Not Initially Available": admin granted mid-session, list_changed, still compliant.
TEST_P(ServerBehavior, ToolsNotInitiallyAvailable_AdminGrantedMidSession) {
  for (const char* n : {"read_file", "write_file", "admin_delete"}) server->add_tool(tool(n), ok_handler());
  ASSERT_TRUE(server->derive_signature());
  std::mutex mu;
  std::set<std::string> admins;
  server->set_availability(AvailabilityHooks{.tool = [&](const Tool& t, const RequestContext& ctx) {
    std::lock_guard lock(mu);
    return ToolAvailability{.available = t.name != "admin_delete" || admins.contains(ctx.session_id())};
  }});
  connect();
  auto before = client->client->list_all_tools();
  ASSERT_TRUE(before);
  EXPECT_EQ(before->size(), 2u);
  EXPECT_FALSE(client->client->call_tool("admin_delete"));  // hidden means unusable
  {
    std::lock_guard lock(mu);
    admins.insert(session->id());
  }
  server->availability_changed(ListKind::tools);
  ASSERT_TRUE(client->wait_list_changed(1));
  auto after = client->client->list_all_tools();
  ASSERT_TRUE(after);
  EXPECT_EQ(after->size(), 3u);
  EXPECT_TRUE(client->client->call_tool("admin_delete"));
  EXPECT_TRUE(client->client->available_if_enabled().empty());
}

TEST_P(ServerBehavior, AvailabilityHooks_FilterByIdentity) {
  for (const char* n : {"a", "b"}) server->add_tool(tool(n), ok_handler());
  server->add_prompt(Prompt{.name = "p"}, [](const auto&, RequestContext&) -> Result<GetPromptResult> { return GetPromptResult{}; });
  ASSERT_TRUE(server->derive_signature());
  server->set_availability(AvailabilityHooks{
      .tool = [](const Tool& t, const RequestContext& ctx) {
        return ToolAvailability{.available = t.name == "a" || ctx.identity() == "alice"};
      },
      .item = [](ListKind, const std::string&, const RequestContext& ctx) { return ctx.identity() == "alice"; }});
  connect();
  EXPECT_EQ(client->client->list_all_tools()->size(), 1u);
  EXPECT_TRUE(client->client->list_all_prompts()->empty());
  EXPECT_FALSE(client->client->get_prompt("p"));
  session->set_identity("alice");
  EXPECT_EQ(client->client->list_all_tools()->size(), 2u);
  EXPECT_EQ(client->client->list_all_prompts()->size(), 1u);
  EXPECT_TRUE(client->client->get_prompt("p"));
}

INSTANTIATE_TEST_SUITE_P(Modes, ServerBehavior, MCP_ALL_MODES, mode_name);

}  // namespace
}  // namespace mcp
