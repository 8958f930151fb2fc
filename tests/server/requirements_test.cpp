// Per-item capability requirements (mcp/server/requirements.hpp): each request judged by what it
// declares — a call lacking a capability gets -32021 naming exactly what is missing; a list
// request lacking it sees what the item's author chose (hidden, shown with its requirements, or a
// substitute); relatedRequestCapabilities speak for the calls to come; and a 2025-11-25 session's
// requests are judged by its initialize, through the same stage.
#include <gtest/gtest.h>

#include <algorithm>

#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/methods.hpp"
#include "server/raw_client.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::make_tool;
using mcp::test::params_with;
using mcp::test::RawClient;
using mcp::test::stateless_meta;
using When = CapabilityRequirement::WhenMissing;

namespace {

const json::object kSampling{{"sampling", json::object{}}};

std::shared_ptr<Server> server_with_requirements() {
  auto server = std::make_shared<Server>();
  auto ok = [](const json::object&, RequestContext&) -> Result<CallToolResult> { return CallToolResult::text("ran"); };
  for (const char* name : {"summarize", "summarize_basic", "hidden_sampler", "shown_sampler", "sampling_tools", "plain"})
    server->add_tool(make_tool(name), ok);
  server->require_capabilities(ListKind::tools, "summarize",
                               {.capabilities = kSampling, .when_missing = When::substitute, .substitute = "summarize_basic"});
  server->require_capabilities(ListKind::tools, "hidden_sampler", {.capabilities = kSampling, .when_missing = When::hide});
  server->require_capabilities(ListKind::tools, "shown_sampler", {.capabilities = kSampling, .when_missing = When::show});
  server->require_capabilities(ListKind::tools, "sampling_tools",
                               {.capabilities = json::object{{"sampling", json::object{{"tools", json::object{}}}}},
                                .when_missing = When::hide});
  return server;
}

std::vector<std::string> listed(RawClient& c, json::object meta) {
  auto r = c.call(method::kToolsList, params_with(std::move(meta)));
  EXPECT_TRUE(r) << r.error().message;
  std::vector<std::string> names;
  if (r)
    for (const auto& t : r->at("tools").as_array()) names.emplace_back(t.at("name").as_string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(Capabilities, MissingIsExactlyWhatIsNotDeclaredTwoLevelsDeep) {
  json::object need{{"sampling", json::object{{"tools", json::object{}}}}, {"roots", json::object{}}};
  EXPECT_EQ(missing_capabilities(need, {}), need);
  EXPECT_EQ(missing_capabilities(need, json::object{{"sampling", json::object{}}}),
            (json::object{{"sampling", json::object{{"tools", json::object{}}}}, {"roots", json::object{}}}));
  json::object all{{"sampling", json::object{{"tools", json::object{}}}}, {"roots", json::object{{"listChanged", true}}}};
  EXPECT_TRUE(missing_capabilities(need, all).empty());
  EXPECT_EQ(missing_capabilities(kSampling, json::object{{"sampling", false}}), kSampling);  // false is not declared
}

TEST(Requirements, AListShowsWhatItsAuthorChoseForAClientWithout) {
  RawClient c(server_with_requirements());
  EXPECT_EQ(listed(c, stateless_meta()),
            (std::vector<std::string>{"plain", "shown_sampler", "summarize_basic"}));
  auto r = c.call(method::kToolsList, params_with(stateless_meta()));
  ASSERT_TRUE(r);
  for (const auto& t : r->at("tools").as_array()) {
    if (t.at("name") != "shown_sampler") continue;
    EXPECT_EQ(t.at("_meta").at(kRequiredCapabilitiesKey), json::value(kSampling));
  }
}

TEST(Requirements, AClientWithTheCapabilitySeesTheItemsAndNotTheirSubstitutes) {
  RawClient c(server_with_requirements());
  EXPECT_EQ(listed(c, stateless_meta(kSampling)),
            (std::vector<std::string>{"hidden_sampler", "plain", "shown_sampler", "summarize"}));
  json::object with_tools{{"sampling", json::object{{"tools", json::object{}}}}};
  EXPECT_EQ(listed(c, stateless_meta(with_tools)),
            (std::vector<std::string>{"hidden_sampler", "plain", "sampling_tools", "shown_sampler", "summarize"}));
}

TEST(Requirements, RelatedRequestCapabilitiesDecideTheListForTheCallsToCome) {
  RawClient c(server_with_requirements());
  auto meta = stateless_meta();
  meta[kRelatedRequestCapabilitiesKey] = kSampling;
  EXPECT_EQ(listed(c, meta), (std::vector<std::string>{"hidden_sampler", "plain", "shown_sampler", "summarize"}));
}

TEST(Requirements, ACallLackingTheCapabilityIsMinus32021NamingExactlyWhatIsMissing) {
  RawClient c(server_with_requirements());
  auto r = c.call(method::kToolsCall,
                  params_with(stateless_meta(kSampling), {{"name", "sampling_tools"}}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMissingRequiredClientCapability);
  ASSERT_TRUE(r.error().data);
  EXPECT_EQ(r.error().data->at("requiredCapabilities"),
            json::value(json::object{{"sampling", json::object{{"tools", json::object{}}}}}));
  // Related-request capabilities are a promise about later requests: a call is judged by its own.
  auto meta = stateless_meta();
  meta[kRelatedRequestCapabilitiesKey] = kSampling;
  r = c.call(method::kToolsCall, params_with(meta, {{"name", "hidden_sampler"}}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMissingRequiredClientCapability);
  // Declared on the call itself: it runs.
  r = c.call(method::kToolsCall, params_with(stateless_meta(kSampling), {{"name", "hidden_sampler"}}));
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->at("content").at(0).at("text").as_string(), "ran");
}

// One code path: in a 2025-11-25 session every request's capabilities are the initialize's.
TEST(Requirements, AHandshakeSessionIsJudgedByItsInitialize) {
  RawClient c(server_with_requirements());
  ASSERT_TRUE(c.call(method::kInitialize, json::object{{"protocolVersion", "2025-11-25"},
                                                        {"capabilities", json::object{}},
                                                        {"clientInfo", json::object{{"name", "old"}, {"version", "1"}}}}));
  auto r = c.call(method::kToolsCall, json::object{{"name", "hidden_sampler"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMissingRequiredClientCapability);
  auto list = c.call(method::kToolsList, json::object{});
  ASSERT_TRUE(list);
  EXPECT_EQ(list->at("tools").as_array().size(), 3u);  // plain, shown_sampler, summarize_basic
}

// -32021 must not reveal what the availability hooks hide: unknown comes first.
TEST(Requirements, AnUnavailableItemIsUnknownBeforeItIsWanting) {
  auto server = server_with_requirements();
  AvailabilityHooks hooks;
  hooks.tool = [](const Tool& t, const RequestContext&) { return ToolAvailability{.available = t.name != "hidden_sampler"}; };
  server->set_availability(hooks);
  RawClient c(server);
  auto r = c.call(method::kToolsCall, params_with(stateless_meta(), {{"name", "hidden_sampler"}}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInvalidParams);
}

// Lists that vary with each request's capabilities must not be reused or shared.
TEST(Requirements, FilteredListsAreNotCacheable) {
  ServerOptions o;
  o.cache_ttl = std::chrono::milliseconds(60'000);
  o.cache_scope = CacheScope::public_;
  auto server = std::make_shared<Server>(o);
  RawClient c(server);
  auto before = c.call(method::kToolsList, params_with(stateless_meta()));
  ASSERT_TRUE(before);
  EXPECT_EQ(before->at("ttlMs").as_int64(), 60'000);
  server->add_tool(make_tool("sampler"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text("x");
  });
  server->require_capabilities(ListKind::tools, "sampler", {.capabilities = kSampling, .when_missing = When::hide});
  auto after = c.call(method::kToolsList, params_with(stateless_meta()));
  ASSERT_TRUE(after);
  EXPECT_EQ(after->at("ttlMs").as_int64(), 0);
  EXPECT_EQ(after->at("cacheScope").as_string(), "private");
}

TEST(Requirements, RemovingARequirementListsTheItemAgain) {
  auto server = server_with_requirements();
  RawClient c(server);
  server->require_capabilities(ListKind::tools, "hidden_sampler", {});
  auto names = listed(c, stateless_meta());
  EXPECT_NE(std::find(names.begin(), names.end(), "hidden_sampler"), names.end());
}

}  // namespace

namespace {

// SEP-2091 with requirements: a server's capability signature is derived from everything it
// registered, each item's requirements and substitutes included, so it is the worst case over
// every capability set. A strict client holding the server to it, whatever it declares and
// whichever revision it speaks, finds every list within it: for all three policies (hide, show,
// substitute), a list filtered for a client without the capability and one for a client with it.
class RequirementsWithinSignature : public ::testing::TestWithParam<std::tuple<const char*, bool>> {};

TEST_P(RequirementsWithinSignature, EveryFilteredListStaysWithinTheSignature) {
  const auto [protocol, samples] = GetParam();
  auto server = server_with_requirements();
  ASSERT_TRUE(server->derive_signature());
  std::vector<std::string> violations;
  ClientOptions co;
  co.protocol_version = protocol;
  SignaturePolicy policy;  // strict by default
  policy.on_violation = [&](const SignatureViolation& v) { violations.push_back(v.describe()); };
  co.signature_policy = std::move(policy);
  if (samples) {
    co.on_sampling = [](const json::object&, const CancellationToken&) -> Result<json::value> { return json::object{}; };
  }
  mcp::test::Connected c(server, co);
  ASSERT_TRUE(c.client->signature()) << "the client holds no signature";
  auto tools = c.client->list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  std::vector<std::string> names;
  for (const auto& t : *tools) names.push_back(t.name);
  std::sort(names.begin(), names.end());
  // What each client may use: the filtered list, never anything the signature does not declare.
  if (samples) EXPECT_EQ(names, (std::vector<std::string>{"hidden_sampler", "plain", "shown_sampler", "summarize"}));
  else EXPECT_EQ(names, (std::vector<std::string>{"plain", "summarize_basic"}));  // shown_sampler: hidden by the client
  EXPECT_TRUE(violations.empty()) << violations.front();
  EXPECT_FALSE(c.client->closed());
}

INSTANTIATE_TEST_SUITE_P(BothRevisionsBothClients, RequirementsWithinSignature,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"), ::testing::Bool()));

}  // namespace
