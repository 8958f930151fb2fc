#include "mcp/protocol/content.hpp"

#include "protocol/test_util.hpp"

namespace mcp {
namespace {

using test::expect_round_trip;
using test::J;
using test::parse_ok;
using ::testing::HasSubstr;

TEST(Content, TextWritesTypeAndOmitsAbsentFields) {
  EXPECT_EQ(to_json(TextContent{"hi", {}, {}, {}}), J(R"({"type":"text","text":"hi"})"));
}

TEST(Content, EveryBlockRoundTripsWithMetaAndUnknownFields) {
  expect_round_trip<ContentBlock>(
      R"({"type":"text","text":"hi","annotations":{"audience":["user"],"priority":0.5,"lastModified":"2025-01-12T15:00:58Z"},
          "_meta":{"k":1},"x-new":{"deep":[1,2]}})");
  expect_round_trip<ContentBlock>(
      R"({"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png","_meta":{"k":1},"x":true})");
  expect_round_trip<ContentBlock>(R"({"type":"audio","data":"UklGRg==","mimeType":"audio/wav","x":null})");
  expect_round_trip<ContentBlock>(
      R"({"type":"resource_link","uri":"file:///a.rs","name":"a.rs","title":"A","description":"d","mimeType":"text/x-rust",
          "size":12,"icons":[{"src":"https://e.com/i.png","sizes":["48x48"],"theme":"dark"}],"annotations":{"priority":1},
          "_meta":{"k":1},"x":1})");
  expect_round_trip<ContentBlock>(
      R"({"type":"resource","resource":{"uri":"file:///n.txt","mimeType":"text/plain","text":"notes","_meta":{"a":1},"y":2},
          "_meta":{"k":1},"x":1})");
  // SEP-2093: contents carry the resource's metadata.
  expect_round_trip<ContentBlock>(
      R"({"type":"resource","resource":{"uri":"file:///l.png","blob":"iVBORw0KGgo=","name":"l.png","title":"Logo",
          "description":"d","annotations":{"audience":["assistant"]},"size":8,"icons":[{"src":"https://e.com/i.png"}],
          "capabilities":{"subscribe":true}}})");
}

// SEP-2093 moved an embedded resource's annotations into the resource; the old form still reads.
TEST(Content, OldEmbeddedAnnotationsMoveIntoTheResource) {
  auto block = parse_ok<ContentBlock>(
      R"({"type":"resource","resource":{"uri":"file:///l.png","blob":"AA=="},"annotations":{"audience":["assistant"],"priority":0.5}})");
  const auto& e = std::get<EmbeddedResource>(block);
  const auto& blob = std::get<BlobResourceContents>(e.resource);
  ASSERT_TRUE(blob.annotations);
  EXPECT_EQ(blob.annotations->priority, 0.5);
  EXPECT_TRUE(e.extra.empty());
  EXPECT_EQ(to_json(block), J(R"({"type":"resource","resource":{"uri":"file:///l.png","blob":"AA==",
                                  "annotations":{"audience":["assistant"],"priority":0.5}}})"));
  // The resource's own annotations win over the old place.
  auto both = parse_ok<ContentBlock>(
      R"({"type":"resource","resource":{"uri":"file:///x","text":"t","annotations":{"priority":1}},"annotations":{"priority":0}})");
  EXPECT_EQ(std::get<TextResourceContents>(std::get<EmbeddedResource>(both).resource).annotations->priority, 1.0);
  // A malformed old form is an error, not silently dropped.
  EXPECT_FALSE(from_json<ContentBlock>(
      J(R"({"type":"resource","resource":{"uri":"file:///x","text":"t"},"annotations":{"priority":7}})")));
  EXPECT_FALSE(from_json<ContentBlock>(J(R"({"type":"resource","resource":{"uri":"file:///x","text":"t","size":-1}})")));
}

TEST(Content, DispatchesOnType) {
  EXPECT_TRUE(std::holds_alternative<TextContent>(parse_ok<ContentBlock>(R"({"type":"text","text":"t"})")));
  EXPECT_TRUE(std::holds_alternative<ImageContent>(
      parse_ok<ContentBlock>(R"({"type":"image","data":"AA==","mimeType":"image/png"})")));
  EXPECT_TRUE(std::holds_alternative<AudioContent>(
      parse_ok<ContentBlock>(R"({"type":"audio","data":"AA==","mimeType":"audio/wav"})")));
  EXPECT_TRUE(std::holds_alternative<ResourceLink>(
      parse_ok<ContentBlock>(R"({"type":"resource_link","uri":"file:///x","name":"x"})")));
  auto embedded = parse_ok<ContentBlock>(R"({"type":"resource","resource":{"uri":"file:///x","blob":"AA=="}})");
  ASSERT_TRUE(std::holds_alternative<EmbeddedResource>(embedded));
  EXPECT_TRUE(std::holds_alternative<BlobResourceContents>(std::get<EmbeddedResource>(embedded).resource));
  EXPECT_EQ(content_type(embedded), "resource");
  EXPECT_EQ(content_type(ContentBlock(ResourceLink{})), "resource_link");
}

TEST(Content, ParsedFieldsLandInTheRightMembers) {
  auto block = parse_ok<ContentBlock>(
      R"({"type":"image","data":"AA==","mimeType":"image/png","annotations":{"audience":["user","assistant"],"priority":0.25},
          "_meta":{"m":1},"future":"kept"})");
  const auto& img = std::get<ImageContent>(block);
  EXPECT_EQ(img.data, "AA==");
  EXPECT_EQ(img.mime_type, "image/png");
  ASSERT_TRUE(img.annotations);
  EXPECT_EQ(img.annotations->audience, (std::vector<Role>{Role::user, Role::assistant}));
  EXPECT_EQ(img.annotations->priority, 0.25);
  EXPECT_EQ(img.meta, (json::object{{"m", 1}}));
  EXPECT_EQ(img.extra, (json::object{{"future", "kept"}}));
}

TEST(Content, UnknownOrMissingTypeIsAnError) {
  EXPECT_INVALID(ContentBlock, R"({"type":"video","url":"x"})", "unknown content type \"video\"");
  EXPECT_INVALID(ContentBlock, R"({"text":"no type"})", "ContentBlock.type");
  EXPECT_INVALID(ContentBlock, R"({"type":7})", "ContentBlock.type");
  EXPECT_INVALID(ContentBlock, R"("text")", "ContentBlock: expected an object");
  // Sampling-only blocks are not content blocks.
  EXPECT_INVALID(ContentBlock, R"({"type":"tool_use","id":"1","name":"n","input":{}})", "unknown content type");
}

TEST(Content, WrongTypesNameTheFieldPath) {
  EXPECT_INVALID(ContentBlock, R"({"type":"text","text":5})", "TextContent.text: expected a string");
  EXPECT_INVALID(ContentBlock, R"({"type":"image","data":"AA=="})", "ImageContent.mimeType: required field is missing");
  EXPECT_INVALID(ContentBlock, R"({"type":"audio","data":"AA==","mimeType":"a","_meta":[]})", "AudioContent._meta");
  EXPECT_INVALID(ContentBlock, R"({"type":"resource_link","uri":"file:///x","name":"x","size":"big"})",
                 "ResourceLink.size: expected an integer");
  EXPECT_INVALID(ContentBlock, R"({"type":"resource_link","uri":"file:///x","name":"x","size":-1})",
                 "ResourceLink.size");
  EXPECT_INVALID(ContentBlock, R"({"type":"resource_link","uri":"file:///x","name":"x","icons":[{"sizes":[]}]})",
                 "ResourceLink.icons[0] -> Icon.src: required field is missing");
  EXPECT_INVALID(ContentBlock, R"({"type":"resource","resource":{"text":"t"}})",
                 "EmbeddedResource.resource -> TextResourceContents.uri: required field is missing");
  EXPECT_INVALID(ContentBlock, R"({"type":"text","text":"t","annotations":{"priority":1.5}})",
                 "TextContent.annotations -> Annotations.priority: expected a number between 0 and 1");
  EXPECT_INVALID(ContentBlock, R"({"type":"text","text":"t","annotations":{"audience":["system"]}})",
                 "Annotations.audience[0] -> Role: expected \"user\" or \"assistant\"");
}

TEST(Content, ABlockReadThroughTheWrongStructFails) {
  EXPECT_INVALID(TextContent, R"({"type":"image","data":"AA==","mimeType":"image/png"})",
                 "TextContent.type: expected \"text\"");
  EXPECT_INVALID(ImageContent, R"({"data":"AA==","mimeType":"image/png"})", "ImageContent.type: required");
}

TEST(ResourceContents, TextOrBlobButNotBothNorNeither) {
  EXPECT_TRUE(std::holds_alternative<TextResourceContents>(parse_ok<ResourceContents>(R"({"uri":"u","text":""})")));
  EXPECT_TRUE(std::holds_alternative<BlobResourceContents>(parse_ok<ResourceContents>(R"({"uri":"u","blob":""})")));
  EXPECT_INVALID(ResourceContents, R"({"uri":"u","text":"t","blob":"AA=="})", "exactly one of");
  EXPECT_INVALID(ResourceContents, R"({"uri":"u"})", "exactly one of");
  EXPECT_INVALID(ResourceContents, R"({"uri":"u","blob":1})", "BlobResourceContents.blob: expected a string");
}

}  // namespace
}  // namespace mcp
