#include "mcp/server/uri_template.hpp"

#include <gtest/gtest.h>

using mcp::UriTemplate;

TEST(UriTemplate, MatchesSimpleVariables) {
  auto t = UriTemplate::parse("test://template/{id}/data");
  ASSERT_TRUE(t);
  auto m = t->match("test://template/123/data");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("id"), "123");
  EXPECT_FALSE(t->match("test://template/1/2/data"));
  EXPECT_FALSE(t->match("test://template//data"));
  EXPECT_FALSE(t->match("test://other/123/data"));
}

TEST(UriTemplate, PercentDecodesValuesAndEncodesOnExpand) {
  auto t = UriTemplate::parse("file:///{name}");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->match("file:///a%20b")->at("name"), "a b");
  EXPECT_EQ(t->expand({{"name", "a b"}}), "file:///a%20b");
}

TEST(UriTemplate, ReservedAndPathOperators) {
  auto plus = UriTemplate::parse("file://{+path}");
  ASSERT_TRUE(plus);
  EXPECT_EQ(plus->match("file:///etc/hosts")->at("path"), "/etc/hosts");
  auto seg = UriTemplate::parse("repo://x{/owner,name}");
  ASSERT_TRUE(seg);
  auto m = seg->match("repo://x/acme/widgets");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("owner"), "acme");
  EXPECT_EQ(m->at("name"), "widgets");
  auto exploded = UriTemplate::parse("fs://root{/path*}");
  ASSERT_TRUE(exploded);
  EXPECT_EQ(exploded->match("fs://root/a/b/c")->at("path"), "a/b/c");
}

TEST(UriTemplate, QueryParametersInAnyOrderAndOptional) {
  auto t = UriTemplate::parse("search://items{?q,limit}");
  ASSERT_TRUE(t);
  auto m = t->match("search://items?limit=5&q=red%20shoes");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("q"), "red shoes");
  EXPECT_EQ(m->at("limit"), "5");
  auto bare = t->match("search://items");
  ASSERT_TRUE(bare);
  EXPECT_TRUE(bare->empty());
  EXPECT_EQ(t->expand({{"q", "x"}, {"limit", "2"}}), "search://items?q=x&limit=2");
}

TEST(UriTemplate, RejectsMalformedTemplates) {
  for (const char* bad : {"test://{id", "test://{}", "test://{a b}", "test://x}", "x{?q}/more"}) {
    auto t = UriTemplate::parse(bad);
    EXPECT_FALSE(t) << bad;
    if (!t) EXPECT_EQ(t.error().code, -32602);
  }
}

TEST(UriTemplate, ListsVariableNames) {
  auto t = UriTemplate::parse("a://{x}/{+y}{?z}");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->variable_names(), (std::vector<std::string>{"x", "y", "z"}));
}
