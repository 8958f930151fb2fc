#include "mcp/protocol/uri_template.hpp"

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
  for (const char* bad : {"test://{id", "test://{}", "test://{a b}", "test://x}", "x{?q}/more", "x{?q}{/p}"}) {
    auto t = UriTemplate::parse(bad);
    EXPECT_FALSE(t) << bad;
    if (!t) {
      EXPECT_EQ(t.error().code, -32602);
    }
  }
}

TEST(UriTemplate, ListsVariableNames) {
  auto t = UriTemplate::parse("a://{x}/{+y}{?z}");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->variable_names(), (std::vector<std::string>{"x", "y", "z"}));
}

TEST(UriTemplate, LastLiteralEndsTheUriAndEarlierOnesMatchLazily) {
  auto t = UriTemplate::parse("a://{x}-v2");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->match("a://abc-v2-v2")->at("x"), "abc-v2");  // the template's last literal ends the URI
  auto mid = UriTemplate::parse("a://{x}-{y}/end");
  ASSERT_TRUE(mid);
  auto m = mid->match("a://p-q-r/end");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("x"), "p");  // a middle literal: its first occurrence
  EXPECT_EQ(m->at("y"), "q-r");
}

TEST(UriTemplate, AdjacentExpressionsSplitAtTheSecondOnesPrefix) {
  auto t = UriTemplate::parse("fs://{/dir*}{/file}");
  ASSERT_TRUE(t);
  auto m = t->match("fs:///a/b/c.txt");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("dir"), "a/b");
  EXPECT_EQ(m->at("file"), "c.txt");
  auto ext = UriTemplate::parse("doc://{name}{.ext}");
  ASSERT_TRUE(ext);
  auto e = ext->match("doc://report.final.pdf");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->at("name"), "report.final");
  EXPECT_EQ(e->at("ext"), "pdf");
  // Without a separator nothing tells where {a} ends: refused, not guessed.
  for (const char* ambiguous : {"x://{a}{b}", "x://{+a}{b}", "x://{#a}{+b}"}) {
    auto bad = UriTemplate::parse(ambiguous);
    ASSERT_FALSE(bad) << ambiguous;
    EXPECT_NE(bad.error().message.find("adjacent"), std::string::npos);
  }
}

TEST(UriTemplate, MatrixAndLabelExpressions) {
  auto t = UriTemplate::parse("m://x{;a,b}");
  ASSERT_TRUE(t);
  auto m = t->match("m://x;a=1;b");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("a"), "1");
  EXPECT_EQ(m->at("b"), "");
  EXPECT_FALSE(t->match("m://x;c=1;b"));
  auto dots = UriTemplate::parse("h://www{.domain,tld}");
  ASSERT_TRUE(dots);
  auto d = dots->match("h://www.example.com");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->at("domain"), "example");
  EXPECT_EQ(d->at("tld"), "com");
}

// The review's crash: a templated URI tens of kilobytes long overflowed the stack of std::regex.
// Matching is now a linear scan; very long URIs are refused outright past kMaxMatchBytes.
TEST(UriTemplate, HostileLongUrisAreMatchedInLinearTimeOrRefused) {
  auto t = UriTemplate::parse("test://template/{id}/data");
  ASSERT_TRUE(t);
  const std::string id(40'000, 'a');
  auto m = t->match("test://template/" + id + "/data");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("id").size(), id.size());
  EXPECT_FALSE(t->match("test://template/" + id + "/dat"));
  EXPECT_FALSE(t->match("test://template/" + std::string(UriTemplate::kMaxMatchBytes, 'a') + "/data"));
  auto any = UriTemplate::parse("file:///{+path}");
  ASSERT_TRUE(any);
  EXPECT_TRUE(any->match("file:///" + std::string(60'000, '/')));
  // Many occurrences of a middle literal, none followed by a match: still one pass per literal.
  auto mid = UriTemplate::parse("x://{+a}/b/{c}/end");
  ASSERT_TRUE(mid);
  std::string hostile = "x://";
  for (int i = 0; i < 10'000; ++i) hostile += "/b/";
  EXPECT_FALSE(mid->match(hostile));
}
