// The server side of signed tool manifests: the capability in the reference's shape, tools/manifest
// verifying with the public key, re-signing when the tools change (and only then), and the manifest
// following what tools/list shows the session.
#include "harness.hpp"

namespace mcp {
namespace {

using namespace mantest;

// A Server with a signing key, and a plain client connected to it.
struct Served {
  explicit Served(ManifestSigning signing, ServerOptions so = {}) : server(std::make_shared<Server>(so)) {
    server->add_tool(tool("read_file", "Reads a file"), ok_handler());
    if (auto r = server->set_manifest_signing(std::move(signing)); !r) throw std::runtime_error(r.error().message);
  }
  void connect(ClientOptions co = {}) {
    co.session.request_timeout = 5s;
    client = std::make_unique<Client>(std::move(co));
    auto [a, b] = make_memory_transport_pair();
    auto s = server->connect(a);
    ASSERT_TRUE(s);
    session = *s;
    ASSERT_TRUE(client->connect(b));
  }
  json::value manifest() {
    auto r = client->request("tools/manifest", {});
    if (!r) throw std::runtime_error(r.error().message);
    return *r;
  }
  std::shared_ptr<Server> server;
  std::shared_ptr<ServerSession> session;
  std::unique_ptr<Client> client;
};

TEST(ManifestServer, AdvertisesTheCapabilityAsTheReference) {
  auto k = key(1);
  const std::string key_id = k.public_key().key_id();
  Served s(ManifestSigning{.key = std::move(k), .issuer = "files"});
  s.connect();
  // Proposal §1: capabilities["io.modelcontextprotocol/signed-manifests"] = {algorithm, keyId}.
  const auto& caps = s.client->server().capabilities.extra;
  const json::value* cap = caps.if_contains("io.modelcontextprotocol/signed-manifests");
  ASSERT_NE(cap, nullptr);
  EXPECT_EQ(*cap, (json::object{{"algorithm", "ed25519"}, {"keyId", key_id}}));
}

TEST(ManifestServer, AdvertisesAnExplicitKeyId) {
  Served s(ManifestSigning{.key = key(1), .issuer = "files", .key_id = "uap:issuer:files:v1"});
  s.connect();
  EXPECT_EQ(s.client->server().capabilities.extra.at(trust::kSignedManifestsCapability).at("keyId"), "uap:issuer:files:v1");
  EXPECT_EQ(s.manifest().at("manifest").at("keyId"), "uap:issuer:files:v1");
}

TEST(ManifestServer, WithoutAKeyNeitherCapabilityNorMethod) {
  auto server = std::make_shared<Server>();
  server->add_tool(tool("read_file"), ok_handler());
  Client client;
  auto [a, b] = make_memory_transport_pair();
  auto session = server->connect(a);
  ASSERT_TRUE(session);
  ASSERT_TRUE(client.connect(b));
  EXPECT_FALSE(client.server().capabilities.extra.contains(trust::kSignedManifestsCapability));
  auto r = client.request("tools/manifest", {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kMethodNotFound);
}

TEST(ManifestServer, ToolsManifestVerifiesWithThePublicKey) {
  auto k = key(2);
  const auto pub = k.public_key();
  Served s(ManifestSigning{.key = std::move(k), .issuer = "files", .lifetime = 1h});
  s.connect();
  const auto before = trust::now_unix_ms();
  const json::value m = s.manifest();
  // The envelope of proposal §3, verified from its text as a client on another stack would.
  auto r = trust::verify_manifest(json::serialize(m), pub);
  ASSERT_TRUE(r.ok()) << trust::to_string(r.verdict) << ": " << r.detail;
  EXPECT_EQ(r.manifest->issuer, "files");
  EXPECT_EQ(r.key_id, pub.key_id());
  EXPECT_LE(r.manifest->issued_at_ms, trust::now_unix_ms());
  EXPECT_GE(r.manifest->issued_at_ms, before - 1000);
  EXPECT_EQ(r.manifest->expires_at_ms - r.manifest->issued_at_ms, 3'600'000);
  // The tools are those tools/list shows, member for member.
  auto listed = s.client->request("tools/list", {});
  ASSERT_TRUE(listed);
  EXPECT_EQ(m.at("manifest").at("tools"), listed->at("tools"));
  // Another key does not verify it.
  EXPECT_EQ(trust::verify_manifest(m, key(3).public_key()).verdict, trust::Verdict::bad_signature);
}

TEST(ManifestServer, AddingAToolSignsANewManifestThatIncludesIt) {
  auto k = key(4);
  const auto pub = k.public_key();
  Served s(ManifestSigning{.key = std::move(k), .issuer = "files"});
  std::atomic<int> changed{0};
  ClientOptions co;
  co.on_list_changed = [&](const std::string&) { ++changed; };
  s.connect(std::move(co));
  const json::value first = s.manifest();

  s.server->add_tool(tool("write_file", "Writes a file"), ok_handler());
  // Ordering, not time: add_tool hands tools/list_changed to the session before it returns, the
  // in-memory transport delivers in order, and the client runs its notification callbacks before
  // it completes a later answer; so once the next tools/manifest is answered, it has been counted.
  const json::value second = s.manifest();
  EXPECT_EQ(changed.load(), 1) << "clients learn to fetch it again from tools/list_changed";
  EXPECT_NE(second.at("signature"), first.at("signature"));
  auto r = trust::verify_manifest(second, pub);
  ASSERT_TRUE(r.ok()) << r.detail;
  ASSERT_EQ(r.manifest->tools.size(), 2u);
  EXPECT_EQ(r.manifest->tools[1].name, "write_file");

  // Replacing a definition (a description edit) signs again too.
  s.server->add_tool(tool("write_file", "Writes a file; also mails it to someone"), ok_handler());
  const json::value third = s.manifest();
  EXPECT_NE(third.at("signature"), second.at("signature"));
  EXPECT_EQ(third.at("manifest").at("tools").at(1).at("description"), "Writes a file; also mails it to someone");
  // Removing signs again; the removed tool is gone from the manifest.
  ASSERT_TRUE(s.server->remove_tool("write_file"));
  const auto fourth = trust::verify_manifest(s.manifest(), pub);
  ASSERT_TRUE(fourth.ok());
  EXPECT_EQ(fourth.manifest->tools.size(), 1u);
}

TEST(ManifestServer, UnchangedToolsReuseTheSignedManifest) {
  Served s(ManifestSigning{.key = key(5), .issuer = "files"});
  s.connect();
  const json::value first = s.manifest();
  // Let the clock move past the first issuedAt (a state, polled), so that signing again would show
  // as a new issuedAt: the equality below then proves the cached manifest was reused.
  const auto issued = first.at("manifest").at("issuedAt").to_number<std::int64_t>();
  for (int i = 0; i < 10'000 && trust::now_unix_ms() <= issued; ++i) std::this_thread::sleep_for(1ms);
  ASSERT_GT(trust::now_unix_ms(), issued);
  // Same tools, well within half the lifetime (the default lifetime is hours): the same manifest,
  // issuedAt and all.
  EXPECT_EQ(s.manifest(), first);
  // Re-registering an identical definition changes nothing signed either.
  s.server->add_tool(tool("read_file", "Reads a file"), ok_handler());
  EXPECT_EQ(s.manifest(), first);
}

TEST(ManifestServer, AManifestPastHalfItsLifetimeIsSignedAgain) {
  Served s(ManifestSigning{.key = key(5), .issuer = "files", .lifetime = 20ms});
  s.connect();
  const json::value first = s.manifest();
  // Wait for the state that matters, on the signer's clock: half the lifetime past issuedAt
  // (polled with a generous bound), rather than for a duration guessed to cover it.
  const auto issued = first.at("manifest").at("issuedAt").to_number<std::int64_t>();
  for (int i = 0; i < 10'000 && trust::now_unix_ms() < issued + 10; ++i) std::this_thread::sleep_for(1ms);
  ASSERT_GE(trust::now_unix_ms(), issued + 10);
  const json::value second = s.manifest();
  EXPECT_GT(second.at("manifest").at("issuedAt").to_number<std::int64_t>(),
            first.at("manifest").at("issuedAt").to_number<std::int64_t>());
}

TEST(ManifestServer, TheManifestFollowsWhatTheSessionIsShown) {
  Served s(ManifestSigning{.key = key(6), .issuer = "files"});
  s.server->add_tool(tool("admin_delete", "Deletes anything"), ok_handler());
  // Availability hooks decide per request; the manifest signs the same view as tools/list.
  std::atomic<bool> admin{false};
  s.server->set_availability(AvailabilityHooks{.tool = [&](const Tool& t, const RequestContext&) {
    ToolAvailability av;
    av.available = t.name != "admin_delete" || admin.load();
    if (t.name == "read_file") av.annotations = ToolAnnotations{.read_only_hint = true};
    return av;
  }});
  s.connect();
  auto m = s.manifest();
  ASSERT_EQ(m.at("manifest").at("tools").as_array().size(), 1u);
  EXPECT_EQ(m.at("manifest").at("tools").at(0).at("annotations"), (json::object{{"readOnlyHint", true}}));
  admin = true;
  s.server->availability_changed(ListKind::tools);
  m = s.manifest();
  ASSERT_EQ(m.at("manifest").at("tools").as_array().size(), 2u);
  auto listed = s.client->request("tools/list", {});
  ASSERT_TRUE(listed);
  EXPECT_EQ(m.at("manifest").at("tools"), listed->at("tools"));
}

TEST(ManifestServer, TheManifestIsUnpagedWhenTheListIsPaged) {
  ServerOptions so;
  so.page_size = 1;
  Served s(ManifestSigning{.key = key(7), .issuer = "files"}, so);
  s.server->add_tool(tool("b"), ok_handler());
  s.server->add_tool(tool("c"), ok_handler());
  s.connect();
  EXPECT_EQ(s.manifest().at("manifest").at("tools").as_array().size(), 3u);
  // A cursor sent with it does not page it either: a manifest covers every tool the session sees.
  auto with_cursor = s.client->request("tools/manifest", json::object{{"cursor", "2"}});
  ASSERT_TRUE(with_cursor) << with_cursor.error().message;
  EXPECT_EQ(with_cursor->at("manifest").at("tools").as_array().size(), 3u);
}

TEST(ManifestServer, RefusesABadConfiguration) {
  Server server;
  auto empty_issuer = server.set_manifest_signing(ManifestSigning{.key = key(1), .issuer = ""});
  ASSERT_FALSE(empty_issuer);
  EXPECT_EQ(empty_issuer.error().code, error_code::kInvalidParams);
  EXPECT_FALSE(server.set_manifest_signing(ManifestSigning{.key = key(1), .issuer = "x", .lifetime = 0ms}));
  EXPECT_FALSE(server.set_manifest_signing(ManifestSigning{.key = key(1), .issuer = "x", .key_id = ""}));
  EXPECT_FALSE(server.capabilities().contains(trust::kSignedManifestsCapability));
  ASSERT_TRUE(server.set_manifest_signing(ManifestSigning{.key = key(1), .issuer = "x"}));
  EXPECT_TRUE(server.capabilities().contains(trust::kSignedManifestsCapability));
}

}  // namespace
}  // namespace mcp
