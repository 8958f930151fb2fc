// The gateway's policy by name and annotation (src/gateway/policy.hpp) and its configuration keys.
#include <gtest/gtest.h>

#include "gateway/config.hpp"
#include "gateway/policy.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

TEST(GatewayGlob, MatchesWholeKeysWithStarAndQuestionMark) {
  EXPECT_TRUE(glob_match("read_*", "read_file"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*delete*", "bulk_delete_rows"));
  EXPECT_TRUE(glob_match("file:///srv/*", "file:///srv/a/b.txt"));
  EXPECT_TRUE(glob_match("t?p", "tap"));
  EXPECT_FALSE(glob_match("read_*", "unread_file"));
  EXPECT_FALSE(glob_match("t?p", "tp"));
  EXPECT_FALSE(glob_match("abc", "abcd"));
  EXPECT_TRUE(glob_match("a*b*c*d", "axxbyyczzd"));
  EXPECT_FALSE(glob_match("a*b*c*d", "axxbyyczz"));
  // Names holding the pattern's own metacharacters are matched as text.
  EXPECT_TRUE(glob_match("*delete*", "*_delete_all"));
  EXPECT_TRUE(glob_match("a*b", "a*xb"));
  EXPECT_TRUE(glob_match("*", "*"));
  EXPECT_TRUE(glob_match("x?z", "x*z"));
  // A hostile pattern-and-name pair stays quadratic at worst, never exponential or recursive.
  EXPECT_FALSE(glob_match(std::string(200, '*') + "b", std::string(100000, 'a')));
}

TEST(GatewayPolicyRules, DenyWinsThenAllowThenHints) {
  ItemPolicy p;
  p.allow = {"note_*"};
  p.deny = {"note_secret"};
  p.deny_hints = {"openWorldHint"};
  p.allow_hinted = {"note_fetch"};
  Tool closed;
  closed.annotations = ToolAnnotations{.open_world_hint = false};
  Tool unannotated;  // open-world by default
  EXPECT_FALSE(p.denies(ListKind::tools, "note_read", &closed));
  EXPECT_NE(p.denies(ListKind::tools, "note_secret", &closed).value_or(""), "");
  EXPECT_EQ(p.denies(ListKind::tools, "other", &closed).value_or(""), "it matches no allow pattern");
  EXPECT_NE(p.denies(ListKind::tools, "note_web", &unannotated).value_or("").find("openWorldHint"), std::string::npos);
  EXPECT_FALSE(p.denies(ListKind::tools, "note_fetch", &unannotated));
  // Hints are about tools; a prompt is judged by name only.
  EXPECT_FALSE(p.denies(ListKind::prompts, "note_web", nullptr));
}

TEST(GatewayPolicyRules, ReadOnlyToolsAreNotDestructiveWhateverTheirDefault) {
  ItemPolicy p;
  p.deny_hints = {"destructiveHint"};
  Tool ro;
  ro.annotations = ToolAnnotations{.read_only_hint = true};
  Tool plain;
  Tool gentle;
  gentle.annotations = ToolAnnotations{.destructive_hint = false};
  EXPECT_FALSE(p.denies(ListKind::tools, "ro", &ro));
  EXPECT_TRUE(p.denies(ListKind::tools, "plain", &plain));
  EXPECT_FALSE(p.denies(ListKind::tools, "gentle", &gentle));
}

TEST(GatewayPolicyRules, ReadFromTheConfigWithClearErrors) {
  auto c = parse_config(R"({"mcpServers": {"a": {"command": "x"}},
    "gateway": {"servers": {"a": {"allow": ["r*"], "deny": ["rm"], "denyHints": ["destructiveHint"], "allowHinted": ["rw"]}}}})");
  ASSERT_TRUE(c) << c.error().message;
  const auto& p = c->upstreams.at(0).policy;
  EXPECT_EQ(p.allow, std::vector<std::string>{"r*"});
  EXPECT_EQ(p.deny, std::vector<std::string>{"rm"});
  EXPECT_EQ(p.deny_hints, std::vector<std::string>{"destructiveHint"});
  EXPECT_EQ(p.allow_hinted, std::vector<std::string>{"rw"});
  auto bad_hint = parse_config(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": {"denyHints": ["dangerous"]}}}})");
  ASSERT_FALSE(bad_hint);
  EXPECT_NE(bad_hint.error().message.find("unknown hint"), std::string::npos);
  auto bad_type = parse_config(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": {"deny": "rm"}}}})");
  ASSERT_FALSE(bad_type);
  EXPECT_NE(bad_type.error().message.find("array of strings"), std::string::npos);
}

TEST(GatewayPolicyRules, CapabilityRequirementsFirstMatchingRuleWins) {
  auto c = parse_config(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": {"requireCapabilities": [
      {"items": "ask_*", "capabilities": {"elicitation": {"url": {}}}, "whenMissing": "hide"},
      {"items": "*", "capabilities": {"sampling": {}}}]}}}})");
  ASSERT_TRUE(c) << c.error().message;
  const auto& p = c->upstreams.at(0).policy;
  const CapabilityRequirement* ask = p.requirement("ask_user");
  ASSERT_NE(ask, nullptr);
  EXPECT_EQ(ask->when_missing, CapabilityRequirement::WhenMissing::hide);
  EXPECT_TRUE(ask->capabilities.at("elicitation").as_object().contains("url"));
  const CapabilityRequirement* other = p.requirement("summarize");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->when_missing, CapabilityRequirement::WhenMissing::show);
  EXPECT_TRUE(other->capabilities.contains("sampling"));
  EXPECT_TRUE(p.empty()) << "a requirement denies nothing";
  auto none = parse_config(R"({"mcpServers": {"a": {"command": "x"}}})");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->upstreams.at(0).policy.requirement("ask_user"), nullptr);
}

TEST(GatewayPolicyRules, AMistakenRequirementIsAnErrorNotNoRequirement) {
  auto error_of = [](const std::string& rules) {
    auto c = parse_config(R"({"mcpServers": {"a": {"command": "x"}}, "gateway": {"servers": {"a": {"requireCapabilities": )" +
                          rules + "}}}}");
    return c ? std::string() : c.error().message;
  };
  EXPECT_NE(error_of(R"({"items": "x"})").find("must be an array"), std::string::npos);
  EXPECT_NE(error_of(R"([{"capabilities": {"sampling": {}}}])").find("[0].items"), std::string::npos);
  EXPECT_NE(error_of(R"([{"items": "x", "capabilities": {}}])").find("non-empty object"), std::string::npos);
  EXPECT_NE(error_of(R"([{"items": "x", "capabilities": {"sampling": true}}])").find("capabilities.sampling must be an object"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"items": "x", "capabilities": {"sampling": {}}, "whenMissing": "drop"}])").find("whenMissing"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"items": "x", "capabilities": {"sampling": {}}, "item": "y"}])").find("unknown key \"item\""),
            std::string::npos);
  std::string many = "[";
  for (std::size_t i = 0; i <= kMaxCapabilityRules; ++i) many += std::string(i ? "," : "") + R"({"items": "x", "capabilities": {"sampling": {}}})";
  EXPECT_NE(error_of(many + "]").find("more than 256 rules"), std::string::npos);
}

}  // namespace
