#include "mcp/protocol/tool_call.hpp"

#include "mcp/protocol/base.hpp"
#include "protocol/test_util.hpp"

namespace mcp {
namespace {

using test::expect_round_trip;
using test::J;
using test::parse_ok;

TEST(ToolCall, RequestKeepsArgumentsProgressTokenAndTask) {
  auto p = parse_ok<CallToolRequestParams>(
      R"({"name":"get_weather","arguments":{"city":"Paris","days":[1,2]},"_meta":{"progressToken":"abc"},
          "task":{"ttl":60000}})");
  EXPECT_EQ(p.name, "get_weather");
  ASSERT_TRUE(p.arguments);
  EXPECT_EQ(p.arguments->at("city"), "Paris");
  EXPECT_EQ(progress_token(p.meta), json::value("abc"));
  EXPECT_EQ(p.extra, (json::object{{"task", json::object{{"ttl", 60000}}}}));
  EXPECT_EQ(to_json(p), J(R"({"name":"get_weather","arguments":{"city":"Paris","days":[1,2]},
                             "_meta":{"progressToken":"abc"},"task":{"ttl":60000}})"));
}

TEST(ToolCall, RequestErrors) {
  EXPECT_INVALID(CallToolRequestParams, R"({"arguments":{}})", "CallToolRequestParams.name: required field is missing");
  EXPECT_INVALID(CallToolRequestParams, R"({"name":"t","arguments":[1]})",
                 "CallToolRequestParams.arguments: expected an object");
  EXPECT_INVALID(CallToolRequestParams, R"({"name":"t","_meta":{"progressToken":{}}})", "_meta.progressToken");
}

TEST(ToolCall, SetProgressTokenKeepsOtherMetaKeys) {
  CallToolRequestParams p{"t", std::nullopt, json::object{{"trace", "x"}}, {}};
  set_progress_token(p.meta, json::value(5));
  EXPECT_EQ(to_json(p), J(R"({"name":"t","_meta":{"trace":"x","progressToken":5}})"));
  CallToolRequestParams q{"t", std::nullopt, std::nullopt, {}};
  set_progress_token(q.meta, json::value("s"));
  EXPECT_EQ(progress_token(q.meta), json::value("s"));
}

TEST(ToolCall, ResultRoundTripsEveryContentKind) {
  expect_round_trip<CallToolResult>(
      R"({"content":[{"type":"text","text":"18C"},{"type":"image","data":"AA==","mimeType":"image/png"},
          {"type":"audio","data":"AA==","mimeType":"audio/wav"},{"type":"resource_link","uri":"file:///a","name":"a"},
          {"type":"resource","resource":{"uri":"file:///b","text":"b"}}],
          "structuredContent":{"celsius":18},"isError":false,"_meta":{"m":1},"x":1})");
  auto r = parse_ok<CallToolResult>(R"({"content":[{"type":"text","text":"boom"}],"isError":true})");
  EXPECT_EQ(r.is_error, true);
  EXPECT_FALSE(r.structured_content);
}

TEST(ToolCall, ResultErrorsNameTheBlock) {
  EXPECT_INVALID(CallToolResult, R"({"isError":true})", "CallToolResult.content: required field is missing");
  EXPECT_INVALID(CallToolResult, R"({"content":[{"type":"text","text":"a"},{"type":"hologram"}]})",
                 "CallToolResult.content[1] -> ContentBlock.type: unknown content type \"hologram\"");
  EXPECT_INVALID(CallToolResult, R"({"content":[],"structuredContent":"18"})",
                 "CallToolResult.structuredContent: expected an object");
  EXPECT_INVALID(CallToolResult, R"({"content":[],"isError":"no"})", "CallToolResult.isError: expected a boolean");
}

TEST(ToolCall, ListToolsResult) {
  auto l = parse_ok<ListToolsResult>(
      R"({"tools":[{"name":"a","inputSchema":{"type":"object"},"icons":[{"src":"https://e.com/i.png","theme":"light"}]}],
          "nextCursor":"o:1"})");
  ASSERT_EQ(l.tools.size(), 1u);
  EXPECT_EQ(l.tools[0].icons.at(0).theme, "light");
  EXPECT_EQ(l.next_cursor, "o:1");
  expect_round_trip<ListToolsResult>(R"({"tools":[],"_meta":{"m":1},"x":1})");
  EXPECT_INVALID(ListToolsResult, R"({"tools":[{"name":"a"}]})",
                 "ListToolsResult.tools[0] -> Tool.inputSchema: required field is missing");
}

}  // namespace
}  // namespace mcp
