#include "mcp/protocol/elicitation.hpp"

#include "mcp/protocol/capabilities.hpp"
#include "protocol/test_util.hpp"

namespace mcp {
namespace {

using test::expect_round_trip;
using test::J;
using test::parse_ok;
using ::testing::HasSubstr;

constexpr std::string_view kForm = R"({
  "mode": "form",
  "message": "Please provide your contact information",
  "requestedSchema": {
    "type": "object",
    "properties": {
      "name": {"type": "string", "description": "Your full name"},
      "email": {"type": "string", "format": "email"},
      "age": {"type": "number", "minimum": 18},
      "plan": {"type": "string", "oneOf": [{"const": "a", "title": "A"}]},
      "tags": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}}
    },
    "required": ["name", "email"]
  }
})";

TEST(Elicitation, FormMode) {
  auto params = parse_ok<ElicitRequestParams>(kForm);
  ASSERT_TRUE(std::holds_alternative<ElicitRequestFormParams>(params));
  const auto& form = std::get<ElicitRequestFormParams>(params);
  EXPECT_EQ(form.message, "Please provide your contact information");
  EXPECT_EQ(form.requested_schema.required, (std::vector<std::string>{"name", "email"}));
  EXPECT_EQ(form.requested_schema.properties.at("age").at("minimum"), 18);
  EXPECT_EQ(to_json(params), J(kForm));
}

TEST(Elicitation, FormModeWithoutModeIsTheOlderForm) {
  auto params = parse_ok<ElicitRequestParams>(
      R"({"message":"Name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}},"_meta":{"m":1}})");
  ASSERT_TRUE(std::holds_alternative<ElicitRequestFormParams>(params));
  EXPECT_EQ(
      to_json(params),
      J(R"({"mode":"form","message":"Name?","requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}},
                 "_meta":{"m":1}})"));
}

TEST(Elicitation, UrlMode) {
  constexpr std::string_view kUrl =
      R"({"mode":"url","elicitationId":"550e8400-e29b-41d4-a716-446655440000",
          "url":"https://mcp.example.com/ui/set_api_key","message":"Please provide your API key","x":1})";
  auto params = parse_ok<ElicitRequestParams>(kUrl);
  ASSERT_TRUE(std::holds_alternative<ElicitRequestURLParams>(params));
  const auto& url = std::get<ElicitRequestURLParams>(params);
  EXPECT_EQ(url.elicitation_id, "550e8400-e29b-41d4-a716-446655440000");
  EXPECT_EQ(url.url, "https://mcp.example.com/ui/set_api_key");
  EXPECT_EQ(url.extra, (json::object{{"x", 1}}));
  EXPECT_EQ(to_json(params), J(kUrl));
}

TEST(Elicitation, RequestErrors) {
  EXPECT_INVALID(ElicitRequestParams, R"({"mode":"url","message":"m","url":"https://e.com"})",
                 "ElicitRequestURLParams.elicitationId: required field is missing");
  EXPECT_INVALID(ElicitRequestParams, R"({"mode":"popup","message":"m"})",
                 "ElicitRequestParams.mode: unknown elicitation mode \"popup\"");
  EXPECT_INVALID(ElicitRequestParams, R"({"mode":1,"message":"m"})", "ElicitRequestParams.mode: expected a string");
  EXPECT_INVALID(ElicitRequestURLParams, R"({"message":"m","url":"https://e.com","elicitationId":"e"})",
                 "ElicitRequestURLParams.mode: required field is missing");
  EXPECT_INVALID(ElicitRequestParams, R"({"message":"m"})",
                 "ElicitRequestFormParams.requestedSchema: required field is missing");
  EXPECT_INVALID(ElicitRequestFormParams, R"({"mode":"url","message":"m","requestedSchema":{}})",
                 "ElicitRequestFormParams.mode: expected \"form\"");
  EXPECT_INVALID(ElicitRequestParams, R"({"message":"m","requestedSchema":{"type":"array","properties":{}}})",
                 "RequestedSchema.type: expected \"object\"");
  // Nested objects are not allowed: forms are flat.
  EXPECT_INVALID(ElicitRequestParams,
                 R"({"message":"m","requestedSchema":{"type":"object","properties":{"address":{"type":"object"}}}})",
                 "ElicitRequestFormParams.requestedSchema -> RequestedSchema.properties.address.type: expected "
                 "\"string\", \"number\", \"integer\", \"boolean\" or \"array\"");
  EXPECT_INVALID(ElicitRequestParams,
                 R"({"message":"m","requestedSchema":{"type":"object","properties":{"a":"string"}}})",
                 "RequestedSchema.properties.a: expected an object");
  EXPECT_INVALID(ElicitRequestParams,
                 R"({"message":"m","requestedSchema":{"type":"object","properties":{},"required":[1]}})",
                 "RequestedSchema.required[0]: expected a string");
  EXPECT_INVALID(ElicitRequestParams,
                 R"({"message":"m","requestedSchema":{"type":"object","properties":{},"$schema":1}})",
                 "RequestedSchema.$schema: expected a string");
}

TEST(Elicitation, FormModeMayBeNullOrAbsentWhenReadDirectly) {
  auto form = parse_ok<ElicitRequestFormParams>(
      R"({"mode":null,"message":"m","requestedSchema":{"type":"object","properties":{},
          "$schema":"https://json-schema.org/draft/2020-12/schema"}})");
  EXPECT_EQ(form.requested_schema.extra.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
  EXPECT_TRUE(form.extra.empty());
  EXPECT_EQ(to_json(form).at("mode"), "form");
  parse_ok<ElicitRequestFormParams>(R"({"message":"m","requestedSchema":{"type":"object","properties":{}}})");
  EXPECT_TRUE(std::holds_alternative<ElicitRequestFormParams>(parse_ok<ElicitRequestParams>(
      R"({"mode":null,"message":"m","requestedSchema":{"type":"object","properties":{}}})")));
}

TEST(Elicitation, Results) {
  auto accepted = parse_ok<ElicitResult>(
      R"({"action":"accept","content":{"name":"Ada","age":36.5,"ok":true,"tags":["x"]},"_meta":{"m":1}})");
  EXPECT_EQ(accepted.action, ElicitAction::accept);
  EXPECT_EQ(accepted.content->at("age"), 36.5);
  expect_round_trip<ElicitResult>(R"({"action":"decline"})");
  expect_round_trip<ElicitResult>(R"({"action":"cancel","x":1})");
  expect_round_trip<ElicitResult>(R"({"action":"accept","content":{"n":1,"s":"s"},"_meta":{}})");
  EXPECT_INVALID(ElicitResult, R"({"action":"ok"})",
                 "ElicitResult.action -> ElicitAction: expected \"accept\", \"decline\" or \"cancel\"");
  EXPECT_INVALID(ElicitResult, R"({"content":{}})", "ElicitResult.action: required field is missing");
  EXPECT_INVALID(ElicitResult, R"({"action":"accept","content":{"address":{"city":"Paris"}}})",
                 "ElicitResult.content.address: expected a string, a number, a boolean or an array of strings");
  EXPECT_INVALID(ElicitResult, R"({"action":"accept","content":{"tags":[1]}})", "ElicitResult.content.tags");
  EXPECT_EQ(to_string(ElicitAction::decline), "decline");
}

TEST(Elicitation, CompleteNotification) {
  expect_round_trip<ElicitationCompleteNotificationParams>(R"({"elicitationId":"e1","_meta":{"m":1},"x":1})");
  EXPECT_INVALID(ElicitationCompleteNotificationParams, R"({"elicitationId":1})",
                 "ElicitationCompleteNotificationParams.elicitationId: expected a string");
}

TEST(Elicitation, UrlElicitationRequiredError) {
  ElicitRequestURLParams url{"Authorize", "https://e.com/auth", "e1", std::nullopt, {}};
  Error e = url_elicitation_required_error({url});
  EXPECT_EQ(e.code, -32042);
  ASSERT_TRUE(e.data);
  EXPECT_EQ(*e.data, J(R"({"elicitations":[{"mode":"url","message":"Authorize","url":"https://e.com/auth",
                                            "elicitationId":"e1"}]})"));
  auto back = url_elicitations(e);
  ASSERT_TRUE(back.has_value());
  ASSERT_EQ(back->size(), 1u);
  EXPECT_EQ(back->at(0).elicitation_id, "e1");
  EXPECT_FALSE(url_elicitations(Error::internal("x")).has_value());
  Error bad{error_code::kUrlElicitationRequired, "m", J(R"({"elicitations":[{"mode":"form"}]})")};
  auto err = url_elicitations(bad);
  ASSERT_FALSE(err);
  EXPECT_THAT(err.error().message, HasSubstr("elicitations[0] -> ElicitRequestURLParams.mode: expected \"url\""));
}

TEST(Elicitation, ClientCapabilityModes) {
  auto caps = parse_ok<ClientCapabilities>(R"({"elicitation":{}})");
  EXPECT_TRUE(caps.elicitation->supports_form());
  EXPECT_FALSE(caps.elicitation->supports_url());
  caps = parse_ok<ClientCapabilities>(R"({"elicitation":{"url":{}}})");
  EXPECT_FALSE(caps.elicitation->supports_form());
  EXPECT_TRUE(caps.elicitation->supports_url());
  caps = parse_ok<ClientCapabilities>(R"({"elicitation":{"form":{},"url":{}}})");
  EXPECT_TRUE(caps.elicitation->supports_form());
  EXPECT_TRUE(caps.elicitation->supports_url());
}

}  // namespace
}  // namespace mcp
