// Trust store: the file format, key checks at load, and rotation with clock skew.
#include <filesystem>

#include <gtest/gtest.h>
#include <unistd.h>

#include "fixtures.hpp"
#include "mcp/trust/verify.hpp"
#include "test_util.hpp"

namespace mcp::trust {
namespace {

using test::kIssuedAt;

constexpr std::int64_t kDay = 86400LL * 1000;

TEST(TrustStore, ParsesTheFileFormat) {
  const auto a = Ed25519SecretKey::generate();
  const auto b = Ed25519SecretKey::generate();
  const std::string text = R"({"keys":[
    {"keyId":"server-v1","algorithm":"ed25519","publicKey":")" + a.public_key().hex() + R"(",
     "issuer":"example","notBefore":1000,"notAfter":2000,"comment":"retired in June"},
    {"publicKey":")" + b.public_key().hex() + R"("}]})";
  auto store = TrustStore::parse(text);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(store->size(), 2u);
  const TrustedKey* k1 = store->find("server-v1");
  ASSERT_NE(k1, nullptr);
  EXPECT_EQ(k1->public_key, a.public_key());
  EXPECT_EQ(k1->issuer, "example");
  EXPECT_EQ(k1->not_before_ms, 1000);
  EXPECT_EQ(k1->not_after_ms, 2000);
  const TrustedKey* k2 = store->find(b.public_key().key_id());  // keyId defaults to the fingerprint
  ASSERT_NE(k2, nullptr);
  EXPECT_FALSE(k2->not_after_ms);
  EXPECT_EQ(store->find("nope"), nullptr);
  // to_json writes the same format back.
  auto again = TrustStore::from_json(store->to_json());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->size(), 2u);
  EXPECT_EQ(again->find("server-v1")->not_after_ms, 2000);
}

TEST(TrustStore, AcceptsSpkiPem) {
  const auto a = Ed25519SecretKey::generate();
  json::object entry{{"publicKey", a.public_key().to_pem()}};
  auto store = TrustStore::from_json(json::object{{"keys", json::array{entry}}});
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_NE(store->find(a.public_key().key_id()), nullptr);
}

TEST(TrustStore, RejectsBadFiles) {
  const std::string pk = Ed25519SecretKey::generate().public_key().hex();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"not json", "{"},
      {"not an object", "[]"},
      {"no keys", "{}"},
      {"unknown top-level member", R"({"keys":[],"extra":1})"},
      {"misspelt member", R"({"keys":[{"publicKey":")" + pk + R"(","notafter":5}]})"},
      {"other algorithm", R"({"keys":[{"publicKey":")" + pk + R"(","algorithm":"es256"}]})"},
      {"bad key", R"({"keys":[{"publicKey":"0100000000000000000000000000000000000000000000000000000000000000"}]})"},
      {"short key", R"({"keys":[{"publicKey":"abcd"}]})"},
      {"no key", R"({"keys":[{"keyId":"x"}]})"},
      {"empty id", R"({"keys":[{"keyId":"","publicKey":")" + pk + R"("}]})"},
      {"duplicate id", R"({"keys":[{"keyId":"x","publicKey":")" + pk + R"("},{"keyId":"x","publicKey":")" + pk + R"("}]})"},
      {"empty window", R"({"keys":[{"publicKey":")" + pk + R"(","notBefore":5,"notAfter":4}]})"},
      {"time not integer", R"({"keys":[{"publicKey":")" + pk + R"(","notAfter":"soon"}]})"},
      {"duplicate member", R"({"keys":[{"publicKey":")" + pk + R"(","notAfter":1,"notAfter":9}]})"},
  };
  for (const auto& [what, text] : cases) {
    auto s = TrustStore::parse(text);
    EXPECT_FALSE(s) << what;
    if (!s) {
      EXPECT_FALSE(s.error().message.empty()) << what;
    }
  }
}

TEST(TrustStore, LoadFile) {
  const auto dir = std::filesystem::temp_directory_path() / ("mcp-trust-store-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto a = Ed25519SecretKey::generate();
  test::write_file(dir / "store.json", R"({"keys":[{"publicKey":")" + a.public_key().hex() + R"("}]})");
  auto s = TrustStore::load_file(dir / "store.json");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->size(), 1u);
  auto missing = TrustStore::load_file(dir / "missing.json");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("missing.json"), std::string::npos);
  EXPECT_FALSE(TrustStore::load_file(dir));  // a directory
  test::write_file(dir / "bad.json", "{\"keys\": [");
  auto bad = TrustStore::load_file(dir / "bad.json");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("bad.json"), std::string::npos);
  std::filesystem::remove_all(dir);
}

// Key A is retired at T; key B enters service at T. Manifests are judged by their issuedAt.
TEST(TrustStore, RotationWithSkew) {
  const auto a = Ed25519SecretKey::generate();
  const auto b = Ed25519SecretKey::generate();
  const std::int64_t t = kIssuedAt + 10 * kDay;
  TrustStore store;
  ASSERT_TRUE(store.add(TrustedKey{"k-a", a.public_key(), {}, t, {}}));
  ASSERT_TRUE(store.add(TrustedKey{"k-b", b.public_key(), t, {}, {}}));
  const std::int64_t skew = kDefaultClockSkewMs;
  auto verdict = [&](const Ed25519SecretKey& key, const char* id, std::int64_t issued, std::int64_t now) {
    VerifyOptions o;
    o.now_ms = now;
    return verify_manifest(test::signed_sample(key, issued, 30 * kDay, "example-mcp-server", id), store, o);
  };
  // A manifest issued by A while in service stays valid after A retires, until it expires.
  EXPECT_EQ(verdict(a, "k-a", t - kDay, t + kDay).verdict, Verdict::valid);
  // Issued by A after retirement: refused, unless within the skew.
  auto late = verdict(a, "k-a", t + skew + 1, t + skew + 1);
  EXPECT_EQ(late.verdict, Verdict::expired);
  EXPECT_NE(late.detail.find("retired"), std::string::npos) << late.detail;
  EXPECT_EQ(verdict(a, "k-a", t + skew, t + skew).verdict, Verdict::valid);
  // Issued by B before it entered service: refused, unless within the skew.
  auto early = verdict(b, "k-b", t - skew - 1, t);
  EXPECT_EQ(early.verdict, Verdict::not_yet_valid);
  EXPECT_NE(early.detail.find("enters service"), std::string::npos) << early.detail;
  EXPECT_EQ(verdict(b, "k-b", t - skew, t).verdict, Verdict::valid);
  EXPECT_EQ(verdict(b, "k-b", t + kDay, t + kDay).verdict, Verdict::valid);
  // A's key under B's id is caught by the signature, whatever the window.
  EXPECT_EQ(verdict(a, "k-b", t + kDay, t + kDay).verdict, Verdict::bad_signature);
  // Revocation is removal.
  TrustStore revoked;
  ASSERT_TRUE(revoked.add(TrustedKey{"k-b", b.public_key(), t, {}, {}}));
  VerifyOptions o;
  o.now_ms = t - kDay;
  EXPECT_EQ(verify_manifest(test::signed_sample(a, t - 2 * kDay, 30 * kDay, "example-mcp-server", "k-a"), revoked, o).verdict,
            Verdict::unknown_key);
}

}  // namespace
}  // namespace mcp::trust
