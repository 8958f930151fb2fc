#include "protocol/samples.hpp"

namespace mcp::samples {

namespace {
json::object meta() { return json::object{{"example.com/trace", "t-1"}}; }
json::object meta_with_token() { return json::object{{"progressToken", "tok-1"}, {"example.com/trace", "t-1"}}; }
}  // namespace

Annotations annotations() {
  return Annotations{{Role::user, Role::assistant}, 0.5, std::string("2025-01-12T15:00:58Z"), {}};
}

Icon icon() {
  return Icon{"https://example.com/icon.png", std::string("image/png"), {"48x48", "any"}, std::string("dark"), {}};
}

TextContent text(std::string s) { return TextContent{std::move(s), annotations(), meta(), {}}; }
ImageContent image() { return ImageContent{"iVBORw0KGgo=", "image/png", annotations(), meta(), {}}; }
AudioContent audio() { return AudioContent{"UklGRiQAAABXQVZF", "audio/wav", annotations(), meta(), {}}; }

ResourceLink resource_link() {
  ResourceLink l;
  l.uri = "file:///project/src/main.rs";
  l.name = "main.rs";
  l.title = "Main file";
  l.description = "Primary application entry point";
  l.mime_type = "text/x-rust";
  l.annotations = annotations();
  l.size = 1024;
  l.icons = {icon()};
  l.meta = meta();
  return l;
}

EmbeddedResource embedded_text() {
  TextResourceContents c{.uri = "file:///notes.txt", .mime_type = "text/plain", .text = "notes"};
  c.annotations = annotations();  // SEP-2093: the resource's, not the block's
  c.meta = meta();
  return EmbeddedResource{.resource = std::move(c), .meta = meta()};
}

EmbeddedResource embedded_blob() {
  BlobResourceContents c{.uri = "file:///logo.png", .mime_type = "image/png", .blob = "iVBORw0KGgo="};
  c.name = "logo.png";
  c.size = 8;
  c.annotations = annotations();
  c.meta = meta();
  return EmbeddedResource{.resource = std::move(c), .meta = meta()};
}

Tool tool() {
  Tool t;
  t.name = "get_weather";
  t.title = "Weather";
  t.description = "Current weather for a city";
  t.input_schema = json::object{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                                {"type", "object"},
                                {"properties", json::object{{"city", json::object{{"type", "string"}}}}},
                                {"required", json::array{"city"}}};
  t.output_schema = json::object{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
                                 {"type", "object"},
                                 {"properties", json::object{{"celsius", json::object{{"type", "number"}}}}},
                                 {"required", json::array{"celsius"}}};
  t.annotations = ToolAnnotations{"Weather", true, false, true, true, {}};
  t.execution = ToolExecution{std::string("optional"), {}};
  t.icons = {icon()};
  t.meta = meta();
  return t;
}

Resource resource() {
  Resource r;
  r.uri = "file:///project/README.md";
  r.name = "README.md";
  r.title = "Read me";
  r.description = "Project overview";
  r.mime_type = "text/markdown";
  r.annotations = annotations();
  r.size = 2048;
  r.icons = {icon()};
  r.meta = meta();
  return r;
}

ResourceTemplate resource_template() {
  ResourceTemplate t;
  t.uri_template = "file:///{path}";
  t.name = "files";
  t.title = "Project files";
  t.description = "Any file of the project";
  t.mime_type = "application/octet-stream";
  t.annotations = annotations();
  t.icons = {icon()};
  t.meta = meta();
  return t;
}

Prompt prompt() {
  Prompt p;
  p.name = "code_review";
  p.title = "Request Code Review";
  p.description = "Asks the model to review code";
  p.arguments = {PromptArgument{"code", std::string("Code"), std::string("The code to review"), true, {}}};
  p.icons = {icon()};
  p.meta = meta();
  return p;
}

ToolUseContent tool_use() {
  return ToolUseContent{"call_1", "get_weather", json::object{{"city", "Paris"}}, meta(), {}};
}

ToolResultContent tool_result() {
  return ToolResultContent{"call_1", {text("18C")}, json::object{{"celsius", 18}}, false, meta(), {}};
}

CreateMessageRequestParams create_message_params() {
  CreateMessageRequestParams p;
  p.messages = {SamplingMessage{Role::user, {text("Weather in Paris?")}, meta(), {}},
                SamplingMessage{Role::assistant, {tool_use()}, meta(), {}},
                SamplingMessage{Role::user, {tool_result()}, meta(), {}}};
  p.messages[1].content.as_array = true;
  p.model_preferences = ModelPreferences{{ModelHint{std::string("claude-3-sonnet"), {}}}, 0.25, 0.5, 0.75, {}};
  p.system_prompt = "You are a helpful assistant.";
  p.include_context = IncludeContext::this_server;
  p.temperature = 0.7;
  p.max_tokens = 1000;
  p.stop_sequences = {"\n\nHuman:"};
  p.metadata = json::object{{"provider", json::object{{"top_k", 5}}}};
  p.tools = {tool()};
  p.tool_choice = ToolChoice{ToolChoiceMode::automatic, {}};
  p.meta = meta_with_token();
  return p;
}

CreateMessageResult create_message_result() {
  CreateMessageResult r;
  r.role = Role::assistant;
  r.content = {tool_use(), ToolUseContent{"call_2", "get_weather", json::object{{"city", "London"}}, {}, {}}};
  r.model = "claude-3-sonnet-20240307";
  r.stop_reason = std::string(stop_reason::kToolUse);
  r.meta = meta();
  return r;
}

ElicitRequestFormParams elicit_form() {
  RequestedSchema s;
  s.extra["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  // One property of every primitive kind the schema allows, each with every member it declares.
  json::array options{json::object{{"const", "red"}, {"title", "Red"}}, json::object{{"const", "green"}, {"title", "Green"}}};
  s.properties = json::object{
      {"name", json::object{{"type", "string"}, {"title", "Name"}, {"description", "Your name"}, {"minLength", 1},
                            {"maxLength", 64}, {"default", "Ada"}}},
      {"email", json::object{{"type", "string"}, {"format", "email"}}},
      {"age", json::object{{"type", "integer"}, {"title", "Age"}, {"description", "In years"}, {"minimum", 0},
                           {"maximum", 150}, {"default", 30}}},
      {"subscribe", json::object{{"type", "boolean"}, {"title", "Subscribe"}, {"description", "Weekly mail"},
                                 {"default", false}}},
      {"colour", json::object{{"type", "string"}, {"title", "Colour"}, {"description", "Pick one"},
                              {"enum", json::array{"red", "green"}}, {"default", "red"}}},
      {"shade", json::object{{"type", "string"}, {"title", "Shade"}, {"description", "Pick one"}, {"oneOf", options},
                             {"default", "green"}}},
      {"legacy", json::object{{"type", "string"}, {"title", "Legacy"}, {"description", "Pick one"},
                              {"enum", json::array{"a", "b"}}, {"enumNames", json::array{"A", "B"}}, {"default", "a"}}},
      {"tags", json::object{{"type", "array"}, {"title", "Tags"}, {"description", "Pick some"}, {"minItems", 1},
                            {"maxItems", 2}, {"items", json::object{{"type", "string"}, {"enum", json::array{"a", "b"}}}},
                            {"default", json::array{"a"}}}},
      {"labels", json::object{{"type", "array"}, {"title", "Labels"}, {"description", "Pick some"}, {"minItems", 0},
                              {"maxItems", 2}, {"items", json::object{{"anyOf", options}}},
                              {"default", json::array{"red"}}}}};
  s.required = {"name"};
  return ElicitRequestFormParams{"Please tell us about yourself", std::move(s), meta_with_token(), {}};
}

ElicitRequestURLParams elicit_url() {
  return ElicitRequestURLParams{"Please set your API key", "https://mcp.example.com/ui/set_api_key",
                                "550e8400-e29b-41d4-a716-446655440000", meta_with_token(), {}};
}

ClientCapabilities client_capabilities() {
  ClientCapabilities c;
  c.experimental = json::object{{"example.com/feature", json::object{{"level", 2}}}};
  c.roots = ListChangedCapability{true, {}};
  c.sampling = SamplingCapability{json::object{}, json::object{}, {}};
  c.elicitation = ElicitationCapability{json::object{}, json::object{}, {}};
  c.extra = json::object{{"signature", json::object{{"algorithms", json::array{"ed25519"}}}}};
  return c;
}

ServerCapabilities server_capabilities() {
  ServerCapabilities c;
  c.experimental = json::object{{"example.com/feature", json::object{}}};
  c.logging = json::object{};
  c.completions = json::object{};
  c.prompts = ListChangedCapability{true, {}};
  c.resources = ResourcesCapability{true, true, {}};
  c.tools = ListChangedCapability{false, {}};
  c.extra = json::object{{"io.modelcontextprotocol/signed-manifests", json::object{{"version", 1}}}};
  return c;
}

Implementation implementation(std::string name) {
  Implementation i;
  i.name = std::move(name);
  i.version = "1.0.0";
  i.title = "Example";
  i.description = "An example implementation";
  i.website_url = "https://example.com";
  i.icons = {icon()};
  return i;
}

}  // namespace mcp::samples
