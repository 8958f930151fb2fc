// Server profiles over Streamable HTTP: /.well-known/mcp-profiles as the proposal describes it
// (the JSON array, default first, strong ETag, Cache-Control, 304; 404 without profiles), fetched
// by our client; and the "signed" profile end to end: the server card fetched and its proof
// verified, the signed manifest verified, the profile granted.
#include <gtest/gtest.h>

#include "http/http_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/card_fetch.hpp"
#include "mcp/http/profiles_fetch.hpp"
#include "mcp/http/server_card.hpp"

namespace mcp::http::test {
namespace {

const std::string kAudit = "https://example.com/profiles/audit/1.1";
const std::string kSigned = std::string(kSignedProfile) + "/1.0";

TEST(HttpProfiles, TheWellKnownDocumentIsServedCachedAndRevalidated) {
  TestServer s;
  ASSERT_TRUE(s.started);
  auto none = raw_exchange(s.port, "GET", {}, {}, kProfilesPath);
  EXPECT_EQ(none.status, 404);  // no profiles: a client assumes none
  auto fetched_none = fetch_profiles(s.url());
  ASSERT_TRUE(fetched_none) << fetched_none.error().message;
  EXPECT_TRUE(fetched_none->empty());

  ASSERT_TRUE(s.server->set_profiles({ProfileSpec{.profile_url = kAudit, .default_ = true, .min_mcp_version = "2025-06-18"},
                                      ProfileSpec{.profile_url = kSigned, .min_mcp_version = "2025-11-25"}}));
  auto r = raw_exchange(s.port, "GET", {}, {}, kProfilesPath);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.header("content-type"), "application/json");
  EXPECT_EQ(r.header("cache-control"), "public, max-age=300, must-revalidate");
  const std::string etag = r.header("etag");
  ASSERT_TRUE(etag.starts_with("\"sha256:")) << etag;
  auto doc = parse_json(r.body);
  ASSERT_TRUE(doc.is_array());
  EXPECT_EQ(doc.at(0).at("profileURL").as_string(), kAudit);
  EXPECT_EQ(doc.at(0).at("default"), true);
  auto again = raw_exchange(s.port, "GET", {{"If-None-Match", etag}}, {}, kProfilesPath);
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());
  EXPECT_EQ(raw_exchange(s.port, "POST", {}, "{}", kProfilesPath).status, 405);

  auto fetched = fetch_profiles(s.url());
  ASSERT_TRUE(fetched) << fetched.error().message;
  ASSERT_EQ(fetched->size(), 2u);
  EXPECT_EQ((*fetched)[1].profile_url, kSigned);
}

TEST(HttpProfiles, ASignedProfileIsVerifiedEndToEnd) {
  auto card_key = std::make_shared<trust::Ed25519SecretKey>(trust::Ed25519SecretKey::generate());
  const auto card_public = card_key->public_key();
  auto manifest_key = trust::Ed25519SecretKey::generate();
  const auto manifest_public = manifest_key.public_key();
  TestServer s;
  ASSERT_TRUE(s.started);
  ASSERT_TRUE(s.server->derive_signature({}, SignatureServing{.in_initialize = true, .in_server_card = true}));
  ASSERT_TRUE(s.server->set_manifest_signing(ManifestSigning{.key = std::move(manifest_key), .issuer = "test"}));
  ASSERT_TRUE(s.server->set_profiles({ProfileSpec{.profile_url = kSigned, .default_ = true, .min_mcp_version = "2025-11-25"}}));
  // The card this server's signature makes, signed, as its card route would serve it.
  auto card = make_server_card(s.server->options().info, *s.server->signature(), card_key.get());
  ASSERT_TRUE(card);
  auto rep = card_representation(*card);
  ASSERT_TRUE(rep);
  auto verified = verify_server_card(rep->body, card_public);
  ASSERT_TRUE(verified.ok()) << verified.detail;

  auto profiles = fetch_profiles(s.url());
  ASSERT_TRUE(profiles);
  ASSERT_EQ(profiles->size(), 1u);
  for (const char* protocol : {"2026-07-28", "2025-11-25"}) {
    ClientOptions co;
    co.protocol_version = protocol;
    co.profiles = {profiles->front().profile_url};
    co.verified_card_signature = verified.card->signature_digest;
    co.manifest = ManifestPolicy{.public_key = manifest_public};
    co.signature_policy = SignaturePolicy{};
    Client client(co);
    auto t = HttpClientTransport::create({.url = s.url()});
    ASSERT_TRUE(t);
    auto init = client.connect(*t);
    ASSERT_TRUE(init) << protocol << ": " << init.error().message;
    EXPECT_EQ(client.profile(), kSigned) << protocol;
    ASSERT_TRUE(client.list_all_tools()) << protocol;
    client.close();
  }
}

}  // namespace
}  // namespace mcp::http::test
