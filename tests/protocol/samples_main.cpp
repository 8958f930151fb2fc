// protocol_samples: prints one line per sample, {"def":"<schema definition>","value":<to_json>}, for
// validate_against_schema.mjs to check against the 2025-11-25 schema. A def may be a path below a
// definition ("ElicitRequestFormParams/properties/requestedSchema") where the schema names none.
//
// Every sample is also read back with from_json and written again. A sample that does not survive
// that round trip unchanged, or whose known fields end up in `extra`, is reported on stderr and
// fails the run, so the test covers both directions of each type.
#include <iostream>
#include <string>

#include "mcp/jsonrpc/codec.hpp"
#include "protocol/samples.hpp"

namespace {

using namespace mcp;
using namespace mcp::samples;

int failures = 0;
int next_id = 1;

void print(std::string_view def, const json::value& v) {
  json::object line{{"def", def}, {"value", v}};
  std::cout << mcp::to_string(line) << '\n';
}

// Prints `value` as `def` after checking that it round-trips through from_json<T>.
template <class T>
json::value emit(std::string_view def, const T& value) {
  json::value out = to_json(value);
  auto back = from_json<T>(out);
  if (!back) {
    std::cerr << def << ": from_json failed: " << back.error().describe() << "\n  " << mcp::to_string(out) << '\n';
    ++failures;
  } else if (json::value again = to_json(*back); again != out) {
    std::cerr << def << ": round trip changed the value\n  " << mcp::to_string(out) << "\n  " << mcp::to_string(again)
              << '\n';
    ++failures;
  } else if (const auto* before = extra_of(value); before && *before != *extra_of(*back)) {
    std::cerr << def << ": from_json left known fields in extra: " << mcp::to_string(*extra_of(*back)) << '\n';
    ++failures;
  }
  print(def, out);
  return out;
}

// A request envelope around params; checks the params as `params_def` too.
template <class T>
void request(std::string_view def, std::string_view method, std::string_view params_def, const T& params) {
  json::value p = emit(params_def, params);
  print(def, json::object{{"jsonrpc", "2.0"}, {"id", next_id++}, {"method", method}, {"params", p}});
}

template <class T>
void notification(std::string_view def, std::string_view method, std::string_view params_def, const T& params) {
  json::value p = emit(params_def, params);
  print(def, json::object{{"jsonrpc", "2.0"}, {"method", method}, {"params", p}});
}

// A result inside a JSON-RPC response, checked as `def` and as the response.
template <class T>
void result(std::string_view def, const T& value) {
  json::value r = emit(def, value);
  print("JSONRPCResultResponse", json::object{{"jsonrpc", "2.0"}, {"id", next_id++}, {"result", r}});
}

json::object meta() { return json::object{{"example.com/trace", "t-2"}}; }
json::object token_meta(json::value token) { return json::object{{"progressToken", token}}; }

void basics() {
  emit("Role", Role::user);
  emit("Role", Role::assistant);
  emit("Annotations", annotations());
  emit("Icon", icon());
  emit("ToolAnnotations", *tool().annotations);
  emit("ToolExecution", *tool().execution);
  emit("Tool", tool());
  request("PingRequest", method::kPing, "RequestParams", RequestParams{token_meta(7), {}});
  result("Result", EmptyResult{meta(), json::object{{"example.com/extra", true}}});
  emit("EmptyResult", EmptyResult{});
  for (auto t : {json::value("abc"), json::value(42)}) {
    print("ProgressToken", t);
    print("RequestId", t);
  }
}

void content() {
  emit("TextContent", text());
  emit("ImageContent", image());
  emit("AudioContent", audio());
  emit("ResourceLink", resource_link());
  emit("EmbeddedResource", embedded_text());
  emit("EmbeddedResource", embedded_blob());
  emit("TextResourceContents", std::get<TextResourceContents>(embedded_text().resource));
  emit("BlobResourceContents", std::get<BlobResourceContents>(embedded_blob().resource));
  for (const ContentBlock& b : {ContentBlock(text()), ContentBlock(image()), ContentBlock(audio()),
                                ContentBlock(resource_link()), ContentBlock(embedded_blob())})
    emit("ContentBlock", b);
}

void resources() {
  emit("Resource", resource());
  emit("ResourceTemplate", resource_template());
  request("ListResourcesRequest", method::kResourcesList, "PaginatedRequestParams",
          PaginatedRequestParams{std::string("o:10"), token_meta("p"), {}});
  result("ListResourcesResult", ListResourcesResult{{resource()}, std::string("o:20"), meta(), {}});
  request("ListResourceTemplatesRequest", method::kResourcesTemplatesList, "PaginatedRequestParams",
          PaginatedRequestParams{});
  result("ListResourceTemplatesResult",
         ListResourceTemplatesResult{{resource_template()}, std::string("o:1"), meta(), {}});
  ResourceRequestParams uri{"file:///project/README.md", token_meta(3), {}};
  emit("ResourceRequestParams", uri);
  request("ReadResourceRequest", method::kResourcesRead, "ReadResourceRequestParams", uri);
  request("SubscribeRequest", method::kResourcesSubscribe, "SubscribeRequestParams", uri);
  request("UnsubscribeRequest", method::kResourcesUnsubscribe, "UnsubscribeRequestParams", uri);
  result("ReadResourceResult", ReadResourceResult{{embedded_text().resource, embedded_blob().resource}, meta(), {}});
  notification("ResourceUpdatedNotification", method::kResourcesUpdated, "ResourceUpdatedNotificationParams",
               ResourceUpdatedNotificationParams{"file:///project/README.md", meta(), {}});
  notification("ResourceListChangedNotification", method::kResourcesListChanged, "NotificationParams",
               NotificationParams{meta(), {}});
}

void prompts() {
  emit("PromptArgument", prompt().arguments.front());
  emit("Prompt", prompt());
  request("ListPromptsRequest", method::kPromptsList, "PaginatedRequestParams", PaginatedRequestParams{});
  result("ListPromptsResult", ListPromptsResult{{prompt()}, std::string("o:5"), meta(), {}});
  request("GetPromptRequest", method::kPromptsGet, "GetPromptRequestParams",
          GetPromptRequestParams{"code_review", {{"code", "int main() {}"}}, token_meta(1), {}});
  GetPromptResult g{
      std::string("Code review prompt"),
      {PromptMessage{Role::user, text("Review this"), {}}, PromptMessage{Role::assistant, resource_link(), {}},
       PromptMessage{Role::user, embedded_text(), {}}},
      meta(),
      {}};
  for (const auto& m : g.messages) emit("PromptMessage", m);
  result("GetPromptResult", g);
  notification("PromptListChangedNotification", method::kPromptsListChanged, "NotificationParams",
               NotificationParams{});
}

void tools() {
  request("ListToolsRequest", method::kToolsList, "PaginatedRequestParams", PaginatedRequestParams{});
  result("ListToolsResult", ListToolsResult{{tool()}, std::string("o:1"), meta(), {}});
  request("CallToolRequest", method::kToolsCall, "CallToolRequestParams",
          CallToolRequestParams{"get_weather", json::object{{"city", "Paris"}}, token_meta("c"), {}});
  result("CallToolResult", CallToolResult{{text(), image(), audio(), resource_link(), embedded_blob()},
                                          json::object{{"celsius", 18}},
                                          false,
                                          meta(),
                                          {}});
  result("CallToolResult", CallToolResult{{text("rate limited")}, std::nullopt, true, std::nullopt, {}});
  notification("ToolListChangedNotification", method::kToolsListChanged, "NotificationParams", NotificationParams{});
}

void completion() {
  emit("PromptReference", PromptReference{"code_review", std::string("Code review"), {}});
  emit("ResourceTemplateReference", ResourceTemplateReference{"file:///{path}", {}});
  CompleteRequestParams p{PromptReference{"code_review", std::string("Code review"), {}},
                          CompletionArgument{"language", "py", {}},
                          CompletionContext{{{"framework", "flask"}}, {}},
                          token_meta(9),
                          {}};
  request("CompleteRequest", method::kCompletionComplete, "CompleteRequestParams", p);
  p.ref = ResourceTemplateReference{"file:///{path}", {}};
  request("CompleteRequest", method::kCompletionComplete, "CompleteRequestParams", p);
  result("CompleteResult", CompleteResult{Completion{{"python", "pytorch"}, 10, true, {}}, meta(), {}});
}

void logging() {
  for (int l = 0; l <= static_cast<int>(LoggingLevel::emergency); ++l)
    emit("LoggingLevel", static_cast<LoggingLevel>(l));
  request("SetLevelRequest", method::kLoggingSetLevel, "SetLevelRequestParams",
          SetLevelRequestParams{LoggingLevel::warning, token_meta(2), {}});
  notification(
      "LoggingMessageNotification", method::kLoggingMessage, "LoggingMessageNotificationParams",
      LoggingMessageNotificationParams{
          LoggingLevel::error, std::string("database"), json::object{{"error", "Connection failed"}}, meta(), {}});
}

void sampling() {
  emit("ModelHint", ModelHint{std::string("claude"), {}});
  emit("ModelPreferences", *create_message_params().model_preferences);
  for (auto m : {ToolChoiceMode::automatic, ToolChoiceMode::required, ToolChoiceMode::none})
    emit("ToolChoice", ToolChoice{m, {}});
  emit("ToolUseContent", tool_use());
  emit("ToolResultContent", tool_result());
  for (const SamplingMessageContentBlock& b :
       {SamplingMessageContentBlock(text()), SamplingMessageContentBlock(image()), SamplingMessageContentBlock(audio()),
        SamplingMessageContentBlock(tool_use()), SamplingMessageContentBlock(tool_result())})
    emit("SamplingMessageContentBlock", b);
  for (const auto& m : create_message_params().messages) emit("SamplingMessage", m);
  request("CreateMessageRequest", method::kSamplingCreateMessage, "CreateMessageRequestParams",
          create_message_params());
  result("CreateMessageResult", create_message_result());
  result("CreateMessageResult", CreateMessageResult{Role::assistant,
                                                    {text("Paris is warmer")},
                                                    "m",
                                                    std::string(stop_reason::kEndTurn),
                                                    std::nullopt,
                                                    {}});
}

void elicitation() {
  emit("ElicitRequestFormParams/properties/requestedSchema", elicit_form().requested_schema);
  request("ElicitRequest", method::kElicitationCreate, "ElicitRequestFormParams", elicit_form());
  request("ElicitRequest", method::kElicitationCreate, "ElicitRequestURLParams", elicit_url());
  emit("ElicitRequestParams", ElicitRequestParams(elicit_form()));
  emit("ElicitRequestParams", ElicitRequestParams(elicit_url()));
  result("ElicitResult",
         ElicitResult{ElicitAction::accept,
                      json::object{{"name", "Ada"}, {"age", 36}, {"subscribe", true}, {"tags", json::array{"a", "b"}}},
                      meta(),
                      {}});
  result("ElicitResult", ElicitResult{ElicitAction::decline, std::nullopt, std::nullopt, {}});
  result("ElicitResult", ElicitResult{ElicitAction::cancel, std::nullopt, std::nullopt, {}});
  notification("ElicitationCompleteNotification", method::kElicitationComplete,
               "ElicitationCompleteNotification/properties/params",
               ElicitationCompleteNotificationParams{"550e8400-e29b-41d4-a716-446655440000", std::nullopt, {}});
  Error e = url_elicitation_required_error({elicit_url()});
  print("URLElicitationRequiredError",
        json::object{{"jsonrpc", "2.0"},
                     {"id", next_id++},
                     {"error", json::object{{"code", e.code}, {"message", e.message}, {"data", *e.data}}}});
}

void roots() {
  emit("Root", Root{"file:///home/user/project", std::string("project"), meta(), {}});
  request("ListRootsRequest", method::kRootsList, "RequestParams", RequestParams{});
  result("ListRootsResult",
         ListRootsResult{{Root{"file:///home/user/project", std::string("project"), meta(), {}}}, meta(), {}});
  notification("RootsListChangedNotification", method::kRootsListChanged, "NotificationParams",
               NotificationParams{meta(), {}});
}

void lifecycle() {
  emit("Implementation", implementation("client"));
  emit("ClientCapabilities", client_capabilities());
  emit("ServerCapabilities", server_capabilities());
  request("InitializeRequest", method::kInitialize, "InitializeRequestParams",
          InitializeRequestParams{
              std::string(kLatestProtocolVersion), client_capabilities(), implementation("client"), token_meta(0), {}});
  result("InitializeResult", InitializeResult{std::string(kLatestProtocolVersion),
                                              server_capabilities(),
                                              implementation("server"),
                                              std::string("Call get_weather for weather."),
                                              meta(),
                                              {}});
  notification("InitializedNotification", method::kInitialized, "NotificationParams", NotificationParams{meta(), {}});
  notification("ProgressNotification", method::kProgress, "ProgressNotificationParams",
               ProgressNotificationParams{json::value("tok-1"), 50, 100, std::string("Halfway"), meta(), {}});
  notification("CancelledNotification", method::kCancelled, "CancelledNotificationParams",
               CancelledNotificationParams{json::value(12), std::string("User requested cancellation"), meta(), {}});
  auto page = paginate(30, std::nullopt, 10);
  if (page && page->next_cursor) print("Cursor", json::string(*page->next_cursor));
  request("PaginatedRequest", method::kToolsList, "PaginatedRequestParams",
          PaginatedRequestParams{page ? page->next_cursor : std::nullopt, token_meta("p"), {}});
  result("PaginatedResult", ListToolsResult{{}, std::string("o:1"), meta(), {}});
}

// What the JSON-RPC codec writes, parsed back: the envelopes the wire carries.
void envelopes() {
  auto wire = [](std::string_view def, const std::string& text) {
    json::value v = json::parse(text);
    print(def, v);
    print("JSONRPCMessage", v);
  };
  json::object params{{"_meta", token_meta(5)}};
  std::string request = jsonrpc::encode_request(json::value(next_id++), method::kToolsList, &params);
  wire("JSONRPCRequest", request);
  print("Request", json::parse(request));  // the base interface every request extends
  std::string note = jsonrpc::encode_notification(method::kInitialized, &params);
  wire("JSONRPCNotification", note);
  print("Notification", json::parse(note));
  wire("JSONRPCResultResponse", jsonrpc::encode_result(json::value("r-1"), json::object{{"_meta", meta()}}));
  Error e = Error::method_not_found("tools/unknown");
  e.data = json::object{{"method", "tools/unknown"}};
  wire("JSONRPCErrorResponse", jsonrpc::encode_error(json::value(next_id++), e));
  // An error about a message whose id could not be read: the schema allows no null id.
  wire("JSONRPCErrorResponse", jsonrpc::encode_error(json::value(nullptr), Error::parse_error("not JSON")));
}

// Base interfaces the schema declares and other definitions extend without referencing them.
void bases() {
  print("BaseMetadata", to_json(implementation("base")));
  print("Icons", to_json(tool()));
  print("ResourceContents", to_json(std::get<TextResourceContents>(embedded_text().resource)));
}

}  // namespace

int main() {
  envelopes();
  bases();
  basics();
  content();
  resources();
  prompts();
  tools();
  completion();
  logging();
  sampling();
  elicitation();
  roots();
  lifecycle();
  json::array methods;
  for (auto m : method::kAll) methods.emplace_back(m);
  std::cout << mcp::to_string(json::object{{"check", "methods"}, {"value", std::move(methods)}}) << '\n';
  std::cout.flush();
  return failures == 0 ? 0 : 1;
}
