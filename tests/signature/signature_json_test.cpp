// ServerSignature on the wire: the proposal's example, round trips, and the limits.
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "mcp/trust/jcs.hpp"

namespace mcp {
namespace {

using sigtest::kProposalSignature;

TEST(SignatureJson, ParsesTheProposalsExample) {
  auto s = parse_server_signature_text(kProposalSignature);
  ASSERT_TRUE(s) << s.error().message;
  ASSERT_EQ(s->tools.size(), 1u);
  const SignatureTool& t = s->tools[0];
  EXPECT_EQ(t.tool.name, "manage_files");
  EXPECT_TRUE(t.annotations_array);
  ASSERT_EQ(t.annotations.size(), 2u);
  EXPECT_EQ(t.annotations[0].read_only_hint, true);
  EXPECT_EQ(t.annotations[1].destructive_hint, true);
  EXPECT_FALSE(t.tool.annotations.has_value());
}

TEST(SignatureJson, RoundTripKeepsTheCanonicalBytes) {
  auto canon_in = trust::canonicalize_text(kProposalSignature);
  ASSERT_TRUE(canon_in);
  auto bytes = signature_canonical_bytes(sigtest::proposal_signature());
  ASSERT_TRUE(bytes);
  EXPECT_EQ(*bytes, *canon_in);
}

TEST(SignatureJson, OneObjectStaysAnObjectAndAnArrayOfOneStaysAnArray) {
  auto one = parse_server_signature(json::parse(
      R"({"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]})"));
  ASSERT_TRUE(one);
  EXPECT_TRUE(to_json(one->tools[0]).as_object().at("annotations").is_object());
  auto arr = parse_server_signature(json::parse(
      R"({"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":[{"readOnlyHint":true}]}]})"));
  ASSERT_TRUE(arr);
  EXPECT_TRUE(to_json(arr->tools[0]).as_object().at("annotations").is_array());
}

TEST(SignatureJson, AllFourListsAndUnknownMembersSurvive) {
  const char* text = R"({"tools":[],"prompts":[{"name":"p","arguments":[{"name":"x"}]}],
    "resources":[{"uri":"file:///a","name":"a"}],"resourceTemplates":[{"uriTemplate":"file:///{p}","name":"t"}],
    "x-later":{"k":1}})";
  auto s = parse_server_signature_text(text);
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->prompts.size(), 1u);
  EXPECT_EQ(s->resources.size(), 1u);
  EXPECT_EQ(s->resource_templates.size(), 1u);
  EXPECT_TRUE(s->extra.contains("x-later"));
  EXPECT_NE(s->find_prompt("p"), nullptr);
  EXPECT_NE(s->find_resource("file:///a"), nullptr);
  EXPECT_NE(s->find_resource_template("file:///{p}"), nullptr);
  EXPECT_EQ(s->find_tool("nope"), nullptr);
}

TEST(SignatureJson, ErrorsNameThePath) {
  auto bad = parse_server_signature(json::parse(R"({"tools":[{"name":"a","inputSchema":{}},{"name":"b","annotations":[{},7]}]})"));
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("signature.tools[1].annotations[1]"), std::string::npos) << bad.error().message;
  auto notlist = parse_server_signature(json::parse(R"({"prompts":{}})"));
  ASSERT_FALSE(notlist);
  EXPECT_NE(notlist.error().message.find("signature.prompts"), std::string::npos);
}

TEST(SignatureJson, RefusesAKeyDeclaredTwice) {
  auto dup = parse_server_signature(json::parse(
      R"({"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]})"));
  ASSERT_FALSE(dup);
  EXPECT_NE(dup.error().message.find("'a' is declared twice"), std::string::npos) << dup.error().message;
}

TEST(SignatureJson, TextIsParsedStrictly) {
  // Boost.JSON would keep one of the two "tools"; a signature must not be ambiguous.
  auto dup = parse_server_signature_text(R"({"tools":[],"tools":[{"name":"x","inputSchema":{}}]})");
  EXPECT_FALSE(dup);
}

// Limits: each refused with a message naming the limit, and data {"limit": name}.
void expect_limit(const Result<ServerSignature>& r, std::string_view limit) {
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("SignatureLimits::" + std::string(limit)), std::string::npos) << r.error().message;
  ASSERT_TRUE(r.error().data);
  EXPECT_EQ(r.error().data->at("limit"), json::value(limit));
}

TEST(SignatureLimits, SizeIsRefusedWithAClearError) {
  SignatureLimits l;
  l.max_bytes = 100;
  expect_limit(parse_server_signature_text(kProposalSignature, l), "max_bytes");
  expect_limit(parse_server_signature(json::parse(kProposalSignature), l), "max_bytes");
  EXPECT_GE(SignatureLimits{}.max_bytes, std::size_t{1} << 20);  // a sensible default
}

TEST(SignatureLimits, ItemsVariantsAndDepth) {
  SignatureLimits l;
  l.max_items = 1;
  expect_limit(parse_server_signature(json::parse(R"({"prompts":[{"name":"a"},{"name":"b"}]})"), l), "max_items");
  SignatureLimits v;
  v.max_annotation_variants = 1;
  expect_limit(parse_server_signature(json::parse(kProposalSignature), v), "max_annotation_variants");
  SignatureLimits d;
  d.max_depth = 3;
  expect_limit(parse_server_signature(json::parse(kProposalSignature), d), "max_depth");
}

TEST(SignatureDigest, IgnoresKeyOrderAndNumberSpelling) {
  auto a = parse_server_signature(json::parse(R"({"tools":[{"name":"t","inputSchema":{"type":"object","maxItems":1}}]})"));
  auto b = parse_server_signature(json::parse(R"({"tools":[{"inputSchema":{"maxItems":1.0,"type":"object"},"name":"t"}]})"));
  ASSERT_TRUE(a && b);
  EXPECT_TRUE(same_signature(*a, *b));
  auto digest = signature_digest(*a);
  ASSERT_TRUE(digest);
  EXPECT_EQ(digest->rfind("sha256:", 0), 0u);
  b->tools[0].tool.description = "changed";
  EXPECT_FALSE(same_signature(*a, *b));
}

}  // namespace
}  // namespace mcp
