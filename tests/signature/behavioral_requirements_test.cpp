// SEP-2091 "Behavioral Requirements", one test per rule, each in every enforcement mode, against
// servers that keep the rules and servers that break them.
#include "fixtures.hpp"
#include "harness.hpp"

namespace mcp {
namespace {

using namespace sigtest;

json::value listed(const ServerSignature& s, const std::string& name) {
  json::value t = to_json(s.find_tool(name)->tool);
  if (auto a = listed_annotations(*s.find_tool(name))) t.as_object()["annotations"] = to_json(*a);
  return t;
}

class BehavioralRequirements : public ::testing::TestWithParam<EnforcementMode> {
 protected:
  // A scripted server with `sig` in initialize, and a client in the mode under test, connected.
  void connect(const ServerSignature& sig, SignaturePolicy p = {}) {
    p.mode = GetParam();
    server = std::make_unique<ScriptedServer>(init_result(sig));
    client = std::make_unique<PolicedClient>(std::move(p));
    auto [a, b] = make_memory_transport_pair();
    server->start(a);
    auto init = client->client->connect(b);
    ASSERT_TRUE(init) << init.error().message;
  }
  std::unique_ptr<ScriptedServer> server;
  std::unique_ptr<PolicedClient> client;
};

// 1. Completeness: items not in the signature must not appear in list responses.
TEST_P(BehavioralRequirements, Completeness_AnUndeclaredToolIsAViolation) {
  const ServerSignature sig = tools_signature({"read_file"});
  connect(sig);
  server->answer("tools/list", tools_list({listed(sig, "read_file"), to_json(tool("delete_everything"))}));
  Result<ListToolsResult> r;
  const auto logs = logged_during([&] { r = client->client->list_tools(); });
  expect_consequence(GetParam(), r, logs, *client, "delete_everything", "name");
}

TEST_P(BehavioralRequirements, Completeness_HoldsPromptsResourcesAndTemplatesToo) {
  ServerSignature sig;
  sig.prompts.push_back(Prompt{.name = "declared"});
  connect(sig);
  server->answer("prompts/list", json::object{{"prompts", json::array{to_json(Prompt{.name = "sneaky"})}}});
  server->answer("resources/list",
                 json::object{{"resources", json::array{to_json(Resource{.uri = "file:///etc/passwd", .name = "p"})}}});
  server->answer("resources/templates/list",
                 json::object{{"resourceTemplates", json::array{to_json(ResourceTemplate{.uri_template = "x://{y}", .name = "x"})}}});
  Result<ListPromptsResult> p;
  auto logs = logged_during([&] { p = client->client->list_prompts(); });
  expect_consequence(GetParam(), p, logs, *client, "sneaky", "name");
  if (GetParam() == EnforcementMode::strict) return;  // the session is over
  Result<ListResourcesResult> r;
  logs = logged_during([&] { r = client->client->list_resources(); });
  expect_consequence(GetParam(), r, logs, *client, "file:///etc/passwd", "uri");
  Result<ListResourceTemplatesResult> t;
  logs = logged_during([&] { t = client->client->list_resource_templates(); });
  expect_consequence(GetParam(), t, logs, *client, "x://{y}", "uriTemplate");
}

// 2. Annotation Completeness: runtime annotations must match one of the declared possibilities.
TEST_P(BehavioralRequirements, AnnotationCompleteness_AnUndeclaredObjectIsAViolation) {
  const ServerSignature sig = proposal_signature();
  connect(sig);
  json::value flipped = to_json(sig.tools[0].tool);
  flipped.as_object()["annotations"] = json::parse(R"({"readOnlyHint":false,"destructiveHint":false})");
  server->answer("tools/list", tools_list({flipped}));
  Result<ListToolsResult> r;
  const auto logs = logged_during([&] { r = client->client->list_tools(); });
  expect_consequence(GetParam(), r, logs, *client, "manage_files", "annotations");
}

TEST_P(BehavioralRequirements, AnnotationCompleteness_EachDeclaredObjectAndTheWorstCasePass) {
  const ServerSignature sig = proposal_signature();
  connect(sig);
  for (const char* ann : {R"({"destructiveHint":false,"readOnlyHint":true})", R"({"destructiveHint":true,"readOnlyHint":false})"}) {
    json::value t = to_json(sig.tools[0].tool);
    t.as_object()["annotations"] = json::parse(ann);
    server->answer("tools/list", tools_list({t}));
    auto r = client->client->list_tools();
    ASSERT_TRUE(r) << r.error().message;
  }
  EXPECT_TRUE(client->violations().empty());
}

// 3. Stability: the signature is immutable for the session; nothing undeclared appears later.
TEST_P(BehavioralRequirements, Stability_AnItemAppearingLaterIsStillOutsideTheSignature) {
  const ServerSignature sig = tools_signature({"a"});
  connect(sig);
  server->answer("tools/list", tools_list({listed(sig, "a")}));
  ASSERT_TRUE(client->client->list_tools());
  server->answer("tools/list", tools_list({listed(sig, "a"), to_json(tool("b"))}));
  server->list_changed("tools");
  ASSERT_TRUE(client->wait_list_changed(1));
  Result<ListToolsResult> r;
  const auto logs = logged_during([&] { r = client->client->list_tools(); });
  expect_consequence(GetParam(), r, logs, *client, "b", "name");
}

TEST_P(BehavioralRequirements, Stability_ASignatureDifferentFromTheExpectedOneIsAViolation) {
  SignaturePolicy p;
  p.expected = tools_signature({"a"});
  const ServerSignature changed = tools_signature({"a", "b"});
  p.mode = GetParam();
  server = std::make_unique<ScriptedServer>(init_result(changed));
  client = std::make_unique<PolicedClient>(std::move(p));
  auto [a, b] = make_memory_transport_pair();
  server->start(a);
  Result<InitializeResult> init;
  const auto logs = logged_during([&] { init = client->client->connect(b); });
  const auto v = client->violations();
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].rule, signature_rule::kStability);
  EXPECT_EQ(v[0].field, "signature");
  if (GetParam() == EnforcementMode::strict) {
    ASSERT_FALSE(init);
    EXPECT_EQ(init.error().code, kSignatureViolationCode);
    return;
  }
  ASSERT_TRUE(init);
  // The expected signature stays in force: "b" is not declared there.
  EXPECT_EQ(client->client->signature()->tools.size(), 1u);
}

// 4. Subsets Permitted: any subset, including the empty one.
TEST_P(BehavioralRequirements, SubsetsPermitted_AnySubsetIncludingNoneIsClean) {
  const ServerSignature sig = tools_signature({"a", "b", "c"});
  connect(sig);
  for (auto list : {tools_list({}), tools_list({listed(sig, "b")}), tools_list({listed(sig, "c"), listed(sig, "a")}),
                    tools_list({listed(sig, "a"), listed(sig, "b"), listed(sig, "c")}), tools_list({})}) {
    server->answer("tools/list", list);
    auto r = client->client->list_tools();
    ASSERT_TRUE(r) << r.error().message;
  }
  EXPECT_TRUE(client->violations().empty());
}

// 5. list_changed Compatibility: lists may change, within the signature.
TEST_P(BehavioralRequirements, ListChangedCompatibility_ToolsComeAndGoWithinTheSignature) {
  const ServerSignature sig = tools_signature({"read_file", "write_file", "admin_delete"});
  connect(sig);
  server->answer("tools/list", tools_list({listed(sig, "read_file"), listed(sig, "write_file")}));
  ASSERT_TRUE(client->client->list_all_tools());
  server->answer("tools/list", tools_list({listed(sig, "read_file"), listed(sig, "write_file"), listed(sig, "admin_delete")}));
  server->list_changed("tools");
  ASSERT_TRUE(client->wait_list_changed(1));
  auto r = client->client->list_all_tools();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->size(), 3u);
  server->answer("tools/list", tools_list({listed(sig, "read_file")}));
  server->list_changed("tools");
  ASSERT_TRUE(client->wait_list_changed(2));
  ASSERT_TRUE(client->client->list_all_tools());
  EXPECT_TRUE(client->violations().empty());
}

TEST_P(BehavioralRequirements, ListChangedCompatibility_TheUpdatedListMustRemainASubset) {
  const ServerSignature sig = proposal_signature();
  connect(sig);
  server->answer("tools/list", tools_list({listed(sig, "manage_files")}));
  ASSERT_TRUE(client->client->list_all_tools());
  json::value changed = listed(sig, "manage_files");
  changed.as_object()["annotations"] = json::parse(R"({"readOnlyHint":true})");
  server->answer("tools/list", tools_list({changed}));
  server->list_changed("tools");
  ASSERT_TRUE(client->wait_list_changed(1));
  Result<std::vector<Tool>> r;
  const auto logs = logged_during([&] { r = client->client->list_all_tools(); });
  expect_consequence(GetParam(), r, logs, *client, "manage_files", "annotations");
}

INSTANTIATE_TEST_SUITE_P(Modes, BehavioralRequirements, MCP_ALL_MODES, mode_name);

}  // namespace
}  // namespace mcp
