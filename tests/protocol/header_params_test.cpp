// x-mcp-header annotations (mcp/protocol/header_params.hpp): every rule of server/tools.mdx, and
// the text each argument type gives its header.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include "mcp/protocol/header_params.hpp"

using namespace mcp;

namespace {

json::object schema_with(json::object properties) {
  return json::object{{"type", "object"}, {"properties", std::move(properties)}};
}

json::object annotated(std::string_view type, std::string_view name) {
  return json::object{{"type", type}, {"x-mcp-header", name}};
}

TEST(HeaderParams, ReadsEachAnnotatedPropertyWithItsPathAndType) {
  auto schema = schema_with({{"region", annotated("string", "Region")},
                             {"priority", annotated("integer", "Priority")},
                             {"verbose", annotated("boolean", "Verbose")},
                             {"query", json::object{{"type", "string"}}},
                             {"target", json::object{{"type", "object"},
                                                     {"properties", json::object{{"zone", annotated("string", "Zone")}}}}}});
  auto params = header_params(schema);
  ASSERT_TRUE(params) << params.error().message;
  ASSERT_EQ(params->size(), 4u);
  std::map<std::string, HeaderParam> by_name;
  for (const auto& p : *params) by_name[p.name] = p;
  EXPECT_EQ(by_name.at("Region").path, std::vector<std::string>{"region"});
  EXPECT_EQ(by_name.at("Priority").type, HeaderParamType::integer);
  EXPECT_EQ(by_name.at("Verbose").type, HeaderParamType::boolean);
  EXPECT_EQ(by_name.at("Zone").path, (std::vector<std::string>{"target", "zone"}));
}

TEST(HeaderParams, NoAnnotationIsNoParameter) {
  auto params = header_params(schema_with({{"a", json::object{{"type", "string"}}}}));
  ASSERT_TRUE(params);
  EXPECT_TRUE(params->empty());
}

struct Invalid {
  const char* what;
  json::object schema;
  const char* says;
};

TEST(HeaderParams, EachBrokenRuleIsRefusedSayingWhich) {
  const std::vector<Invalid> cases = {
      {"empty", schema_with({{"v", annotated("string", "")}}), "non-empty"},
      {"not a string", schema_with({{"v", json::object{{"type", "string"}, {"x-mcp-header", 7}}}}), "non-empty string"},
      {"space", schema_with({{"v", annotated("string", "My Region")}}), "RFC 9110"},
      {"colon", schema_with({{"v", annotated("string", "Region:Primary")}}), "RFC 9110"},
      {"non-ASCII", schema_with({{"v", annotated("string", "R\xc3\xa9gion")}}), "RFC 9110"},
      {"control", schema_with({{"v", annotated("string", "Region\t1")}}), "RFC 9110"},
      {"same name", schema_with({{"a", annotated("string", "Region")}, {"b", annotated("string", "Region")}}), "repeats"},
      {"same name, other case", schema_with({{"a", annotated("string", "MyField")}, {"b", annotated("string", "myfield")}}),
       "repeats"},
      {"number", schema_with({{"v", annotated("number", "Score")}}), "string, integer or boolean"},
      {"object", schema_with({{"v", annotated("object", "Data")}}), "string, integer or boolean"},
      {"array", schema_with({{"v", annotated("array", "Items")}}), "string, integer or boolean"},
      {"null", schema_with({{"v", annotated("null", "Nil")}}), "string, integer or boolean"},
      {"no type", schema_with({{"v", json::object{{"x-mcp-header", "V"}}}}), "string, integer or boolean"},
      {"through items",
       schema_with({{"list", json::object{{"type", "array"}, {"items", annotated("string", "Item")}}}}), "properties alone"},
      {"through anyOf", json::object{{"type", "object"}, {"anyOf", json::array{schema_with({{"v", annotated("string", "V")}})}}},
       "properties alone"},
      {"through $defs", json::object{{"type", "object"}, {"$defs", json::object{{"d", annotated("string", "D")}}}},
       "properties alone"},
      {"on the root", json::object{{"type", "object"}, {"x-mcp-header", "Root"}}, "properties alone"},
  };
  for (const auto& c : cases) {
    auto params = header_params(c.schema);
    ASSERT_FALSE(params) << c.what;
    EXPECT_EQ(params.error().code, error_code::kInvalidParams) << c.what;
    EXPECT_NE(params.error().message.find(c.says), std::string::npos) << c.what << ": " << params.error().message;
  }
}

TEST(HeaderParams, ADeepPropertyIsFoundThroughEveryLevel) {
  // As deep as the JSON-RPC decoder lets a peer nest (its depth limit is 64 by default).
  json::object schema{{"type", "string"}, {"x-mcp-header", "Deep"}};
  for (int i = 0; i < 30; ++i) schema = schema_with({{"p" + std::to_string(i), std::move(schema)}});
  auto params = header_params(schema);
  ASSERT_TRUE(params) << params.error().message;
  ASSERT_EQ(params->size(), 1u);
  EXPECT_EQ(params->front().path.size(), 30u);
  EXPECT_EQ(params->front().path.front(), "p29");
}

// The largest resident size this process has had, in bytes (Linux: ru_maxrss is in KiB).
long peak_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss * 1024L;
}

// A peer's schema, deep under long names with a wide array at the bottom (~120 KB of JSON): a walk
// that copied the property path into each node it visited kept 10,000 copies of 100 KB here.
TEST(HeaderParams, ADeepSchemaUnderLongNamesCostsItsSizeNotItsDepthTimesItsWidth) {
  json::array wide;
  for (int i = 0; i < 10'000; ++i) wide.emplace_back(i);
  json::object deep{{"type", "integer"}, {"enum", std::move(wide)}};
  for (int i = 0; i < 25; ++i) deep = schema_with({{std::string(4000, static_cast<char>('a' + i)), std::move(deep)}});
  json::object schema = schema_with({{"deep", std::move(deep)}, {"region", annotated("string", "Region")}});
  const long before = peak_bytes();
  auto params = header_params(schema);
  const long grew = peak_bytes() - before;
  ASSERT_TRUE(params) << params.error().message;
  ASSERT_EQ(params->size(), 1u);
  EXPECT_EQ(params->front().name, "Region");
  EXPECT_LT(grew, 64L << 20) << "the walk's own memory should be a small multiple of the schema's";
}

TEST(HeaderParams, AnnotationsAreBoundedInNumberAndInTheirPathsBytes) {
  json::object many;
  for (std::size_t i = 0; i <= kMaxHeaderParams; ++i)
    many["p" + std::to_string(i)] = annotated("string", "H" + std::to_string(i));
  auto too_many = header_params(schema_with(std::move(many)));
  ASSERT_FALSE(too_many);
  EXPECT_NE(too_many.error().message.find("at most " + std::to_string(kMaxHeaderParams)), std::string::npos)
      << too_many.error().message;

  json::object long_names;
  for (int i = 0; i < 3; ++i)
    long_names[std::string(kMaxHeaderPathBytes / 2, static_cast<char>('a' + i))] =
        annotated("string", "L" + std::to_string(i));
  auto too_long = header_params(schema_with(std::move(long_names)));
  ASSERT_FALSE(too_long);
  EXPECT_NE(too_long.error().message.find("paths are too long"), std::string::npos) << too_long.error().message;
  EXPECT_LT(too_long.error().message.size(), 512u) << "the error quotes the path cut short";

  json::object at_the_bound;
  for (std::size_t i = 0; i < kMaxHeaderParams; ++i)
    at_the_bound["p" + std::to_string(i)] = annotated("string", "H" + std::to_string(i));
  auto fits = header_params(schema_with(std::move(at_the_bound)));
  ASSERT_TRUE(fits) << fits.error().message;
  EXPECT_EQ(fits->size(), kMaxHeaderParams);
}

TEST(HeaderParamText, ConvertsStringsIntegersAndBooleansAndOmitsTheRest) {
  const HeaderParam s{{"s"}, "S", HeaderParamType::string};
  const HeaderParam i{{"i"}, "I", HeaderParamType::integer};
  const HeaderParam b{{"b"}, "B", HeaderParamType::boolean};
  const HeaderParam nested{{"o", "z"}, "Z", HeaderParamType::string};
  json::object args{{"s", "us west 1"}, {"i", -7}, {"b", false}, {"o", json::object{{"z", "eu"}}}};
  EXPECT_EQ(header_param_text(args, s), "us west 1");
  EXPECT_EQ(header_param_text(args, i), "-7");
  EXPECT_EQ(header_param_text(args, b), "false");
  EXPECT_EQ(header_param_text(args, nested), "eu");
  EXPECT_FALSE(header_param_text(json::object{}, s));
  EXPECT_FALSE(header_param_text(json::object{{"s", nullptr}}, s));
  EXPECT_FALSE(header_param_text(json::object{{"s", json::array{}}}, s));
  EXPECT_FALSE(header_param_text(json::object{{"i", 1.5}}, i));
  EXPECT_EQ(header_param_text(json::object{{"i", 9007199254740991}}, i), "9007199254740991");
  EXPECT_FALSE(header_param_text(json::object{{"i", 9007199254740992}}, i));  // past 2^53-1
  EXPECT_FALSE(header_param_text(json::object{{"o", "not an object"}}, nested));
}

}  // namespace
