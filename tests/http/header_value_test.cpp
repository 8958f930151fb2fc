// Mcp-Name / Mcp-Param-* values (src/http/header_value.hpp): what must be sent encoded, the round
// trip, and the malformed Base64 a server must refuse (the cases of SEP-2243 and the conformance
// suite's http-header-validation scenario).
#include "http/header_value.hpp"

#include <gtest/gtest.h>

using mcp::http::decode_header_value;
using mcp::http::encode_header_value;

TEST(HeaderValue, PlainAsciiTravelsAsIs) {
  EXPECT_EQ(encode_header_value("get_weather"), "get_weather");
  EXPECT_EQ(encode_header_value(""), "");
  EXPECT_EQ(decode_header_value("get_weather"), "get_weather");
  EXPECT_EQ(decode_header_value("  name \t"), "name");  // optional whitespace is not part of a value
}

TEST(HeaderValue, WhatCannotTravelIsBase64AndComesBackExactly) {
  for (std::string v : {"caf\xc3\xa9", "line\nbreak", " leading", "trailing\t", "=?base64?SGk=?=", "tab\there"}) {
    auto encoded = encode_header_value(v);
    EXPECT_TRUE(encoded.starts_with("=?base64?") && encoded.ends_with("?=")) << encoded;
    EXPECT_EQ(decode_header_value(encoded), v);
  }
  EXPECT_EQ(encode_header_value("caf\xc3\xa9"), "=?base64?Y2Fmw6k=?=");
  EXPECT_EQ(decode_header_value("=?base64?SGVsbG8=?="), "Hello");
  EXPECT_EQ(decode_header_value("=?base64?SGk=?="), "Hi");
  EXPECT_EQ(decode_header_value("=?base64?" "?="), "");  // split: "??=" would read as a trigraph
}

TEST(HeaderValue, MalformedBase64IsRefused) {
  EXPECT_FALSE(decode_header_value("=?base64?SGVsbG8?="));      // bad padding: 7 characters
  EXPECT_FALSE(decode_header_value("=?base64?SGVs!!!bG8=?="));  // characters outside the alphabet
  EXPECT_FALSE(decode_header_value("=?base64?SG=sbG8=?="));     // padding in the middle
  EXPECT_FALSE(decode_header_value("=?base64?S===?="));         // three padding characters
}

TEST(HeaderValue, OnlyTheExactLowercaseMarkersMakeASentinel) {
  EXPECT_EQ(decode_header_value("=?BASE64?SGk=?="), "=?BASE64?SGk=?=");
  EXPECT_EQ(decode_header_value("=?base64?SGk="), "=?base64?SGk=");
}
