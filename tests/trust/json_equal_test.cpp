// canonically_equal: equality as RFC 8785 bytes would decide it, checked against the canonical
// serialisation itself, and on nesting far deeper than any recursion could take.
#include "mcp/trust/json_equal.hpp"

#include <gtest/gtest.h>

#include "mcp/trust/jcs.hpp"

using namespace mcp;
using trust::canonically_equal;

namespace {
json::value parse(std::string_view s) { return json::parse(s); }

// A value nested `depth` times: [[[...[leaf]...]]], built without recursion.
json::value nested(std::size_t depth, json::value leaf) {
  json::value v = std::move(leaf);
  for (std::size_t i = 0; i < depth; ++i) v = json::array{std::move(v)};
  return v;
}
}  // namespace

TEST(CanonicallyEqual, AgreesWithTheCanonicalBytes) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"a":1,"b":[true,null,"x"]})", R"({"b":[true,null,"x"],"a":1})"},  // member order
      {"1", "1.0"},                                                            // numbers as numbers
      {"-0", "0"},
      {"1e2", "100"},
      {R"({"a":1})", R"({"a":2})"},
      {R"({"a":1})", R"({"a":1,"b":1})"},
      {R"([1,2])", R"([2,1])"},  // array order matters
      {R"("é")", R"("\u00e9")"},
      {"null", "false"},
      {R"({"a":{"b":[1,{"c":"d"}]}})", R"({"a":{"b":[1,{"c":"e"}]}})"},
  };
  for (auto [x, y] : cases) {
    auto a = parse(x), b = parse(y);
    auto ca = trust::canonicalize(a), cb = trust::canonicalize(b);
    ASSERT_TRUE(ca && cb);
    EXPECT_EQ(canonically_equal(a, b), *ca == *cb) << x << " vs " << y;
    EXPECT_EQ(canonically_equal(b, a), *ca == *cb) << y << " vs " << x;
  }
}

TEST(CanonicallyEqual, ObjectsCompareAsMemberSets) {
  auto a = parse(R"({"x":[1,{"y":2}],"z":null})").as_object();
  auto b = parse(R"({"z":null,"x":[1.0,{"y":2}]})").as_object();
  EXPECT_TRUE(canonically_equal(a, b));
  b["z"] = 0;
  EXPECT_FALSE(canonically_equal(a, b));
}

TEST(CanonicallyEqual, DeepNestingUsesNoRecursion) {
  // 200,000 levels: a recursive comparison would overflow the stack long before.
  auto a = nested(200'000, json::value("leaf"));
  auto b = nested(200'000, json::value("leaf"));
  EXPECT_TRUE(canonically_equal(a, b));
  auto c = nested(200'000, json::value("other"));
  EXPECT_FALSE(canonically_equal(a, c));
  // Boost.JSON destroys nested values recursively; unwind them by hand.
  for (json::value* v : {&a, &b, &c}) {
    while (v->is_array() && !v->as_array().empty()) {
      json::value inner = std::move(v->as_array()[0]);
      *v = std::move(inner);
    }
  }
}
