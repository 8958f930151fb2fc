// RFC 8785: the authors' vectors byte for byte, all 100,000 number lines, and every rejection.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "mcp/trust/jcs.hpp"
#include "test_util.hpp"

namespace mcp::trust {
namespace {

std::string canon(std::string_view text) {
  auto r = canonicalize_text(text);
  return r ? *r : "ERROR: " + r.error().message;
}

std::string reject_reason(std::string_view text, const JcsLimits& limits = {}) {
  auto r = canonicalize_text(text, limits);
  return r ? "accepted as " + *r : r.error().message;
}

class JcsVector : public ::testing::TestWithParam<const char*> {};

TEST_P(JcsVector, MatchesOutputAndOuthex) {
  const auto dir = test::data_dir() / "jcs";
  const std::string name = GetParam();
  const std::string input = test::read_file(dir / "input" / (name + ".json"));
  const std::string expected = test::read_file(dir / "output" / (name + ".json"));
  auto got = canonicalize_text(input);
  ASSERT_TRUE(got) << got.error().message;
  EXPECT_EQ(*got, expected);

  // outhex is the same bytes written as hex pairs separated by whitespace.
  std::istringstream hex(test::read_file(dir / "outhex" / (name + ".txt")));
  std::string bytes, pair;
  while (hex >> pair) bytes.push_back(static_cast<char>(std::stoi(pair, nullptr, 16)));
  EXPECT_EQ(*got, bytes);

  // Canonical output is a fixed point.
  EXPECT_EQ(canon(*got), *got);
}

INSTANTIATE_TEST_SUITE_P(Rfc8785, JcsVector,
                         ::testing::Values("arrays", "french", "structures", "unicode", "values", "weird"));

TEST(JcsNumbers, AllHundredThousandLines) {
  std::istringstream lines(test::read_file(test::data_dir() / "jcs" / "es6-numbers-100k.txt"));
  std::string line;
  std::size_t count = 0, failures = 0;
  while (std::getline(lines, line)) {
    const auto comma = line.find(',');
    ASSERT_NE(comma, std::string::npos) << line;
    const std::uint64_t bits = std::stoull(line.substr(0, comma), nullptr, 16);
    const std::string expected = line.substr(comma + 1);
    const double d = std::bit_cast<double>(bits);
    std::string got;
    ASSERT_TRUE(append_number(got, d)) << line;
    // The printed form must also parse back to the same double through the strict parser, and
    // re-canonicalize to itself: this checks the parser's rounding on the same 100,000 values.
    const std::string reparsed = canon(expected);
    if (got != expected || reparsed != expected) {
      if (++failures <= 10) ADD_FAILURE() << line << " printed " << got << ", reparsed " << reparsed;
    }
    ++count;
  }
  EXPECT_EQ(count, 100000u);
  EXPECT_EQ(failures, 0u);
}

TEST(JcsNumbers, EdgeForms) {
  EXPECT_EQ(canon("-0"), "0");
  EXPECT_EQ(canon("-0.0"), "0");
  EXPECT_EQ(canon("1.0"), "1");
  EXPECT_EQ(canon("1E2"), "100");
  EXPECT_EQ(canon("1e21"), "1e+21");
  EXPECT_EQ(canon("1e-7"), "1e-7");
  EXPECT_EQ(canon("0.000001"), "0.000001");
  EXPECT_EQ(canon("123456789012345678901234567890"), "1.2345678901234568e+29");
  EXPECT_EQ(canon("9007199254740993"), "9007199254740992");  // rounds to the nearest double
  EXPECT_EQ(canon("-9007199254740993"), "-9007199254740992");
  EXPECT_EQ(canon("999999999999999999"), "1000000000000000000");  // 18 digits: int64 path
  EXPECT_EQ(canon("1e-400"), "0");                                  // underflow is zero, as in JSON.parse
  EXPECT_EQ(canon("1.7976931348623157e308"), "1.7976931348623157e+308");
  EXPECT_EQ(canon("5e-324"), "5e-324");
}

TEST(JcsStrings, EscapesAsJsonStringify) {
  EXPECT_EQ(canon(R"("\u0000\u0001\u001f\b\f\n\r\t\"\\\/")"), R"("\u0000\u0001\u001f\b\f\n\r\t\"\\/")");
  EXPECT_EQ(canon(R"("\u007f\u0080\u2028\u2029")"), "\"\x7f\xc2\x80\xe2\x80\xa8\xe2\x80\xa9\"");
  EXPECT_EQ(canon(R"("\ud83d\ude02")"), "\"\xf0\x9f\x98\x82\"");
  EXPECT_EQ(canon(R"("\u20AC")"), "\"\xe2\x82\xac\"");  // upper-case hex in escapes is fine on input
}

TEST(JcsOrder, Utf16CodeUnits) {
  // U+1F600 (surrogates D83D DE00) sorts before U+E000 and U+FFFD in UTF-16, after them in UTF-8.
  const std::string astral = "\xf0\x9f\x98\x80", private_use = "\xee\x80\x80", replacement = "\xef\xbf\xbd";
  EXPECT_TRUE(utf16_less(astral, private_use));
  EXPECT_TRUE(utf16_less(astral, replacement));
  EXPECT_FALSE(utf16_less(private_use, astral));
  EXPECT_TRUE(utf16_less("\xed\x9f\xbf", astral));  // U+D7FF < D83D
  EXPECT_TRUE(utf16_less("a", "b"));
  EXPECT_TRUE(utf16_less("a", "ab"));
  EXPECT_FALSE(utf16_less("ab", "ab"));
  EXPECT_TRUE(utf16_less("10", "9"));  // strings, not numbers
  const std::string doc = "{\"" + replacement + "\":1,\"" + private_use + "\":2,\"" + astral + "\":3,\"z\":4}";
  EXPECT_EQ(canon(doc), "{\"z\":4,\"" + astral + "\":3,\"" + private_use + "\":2,\"" + replacement + "\":1}");
}

TEST(JcsReject, DuplicateKeysAfterUnescaping) {
  EXPECT_NE(reject_reason(R"({"a":1,"a":2})").find("duplicate member name \"a\""), std::string::npos);
  EXPECT_NE(reject_reason(R"({"a":1,"\u0061":2})").find("duplicate"), std::string::npos);
  EXPECT_NE(reject_reason(R"({"x":{"b":1,"b":1}})").find("duplicate"), std::string::npos);
  EXPECT_EQ(canon(R"([{"a":1},{"a":2}])"), R"([{"a":1},{"a":2}])");  // same name in sibling objects is fine
}

TEST(JcsReject, LoneSurrogates) {
  EXPECT_NE(reject_reason(R"("\ud800")").find("lone high surrogate"), std::string::npos);
  EXPECT_NE(reject_reason(R"("\ud800x")").find("lone high surrogate"), std::string::npos);
  EXPECT_NE(reject_reason(R"("\ud800\u0041")").find("lone high surrogate"), std::string::npos);
  EXPECT_NE(reject_reason(R"("\udc00")").find("lone low surrogate"), std::string::npos);
  EXPECT_NE(reject_reason(R"("\ude02\ud83d")").find("lone low surrogate"), std::string::npos);
  EXPECT_NE(reject_reason(R"({"\udfff":1})").find("lone low surrogate"), std::string::npos);
  // The same code points written raw (CESU-style UTF-8) are invalid UTF-8.
  EXPECT_NE(reject_reason("\"\xed\xa0\x80\"").find("invalid UTF-8"), std::string::npos);
}

TEST(JcsReject, InvalidUtf8) {
  for (const char* bad : {"\"\x80\"", "\"\xc0\xaf\"", "\"\xc1\xbf\"", "\"\xe0\x80\xaf\"", "\"\xf0\x80\x80\xaf\"",
                          "\"\xf4\x90\x80\x80\"", "\"\xf5\x80\x80\x80\"", "\"\xff\"", "\"\xc3\"", "\"\xe2\x82\"",
                          "{\"\xc3\x28\":1}"}) {
    EXPECT_NE(reject_reason(bad).find("invalid UTF-8"), std::string::npos) << bad;
  }
}

TEST(JcsReject, NonFiniteAndBadNumbers) {
  EXPECT_NE(reject_reason("1e400").find("out of the range"), std::string::npos);
  EXPECT_NE(reject_reason("-1e400").find("out of the range"), std::string::npos);
  for (const char* bad : {"NaN", "Infinity", "-Infinity", "01", "-", "1.", ".5", "+1", "1e", "1e+", "0x10", "-01"})
    EXPECT_FALSE(canonicalize_text(bad)) << bad;
}

TEST(JcsReject, Syntax) {
  const std::vector<std::string> bad = {"", " ", "{", "[", "[1,]", "{\"a\":1,}", "{\"a\"}", "{a:1}", "'a'", "\"a",
                                        "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "tru", "nul", "[1] 2", "\"a\tb\"",
                                        "\"a\nb\"", "{\"a\" 1}", "[1 2]", "\xef\xbb\xbf{}", std::string("{}\0", 3)};
  for (const auto& text : bad) EXPECT_FALSE(canonicalize_text(text)) << text;
  EXPECT_NE(reject_reason("\xef\xbb\xbf{}").find("byte-order mark"), std::string::npos);
  EXPECT_NE(reject_reason("[1] 2").find("at byte 4"), std::string::npos);
}

TEST(JcsLimits, DepthAndSize) {
  const std::string deep = std::string(300, '[') + std::string(300, ']');
  EXPECT_NE(reject_reason(deep).find("nesting deeper"), std::string::npos);
  const std::string very_deep = std::string(1'000'000, '[');  // must fail cleanly, not overflow the stack
  EXPECT_NE(reject_reason(very_deep).find("nesting deeper"), std::string::npos);
  EXPECT_TRUE(canonicalize_text(std::string(256, '[') + std::string(256, ']')));
  EXPECT_NE(reject_reason("[1,2,3]", JcsLimits{8, 4}).find("exceeds the limit"), std::string::npos);
}

TEST(JcsValue, CanonicalizesDom) {
  json::value v = {{"b", 1.0}, {"a", {1, 2.5, nullptr, true, "x"}}, {"c", json::object{}}};
  auto r = canonicalize(v);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, R"({"a":[1,2.5,null,true,"x"],"b":1,"c":{}})");
  EXPECT_EQ(*canonicalize(json::value(std::int64_t{1} << 60)), "1152921504606847000");  // String(2**60) in JS
  EXPECT_EQ(*canonicalize(json::value(std::uint64_t{18446744073709551615u})), "18446744073709552000");
  EXPECT_EQ(*canonicalize(json::value(-0.0)), "0");
}

TEST(JcsValue, RejectsWhatJsonCannotHold) {
  EXPECT_FALSE(canonicalize(json::value(std::numeric_limits<double>::quiet_NaN())));
  EXPECT_FALSE(canonicalize(json::value(std::numeric_limits<double>::infinity())));
  EXPECT_FALSE(canonicalize(json::value(json::string("\xff"))));
  json::object o;
  o["\xed\xa0\x80"] = 1;  // a surrogate encoded in UTF-8
  EXPECT_FALSE(canonicalize(o));
  json::value deep = json::array{};
  for (int i = 0; i < 300; ++i) deep = json::array{deep};
  EXPECT_FALSE(canonicalize(deep));
}

TEST(JcsValue, AnObjectAsItselfOrAsAValueIsTheSame) {
  // The object form (a tool call's arguments, not copied into a value) writes the same bytes and
  // counts depth the same way: an object nested to the limit passes both, one deeper fails both.
  const json::object o = {{"b", 1.0}, {"a", {1, 2.5, nullptr, true, "x"}}, {"c", json::object{{"\u00e9", "\n"}}}};
  ASSERT_TRUE(canonicalize(o));
  EXPECT_EQ(*canonicalize(o), *canonicalize(json::value(o)));
  const JcsLimits limits{};
  auto nested = [](std::size_t levels) {
    json::object inner;
    for (std::size_t i = 1; i < levels; ++i) inner = json::object{{"k", std::move(inner)}};
    return inner;
  };
  const json::object at_limit = nested(limits.max_depth), past_limit = nested(limits.max_depth + 1);
  EXPECT_TRUE(canonicalize(at_limit));
  EXPECT_TRUE(canonicalize(json::value(at_limit)));
  EXPECT_FALSE(canonicalize(past_limit));
  EXPECT_FALSE(canonicalize(json::value(past_limit)));
}

TEST(JcsValue, BoostParserDuplicatesAreAlreadyResolved) {
  // Why the text entry point has its own parser: Boost.JSON accepts duplicate names and keeps one,
  // so a verifier working from its DOM cannot even see that the text was ambiguous.
  auto v = json::parse(R"({"a":1,"a":2})");
  EXPECT_EQ(v.as_object().size(), 1u);
  EXPECT_FALSE(canonicalize_text(R"({"a":1,"a":2})"));
}

TEST(JcsParse, IntegersAndDoubles) {
  auto v = parse_strict(R"({"i":1750000000000,"d":1.5,"big":12345678901234567890})");
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->at("i").is_int64());
  EXPECT_EQ(v->at("i").get_int64(), 1750000000000);
  EXPECT_TRUE(v->at("d").is_double());
  EXPECT_TRUE(v->at("big").is_double());
}

}  // namespace
}  // namespace mcp::trust
