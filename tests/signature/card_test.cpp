// Server cards: the detached proof over the signature's canonical bytes, ETags, If-None-Match.
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "mcp/signature/card.hpp"
#include "mcp/trust/jcs.hpp"

namespace mcp {
namespace {

struct CardFixture : ::testing::Test {
  trust::Ed25519SecretKey key = trust::Ed25519SecretKey::generate();
  Implementation info{.name = "file-manager", .version = "1.0.0", .description = "Manage files"};
  ServerSignature sig = sigtest::proposal_signature();

  std::string card_text(const trust::Ed25519SecretKey* k = nullptr) {
    auto card = make_server_card(info, sig, k);
    EXPECT_TRUE(card);
    return to_string(*card);
  }
};

TEST_F(CardFixture, CarriesServerInfoAndTheSignature) {
  auto card = make_server_card(info, sig, nullptr, std::nullopt, json::object{{"name", "spoof"}, {"endpoints", 1}});
  ASSERT_TRUE(card);
  EXPECT_EQ(card->at("name"), "file-manager");
  EXPECT_EQ(card->at("description"), "Manage files");
  EXPECT_EQ(card->at("endpoints"), 1);
  EXPECT_FALSE(card->contains(kSignatureProofMember));
  auto parsed = parse_server_card(to_string(*card));
  ASSERT_TRUE(parsed) << parsed.error().message;
  // Canonically identical to the in-band signature.
  EXPECT_TRUE(same_signature(parsed->signature, sig));
  EXPECT_EQ(parsed->signature_digest, *signature_digest(sig));
}

TEST_F(CardFixture, AValidProofVerifies) {
  auto r = verify_server_card(card_text(&key), key.public_key());
  EXPECT_TRUE(r.ok()) << r.detail;
  EXPECT_EQ(r.key_id, key.public_key().key_id());
  ASSERT_TRUE(r.card);
  EXPECT_TRUE(same_signature(r.card->signature, sig));
}

TEST_F(CardFixture, TheProofCoversTheSignatureAsCarried) {
  auto card = make_server_card(info, sig, &key);
  ASSERT_TRUE(card);
  std::string text = to_string(*card);
  EXPECT_TRUE(verify_server_card(text, key.public_key()).ok());
  // A relay that edits the declared annotations is caught.
  (*card)["signature"].as_object()["tools"].as_array()[0].as_object()["annotations"].as_array().pop_back();
  auto r = verify_server_card(to_string(*card), key.public_key());
  EXPECT_EQ(r.verdict, trust::Verdict::bad_signature);
  EXPECT_FALSE(r.card);
  // Descriptive members are not covered.
  auto card2 = make_server_card(info, sig, &key);
  (*card2)["description"] = "edited";
  EXPECT_TRUE(verify_server_card(to_string(*card2), key.public_key()).ok());
}

TEST_F(CardFixture, VerdictsForEveryWayItFails) {
  auto other = trust::Ed25519SecretKey::generate();
  EXPECT_EQ(verify_server_card(card_text(&key), other.public_key()).verdict, trust::Verdict::bad_signature);
  EXPECT_EQ(verify_server_card(card_text(), key.public_key()).verdict, trust::Verdict::malformed);
  EXPECT_EQ(verify_server_card("{", key.public_key()).verdict, trust::Verdict::malformed);
  auto card = make_server_card(info, sig, &key);
  (*card)[kSignatureProofMember].as_object()["algorithm"] = "rsa";
  EXPECT_EQ(verify_server_card(to_string(*card), key.public_key()).verdict, trust::Verdict::unsupported_algorithm);
  (*card)[kSignatureProofMember].as_object()["algorithm"] = "ed25519";
  (*card)[kSignatureProofMember].as_object()["signature"] = "ed25519:00";
  EXPECT_EQ(verify_server_card(to_string(*card), key.public_key()).verdict, trust::Verdict::malformed);
}

TEST_F(CardFixture, TrustStoreByKeyIdAndIssuer) {
  trust::TrustStore store;
  ASSERT_TRUE(store.add(trust::TrustedKey{.key_id = key.public_key().key_id(), .public_key = key.public_key(),
                                          .issuer = std::string("file-manager")}));
  EXPECT_TRUE(verify_server_card(card_text(&key), store).ok());
  info.name = "someone-else";
  EXPECT_EQ(verify_server_card(card_text(&key), store).verdict, trust::Verdict::unknown_key);
  trust::TrustStore empty;
  EXPECT_EQ(verify_server_card(card_text(&key), empty).verdict, trust::Verdict::unknown_key);
}

TEST_F(CardFixture, EtagIsStrongAndFollowsTheCanonicalBytes) {
  auto card = make_server_card(info, sig, &key);
  auto a = card_representation(*card);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->etag.front(), '"');
  EXPECT_EQ(a->etag.rfind("\"sha256:", 0), 0u);
  EXPECT_EQ(a->body, *trust::canonicalize(*card));
  auto b = card_representation(*card);
  EXPECT_EQ(a->etag, b->etag);
  info.version = "1.0.1";
  auto c = card_representation(*make_server_card(info, sig, &key));
  EXPECT_NE(a->etag, c->etag);
}

TEST(IfNoneMatch, MatchesAsRfc9110Says) {
  const std::string etag = "\"sha256:ab\"";
  EXPECT_TRUE(if_none_match("\"sha256:ab\"", etag));
  EXPECT_TRUE(if_none_match("W/\"sha256:ab\"", etag));
  EXPECT_TRUE(if_none_match("\"x\", \"sha256:ab\"", etag));
  EXPECT_TRUE(if_none_match(" * ", etag));
  EXPECT_FALSE(if_none_match("\"sha256:cd\"", etag));
  EXPECT_FALSE(if_none_match("", etag));
}

TEST(ServerCardLimits, ATooLargeCardIsRefused) {
  SignatureLimits l;
  l.max_bytes = 50;
  auto r = parse_server_card(R"({"name":"x","version":"1","signature":{"tools":[]},"pad":"0123456789012345678901234567890"})", l);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("SignatureLimits::max_bytes"), std::string::npos);
}

}  // namespace
}  // namespace mcp
