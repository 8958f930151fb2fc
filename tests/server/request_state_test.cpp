// The signed requestState of multi round-trip results (src/server/request_state.hpp).
#include <gtest/gtest.h>

#include "server/request_state.hpp"

using namespace mcp;

namespace {

using Clock = RequestStateCodec::Clock;

RequestStateCodec codec(std::uint8_t first = 7) {
  RequestStateCodec::Key key{};
  key[0] = first;
  return RequestStateCodec(key, std::chrono::seconds(60));
}

TEST(RequestState, WhatIsSealedOpensToThePayload) {
  const json::value payload = json::object{{"round", 2}, {"name", "Ada"}};
  auto sealed = codec().seal(payload, "tools/call\ngreet\n");
  ASSERT_TRUE(sealed);
  EXPECT_TRUE(sealed->starts_with("v1."));
  auto opened = codec().open(*sealed, "tools/call\ngreet\n");
  ASSERT_TRUE(opened) << opened.error().message;
  EXPECT_EQ(*opened, payload);
}

TEST(RequestState, EveryAlterationIsRefused) {
  auto sealed = codec().seal(json::object{{"ok", true}}, "b");
  ASSERT_TRUE(sealed);
  // Each byte changed in turn: none may pass.
  for (std::size_t i = 0; i < sealed->size(); ++i) {
    std::string bad = *sealed;
    bad[i] = bad[i] == 'x' ? 'y' : 'x';
    auto opened = codec().open(bad, "b");
    EXPECT_FALSE(opened) << "byte " << i;
  }
  EXPECT_FALSE(codec().open(*sealed + "A", "b"));
  EXPECT_FALSE(codec().open(sealed->substr(0, sealed->size() - 1), "b"));
  EXPECT_FALSE(codec().open("", "b"));
  EXPECT_FALSE(codec().open("v1.", "b"));
  EXPECT_FALSE(codec().open("v1..", "b"));
}

TEST(RequestState, AnotherBindingOrKeyIsRefused) {
  auto sealed = codec().seal(json::object{}, "tools/call\na\n");
  ASSERT_TRUE(sealed);
  EXPECT_FALSE(codec().open(*sealed, "tools/call\nb\n"));
  EXPECT_FALSE(codec().open(*sealed, "tools/call\na\nmallory"));
  EXPECT_FALSE(codec(8).open(*sealed, "tools/call\na\n"));
}

TEST(RequestState, ExpiresAfterItsLifetime) {
  const auto now = Clock::now();
  auto sealed = codec().seal(json::object{}, "b", now);
  ASSERT_TRUE(sealed);
  EXPECT_TRUE(codec().open(*sealed, "b", now + std::chrono::seconds(59)));
  auto late = codec().open(*sealed, "b", now + std::chrono::seconds(61));
  ASSERT_FALSE(late);
  EXPECT_NE(late.error().message.find("expired"), std::string::npos);
}

TEST(RequestState, SizeIsBoundedBothWays) {
  auto big = codec().seal(json::string(std::string(RequestStateCodec::kMaxBytes, 'a')), "b");
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, error_code::kInternalError);
  auto flood = codec().open("v1." + std::string(RequestStateCodec::kMaxBytes, 'A') + ".x", "b");
  ASSERT_FALSE(flood);
  EXPECT_NE(flood.error().message.find("longer than"), std::string::npos);
}

}  // namespace
