// Ed25519: Wycheproof (libsodium must match every vector; OpenSSL is run beside it and any
// disagreement is printed), RFC 8032, key files in both PEM and hex, and key checks.
#include <cstdio>
#include <filesystem>
#include <vector>

#include <gtest/gtest.h>

#include "mcp/json.hpp"
#include "mcp/trust/ed25519.hpp"
#include "mcp/trust/hex.hpp"
#include "mcp/trust/sha256.hpp"
#include "test_util.hpp"
#include "trust/openssl_ed25519.hpp"

namespace mcp::trust {
namespace {

std::vector<std::uint8_t> unhex(std::string_view h) {
  std::vector<std::uint8_t> out(h.size() / 2);
  EXPECT_TRUE(from_hex(h, out)) << h;
  return out;
}

TEST(Ed25519, WycheproofEveryVector) {
  const json::value doc = json::parse(test::read_file(test::data_dir() / "wycheproof" / "ed25519_test.json"));
  int total = 0, sodium_mismatch = 0;
  std::vector<std::string> disagreements;
  for (const auto& group : doc.at("testGroups").as_array()) {
    const std::string pk_hex(group.at("publicKey").at("pk").as_string());
    auto key = Ed25519PublicKey::from_hex(pk_hex);
    ASSERT_TRUE(key) << pk_hex << ": " << key.error().message;
    // The PEM form of the same key must load to the same key.
    auto pem_key = Ed25519PublicKey::from_pem(std::string(group.at("publicKeyPem").as_string()));
    ASSERT_TRUE(pem_key) << pem_key.error().message;
    EXPECT_EQ(*pem_key, *key);
    for (const auto& t : group.at("tests").as_array()) {
      ++total;
      const auto msg = unhex(t.at("msg").as_string());
      const auto sig_bytes = unhex(t.at("sig").as_string());
      const bool expected = t.at("result").as_string() == "valid";
      // A signature that is not 64 bytes never reaches the library: the wire grammar rejects it.
      bool sodium = false;
      if (sig_bytes.size() == kEd25519SignatureSize) {
        Ed25519Signature sig{};
        std::copy(sig_bytes.begin(), sig_bytes.end(), sig.begin());
        sodium = key->verify(msg, sig);
      }
      const bool openssl = detail::openssl_ed25519_verify(key->bytes(), msg, sig_bytes);
      const std::string id = "tcId " + std::to_string(t.at("tcId").as_int64()) + " (" +
                             std::string(t.at("comment").as_string()) + ")";
      if (sodium != expected) {
        ++sodium_mismatch;
        ADD_FAILURE() << "libsodium: " << id << " expected " << expected;
      }
      if (sodium != openssl) disagreements.push_back(id + ": libsodium " + std::to_string(sodium) + ", OpenSSL " + std::to_string(openssl));
    }
  }
  EXPECT_EQ(total, 151);
  EXPECT_EQ(sodium_mismatch, 0);
  std::printf("Wycheproof Ed25519: %d vectors, libsodium/OpenSSL disagreements: %zu\n", total, disagreements.size());
  for (const auto& d : disagreements) std::printf("  %s\n", d.c_str());
  // Recorded in docs/wire/signed-manifest.md; a change here means the document must change too.
  EXPECT_TRUE(disagreements.empty());
}

TEST(Ed25519, Rfc8032TestOne) {
  auto sk = Ed25519SecretKey::from_hex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
  ASSERT_TRUE(sk);
  EXPECT_EQ(sk->public_key().hex(), "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  const auto sig = sk->sign(std::string_view(""));
  EXPECT_EQ(to_hex(sig),
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b");
  EXPECT_TRUE(sk->public_key().verify(std::string_view(""), sig));
  // Same signature from OpenSSL: Ed25519 is deterministic.
  const auto seed = unhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
  EXPECT_EQ(detail::openssl_ed25519_sign(seed, {}), sig);
}

TEST(Ed25519, SignVerifyAndTamper) {
  const auto sk = Ed25519SecretKey::generate();
  const auto sig = sk.sign(std::string_view("hello"));
  EXPECT_TRUE(sk.public_key().verify(std::string_view("hello"), sig));
  EXPECT_FALSE(sk.public_key().verify(std::string_view("hellp"), sig));
  auto bad = sig;
  bad[10] ^= 1;
  EXPECT_FALSE(sk.public_key().verify(std::string_view("hello"), bad));
  const auto other = Ed25519SecretKey::generate();
  EXPECT_FALSE(other.public_key().verify(std::string_view("hello"), sig));
  EXPECT_NE(sk.public_key(), other.public_key());
}

TEST(Ed25519, KeyIdIsSha256OfRawPublicKey) {
  auto pk = Ed25519PublicKey::from_hex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  ASSERT_TRUE(pk);
  EXPECT_EQ(pk->key_id(), sha256_tag(sha256(std::span<const std::uint8_t>(pk->bytes()))));
  EXPECT_EQ(pk->key_id().size(), 7u + 64u);
  EXPECT_TRUE(pk->key_id().starts_with("sha256:"));
}

TEST(Ed25519, HexKeys) {
  const auto sk = Ed25519SecretKey::generate();
  auto again = Ed25519SecretKey::parse("  " + sk.seed_hex() + "\n");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->public_key(), sk.public_key());
  std::string upper = sk.public_key().hex();
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto pk = Ed25519PublicKey::parse(upper + "\n");
  ASSERT_TRUE(pk);
  EXPECT_EQ(*pk, sk.public_key());
  EXPECT_FALSE(Ed25519PublicKey::from_hex("abcd"));
  EXPECT_FALSE(Ed25519PublicKey::from_hex(std::string(64, 'g')));
  EXPECT_FALSE(Ed25519SecretKey::from_hex(std::string(63, 'a')));
  // The error for a bad secret must not echo it.
  auto err = Ed25519SecretKey::from_hex(std::string(62, '7') + "zz");
  ASSERT_FALSE(err);
  EXPECT_EQ(err.error().message.find("777"), std::string::npos);
}

TEST(Ed25519, PemRoundTripAndOpenSslFiles) {
  const auto sk = Ed25519SecretKey::generate();
  const std::string pem = sk.to_pem();
  EXPECT_TRUE(pem.starts_with("-----BEGIN PRIVATE KEY-----\n")) << pem;
  auto back = Ed25519SecretKey::parse(pem);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->public_key(), sk.public_key());
  const std::string pub_pem = sk.public_key().to_pem();
  EXPECT_TRUE(pub_pem.starts_with("-----BEGIN PUBLIC KEY-----\n")) << pub_pem;
  auto pub = Ed25519PublicKey::parse(pub_pem);
  ASSERT_TRUE(pub);
  EXPECT_EQ(*pub, sk.public_key());

  // Files written by `openssl genpkey -algorithm ed25519` (RFC 8410 section 10.3 example key).
  const std::string openssl_pem =
      "-----BEGIN PRIVATE KEY-----\n"
      "MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n"
      "-----END PRIVATE KEY-----\n";
  auto rfc = Ed25519SecretKey::parse(openssl_pem);
  ASSERT_TRUE(rfc) << rfc.error().message;
  EXPECT_EQ(rfc->seed_hex(), "d4ee72dbf913584ad5b6d8f1f769f8ad3afe7c28cbf1d4fbe097a88f44755842");
  EXPECT_EQ(rfc->public_key().hex(), "19bf44096984cdfe8541bac167dc3b96c85086aa30b6b6cb0c5c38ad703166e1");
  auto rfc_pub = Ed25519PublicKey::parse(
      "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n");
  ASSERT_TRUE(rfc_pub) << rfc_pub.error().message;
  EXPECT_EQ(*rfc_pub, rfc->public_key());
}

TEST(Ed25519, RejectsWrongKeys) {
  // Small-order points: the identity, and a point of order 8.
  EXPECT_FALSE(Ed25519PublicKey::from_hex("0100000000000000000000000000000000000000000000000000000000000000"));
  EXPECT_FALSE(Ed25519PublicKey::from_hex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"));
  // Non-canonical y (>= p).
  EXPECT_FALSE(Ed25519PublicKey::from_hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"));
  EXPECT_FALSE(Ed25519PublicKey::from_bytes(std::vector<std::uint8_t>(31, 1)));
  // Not PEM at all, truncated PEM, a public key where a private one is expected, another algorithm.
  EXPECT_FALSE(Ed25519SecretKey::parse("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"));
  EXPECT_FALSE(Ed25519SecretKey::parse(Ed25519SecretKey::generate().public_key().to_pem()));
  const std::string p256 =
      "-----BEGIN PUBLIC KEY-----\n"
      "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE4MAExCSO5Qcmm/CNU0Jcl5ozq/+D\n"
      "caUV6W4REiPRvhkxQsQN894a+i2Qk+VJYJoSHLmLCrkZW5iE/xGI2EMMfA==\n"
      "-----END PUBLIC KEY-----\n";
  auto ec = Ed25519PublicKey::parse(p256);
  ASSERT_FALSE(ec);
  EXPECT_NE(ec.error().message.find("not Ed25519"), std::string::npos) << ec.error().message;
  auto enc = Ed25519SecretKey::parse("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
  ASSERT_FALSE(enc);
  EXPECT_NE(enc.error().message.find("encrypted"), std::string::npos);
}

TEST(Ed25519, MovedFromSecretKeyIsWiped) {
  auto sk = Ed25519SecretKey::generate();
  const auto pub = sk.public_key();
  Ed25519SecretKey moved = std::move(sk);
  EXPECT_EQ(moved.public_key(), pub);
  EXPECT_EQ(sk.seed_hex(), std::string(64, '0'));  // NOLINT(bugprone-use-after-move): checking the wipe
}

}  // namespace
}  // namespace mcp::trust
