#include "mcp/protocol/base.hpp"
#include "mcp/protocol/prompt.hpp"
#include "mcp/protocol/resource.hpp"
#include "protocol/test_util.hpp"

namespace mcp {
namespace {

using test::expect_round_trip;
using test::J;
using test::parse_ok;

TEST(Resource, RoundTripsEveryFieldAndUnknowns) {
  expect_round_trip<Resource>(
      R"({"uri":"file:///p/README.md","name":"README.md","title":"Read me","description":"Overview","mimeType":"text/markdown",
          "size":2048,"annotations":{"audience":["user"],"priority":0.75,"lastModified":"2025-01-12T15:00:58Z"},
          "icons":[{"src":"https://e.com/i.png"}],"_meta":{"k":"v"},"x-vendor":{"a":[1]}})");
  auto r = parse_ok<Resource>(R"({"uri":"file:///a","name":"a","size":5})");
  EXPECT_EQ(r.size, 5);
  EXPECT_FALSE(r.meta);
  EXPECT_EQ(to_json(r), J(R"({"uri":"file:///a","name":"a","size":5})"));
}

TEST(Resource, RequiredFieldsAndTypes) {
  EXPECT_INVALID(Resource, R"({"name":"a"})", "Resource.uri: required field is missing");
  EXPECT_INVALID(Resource, R"({"uri":"u","name":["a"]})", "Resource.name: expected a string");
  EXPECT_INVALID(ResourceTemplate, R"({"uri":"u","name":"a"})", "ResourceTemplate.uriTemplate: required");
}

TEST(Resource, TemplatesAndListsRoundTrip) {
  expect_round_trip<ResourceTemplate>(
      R"({"uriTemplate":"file:///{path}","name":"files","title":"Files","description":"d","mimeType":"text/plain",
          "annotations":{"priority":0},"icons":[{"src":"https://e.com/i.png"}],"_meta":{},"x":1})");
  expect_round_trip<ListResourcesResult>(
      R"({"resources":[{"uri":"file:///a","name":"a"}],"nextCursor":"o:1","_meta":{"m":1},"x":1})");
  expect_round_trip<ListResourceTemplatesResult>(R"({"resourceTemplates":[],"x":1})");
  EXPECT_INVALID(ListResourcesResult, R"({"nextCursor":"c"})", "ListResourcesResult.resources: required");
  EXPECT_INVALID(ListResourcesResult, R"({"resources":[{"uri":"u"}]})",
                 "ListResourcesResult.resources[0] -> Resource.name: required field is missing");
}

TEST(Resource, ReadResultDispatchesTextAndBlob) {
  auto r = parse_ok<ReadResourceResult>(
      R"({"contents":[{"uri":"file:///a","text":"x"},{"uri":"file:///b","blob":"AA==","mimeType":"image/png"}]})");
  ASSERT_EQ(r.contents.size(), 2u);
  EXPECT_EQ(std::get<TextResourceContents>(r.contents[0]).text, "x");
  EXPECT_EQ(std::get<BlobResourceContents>(r.contents[1]).mime_type, "image/png");
  EXPECT_INVALID(ReadResourceResult, R"({"contents":[{"uri":"u","text":1}]})",
                 "ReadResourceResult.contents[0] -> TextResourceContents.text: expected a string");
}

TEST(Resource, RequestParamsCheckTheProgressToken) {
  auto p = parse_ok<ReadResourceRequestParams>(R"({"uri":"file:///a","_meta":{"progressToken":7,"other":true}})");
  EXPECT_EQ(p.uri, "file:///a");
  EXPECT_EQ(progress_token(p.meta), json::value(7));
  expect_round_trip<SubscribeRequestParams>(R"({"uri":"file:///a","_meta":{"progressToken":"t"},"x":1})");
  EXPECT_INVALID(UnsubscribeRequestParams, R"({"uri":"file:///a","_meta":{"progressToken":true}})",
                 "ResourceRequestParams._meta.progressToken: expected a string or an integer");
  EXPECT_INVALID(ReadResourceRequestParams, R"({"uri":"file:///a","_meta":{"progressToken":1.5}})",
                 "_meta.progressToken");
  expect_round_trip<ResourceUpdatedNotificationParams>(R"({"uri":"file:///a/b","_meta":{"m":1},"x":2})");
}

TEST(Prompt, RoundTripsWithArguments) {
  expect_round_trip<Prompt>(
      R"({"name":"code_review","title":"Review","description":"d","arguments":[{"name":"code","title":"Code",
          "description":"c","required":true,"x":1}],"icons":[{"src":"https://e.com/i.png"}],"_meta":{"m":1},"x":2})");
  expect_round_trip<ListPromptsResult>(R"({"prompts":[{"name":"p"}],"nextCursor":"n"})");
  EXPECT_INVALID(Prompt, R"({"name":"p","arguments":[{"name":"a","required":"yes"}]})",
                 "Prompt.arguments[0] -> PromptArgument.required: expected a boolean");
}

TEST(Prompt, GetRequestArgumentsAreStrings) {
  auto p = parse_ok<GetPromptRequestParams>(R"({"name":"p","arguments":{"code":"x=1","lang":"py"}})");
  EXPECT_EQ(p.arguments.at("lang"), "py");
  expect_round_trip<GetPromptRequestParams>(
      R"({"name":"p","arguments":{"a":"1"},"_meta":{"progressToken":"t"},"x":1})");
  EXPECT_INVALID(GetPromptRequestParams, R"({"name":"p","arguments":{"n":1}})",
                 "GetPromptRequestParams.arguments.n: expected a string");
  EXPECT_INVALID(GetPromptRequestParams, R"({"arguments":{}})", "GetPromptRequestParams.name: required");
}

TEST(Prompt, ResultMessagesCarryOneBlockEach) {
  auto r = parse_ok<GetPromptResult>(
      R"({"description":"d","messages":[{"role":"user","content":{"type":"text","text":"Review"}},
          {"role":"assistant","content":{"type":"resource","resource":{"uri":"file:///a","text":"t"}}}]})");
  ASSERT_EQ(r.messages.size(), 2u);
  EXPECT_EQ(r.messages[1].role, Role::assistant);
  EXPECT_TRUE(std::holds_alternative<EmbeddedResource>(r.messages[1].content));
  expect_round_trip<GetPromptResult>(
      R"({"messages":[{"role":"user","content":{"type":"text","text":"x"},"x":1}],"_meta":{"m":1},"y":2})");
  EXPECT_INVALID(GetPromptResult, R"({"messages":[{"role":"system","content":{"type":"text","text":"x"}}]})",
                 "GetPromptResult.messages[0] -> PromptMessage.role -> Role: expected \"user\" or \"assistant\"");
  EXPECT_INVALID(GetPromptResult, R"({"messages":[{"role":"user","content":[{"type":"text","text":"x"}]}]})",
                 "PromptMessage.content -> ContentBlock: expected an object");
}

}  // namespace
}  // namespace mcp
