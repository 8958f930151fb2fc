#include <set>

#include "mcp/protocol/base.hpp"
#include "mcp/protocol/capabilities.hpp"
#include "mcp/protocol/completion.hpp"
#include "mcp/protocol/logging.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/protocol/notifications.hpp"
#include "mcp/protocol/pagination.hpp"
#include "mcp/protocol/roots.hpp"
#include "protocol/test_util.hpp"

namespace mcp {
namespace {

using test::expect_round_trip;
using test::J;
using test::parse_ok;

TEST(Logging, LevelsAreOrderedBySeverity) {
  const LoggingLevel order[] = {LoggingLevel::debug,   LoggingLevel::info,     LoggingLevel::notice,
                                LoggingLevel::warning, LoggingLevel::error,    LoggingLevel::critical,
                                LoggingLevel::alert,   LoggingLevel::emergency};
  const char* names[] = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
  for (std::size_t i = 0; i < std::size(order); ++i) {
    EXPECT_EQ(to_string(order[i]), names[i]);
    EXPECT_EQ(parse_logging_level(names[i]), order[i]);
    if (i > 0) {
      EXPECT_LT(order[i - 1], order[i]);
    }
  }
  EXPECT_GE(LoggingLevel::error, LoggingLevel::warning);
  EXPECT_FALSE(LoggingLevel::info >= LoggingLevel::notice);  // an info message is filtered at "notice"
  EXPECT_EQ(parse_logging_level("verbose"), std::nullopt);
  EXPECT_EQ(parse_logging_level("ERROR"), std::nullopt);
}

TEST(Logging, SetLevelAndMessages) {
  EXPECT_EQ(parse_ok<SetLevelRequestParams>(R"({"level":"critical"})").level, LoggingLevel::critical);
  expect_round_trip<SetLevelRequestParams>(R"({"level":"debug","_meta":{"progressToken":"t"},"x":1})");
  EXPECT_INVALID(SetLevelRequestParams, R"({"level":"loud"})",
                 "SetLevelRequestParams.level -> LoggingLevel: expected \"debug\", \"info\", \"notice\", "
                 "\"warning\", \"error\", \"critical\", \"alert\" or \"emergency\"");
  EXPECT_INVALID(SetLevelRequestParams, R"({})", "SetLevelRequestParams.level: required field is missing");
  expect_round_trip<LoggingMessageNotificationParams>(
      R"({"level":"error","logger":"database","data":{"error":"Connection failed","details":{"host":"localhost"}},"x":1})");
  // `data` is required, but may be null; null must survive.
  auto m = parse_ok<LoggingMessageNotificationParams>(R"({"level":"info","data":null})");
  EXPECT_TRUE(m.data.is_null());
  EXPECT_EQ(to_json(m), J(R"({"level":"info","data":null})"));
  EXPECT_INVALID(LoggingMessageNotificationParams, R"({"level":"info"})",
                 "LoggingMessageNotificationParams.data: required field is missing");
}

TEST(Notifications, Progress) {
  expect_round_trip<ProgressNotificationParams>(
      R"({"progressToken":"abc123","progress":50,"total":100,"message":"Reticulating splines...","_meta":{"m":1},"x":1})");
  expect_round_trip<ProgressNotificationParams>(R"({"progressToken":7,"progress":0.25})");
  // A token is given back exactly, even one beyond int64.
  expect_round_trip<ProgressNotificationParams>(R"({"progressToken":18446744073709551615,"progress":1})");
  EXPECT_INVALID(ProgressNotificationParams, R"({"progressToken":true,"progress":1})",
                 "ProgressNotificationParams.progressToken: expected a string or an integer");
  EXPECT_INVALID(ProgressNotificationParams, R"({"progressToken":"t"})",
                 "ProgressNotificationParams.progress: required field is missing");
  EXPECT_INVALID(ProgressNotificationParams, R"({"progressToken":"t","progress":"half"})",
                 "ProgressNotificationParams.progress: expected a number");
}

TEST(Notifications, Cancelled) {
  auto c = parse_ok<CancelledNotificationParams>(R"({"requestId":"123","reason":"User requested cancellation"})");
  EXPECT_EQ(c.request_id, json::value("123"));
  expect_round_trip<CancelledNotificationParams>(R"({"requestId":5,"_meta":{"m":1},"x":1})");
  expect_round_trip<CancelledNotificationParams>(R"({"reason":"task"})");
  EXPECT_INVALID(CancelledNotificationParams, R"({"requestId":{"id":1}})",
                 "CancelledNotificationParams.requestId: expected a string or an integer");
}

TEST(Base, MetaOnlyShapes) {
  expect_round_trip<RequestParams>(R"({"_meta":{"progressToken":3},"x":1})");
  expect_round_trip<NotificationParams>(R"({"_meta":{"m":1}})");
  expect_round_trip<EmptyResult>(R"({})");
  EXPECT_INVALID(RequestParams, R"({"_meta":{"progressToken":null}})", "RequestParams._meta.progressToken");
  EXPECT_INVALID(EmptyResult, R"({"_meta":"m"})", "EmptyResult._meta: expected an object");
  EXPECT_EQ(progress_token(json::object{{"progressToken", false}}), std::nullopt);
  EXPECT_EQ(progress_token(std::nullopt), std::nullopt);
}

TEST(Pagination, WalksTheWholeListOnce) {
  std::vector<int> all(25);
  for (int i = 0; i < 25; ++i) all[static_cast<std::size_t>(i)] = i;
  std::vector<int> seen;
  std::optional<std::string> cursor;
  int pages = 0;
  do {
    std::optional<std::string> next;
    auto page = page_of(all, cursor, 10, next);
    ASSERT_TRUE(page.has_value()) << page.error().describe();
    seen.insert(seen.end(), page->begin(), page->end());
    cursor = next;
    ++pages;
  } while (cursor && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen, all);
}

TEST(Pagination, BoundsAndBadCursors) {
  auto first = paginate(20, std::nullopt, 10);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->begin, 0u);
  EXPECT_EQ(first->end, 10u);
  ASSERT_TRUE(first->next_cursor);
  auto last = paginate(20, first->next_cursor, 10);
  EXPECT_EQ(last->end, 20u);
  EXPECT_FALSE(last->next_cursor);  // exactly at the end: no empty extra page
  auto shrunk = paginate(5, first->next_cursor, 10);
  EXPECT_EQ(shrunk->begin, 5u);
  EXPECT_EQ(shrunk->end, 5u);
  EXPECT_EQ(paginate(7, std::nullopt, 0)->end, 7u);
  for (const char* bad : {"", "10", "o:", "o:x", "o:-1", "o:1x", "o:99999999999999999999999"}) {
    auto r = paginate(20, std::string(bad), 10);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().code, error_code::kInvalidParams);
  }
  expect_round_trip<PaginatedRequestParams>(R"({"cursor":"o:10","_meta":{"progressToken":"p"},"x":1})");
  EXPECT_INVALID(PaginatedRequestParams, R"({"cursor":10})", "PaginatedRequestParams.cursor: expected a string");
}

TEST(Completion, RequestDispatchesTheReference) {
  auto p = parse_ok<CompleteRequestParams>(
      R"({"ref":{"type":"ref/prompt","name":"code_review"},"argument":{"name":"language","value":"py"},
          "context":{"arguments":{"framework":"flask"}}})");
  EXPECT_EQ(std::get<PromptReference>(p.ref).name, "code_review");
  EXPECT_EQ(p.argument.value, "py");
  EXPECT_EQ(p.context->arguments.at("framework"), "flask");
  p = parse_ok<CompleteRequestParams>(
      R"({"ref":{"type":"ref/resource","uri":"file:///{path}"},"argument":{"name":"path","value":"sr"}})");
  EXPECT_EQ(std::get<ResourceTemplateReference>(p.ref).uri, "file:///{path}");
  expect_round_trip<CompleteRequestParams>(
      R"({"ref":{"type":"ref/prompt","name":"p","title":"P","x":1},"argument":{"name":"a","value":"v","x":2},
          "context":{"arguments":{"b":"c"},"x":3},"_meta":{"progressToken":1},"x":4})");
  EXPECT_INVALID(CompleteRequestParams, R"({"ref":{"type":"ref/tool","name":"t"},"argument":{"name":"a","value":"v"}})",
                 "CompleteRequestParams.ref -> CompletionReference.type: unknown reference type \"ref/tool\"");
  EXPECT_INVALID(CompleteRequestParams, R"({"ref":{"type":"ref/resource"},"argument":{"name":"a","value":"v"}})",
                 "ResourceTemplateReference.uri: required field is missing");
  EXPECT_INVALID(CompleteRequestParams, R"({"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a"}})",
                 "CompleteRequestParams.argument -> CompletionArgument.value: required field is missing");
  EXPECT_INVALID(
      CompleteRequestParams,
      R"({"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v"},"context":{"arguments":{"b":2}}})",
      "CompletionContext.arguments.b: expected a string");
}

TEST(Completion, Result) {
  expect_round_trip<CompleteResult>(
      R"({"completion":{"values":["python","pytorch","pyside"],"total":10,"hasMore":true,"x":1},"_meta":{"m":1},"x":2})");
  EXPECT_INVALID(CompleteResult, R"({"completion":{"total":1}})", "Completion.values: required field is missing");
  EXPECT_INVALID(CompleteResult, R"({"completion":{"values":[1]}})", "Completion.values[0]: expected a string");
  EXPECT_INVALID(CompleteResult, R"({})", "CompleteResult.completion: required field is missing");
}

TEST(Roots, RoundTrip) {
  expect_round_trip<ListRootsResult>(
      R"({"roots":[{"uri":"file:///home/user/projects/myproject","name":"My Project","_meta":{"m":1},"x":1}],"y":2})");
  EXPECT_INVALID(ListRootsResult, R"({"roots":[{"name":"n"}]})",
                 "ListRootsResult.roots[0] -> Root.uri: required field is missing");
}

TEST(Methods, NamesAreUniqueAndNotificationsAreRecognised) {
  std::set<std::string_view> unique(method::kAll.begin(), method::kAll.end());
  EXPECT_EQ(unique.size(), method::kAll.size());
  EXPECT_EQ(method::kToolsList, "tools/list");
  EXPECT_TRUE(method::is_notification(method::kProgress));
  EXPECT_FALSE(method::is_notification(method::kToolsCall));
}

}  // namespace
}  // namespace mcp

TEST(Capabilities, DeclaresCapabilityWalksPathsAndMatchesDottedExtensionKeys) {
  auto caps = mcp::json::parse(R"({"tools":{"listChanged":true},"resources":{"subscribe":false},
    "logging":{},"experimental":null,"io.modelcontextprotocol/signed-manifests":{"algorithm":"ed25519"}})").as_object();
  EXPECT_TRUE(mcp::declares_capability(caps, "tools"));
  EXPECT_TRUE(mcp::declares_capability(caps, "tools.listChanged"));
  EXPECT_TRUE(mcp::declares_capability(caps, "logging"));
  EXPECT_FALSE(mcp::declares_capability(caps, "resources.subscribe"));  // false is not declared
  EXPECT_FALSE(mcp::declares_capability(caps, "experimental"));         // null is not declared
  EXPECT_FALSE(mcp::declares_capability(caps, "prompts"));
  EXPECT_FALSE(mcp::declares_capability(caps, "tools.listChanged.deeper"));
  EXPECT_TRUE(mcp::declares_capability(caps, "io.modelcontextprotocol/signed-manifests"));
  EXPECT_TRUE(mcp::declares_capability(caps, "io.modelcontextprotocol/signed-manifests.algorithm"));
}
