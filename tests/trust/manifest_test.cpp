// Manifests: wire names, canonical bytes, manifestHash, signing, and the JSON conversions.
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "mcp/trust/hex.hpp"
#include "mcp/trust/sha256.hpp"
#include "mcp/trust/verify.hpp"

namespace mcp::trust {
namespace {

TEST(Manifest, WireShapeMatchesTheReference) {
  const auto key = test::fixed_key();
  const json::value v = json::parse(test::signed_sample(key));
  const auto& env = v.as_object();
  ASSERT_EQ(env.size(), 2u);
  const auto& m = env.at("manifest").as_object();
  EXPECT_EQ(m.size(), 5u);
  EXPECT_EQ(m.at("issuer").as_string(), "example-mcp-server");
  EXPECT_EQ(m.at("keyId").as_string(), key.public_key().key_id());
  EXPECT_EQ(m.at("issuedAt").as_int64(), test::kIssuedAt);
  EXPECT_EQ(m.at("expiresAt").as_int64(), test::kIssuedAt + test::kLifetime);
  EXPECT_EQ(m.at("tools").as_array().size(), 2u);
  const std::string sig(env.at("signature").as_string());
  ASSERT_EQ(sig.size(), 8u + 128u);
  EXPECT_TRUE(sig.starts_with("ed25519:"));
  EXPECT_EQ(sig.find_first_not_of("0123456789abcdef", 8), std::string::npos);
}

TEST(Manifest, SignatureCoversCanonicalBytesAndHashIsTheirDigest) {
  const auto key = test::fixed_key();
  SignOptions o;
  o.issuer = "example-mcp-server";
  o.key_id = "uap:issuer:example-mcp-server:v1";  // free-form, as in the reference demo
  o.issued_at_ms = test::kIssuedAt;
  auto s = sign_tools(test::sample_tools(), key, o);
  ASSERT_TRUE(s) << s.error().message;
  auto bytes = canonical_bytes(s->manifest);
  ASSERT_TRUE(bytes);
  // Keys sorted at every level, no whitespace, the whole tool definition.
  EXPECT_TRUE(bytes->starts_with(R"({"expiresAt":1752592000000,"issuedAt":1750000000000,"issuer":"example-mcp-server",)"
                                 R"("keyId":"uap:issuer:example-mcp-server:v1","tools":[{"annotations":{"destructiveHint":false,)"
                                 R"("openWorldHint":true},"description":"Sends an email)"))
      << *bytes;
  EXPECT_NE(bytes->find(R"("title":"Send email")"), std::string::npos);
  Ed25519Signature sig{};
  ASSERT_TRUE(from_hex(std::string_view(s->signature).substr(8), sig));
  EXPECT_TRUE(key.public_key().verify(*bytes, sig));
  EXPECT_EQ(*manifest_hash(s->manifest), sha256_tag(std::string_view(*bytes)));
  EXPECT_EQ(s->signature, format_signature(key.sign(*bytes)));  // Ed25519 is deterministic
}

TEST(Manifest, JsonRoundTripKeepsUnknownMembers) {
  auto v = json::parse(R"({"issuer":"i","keyId":"k","issuedAt":1,"expiresAt":2,"tools":[],"x-ext":{"a":1}})");
  auto m = from_json<ToolManifest>(v);
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->extra.at("x-ext").at("a").as_int64(), 1);
  EXPECT_EQ(*canonicalize(to_json(*m)), *canonicalize(v));
  auto d = from_json<ToolManifest>(json::parse(R"({"issuer":"i","keyId":"k","issuedAt":1.7e12,"expiresAt":1.8e12,"tools":[]})"));
  ASSERT_TRUE(d);  // integral doubles are integers to JavaScript
  EXPECT_EQ(d->issued_at_ms, 1700000000000);
}

TEST(Manifest, FromJsonErrorsNameTheField) {
  auto bad = [](std::string_view text) { return from_json<ToolManifest>(json::parse(text)).error().message; };
  EXPECT_NE(bad(R"({"keyId":"k","issuedAt":1,"expiresAt":2,"tools":[]})").find("issuer"), std::string::npos);
  EXPECT_NE(bad(R"({"issuer":"i","keyId":"k","issuedAt":1,"expiresAt":2,"tools":[{"name":1}]})").find("tools[0]"), std::string::npos);
  EXPECT_NE(bad(R"({"issuer":"i","keyId":"k","issuedAt":3,"expiresAt":2,"tools":[]})").find("before"), std::string::npos);
  EXPECT_NE(bad(R"({"issuer":"i","keyId":"k","issuedAt":1,"expiresAt":2e20,"tools":[]})").find("expiresAt"), std::string::npos);
  auto s = from_json<SignedManifest>(json::parse(R"({"manifest":{},"signature":"ed25519:00"})"));
  ASSERT_FALSE(s);
  EXPECT_NE(s.error().message.find("SignedManifest.manifest"), std::string::npos);
}

TEST(Manifest, SignRefusesWhatAVerifierWouldCallMalformed) {
  const auto key = test::fixed_key();
  SignOptions o;
  o.issued_at_ms = test::kIssuedAt;
  EXPECT_FALSE(sign_tools(test::sample_tools(), key, o));  // no issuer
  o.issuer = "x";
  o.lifetime_ms = 0;
  EXPECT_FALSE(sign_tools(test::sample_tools(), key, o));
  o.lifetime_ms = kMaxSafeInteger;
  EXPECT_FALSE(sign_tools(test::sample_tools(), key, o));  // beyond 2^53
  o.lifetime_ms = 1000;
  auto tools = test::sample_tools();
  tools[1].name = tools[0].name;
  EXPECT_FALSE(sign_tools(tools, key, o));  // duplicate names
  tools = test::sample_tools();
  tools[0].description = std::string("bad \xff utf-8");
  EXPECT_FALSE(sign_tools(tools, key, o));
}

TEST(Manifest, TypedSignedManifestVerifies) {
  const auto key = test::fixed_key();
  SignOptions o;
  o.issuer = "example-mcp-server";
  o.issued_at_ms = test::kIssuedAt;
  auto s = sign_tools(test::sample_tools(), key, o);
  ASSERT_TRUE(s);
  VerifyOptions vo;
  vo.now_ms = test::kIssuedAt;
  auto r = verify_manifest(to_json(*s), key.public_key(), vo);
  EXPECT_EQ(r.verdict, Verdict::valid) << r.detail;
  auto back = from_json<SignedManifest>(to_json(*s));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->signature, s->signature);
  EXPECT_EQ(*canonical_bytes(back->manifest), *canonical_bytes(s->manifest));
}

}  // namespace
}  // namespace mcp::trust
