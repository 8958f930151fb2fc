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

// The issuer a trust store binds a key to is checked against the proof's signed issuer, never the
// card's "name", which the proof does not cover (review #10: a card renamed to the issuer passed).
TEST_F(CardFixture, TrustStoreBindsTheIssuerToSignedBytesOnly) {
  trust::TrustStore store;
  ASSERT_TRUE(store.add(trust::TrustedKey{.key_id = key.public_key().key_id(), .public_key = key.public_key(),
                                          .issuer = std::string("file-manager")}));
  auto issued = [&](std::optional<std::string> issuer) {
    auto card = make_server_card(info, sig, &key, std::nullopt, {}, std::move(issuer));
    EXPECT_TRUE(card);
    return to_string(*card);
  };
  auto ok = verify_server_card(issued("file-manager"), store);
  EXPECT_TRUE(ok.ok()) << ok.detail;
  // Named "file-manager" but with no signed issuer: refused.
  auto unsigned_name = verify_server_card(card_text(&key), store);
  EXPECT_EQ(unsigned_name.verdict, trust::Verdict::unknown_key);
  EXPECT_NE(unsigned_name.detail.find("names no issuer"), std::string::npos) << unsigned_name.detail;
  EXPECT_EQ(verify_server_card(issued("someone-else"), store).verdict, trust::Verdict::unknown_key);
  // The issuer is signed: editing it breaks the proof.
  auto card = make_server_card(info, sig, &key, std::nullopt, {}, std::string("someone-else"));
  ASSERT_TRUE(card);
  (*card)[kSignatureProofMember].as_object()["issuer"] = "file-manager";
  EXPECT_EQ(verify_server_card(to_string(*card), store).verdict, trust::Verdict::bad_signature);
  trust::TrustStore empty;
  EXPECT_EQ(verify_server_card(card_text(&key), empty).verdict, trust::Verdict::unknown_key);
}

// A trust store's key verifies cards only within its notBefore / notAfter (review #10: a retired
// key's proof was "present, valid").
TEST_F(CardFixture, TrustStoreHonoursTheKeysServiceWindow) {
  trust::TrustStore store;
  ASSERT_TRUE(store.add(trust::TrustedKey{.key_id = key.public_key().key_id(), .public_key = key.public_key(),
                                          .not_before_ms = 1000, .not_after_ms = 2000}));
  const std::string text = card_text(&key);
  EXPECT_TRUE(verify_server_card(text, store, {}, 1500, 0).ok());
  EXPECT_EQ(verify_server_card(text, store, {}, 999, 0).verdict, trust::Verdict::not_yet_valid);
  EXPECT_EQ(verify_server_card(text, store, {}, 2001, 0).verdict, trust::Verdict::expired);
  EXPECT_TRUE(verify_server_card(text, store, {}, 2001, 5).ok());  // within the skew
  // The system clock (2026) is long past notAfter.
  EXPECT_EQ(verify_server_card(text, store).verdict, trust::Verdict::expired);
  // Saturating arithmetic: extreme clocks and skews decide, they do not overflow.
  EXPECT_EQ(verify_server_card(text, store, {}, INT64_MAX, INT64_MAX).verdict, trust::Verdict::valid);
  EXPECT_EQ(verify_server_card(text, store, {}, INT64_MAX, 0).verdict, trust::Verdict::expired);
  EXPECT_EQ(verify_server_card(text, store, {}, INT64_MIN, 0).verdict, trust::Verdict::not_yet_valid);
}

TEST(SaturatingTime, NeverOverflows) {
  EXPECT_EQ(trust::add_ms(INT64_MAX, 1), INT64_MAX);
  EXPECT_EQ(trust::add_ms(INT64_MIN, -1), INT64_MIN);
  EXPECT_EQ(trust::sub_ms(INT64_MIN, 1), INT64_MIN);
  EXPECT_EQ(trust::sub_ms(0, INT64_MIN), INT64_MAX);
  EXPECT_EQ(trust::sub_ms(-5, INT64_MIN), INT64_MAX - 4);
  EXPECT_EQ(trust::add_ms(5, -3), 2);
  EXPECT_EQ(trust::sub_ms(5, 3), 2);
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
