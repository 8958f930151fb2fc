// Every protocol type, fully populated (protocol/samples.hpp), survives to_json -> from_json ->
// to_json unchanged, keeps a field it has never heard of (at the top level and in `_meta`), and
// files nothing it knows under `extra`.
#include "protocol/samples.hpp"
#include "protocol/test_util.hpp"

namespace mcp {
namespace {

using namespace samples;

template <class T>
void check(const T& value) {
  SCOPED_TRACE(::testing::Message() << typeid(T).name());
  json::value v = to_json(value);
  ASSERT_TRUE(v.is_object());
  v.as_object()["x-added-later"] = json::object{{"nested", json::array{1, "two", nullptr}}};
  if (auto* meta = v.as_object().if_contains("_meta")) meta->as_object()["example.org/added"] = 1;
  auto back = from_json<T>(v);
  ASSERT_TRUE(back.has_value()) << back.error().describe() << "\n" << json::serialize(v);
  EXPECT_EQ(to_json(*back), v);
  // Only the added field is unknown: every field the type knows was read into its member.
  if (const json::object* before = extra_of(value)) {
    json::object expected = *before;
    expected["x-added-later"] = v.as_object()["x-added-later"];
    EXPECT_EQ(*extra_of(*back), expected);
  }
}

TEST(Samples, EveryTypeRoundTripsAndKeepsUnknownFields) {
  check(annotations());
  check(icon());
  check(text());
  check(image());
  check(audio());
  check(resource_link());
  check(embedded_text());
  check(embedded_blob());
  check(ContentBlock(embedded_blob()));
  check(std::get<TextResourceContents>(embedded_text().resource));
  check(tool());
  check(resource());
  check(resource_template());
  check(ListResourcesResult{{resource()}, std::string("c"), json::object{}, {}});
  check(ListResourceTemplatesResult{{resource_template()}, std::nullopt, std::nullopt, {}});
  check(ReadResourceResult{{embedded_text().resource}, json::object{}, {}});
  check(ResourceRequestParams{"file:///a", json::object{{"progressToken", 1}}, {}});
  check(ResourceUpdatedNotificationParams{"file:///a", json::object{}, {}});
  check(prompt());
  check(prompt().arguments.front());
  check(PromptMessage{Role::assistant, image(), {}});
  check(GetPromptRequestParams{"p", {{"a", "b"}}, json::object{}, {}});
  check(GetPromptResult{std::string("d"), {PromptMessage{Role::user, text(), {}}}, json::object{}, {}});
  check(ListPromptsResult{{prompt()}, std::string("c"), json::object{}, {}});
  check(ListToolsResult{{tool()}, std::string("c"), json::object{}, {}});
  check(CallToolRequestParams{"t", json::object{{"a", 1}}, json::object{}, {}});
  check(CallToolResult{{text(), resource_link()}, json::object{{"a", 1}}, true, json::object{}, {}});
  check(PromptReference{"p", std::string("P"), {}});
  check(ResourceTemplateReference{"file:///{x}", {}});
  check(CompleteRequestParams{PromptReference{"p", {}, {}},
                              CompletionArgument{"a", "v", {}},
                              CompletionContext{{{"k", "v"}}, {}},
                              json::object{},
                              {}});
  check(CompleteResult{Completion{{"a"}, 1, false, {}}, json::object{}, {}});
  check(SetLevelRequestParams{LoggingLevel::alert, json::object{}, {}});
  check(LoggingMessageNotificationParams{LoggingLevel::debug, std::string("l"), json::array{1}, json::object{}, {}});
  check(tool_use());
  check(tool_result());
  check(create_message_params());
  check(create_message_params().messages.at(1));
  check(*create_message_params().model_preferences);
  check(ModelHint{std::string("m"), {}});
  check(ToolChoice{ToolChoiceMode::required, {}});
  check(create_message_result());
  check(elicit_form());
  check(elicit_form().requested_schema);
  check(elicit_url());
  check(ElicitResult{ElicitAction::accept, json::object{{"a", "b"}}, json::object{}, {}});
  check(ElicitationCompleteNotificationParams{"e", json::object{}, {}});
  check(Root{"file:///r", std::string("r"), json::object{}, {}});
  check(ListRootsResult{{Root{"file:///r", std::nullopt, std::nullopt, {}}}, json::object{}, {}});
  check(client_capabilities());
  check(server_capabilities());
  check(*client_capabilities().sampling);
  check(*client_capabilities().elicitation);
  check(*server_capabilities().resources);
  check(*server_capabilities().prompts);
  check(implementation("i"));
  check(InitializeRequestParams{"2025-11-25", client_capabilities(), implementation("c"), json::object{}, {}});
  check(
      InitializeResult{"2025-11-25", server_capabilities(), implementation("s"), std::string("i"), json::object{}, {}});
  check(PaginatedRequestParams{std::string("o:1"), json::object{}, {}});
  check(ProgressNotificationParams{json::value(3), 1.5, 4, std::string("m"), json::object{}, {}});
  check(CancelledNotificationParams{json::value("r"), std::string("why"), json::object{}, {}});
  check(RequestParams{json::object{}, {}});
  check(NotificationParams{json::object{}, {}});
  check(EmptyResult{json::object{}, {}});
}

}  // namespace
}  // namespace mcp
