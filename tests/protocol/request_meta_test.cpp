// read_request_meta (public) and check_request_meta (the server's, views into the params): one
// reading of a 2026-07-28 envelope. No code of ours calls read_request_meta any more, so it is held
// to the views' answers here.
#include <gtest/gtest.h>

#include "mcp/protocol/stateless.hpp"

using namespace mcp;

namespace {

json::object params_with(json::object meta) { return json::object{{"name", "x"}, {"_meta", std::move(meta)}}; }

}  // namespace

TEST(RequestMeta, TheOwnedReadingHoldsWhatTheViewsSee) {
  const json::object params = params_with({{meta_key::kProtocolVersion, "2026-07-28"},
                                           {meta_key::kClientCapabilities, json::object{{"sampling", json::object{}}}},
                                           {meta_key::kClientInfo, json::object{{"name", "c"}, {"version", "1"}}},
                                           {meta_key::kLogLevel, "warning"}});
  auto view = check_request_meta(params);
  auto owned = read_request_meta(params);
  ASSERT_TRUE(view) << view.error().message;
  ASSERT_TRUE(owned) << owned.error().message;
  EXPECT_EQ(owned->protocol_version, view->protocol_version);
  EXPECT_EQ(owned->client_capabilities, *view->client_capabilities);
  ASSERT_TRUE(owned->client_info && view->client_info);
  EXPECT_EQ(*owned->client_info, *view->client_info);
  EXPECT_EQ(owned->log_level, view->log_level);
  EXPECT_EQ(owned->log_level, LoggingLevel::warning);
  // Without the optional members: none invented.
  auto bare = read_request_meta(params_with({{meta_key::kProtocolVersion, "2026-07-28"}, {meta_key::kClientCapabilities, json::object{}}}));
  ASSERT_TRUE(bare);
  EXPECT_FALSE(bare->client_info);
  EXPECT_FALSE(bare->log_level);
}

TEST(RequestMeta, BothRefuseABadEnvelopeWithTheSameError) {
  for (const json::object& meta : {json::object{{meta_key::kClientCapabilities, json::object{}}},
                                   json::object{{meta_key::kProtocolVersion, 5}, {meta_key::kClientCapabilities, json::object{}}},
                                   json::object{{meta_key::kProtocolVersion, "2026-07-28"}},
                                   json::object{{meta_key::kProtocolVersion, "2026-07-28"}, {meta_key::kClientCapabilities, json::object{}},
                                                {meta_key::kClientInfo, json::object{{"name", "c"}}}}}) {
    const json::object params = params_with(meta);
    auto view = check_request_meta(params);
    auto owned = read_request_meta(params);
    ASSERT_FALSE(view) << json::serialize(meta);
    ASSERT_FALSE(owned) << json::serialize(meta);
    EXPECT_EQ(owned.error().code, view.error().code);
    EXPECT_EQ(owned.error().message, view.error().message);
  }
  EXPECT_FALSE(read_request_meta(json::object{{"name", "x"}})) << "no _meta at all";
}
