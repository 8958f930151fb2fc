// Helpers shared by the protocol unit tests.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "mcp/json.hpp"

namespace mcp::test {

inline json::value J(std::string_view text) { return json::parse(text); }

// Parses `text` as T, failing the test (and returning T{}) if it does not convert.
template <class T>
T parse_ok(std::string_view text) {
  auto r = from_json<T>(J(text));
  EXPECT_TRUE(r.has_value()) << (r ? std::string() : r.error().describe());
  return r ? std::move(*r) : T{};
}

// The error of converting `v` to T; fails the test if it converts.
template <class T>
Error parse_error(const json::value& v) {
  auto r = from_json<T>(v);
  EXPECT_FALSE(r.has_value()) << "unexpectedly parsed: " << json::serialize(v);
  return r ? Error{} : r.error();
}

// from_json then to_json gives back exactly the input, unknown fields and _meta included.
template <class T>
void expect_round_trip(std::string_view text) {
  json::value in = J(text);
  auto r = from_json<T>(in);
  ASSERT_TRUE(r.has_value()) << r.error().describe();
  EXPECT_EQ(to_json(*r), in) << "got " << json::serialize(to_json(*r));
}

}  // namespace mcp::test

// T rejects `json_text` with -32602 and a message containing `path`.
#define EXPECT_INVALID(T, json_text, path)                                    \
  do {                                                                        \
    ::mcp::Error e_ = ::mcp::test::parse_error<T>(::mcp::test::J(json_text)); \
    EXPECT_EQ(e_.code, ::mcp::error_code::kInvalidParams);                    \
    EXPECT_THAT(e_.message, ::testing::HasSubstr(path));                      \
  } while (false)
