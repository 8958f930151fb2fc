#include "mcp/protocol/sampling.hpp"

#include "protocol/test_util.hpp"

namespace mcp {
namespace {

using test::expect_round_trip;
using test::J;
using test::parse_ok;
using ::testing::HasSubstr;

// The specification's follow-up request of the multi-turn tool loop (client/sampling.mdx).
constexpr std::string_view kToolLoopRequest = R"({
  "messages": [
    {"role": "user", "content": {"type": "text", "text": "What's the weather like in Paris and London?"}},
    {"role": "assistant", "content": [
      {"type": "tool_use", "id": "call_abc123", "name": "get_weather", "input": {"city": "Paris"}},
      {"type": "tool_use", "id": "call_def456", "name": "get_weather", "input": {"city": "London"}}]},
    {"role": "user", "content": [
      {"type": "tool_result", "toolUseId": "call_abc123",
       "content": [{"type": "text", "text": "Weather in Paris: 18°C, partly cloudy"}]},
      {"type": "tool_result", "toolUseId": "call_def456",
       "content": [{"type": "text", "text": "Weather in London: 15°C, rainy"}]}]}
  ],
  "tools": [{"name": "get_weather", "description": "Get current weather for a city",
             "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}],
  "toolChoice": {"mode": "none"},
  "maxTokens": 1000
})";

TEST(Sampling, ToolLoopRequestFromTheSpecification) {
  auto p = parse_ok<CreateMessageRequestParams>(kToolLoopRequest);
  ASSERT_EQ(p.messages.size(), 3u);
  EXPECT_FALSE(p.messages[0].content.as_array);
  EXPECT_TRUE(std::holds_alternative<TextContent>(p.messages[0].content.at(0)));
  EXPECT_EQ(p.messages[1].role, Role::assistant);
  ASSERT_EQ(p.messages[1].content.size(), 2u);
  const auto& use = std::get<ToolUseContent>(p.messages[1].content[1]);
  EXPECT_EQ(use.id, "call_def456");
  EXPECT_EQ(use.input, (json::object{{"city", "London"}}));
  const auto& res = std::get<ToolResultContent>(p.messages[2].content[0]);
  EXPECT_EQ(res.tool_use_id, "call_abc123");
  EXPECT_EQ(std::get<TextContent>(res.content.at(0)).text, "Weather in Paris: 18°C, partly cloudy");
  ASSERT_EQ(p.tools.size(), 1u);
  EXPECT_EQ(p.tools[0].name, "get_weather");
  EXPECT_EQ(p.tool_choice->mode, ToolChoiceMode::none);
  EXPECT_EQ(p.max_tokens, 1000);
  EXPECT_TRUE(check_tool_use_pairing(p.messages).has_value());
  // Single blocks stay single and arrays stay arrays.
  EXPECT_EQ(to_json(p), J(kToolLoopRequest));
}

TEST(Sampling, ResultWithParallelToolUses) {
  auto r = parse_ok<CreateMessageResult>(
      R"({"role":"assistant","content":[{"type":"tool_use","id":"a","name":"w","input":{}},
          {"type":"tool_use","id":"b","name":"w","input":{"x":1}}],"model":"claude-3-sonnet","stopReason":"toolUse"})");
  EXPECT_EQ(r.content.size(), 2u);
  EXPECT_EQ(r.stop_reason, stop_reason::kToolUse);
  EXPECT_EQ(content_type(r.content[1]), "tool_use");
  expect_round_trip<CreateMessageResult>(
      R"({"role":"assistant","content":{"type":"text","text":"hi"},"model":"m","stopReason":"endTurn","_meta":{"m":1},"x":1})");
  EXPECT_INVALID(CreateMessageResult, R"({"role":"assistant","content":{"type":"text","text":"hi"}})",
                 "CreateMessageResult.model: required field is missing");
  EXPECT_INVALID(CreateMessageResult, R"({"role":"assistant","model":"m","content":[{"type":"text"}]})",
                 "CreateMessageResult.content[0] -> TextContent.text: required field is missing");
}

TEST(Sampling, ContentShapeFollowsTheFlag) {
  SamplingMessage m{Role::user, {TextContent{"a", {}, {}, {}}}, std::nullopt, {}};
  EXPECT_TRUE(to_json(m).at("content").is_object());
  m.content.as_array = true;
  EXPECT_TRUE(to_json(m).at("content").is_array());
  m.content.as_array = false;
  m.content.push_back(ImageContent{"AA==", "image/png", {}, {}, {}});
  EXPECT_EQ(to_json(m).at("content").as_array().size(), 2u);
  expect_round_trip<SamplingMessage>(
      R"({"role":"user","content":[{"type":"audio","data":"AA==","mimeType":"audio/wav"}]})");
}

TEST(Sampling, ToolResultsCannotBeMixedWithOtherContent) {
  EXPECT_INVALID(SamplingMessage,
                 R"({"role":"user","content":[{"type":"text","text":"Here:"},
                     {"type":"tool_result","toolUseId":"c","content":[]}]})",
                 "SamplingMessage.content: tool_result blocks cannot be mixed with other content");
  // The rule holds for a message nested in a request too.
  EXPECT_INVALID(CreateMessageRequestParams,
                 R"({"maxTokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"Here:"},
                     {"type":"tool_result","toolUseId":"c","content":[]}]}]})",
                 "CreateMessageRequestParams.messages[0] -> SamplingMessage.content: tool_result blocks cannot be "
                 "mixed");
}

TEST(Sampling, ResourceBlocksAreNotAllowed) {
  EXPECT_INVALID(
      SamplingMessage, R"({"role":"user","content":{"type":"resource_link","uri":"file:///a","name":"a"}})",
      "SamplingMessage.content -> SamplingMessageContentBlock.type: unknown sampling content type \"resource_link\"");
}

TEST(Sampling, ToolContentErrors) {
  EXPECT_INVALID(ToolUseContent, R"({"type":"tool_use","id":"1","name":"n","input":"{}"})",
                 "ToolUseContent.input: expected an object");
  EXPECT_INVALID(ToolResultContent, R"({"type":"tool_result","content":[]})",
                 "ToolResultContent.toolUseId: required field is missing");
  EXPECT_INVALID(ToolResultContent, R"({"type":"tool_result","toolUseId":"1","content":[{"type":"tool_use"}]})",
                 "ToolResultContent.content[0] -> ContentBlock.type: unknown content type \"tool_use\"");
  expect_round_trip<SamplingMessageContentBlock>(
      R"({"type":"tool_result","toolUseId":"1","content":[{"type":"text","text":"x"}],"structuredContent":{"a":1},
          "isError":true,"_meta":{"m":1},"x":1})");
}

TEST(Sampling, RequestFieldsAndValidation) {
  auto p = parse_ok<CreateMessageRequestParams>(
      R"({"messages":[],"maxTokens":100.0,"temperature":0.5,"includeContext":"thisServer","systemPrompt":"s",
          "stopSequences":["\n"],"metadata":{"k":1},"modelPreferences":{"hints":[{"name":"claude"}],"costPriority":0.3,
          "speedPriority":1,"intelligencePriority":0},"task":{"ttl":5}})");
  EXPECT_EQ(p.max_tokens, 100);
  EXPECT_EQ(p.include_context, IncludeContext::this_server);
  EXPECT_EQ(p.model_preferences->hints.at(0).name, "claude");
  EXPECT_EQ(p.model_preferences->speed_priority, 1.0);
  EXPECT_EQ(p.stop_sequences, std::vector<std::string>{"\n"});
  EXPECT_TRUE(p.extra.contains("task"));
  EXPECT_INVALID(CreateMessageRequestParams, R"({"messages":[]})", "CreateMessageRequestParams.maxTokens: required");
  EXPECT_INVALID(CreateMessageRequestParams, R"({"messages":[],"maxTokens":1.5})", "maxTokens: expected an integer");
  EXPECT_INVALID(CreateMessageRequestParams, R"({"messages":[],"maxTokens":1,"includeContext":"everything"})",
                 "CreateMessageRequestParams.includeContext -> IncludeContext: expected \"none\", \"thisServer\" or "
                 "\"allServers\"");
  EXPECT_INVALID(CreateMessageRequestParams, R"({"messages":[],"maxTokens":1,"modelPreferences":{"costPriority":2}})",
                 "ModelPreferences.costPriority: expected a number between 0 and 1");
  EXPECT_INVALID(ModelPreferences, R"({"speedPriority":-0.1})",
                 "ModelPreferences.speedPriority: expected a number between 0 and 1");
  EXPECT_INVALID(ModelPreferences, R"({"intelligencePriority":1.5})",
                 "ModelPreferences.intelligencePriority: expected a number between 0 and 1");
  EXPECT_INVALID(CreateMessageRequestParams, R"({"messages":[],"maxTokens":1,"toolChoice":{"mode":"any"}})",
                 "ToolChoice.mode -> ToolChoiceMode: expected \"auto\", \"required\" or \"none\"");
  EXPECT_INVALID(CreateMessageRequestParams, R"({"messages":[],"maxTokens":1,"stopSequences":["a",1]})",
                 "CreateMessageRequestParams.stopSequences[1]: expected a string");
  EXPECT_INVALID(CreateMessageRequestParams, R"({"messages":[{"role":"user"}],"maxTokens":1})",
                 "CreateMessageRequestParams.messages[0] -> SamplingMessage.content: required field is missing");
}

TEST(Sampling, EnumNames) {
  EXPECT_EQ(to_string(ToolChoiceMode::automatic), "auto");
  EXPECT_EQ(parse_tool_choice_mode("required"), ToolChoiceMode::required);
  EXPECT_EQ(parse_tool_choice_mode("automatic"), std::nullopt);
  EXPECT_EQ(to_string(IncludeContext::all_servers), "allServers");
  EXPECT_EQ(parse_include_context("none"), IncludeContext::none);
}

SamplingMessage msg(Role role, std::vector<SamplingMessageContentBlock> content) {
  return SamplingMessage{role, std::move(content), std::nullopt, {}};
}
ToolUseContent use(std::string id) { return ToolUseContent{std::move(id), "w", {}, {}, {}}; }
ToolResultContent result(std::string id) { return ToolResultContent{std::move(id), {}, {}, {}, {}, {}}; }
TextContent say(std::string s) { return TextContent{std::move(s), {}, {}, {}}; }

TEST(Sampling, ToolUsePairing) {
  EXPECT_TRUE(check_tool_use_pairing({msg(Role::user, {say("q")}), msg(Role::assistant, {use("a"), use("b")}),
                                      msg(Role::user, {result("b"), result("a")}), msg(Role::assistant, {say("done")})})
                  .has_value());
  auto missing = check_tool_use_pairing(
      {msg(Role::assistant, {use("a"), use("b")}), msg(Role::user, {result("a")}), msg(Role::assistant, {say("x")})});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, error_code::kInvalidParams);
  EXPECT_THAT(missing.error().message, HasSubstr("messages[1]: no tool result for tool use \"b\""));
  auto stray = check_tool_use_pairing({msg(Role::user, {result("z")})});
  ASSERT_FALSE(stray);
  EXPECT_THAT(stray.error().message, HasSubstr("tool result \"z\" answers no preceding tool use"));
  auto interrupted = check_tool_use_pairing({msg(Role::assistant, {use("a")}), msg(Role::user, {say("never mind")})});
  ASSERT_FALSE(interrupted);
  EXPECT_THAT(interrupted.error().message, HasSubstr("messages[1]: expected a user message of tool results"));
  auto from_user = check_tool_use_pairing({msg(Role::user, {use("a")})});
  ASSERT_FALSE(from_user);
  EXPECT_THAT(from_user.error().message, HasSubstr("tool uses must come from the assistant"));
  auto dangling = check_tool_use_pairing({msg(Role::assistant, {use("a")})});
  ASSERT_FALSE(dangling);
  EXPECT_THAT(dangling.error().message, HasSubstr("never answered"));
}

}  // namespace
}  // namespace mcp
