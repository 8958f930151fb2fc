// Typed tools (mcp/server/typed_tool.hpp) and what they stand on: the JSON Schema derived from a
// described struct (mcp/protocol/wire_schema.hpp) and the codec's rules for application types
// (closed objects, ranged integers, enumerators by name), end to end through our client.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mcp/protocol/wire_schema.hpp"
#include "mcp/server/typed_tool.hpp"
#include "server/tools.hpp"

namespace app {  // an application's own namespace: the macros must work outside mcp

enum class Unit { celsius, fahrenheit };
BOOST_DESCRIBE_ENUM(Unit, celsius, fahrenheit)

struct Place {
  double lat{};
  double lon{};
};
MCP_DESCRIBE(Place, lat, lon)

struct Forecast {
  std::string city{};
  std::optional<std::int32_t> days{};
  Unit unit{};
  std::vector<std::string> tags{};
  std::optional<Place> at{};
  static constexpr mcp::FieldDoc field_docs[] = {{"city", "City name"}, {"days", "How many days ahead"}};
};
MCP_DESCRIBE(Forecast, city, days, unit, tags, at)

struct Report {
  std::string summary{};
  double high{};
};
MCP_DESCRIBE(Report, summary, high)

// A struct with `extra` keeps what it does not name instead of refusing it.
struct Open {
  std::string name{};
  mcp::json::object extra{};
};
MCP_DESCRIBE(Open, name, extra)

}  // namespace app

using namespace mcp;
using mcp::test::Connected;
using mcp::test::text_of;

namespace {

json::value parse(std::string_view s) { return json::parse(s); }

TEST(WireSchema, DerivedFromTheStructWithRequiredMembersRangesEnumsNestingAndDocs) {
  json::value expected = parse(R"({
    "type": "object",
    "properties": {
      "city": {"type": "string", "description": "City name"},
      "days": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647, "description": "How many days ahead"},
      "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
      "tags": {"type": "array", "items": {"type": "string"}},
      "at": {"type": "object", "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
             "required": ["lat", "lon"], "additionalProperties": false}
    },
    "required": ["city", "unit", "tags"],
    "additionalProperties": false
  })");
  EXPECT_EQ(json::value(wire::json_schema<app::Forecast>()), expected);
}

TEST(WireSchema, AStructWithExtraAllowsOtherMembers) {
  auto schema = wire::json_schema<app::Open>();
  EXPECT_FALSE(schema.contains("additionalProperties"));
  EXPECT_EQ(schema.at("required"), json::value(json::array{"name"}));
}

TEST(WireCodec, ApplicationTypesRoundTripWithEnumeratorsByName) {
  auto read = wire::decode<app::Forecast>(
      parse(R"({"city":"Oslo","days":3,"unit":"fahrenheit","tags":["a"],"at":{"lat":59.9,"lon":10.75}})"));
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->city, "Oslo");
  EXPECT_EQ(read->days, 3);
  EXPECT_EQ(read->unit, app::Unit::fahrenheit);
  ASSERT_TRUE(read->at);
  EXPECT_DOUBLE_EQ(read->at->lon, 10.75);
  json::value back = wire::encode(*read);
  EXPECT_EQ(back.at("unit").as_string(), "fahrenheit");
  EXPECT_EQ(back, parse(R"({"city":"Oslo","days":3,"unit":"fahrenheit","tags":["a"],"at":{"lat":59.9,"lon":10.75}})"));
}

// Each way arguments can fail to fit, and the member the error names.
TEST(WireCodec, ArgumentsThatDoNotFitNameTheMember) {
  struct Case {
    const char* input;
    const char* message;
  };
  const Case cases[] = {
      {R"({"unit":"celsius","tags":[]})", "Forecast.city: required field is missing"},
      {R"({"city":1,"unit":"celsius","tags":[]})", "Forecast.city: expected a string"},
      {R"({"city":"x","days":4294967296,"unit":"celsius","tags":[]})",
       "Forecast.days: expected an integer from -2147483648 to 2147483647"},
      {R"({"city":"x","days":1.5,"unit":"celsius","tags":[]})", "Forecast.days: expected an integer"},
      {R"({"city":"x","unit":"kelvin","tags":[]})", R"(Forecast.unit: expected "celsius" or "fahrenheit")"},
      {R"({"city":"x","unit":"celsius","tags":[1]})", "Forecast.tags[0]: expected a string"},
      {R"({"city":"x","unit":"celsius","tags":[],"at":{"lat":1}})", "Forecast.at -> Place.lon: required field is missing"},
      {R"({"city":"x","unit":"celsius","tags":[],"cty":"y"})", "Forecast.cty: unknown member"},
  };
  for (const auto& c : cases) {
    auto read = wire::decode<app::Forecast>(parse(c.input));
    ASSERT_FALSE(read) << c.input;
    EXPECT_EQ(read.error().code, error_code::kInvalidParams) << c.input;
    EXPECT_EQ(read.error().message, c.message) << c.input;
  }
}

TEST(WireCodec, AStructWithExtraKeepsUnknownMembers) {
  auto read = wire::decode<app::Open>(parse(R"({"name":"n","colour":"red"})"));
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->extra.at("colour").as_string(), "red");
  EXPECT_EQ(wire::encode(*read), parse(R"({"name":"n","colour":"red"})"));
}

std::shared_ptr<Server> forecast_server(std::atomic<int>& calls) {
  auto server = std::make_shared<Server>();
  add_typed_tool<app::Forecast>(*server, Tool{.name = "forecast", .description = "Weather"},
                                [&calls](const app::Forecast& f, RequestContext&) {
                                  ++calls;
                                  return CallToolResult::text(f.city + " in " + std::to_string(f.days.value_or(1)) +
                                                              " days, " + (f.unit == app::Unit::celsius ? "C" : "F"));
                                });
  add_typed_tool<app::Forecast>(*server, Tool{.name = "report"}, [](const app::Forecast& f, RequestContext&) {
    return app::Report{.summary = "fair in " + f.city, .high = 21.5};
  });
  add_typed_tool<app::Forecast>(*server, Tool{.name = "refuse"},
                                [](const app::Forecast&, RequestContext&) -> Result<app::Report> {
                                  return fail(Error::invalid_params("no forecasts for that city"));
                                });
  return server;
}

TEST(TypedTool, ListsTheDerivedSchemasAndCallsTheHandlerWithTheStruct) {
  std::atomic<int> calls{0};
  Connected c(forecast_server(calls));
  auto list = c.client->list_tools();
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->tools.size(), 3u);
  EXPECT_EQ(json::value(list->tools[0].input_schema), json::value(wire::json_schema<app::Forecast>()));
  EXPECT_FALSE(list->tools[0].output_schema);
  ASSERT_TRUE(list->tools[1].output_schema);
  EXPECT_EQ(json::value(*list->tools[1].output_schema), json::value(wire::json_schema<app::Report>()));

  auto r = c.client->call_tool("forecast", parse(R"({"city":"Oslo","days":3,"unit":"celsius","tags":[]})").as_object());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_FALSE(r->is_error.value_or(false));
  EXPECT_EQ(text_of(*r), "Oslo in 3 days, C");
  EXPECT_EQ(calls.load(), 1);
}

TEST(TypedTool, ArgumentsThatDoNotFitAreAToolErrorNamingTheMemberAndNeverReachTheHandler) {
  std::atomic<int> calls{0};
  Connected c(forecast_server(calls));
  auto r = c.client->call_tool("forecast", parse(R"({"city":"Oslo","days":"three","unit":"celsius","tags":[]})").as_object());
  ASSERT_TRUE(r) << r.error().message;  // a tool execution error, not a JSON-RPC error (SEP-1303)
  EXPECT_TRUE(r->is_error.value_or(false));
  EXPECT_EQ(text_of(*r), "invalid arguments (-32602): arguments.days: expected an integer");

  auto missing = c.client->call_tool("forecast", {});
  ASSERT_TRUE(missing);
  EXPECT_EQ(text_of(*missing), "invalid arguments (-32602): arguments.city: required field is missing");
  EXPECT_EQ(calls.load(), 0);
}

TEST(TypedTool, AStructResultIsStructuredContentWithItsTextAndAResultErrorIsAProtocolError) {
  std::atomic<int> calls{0};
  Connected c(forecast_server(calls));
  auto r = c.client->call_tool("report", parse(R"({"city":"Oslo","unit":"celsius","tags":[]})").as_object());
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->structured_content);
  EXPECT_EQ(json::value(*r->structured_content), parse(R"({"summary":"fair in Oslo","high":21.5})"));
  EXPECT_EQ(parse(text_of(*r)), json::value(*r->structured_content));

  auto refused = c.client->call_tool("refuse", parse(R"({"city":"Oslo","unit":"celsius","tags":[]})").as_object());
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, error_code::kInvalidParams);
  EXPECT_EQ(refused.error().message, "no forecasts for that city");
}

}  // namespace
