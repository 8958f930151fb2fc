// What `mcp-trust gateway --config FILE` vouches for on its upstreams' behalf, and what it asks of
// them, proven against the real program in front of our everything-server (stdio upstreams):
//   - its key: made on first start in the state folder (0600), printed by `gateway key`;
//   - each upstream's server card at /.well-known/mcp.json/servers/NAME/mcp, its signature being
//     what is approved (a quarantined tool is outside it until approved), its proof verifying
//     under the gateway's key, and the same signature in initialize;
//   - a tools/manifest signed with that key, which a strict client verifies;
//   - profiles from the configuration, at the upstream's own /.well-known/mcp-profiles, granted
//     and verified (the "signed" profile, end to end);
//   - an upstream held to its own signed manifest, and an HTTP upstream to its server card (its
//     proof verified with a configured key before connecting): signed with another key, either is
//     refused, reported and the violation audited;
//   - an upstream that breaks its own capability signature (file-manager --misbehave: a tool renamed
//     outside it), held in each signatureMode: strict ends its session, serves nothing outside the
//     signature and restarts it; permissive and advisory serve on; every mode audits the violation.
//     The same run shows the metrics move: restarts, quarantines and each request outcome.
// Every wait is on an event (a printed line, an answer, a notification, an exit).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <condition_variable>
#include <fstream>
#include <mutex>
#include <set>

#include "../examples/tmp_dir.hpp"
#include "http/http_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/card_fetch.hpp"
#include "mcp/http/client_transport.hpp"
#include "mcp/http/profiles_fetch.hpp"
#include "gateway_test_util.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;
using mcp::gateway_test::json_string;
using mcp::gateway_test::lists;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

constexpr const char* kSignedProfile = "https://mcp-trust.dev/profiles/signed/1.0";

// The value of the "NAME: value" line of `text`.
std::string field(const std::string& text, const std::string& name) {
  const auto at = text.find(name + ": ");
  if (at == std::string::npos) return {};
  const auto start = at + name.size() + 2;
  return text.substr(start, text.find('\n', start) - start);
}

class GatewayTrust : public ::testing::Test {
 protected:
  static inline std::unique_ptr<test::TmpDir> dir;
  static inline std::unique_ptr<test::BackgroundProgram> gateway;
  static inline std::unique_ptr<test::BackgroundProgram> card_server;  // file-manager --http, its card signed
  static inline std::map<std::string, std::string> urls;  // upstream name -> its URL at the gateway
  static inline std::string state;
  static inline std::optional<trust::Ed25519PublicKey> gateway_key;
  static inline std::string setup_error;  // each test fails with it

  void SetUp() override { ASSERT_TRUE(setup_error.empty()) << setup_error; }

  // A fresh key written by `mcp-trust keygen`; its public half in hex.
  static std::string keygen(const fs::path& file) {
    const auto made = test::run_program(bin("mcp-trust"), {"keygen", "--out", file.string()}, dir->path);
    return made.code == 0 ? field(made.out, "publicKey") : std::string();
  }

  static void SetUpTestSuite() {
    dir = std::make_unique<test::TmpDir>();
    state = (dir->path / "state").string();
    const std::string upstream_key = keygen(dir->path / "upstream.pem");
    const std::string other_key = keygen(dir->path / "other.pem");
    if (upstream_key.empty() || other_key.empty()) {
      setup_error = "mcp-trust keygen failed";
      return;
    }
    // An HTTP upstream with a signed server card: file-manager signs its card with --sign-key.
    fs::create_directories(dir->path / "fm");
    card_server = std::make_unique<test::BackgroundProgram>(
        bin("file-manager"), std::vector<std::string>{"--http", "--port", "0", "--sign-key", (dir->path / "upstream.pem").string()},
        dir->path / "fm");
    const std::string fm_line = card_server->wait_for_line("listening on ");
    if (fm_line.empty()) {
      setup_error = "file-manager --http did not start: " + card_server->err();
      return;
    }
    const std::string fm_url = json_string(fm_line.substr(std::string("listening on ").size()));
    const std::string server = json_string(bin("everything-server"));
    std::ofstream(dir->path / "servers.json")
        << R"({"mcpServers": {)"
        << R"("signed": {"command": )" << server << R"(, "args": ["--sign-key", )"
        << json_string((dir->path / "upstream.pem").string()) << "]},"
        << R"("forged": {"command": )" << server << R"(, "args": ["--sign-key", )"
        << json_string((dir->path / "other.pem").string()) << "]},"
        << R"("held": {"command": )" << server << "},"
        << R"("declared": {"command": )" << server << "},"
        << R"("carded": {"url": )" << fm_url << "},"
        << R"("miscarded": {"url": )" << fm_url << "}},"
        << R"("gateway": {"servers": {)"
        << R"("signed": {"manifestKey": ")" << upstream_key << R"(", "signatureMode": "strict",)"
        << R"( "profiles": [{"profileURL": ")" << kSignedProfile << R"(", "default": true, "minMcpVersion": "2025-11-25"}]},)"
        << R"("forged": {"manifestKey": ")" << upstream_key << R"("},)"
        << R"("held": {"newItems": "quarantine"},)"
        << R"("carded": {"cardKey": ")" << upstream_key << R"("},)"
        << R"("miscarded": {"cardKey": ")" << other_key << R"("},)"
        << R"("declared": {"signature": {"tools": [{"name": "test_simple_text", "description": "Returns a simple text response",)"
        << R"( "inputSchema": {"type": "object", "properties": {}}}]}}}}})";
    gateway = gateway_test::start_gateway(dir->path / "servers.json", state, dir->path / "gw", urls, setup_error);
    if (!gateway) return;
    const auto key = test::run_program(bin("mcp-trust"), {"gateway", "key", "--state", state}, dir->path);
    auto parsed = trust::Ed25519PublicKey::from_hex(field(key.out, "publicKey"));
    if (key.code != 0 || !parsed) {
      setup_error = "mcp-trust gateway key: " + key.out + key.err;
      return;
    }
    gateway_key = *parsed;
  }
  static void TearDownTestSuite() {
    gateway.reset();
    card_server.reset();
    dir.reset();
  }

  static std::unique_ptr<Client> connect(const std::string& name, ClientOptions co) {
    co.session.request_timeout = 20s;
    auto c = std::make_unique<Client>(std::move(co));
    auto t = http::HttpClientTransport::create({.url = urls.at(name)});
    EXPECT_TRUE(t) << t.error().message;
    if (!t) return nullptr;
    auto init = c->connect(*t);
    EXPECT_TRUE(init) << name << ": " << init.error().message;
    return init ? std::move(c) : nullptr;
  }

  // The upstream's card, fetched as a client would and verified under the gateway's key.
  static std::optional<http::FetchedCard> verified_card(const std::string& name) {
    auto card = http::fetch_server_card(urls.at(name));
    EXPECT_TRUE(card) << card.error().message;
    if (!card) return std::nullopt;
    const auto proof = verify_server_card(card->body, *gateway_key);
    EXPECT_TRUE(proof.ok()) << trust::to_string(proof.verdict) << ": " << proof.detail;
    if (!proof.ok()) return std::nullopt;
    return std::move(*card);
  }

  // What a client of "signed" needs, whose default profile (signed/1.0) our client verifies: the
  // card's proof (verified by the caller) and the manifest under the gateway's key.
  static ClientOptions signed_profile_options(const http::FetchedCard& verified) {
    ClientOptions co;
    co.protocol_version = "2025-11-25";
    co.verified_card_signature = verified.card.signature_digest;
    ManifestPolicy mp;
    mp.public_key = *gateway_key;
    co.manifest = mp;
    return co;
  }

  static std::set<std::string> tool_names(const ServerSignature& s) {
    std::set<std::string> out;
    for (const auto& t : s.tools) out.insert(t.tool.name);
    return out;
  }
};

TEST_F(GatewayTrust, TheGatewaysKeyIsMadeOnceKeptPrivateAndPrinted) {
  struct stat st {};
  ASSERT_EQ(::stat((fs::path(state) / "gateway-key.pem").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_NE(gateway->err().find("signing as " + gateway_key->key_id()), std::string::npos) << gateway->err();
  // Asked again, the same key (it is read, not made anew).
  const auto again = test::run_program(bin("mcp-trust"), {"gateway", "key", "--state", state}, dir->path);
  EXPECT_EQ(field(again.out, "publicKey"), gateway_key->hex());
  // A folder without one: an error, not a fresh key.
  const auto none = test::run_program(bin("mcp-trust"), {"gateway", "key", "--state", (dir->path / "empty").string()}, dir->path);
  EXPECT_EQ(none.code, 1);
  EXPECT_FALSE(fs::exists(dir->path / "empty" / "gateway-key.pem"));
}

TEST_F(GatewayTrust, EachUpstreamHasItsOwnCardSignedByTheGateway) {
  auto card = verified_card("signed");
  ASSERT_TRUE(card);
  EXPECT_TRUE(card->url.ends_with("/.well-known/mcp.json/servers/signed/mcp")) << card->url;
  // The signature in the card is the one initialize gives, and it covers what is listed.
  SignaturePolicy policy;
  policy.mode = EnforcementMode::strict;
  policy.expected = card->card.signature;
  ClientOptions co = signed_profile_options(*card);
  co.signature_policy = policy;
  auto c = connect("signed", co);
  ASSERT_TRUE(c);
  auto tools = c->list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  EXPECT_TRUE(c->signature_violations().empty()) << c->signature_violations().front().describe();
  std::set<std::string> listed;
  for (const auto& t : *tools) listed.insert(t.name);
  // The signature is the universe; this client's list is all of it but the one tool listed with a
  // capability requirement it does not meet (sampling: the gateway declares it to the upstream,
  // which bridges it to clients that have it), which the client leaves out of its list.
  auto declared = tool_names(card->card.signature);
  EXPECT_TRUE(declared.contains("test_missing_capability"));
  declared.erase("test_missing_capability");
  EXPECT_EQ(declared, listed);
  // The origin has no card of its own: no client takes one upstream's for another's.
  const std::string base = urls.at("signed").substr(0, urls.at("signed").find("/servers/"));
  const auto port = static_cast<unsigned short>(std::stoi(base.substr(base.rfind(':') + 1)));
  EXPECT_EQ(http::test::raw_exchange(port, "GET", {}, {}, "/.well-known/mcp.json").status, 404);
}

TEST_F(GatewayTrust, ToolsManifestIsSignedWithTheGatewaysKey) {
  auto card = verified_card("signed");  // its default profile, "signed", needs it
  ASSERT_TRUE(card);
  for (const char* revision : {"2025-11-25", "2026-07-28"}) {
    SCOPED_TRACE(revision);
    ClientOptions co;
    co.protocol_version = revision;
    co.verified_card_signature = card->card.signature_digest;
    ManifestPolicy mp;
    mp.mode = EnforcementMode::strict;
    mp.public_key = *gateway_key;
    co.manifest = mp;
    auto c = connect("signed", co);
    ASSERT_TRUE(c);
    auto tools = c->list_all_tools();
    ASSERT_TRUE(tools) << tools.error().message;
    ASSERT_TRUE(c->manifest());
    EXPECT_EQ(c->manifest()->issuer, "mcp-trust-gateway/signed");
    // All the session's list shows, signed; the client leaves out the one tool it lacks the
    // capability for (see above).
    EXPECT_EQ(c->manifest()->tools.size(), tools->size() + 1);
    EXPECT_TRUE(c->manifest_violations().empty());
  }
  // Under any other key the manifest does not verify, and a strict client refuses the server.
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  ManifestPolicy mp;
  mp.public_key = trust::Ed25519SecretKey::generate().public_key();
  co.manifest = mp;
  auto c = std::make_unique<Client>(co);
  auto t = http::HttpClientTransport::create({.url = urls.at("signed")});
  ASSERT_TRUE(t);
  EXPECT_FALSE(c->connect(*t));
}

TEST_F(GatewayTrust, AQuarantinedToolIsOutsideTheSignatureUntilApproved) {
  auto before = verified_card("held");
  ASSERT_TRUE(before);
  EXPECT_TRUE(before->card.signature.tools.empty());  // every tool is new, so quarantined

  std::mutex mu;
  std::condition_variable cv;
  bool tools_changed = false;
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  co.on_list_changed = [&](const std::string& list) {
    std::lock_guard lock(mu);
    tools_changed = tools_changed || list == "tools";
    cv.notify_all();
  };
  auto c = connect("held", co);
  ASSERT_TRUE(c);
  EXPECT_FALSE(lists(*c, "test_simple_text"));
  const auto approve =
      test::run_program(bin("mcp-trust"), {"gateway", "approve", "--state", state, "held", "test_simple_text"}, dir->path);
  ASSERT_EQ(approve.code, 0) << approve.out << approve.err;
  // The next list sees the decision made in another process at once, and the gateway follows it
  // with its signature, then tells clients the list changed.
  EXPECT_TRUE(lists(*c, "test_simple_text"));
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 20s, [&] { return tools_changed; }));
  }
  auto after = verified_card("held");
  ASSERT_TRUE(after);
  EXPECT_EQ(tool_names(after->card.signature), std::set<std::string>{"test_simple_text"});
  // A session that starts now is given that signature.
  SignaturePolicy policy;
  policy.expected = after->card.signature;
  ClientOptions strict;
  strict.protocol_version = "2025-11-25";
  strict.signature_policy = policy;
  auto fresh = connect("held", strict);
  ASSERT_TRUE(fresh);
  EXPECT_TRUE(lists(*fresh, "test_simple_text"));
  EXPECT_TRUE(fresh->signature_violations().empty());
}

TEST_F(GatewayTrust, ProfilesFromTheConfigurationAreServedGrantedAndVerified) {
  auto profiles = http::fetch_profiles(urls.at("signed"));
  ASSERT_TRUE(profiles) << profiles.error().message;
  ASSERT_EQ(profiles->size(), 1u);
  EXPECT_EQ(profiles->front().profile_url, kSignedProfile);
  // Another upstream has none (the one's are not taken for the other's).
  auto none = http::fetch_profiles(urls.at("held"));
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->empty());

  // The "signed" profile end to end: the card's proof verified under the gateway's key, the
  // manifest verified, the profile granted.
  auto card = verified_card("signed");
  ASSERT_TRUE(card);
  ClientOptions co = signed_profile_options(*card);
  co.profiles = {kSignedProfile};
  auto c = connect("signed", co);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->profile(), std::optional<std::string>(kSignedProfile));
}

TEST_F(GatewayTrust, AConfiguredSignatureIsServedAndHeldAtBothPaths) {
  auto card = verified_card("declared");
  ASSERT_TRUE(card);
  EXPECT_EQ(tool_names(card->card.signature), std::set<std::string>{"test_simple_text"});
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  auto own = connect("declared", co);
  ASSERT_TRUE(own);
  EXPECT_TRUE(lists(*own, "test_simple_text"));
  EXPECT_FALSE(lists(*own, "test_image_content"));  // the upstream offers it; the signature does not
  EXPECT_FALSE(own->call_tool("test_image_content", {}));
  auto all = connect("(all)", co);
  ASSERT_TRUE(all);
  EXPECT_TRUE(lists(*all, "declared__test_simple_text"));
  EXPECT_FALSE(lists(*all, "declared__test_image_content"));
  auto refused = all->call_tool("declared__test_image_content", {});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("outside the signature configured for it"), std::string::npos)
      << refused.error().message;
  EXPECT_TRUE(all->call_tool("declared__test_simple_text", {}));
}

TEST_F(GatewayTrust, TheAggregateHasACardOfTheUnionOfTheUpstreamsSignatures) {
  auto card = verified_card("(all)");
  ASSERT_TRUE(card);
  EXPECT_TRUE(card->url.ends_with("/.well-known/mcp.json/mcp")) << card->url;
  const auto declared = tool_names(card->card.signature);
  // Each upstream's, under the names served at /mcp: the derived ones and the configured one.
  EXPECT_TRUE(declared.contains("signed__test_simple_text"));
  EXPECT_TRUE(declared.contains("signed__test_image_content"));
  EXPECT_TRUE(declared.contains("declared__test_simple_text"));
  EXPECT_FALSE(declared.contains("declared__test_image_content"));  // outside its configured signature
  EXPECT_FALSE(declared.contains("test_simple_text"));              // never under an upstream's own name
  for (const auto& name : declared) EXPECT_EQ(name.find("forged__"), std::string::npos) << "a refused upstream: " << name;

  // A strict client at /mcp, holding the gateway to the card's signature, finds its lists inside it.
  SignaturePolicy policy;
  policy.mode = EnforcementMode::strict;
  policy.expected = card->card.signature;
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  co.signature_policy = policy;
  auto c = connect("(all)", co);
  ASSERT_TRUE(c);
  auto tools = c->list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  EXPECT_TRUE(c->signature_violations().empty()) << c->signature_violations().front().describe();
  EXPECT_GT(tools->size(), 10u);
  for (const auto& t : *tools) EXPECT_TRUE(declared.contains(t.name)) << t.name << " is listed but not in /mcp's signature";
  EXPECT_TRUE(c->call_tool("signed__test_simple_text", {}));
}

TEST_F(GatewayTrust, AnUpstreamWhoseManifestDoesNotVerifyIsRefusedAndAudited) {
  EXPECT_FALSE(urls.contains("forged"));
  const auto err = gateway->err();
  EXPECT_NE(err.find("forged"), std::string::npos) << err;
  EXPECT_NE(err.find("manifest"), std::string::npos) << err;
  // The one whose manifest verifies under the configured key is served.
  EXPECT_TRUE(urls.contains("signed"));
  const auto exported = test::run_program(bin("mcp-trust"), {"audit", "export", "--state", state}, dir->path);
  ASSERT_EQ(exported.code, 0) << exported.err;
  EXPECT_NE(exported.out.find(R"("server":"forged")"), std::string::npos) << exported.out.substr(0, 2000);
  EXPECT_NE(exported.out.find("manifest-verification"), std::string::npos) << exported.out.substr(0, 2000);
}

TEST_F(GatewayTrust, AnHttpUpstreamsCardIsVerifiedBeforeConnectingAndItsSignatureHeld) {
  // Its card verifies with the configured key: served, and held to the card's signature.
  ASSERT_TRUE(urls.contains("carded")) << gateway->err();
  ClientOptions co;
  co.protocol_version = "2025-11-25";
  auto c = connect("carded", co);
  ASSERT_TRUE(c);
  auto tools = c->list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  EXPECT_FALSE(tools->empty());
  // Under another key the same card does not verify: refused, reported and audited.
  EXPECT_FALSE(urls.contains("miscarded"));
  const auto err = gateway->err();
  EXPECT_NE(err.find("miscarded: its server card at"), std::string::npos) << err;
  EXPECT_NE(err.find("does not verify with the configured cardKey"), std::string::npos) << err;
  const auto exported = test::run_program(bin("mcp-trust"), {"audit", "export", "--state", state}, dir->path);
  ASSERT_EQ(exported.code, 0) << exported.err;
  // A body is stored as its canonical text: members sorted by name.
  EXPECT_NE(exported.out.find(R"("rule":"card-proof","server":"miscarded")"), std::string::npos) << exported.out.substr(0, 3000);
}

// A round of `probe` (each one waits for its answer) until it holds, for at most 30 s.
template <class Probe>
bool once(Probe probe) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!probe())
    if (std::chrono::steady_clock::now() > deadline) return false;
  return true;
}

TEST(GatewaySignatureModes, AnUpstreamBreakingItsOwnSignatureIsHeldInTheConfiguredMode) {
  test::TmpDir dir;
  const std::string state = (dir.path / "state").string();
  // Each file-manager declares a signature, then renames read_file to read_file_v2 (outside it)
  // 200 ms after its first list. "held" has no signatureMode and changes write_file's description
  // instead (a rug pull the pins catch, whatever the signature).
  const std::string fm = json_string(bin("file-manager"));
  std::ofstream(dir.path / "servers.json")
      << R"({"mcpServers": {)"
      << R"("strict": {"command": )" << fm << R"(, "args": ["--misbehave=rename"]},)"
      << R"("permissive": {"command": )" << fm << R"(, "args": ["--misbehave=rename"]},)"
      << R"("advisory": {"command": )" << fm << R"(, "args": ["--misbehave=rename"]},)"
      << R"("held": {"command": )" << fm << R"(, "args": ["--misbehave=description"]}},)"
      << R"("gateway": {"servers": {"strict": {"signatureMode": "strict"}, "permissive": {"signatureMode": "permissive"},)"
      << R"( "advisory": {"signatureMode": "advisory"}}}})";
  std::map<std::string, std::string> urls;
  std::string error;
  auto gateway = gateway_test::start_gateway(dir.path / "servers.json", state, dir.path / "gw", urls, error);
  ASSERT_TRUE(gateway) << error;
  fs::create_directories(dir.path / "cli");
  const auto exported = [&] {
    return test::run_program(bin("mcp-trust"), {"audit", "export", "--state", state}, dir.path / "cli").out;
  };
  // A violation record is stored canonically: detail, field, item, rule, server.
  const auto violation = [](const std::string& server) {
    return R"("item":"read_file_v2","rule":"completeness","server":")" + server + R"(")";
  };
  std::string audit;
  ASSERT_TRUE(once([&] {
    audit = exported();
    return audit.find(violation("strict")) != std::string::npos && audit.find(violation("permissive")) != std::string::npos &&
           audit.find(violation("advisory")) != std::string::npos;
  })) << audit.substr(0, 4000) << gateway->err();
  EXPECT_EQ(audit.find(violation("held")), std::string::npos) << "held to a signature nobody configured";

  ClientOptions co;
  co.protocol_version = "2025-11-25";
  co.session.request_timeout = 20s;
  // permissive and advisory: the session goes on and what it now lists is served (new items are
  // allowed here), the tool outside the signature included.
  for (const char* mode : {"permissive", "advisory"}) {
    SCOPED_TRACE(mode);
    auto c = gateway_test::connected_client(urls.at(mode), co);
    ASSERT_TRUE(once([&] { return lists(*c, "read_file_v2"); }));
    auto read = c->call_tool("read_file_v2", {{"path", "README.md"}});
    EXPECT_TRUE(read) << read.error().message;
  }
  // strict: the session with the upstream ends and it is started again (and breaks its word again,
  // so again); what it listed outside its signature is never served.
  const std::string base = urls.at("strict").substr(0, urls.at("strict").find("/servers/"));
  const auto port = static_cast<unsigned short>(std::stoi(base.substr(base.rfind(':') + 1)));
  std::string metrics;
  ASSERT_TRUE(once([&] {
    metrics = http::test::raw_exchange(port, "GET", {}, {}, "/metrics").body;
    return metrics.find(R"(mcp_gateway_upstream_restarts_total{upstream="strict"} 0)") == std::string::npos &&
           metrics.find(R"(mcp_gateway_upstream_restarts_total{upstream="strict"} )") != std::string::npos;
  })) << metrics << gateway->err();
  EXPECT_NE(gateway->err().find("ending the session (strict mode)"), std::string::npos) << gateway->err();
  EXPECT_NE(metrics.find(R"(mcp_gateway_upstream_restarts_total{upstream="permissive"} 0)"), std::string::npos) << metrics;
  {
    auto c = gateway_test::connected_client(urls.at("strict"), co);
    EXPECT_FALSE(lists(*c, "read_file_v2"));
    auto refused = c->call_tool("read_file_v2", {{"path", "README.md"}});
    EXPECT_FALSE(refused) << "a tool outside the upstream's signature was served in strict mode";
  }
  audit = exported();
  EXPECT_NE(audit.find(R"("event":"restarted","restarts":1,"server":"strict")"), std::string::npos) << audit.substr(0, 4000);

  // "held": the changed write_file is quarantined, and the gauge says so; each outcome is counted.
  ASSERT_TRUE(once([&] {
    metrics = http::test::raw_exchange(port, "GET", {}, {}, "/metrics").body;
    return metrics.find(R"(mcp_gateway_quarantined_items{upstream="held"} 1)") != std::string::npos;
  })) << metrics;
  auto held = gateway_test::connected_client(urls.at("held"), co);
  EXPECT_FALSE(lists(*held, "write_file"));
  auto missing = held->call_tool("read_file", {{"path", "no-such-file"}});  // the upstream answers isError
  ASSERT_TRUE(missing) << missing.error().message;
  EXPECT_TRUE(missing->is_error.value_or(false));
  EXPECT_FALSE(held->read_resource("file:///no-such-file"));  // the upstream answers an error
  metrics = http::test::raw_exchange(port, "GET", {}, {}, "/metrics").body;
  EXPECT_NE(metrics.find(R"(mcp_gateway_requests_total{upstream="held",method="tools/call",outcome="tool-error"} 1)"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find(R"(mcp_gateway_requests_total{upstream="held",method="resources/read",outcome="error"} 1)"),
            std::string::npos)
      << metrics;
}

}  // namespace
