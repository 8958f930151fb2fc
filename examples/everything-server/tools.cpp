// Fixture tools. Names, schemas and texts follow the conformance suite's server scenarios.
#include <chrono>
#include <thread>

#include "fixture.hpp"

namespace everything {

using namespace mcp;

namespace {


json::object string_prop(std::string description) {
  return json::object{{"type", "string"}, {"description", std::move(description)}};
}

// Turns a nested request's failure into a tool result the model can read, instead of a protocol error.
CallToolResult nested_failure(std::string_view what, const Error& e) {
  return CallToolResult::error(std::string(what) + " failed: " + e.message);
}

void pause() { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

// Sends an elicitation and describes the answer as "<prefix>: action=..., content={...}".
Result<CallToolResult> elicit_and_describe(RequestContext& ctx, json::object params, const std::string& prefix) {
  auto r = ctx.elicit(std::move(params));
  if (!r) return nested_failure("elicitation", r.error());
  const auto* o = r->if_object();
  const json::value* action = o ? o->if_contains("action") : nullptr;
  const json::value* content = o ? o->if_contains("content") : nullptr;
  return CallToolResult::text(prefix + ": action=" + (action && action->is_string() ? std::string(action->get_string()) : "?") +
                     ", content=" + (content ? json::serialize(*content) : "{}"));
}

}  // namespace

json::object no_args() { return json::object{{"type", "object"}, {"properties", json::object{}}}; }

Tool tool(std::string name, std::string description, json::object schema) {
  Tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  t.input_schema = std::move(schema);
  return t;
}

void add_tools(Server& s) {
  // Tools that only build a constant answer run inline on the transport thread (ToolOptions).
  const ToolOptions instant{.non_blocking = true};
  s.add_tool(tool("test_simple_text", "Returns a simple text response"),
             [](const json::object&, RequestContext&) -> Result<CallToolResult> {
               return CallToolResult::text("This is a simple text response for testing.");
             },
             instant);

  s.add_tool(tool("test_image_content", "Returns an image"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    CallToolResult r;
    r.content.push_back(ImageContent{.data = kPng, .mime_type = "image/png"});
    return r;
  }, instant);

  s.add_tool(tool("test_audio_content", "Returns an audio clip"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    CallToolResult r;
    r.content.push_back(AudioContent{.data = kWav, .mime_type = "audio/wav"});
    return r;
  }, instant);

  s.add_tool(tool("test_embedded_resource", "Returns an embedded resource"),
             [](const json::object&, RequestContext&) -> Result<CallToolResult> {
               CallToolResult r;
               r.content.push_back(EmbeddedResource{.resource = TextResourceContents{
                                                        .uri = "test://embedded-resource",
                                                        .mime_type = "text/plain",
                                                        .text = "This is an embedded resource content."}});
               return r;
             });

  s.add_tool(tool("test_multiple_content_types", "Returns text, an image and an embedded resource"),
             [](const json::object&, RequestContext&) -> Result<CallToolResult> {
               CallToolResult r;
               r.content.push_back(TextContent{.text = "Multiple content types test:"});
               r.content.push_back(ImageContent{.data = kPng, .mime_type = "image/png"});
               r.content.push_back(EmbeddedResource{.resource = TextResourceContents{
                                                        .uri = "test://mixed-content-resource",
                                                        .mime_type = "application/json",
                                                        .text = R"({"test":"data","value":123})"}});
               return r;
             });

  s.add_tool(tool("test_tool_with_logging", "Sends three log messages while it runs"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               ctx.log("info", "Tool execution started");
               pause();
               ctx.log("info", "Tool processing data");
               pause();
               ctx.log("info", "Tool execution completed");
               return CallToolResult::text("Tool with logging executed successfully");
             });

  s.add_tool(tool("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               for (int step : {0, 50, 100}) {
                 if (ctx.cancelled()) return fail(Error::cancelled("cancelled by the client"));
                 ctx.progress(step, 100, "Completed step " + std::to_string(step) + " of 100");
                 // Also after the last step: the reference TypeScript client handles notifications a
                 // tick later than responses, so a result right behind the last progress overtakes it.
                 pause();
               }
               std::string token = "no progress token";
               if (ctx.has_progress_token()) token = json::serialize(ctx.request_meta()->at("progressToken"));
               return CallToolResult::text("Progress reported for token " + token);
             });

  s.add_tool(tool("test_error_handling", "Always fails, as a tool error"), [](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::error("This tool intentionally returns an error for testing");
  });

  s.add_tool(tool("test_sampling", "Asks the client's model to answer a prompt",
                  json::object{{"type", "object"},
                               {"properties", json::object{{"prompt", string_prop("The prompt to send to the LLM")}}},
                               {"required", json::array{"prompt"}}}),
             [](const json::object& args, RequestContext& ctx) -> Result<CallToolResult> {
               auto p = args.if_contains("prompt");
               if (!p || !p->is_string()) return fail(Error::invalid_params("test_sampling: prompt must be a string"));
               json::object params{
                   {"messages", json::array{json::object{{"role", "user"},
                                                         {"content", json::object{{"type", "text"}, {"text", *p}}}}}},
                   {"maxTokens", 100}};
               auto r = ctx.create_message(std::move(params));
               if (!r) return nested_failure("sampling", r.error());
               std::string text = "(no text)";
               if (auto c = r->as_object().if_contains("content"); c && c->is_object()) {
                 if (auto t = c->as_object().if_contains("text"); t && t->is_string()) text = std::string(t->get_string());
               }
               return CallToolResult::text("LLM response: " + text);
             });

  s.add_tool(tool("test_elicitation", "Asks the user for a username and an email",
                  json::object{{"type", "object"},
                               {"properties", json::object{{"message", string_prop("The message to show the user")}}},
                               {"required", json::array{"message"}}}),
             [](const json::object& args, RequestContext& ctx) -> Result<CallToolResult> {
               auto m = args.if_contains("message");
               if (!m || !m->is_string()) return fail(Error::invalid_params("test_elicitation: message must be a string"));
               json::object schema{{"type", "object"},
                                   {"properties", json::object{{"username", string_prop("User's response")},
                                                               {"email", string_prop("User's email address")}}},
                                   {"required", json::array{"username", "email"}}};
               return elicit_and_describe(ctx, json::object{{"message", *m}, {"requestedSchema", std::move(schema)}},
                                          "User response");
             });

  s.add_tool(tool("test_elicitation_sep1034_defaults", "Elicits a form whose fields all have defaults (SEP-1034)"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               json::object props{
                   {"name", {{"type", "string"}, {"description", "User name"}, {"default", "John Doe"}}},
                   {"age", {{"type", "integer"}, {"description", "User age"}, {"default", 30}}},
                   {"score", {{"type", "number"}, {"description", "User score"}, {"default", 95.5}}},
                   {"status",
                    {{"type", "string"}, {"description", "User status"},
                     {"enum", json::array{"active", "inactive", "pending"}}, {"default", "active"}}},
                   {"verified", {{"type", "boolean"}, {"description", "Verification status"}, {"default", true}}}};
               json::object params{{"message", "Please review and update the form fields with defaults"},
                                   {"requestedSchema", {{"type", "object"}, {"properties", std::move(props)}, {"required", json::array{}}}}};
               return elicit_and_describe(ctx, std::move(params), "Elicitation completed");
             });

  s.add_tool(tool("test_elicitation_sep1330_enums", "Elicits the five enum shapes of SEP-1330"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               auto titled = [](std::initializer_list<std::pair<const char*, const char*>> items) {
                 json::array a;
                 for (auto [c, t] : items) a.push_back(json::object{{"const", c}, {"title", t}});
                 return a;
               };
               json::object props{
                   {"untitledSingle",
                    {{"type", "string"}, {"description", "Select one option"}, {"enum", json::array{"option1", "option2", "option3"}}}},
                   {"titledSingle",
                    {{"type", "string"}, {"description", "Select one option with titles"},
                     {"oneOf", titled({{"value1", "First Option"}, {"value2", "Second Option"}, {"value3", "Third Option"}})}}},
                   {"legacyEnum",
                    {{"type", "string"}, {"description", "Select one option (legacy)"}, {"enum", json::array{"opt1", "opt2", "opt3"}},
                     {"enumNames", json::array{"Option One", "Option Two", "Option Three"}}}},
                   {"untitledMulti",
                    {{"type", "array"}, {"description", "Select multiple options"}, {"minItems", 1}, {"maxItems", 3},
                     {"items", {{"type", "string"}, {"enum", json::array{"option1", "option2", "option3"}}}}}},
                   {"titledMulti",
                    {{"type", "array"}, {"description", "Select multiple options with titles"}, {"minItems", 1}, {"maxItems", 3},
                     {"items", {{"anyOf", titled({{"value1", "First Choice"}, {"value2", "Second Choice"}, {"value3", "Third Choice"}})}}}}}};
               json::object params{{"message", "Please select options from the enum fields"},
                                   {"requestedSchema", {{"type", "object"}, {"properties", std::move(props)}, {"required", json::array{}}}}};
               return elicit_and_describe(ctx, std::move(params), "Elicitation completed");
             });

  s.add_tool(tool("json_schema_2020_12_tool", "Tool with JSON Schema 2020-12 features",
                  json::parse(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
 "$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
 "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},
 "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
 "if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},
 "then":{"required":["phone"]},"else":{"required":["email"]},
 "additionalProperties":false})").as_object()),
             [](const json::object& args, RequestContext&) -> Result<CallToolResult> {
               return CallToolResult::text("JSON Schema 2020-12 tool called with: " + json::serialize(args));
             });

  // Over HTTP the request's SSE stream is closed before the answer, which then arrives on the
  // client's reconnection with Last-Event-ID; over stdio there is no stream and it simply answers.
  s.add_tool(tool("test_reconnection", "Completes after the transport has reconnected (SSE polling)"),
             [](const json::object&, RequestContext& ctx) -> Result<CallToolResult> {
               ctx.close_stream();
               std::this_thread::sleep_for(std::chrono::milliseconds(100));
               return CallToolResult::text(
                   "Reconnection test completed successfully. If you received this, the client properly reconnected "
                   "after stream closure.");
             });
}

}  // namespace everything
