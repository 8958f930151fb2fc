// A tool whose answer is JSON already (Server::add_async_json_tool) and the call that takes one as
// the server sent it (Client::call_tool_json_async): what a gateway passes on without decoding it
// and writing it again. The answer arrives whole, members this SDK does not model included, in
// both revisions; it still goes through the stages; a handler that throws or never answers is
// answered for; and the client holds the result to the shape that says what happened, leaving
// the content blocks to whoever reads them.
#include <gtest/gtest.h>

#include <future>
#include <stdexcept>
#include <string>

#include "mcp/client/client.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/server/server.hpp"
#include "server/tools.hpp"

using namespace mcp;
using mcp::test::Connected;
using mcp::test::handshake;
using mcp::test::make_tool;
using mcp::test::text_of;
using mcp::test::Workers;

namespace {

// A result with members this SDK has no field for, at the top, in a block and in _meta.
json::object rich_result() {
  return json::parse(R"({"content":[{"type":"text","text":"hi","vendorBlock":1}],
                         "vendorTop":{"a":[1,2]},"_meta":{"x":"y"}})")
      .as_object();
}

// A server with one JSON tool, "t", that answers `answer` from a thread of its own.
std::shared_ptr<Server> answering(json::object answer, Workers& workers) {
  auto server = std::make_shared<Server>();
  server->add_async_json_tool(make_tool("t"), [answer = std::move(answer), &workers](
                                                  const json::object&, std::shared_ptr<RequestContext>,
                                                  Reply<json::object> reply) {
    workers.start([answer, reply] { reply(answer); });
  });
  return server;
}

Result<json::object> call_json(Client& c, const std::string& name) {
  std::promise<Result<json::object>> done;
  auto got = done.get_future();
  c.call_tool_json_async(name, json::object{}, CallOptions{}, [&done](Result<json::object> r) { done.set_value(std::move(r)); });
  return got.get();
}

struct Revision : ::testing::TestWithParam<bool> {
  ClientOptions options() const { return GetParam() ? handshake() : ClientOptions{}; }
};

}  // namespace

TEST_P(Revision, AJsonToolsAnswerArrivesWhole) {
  Workers workers;
  Connected c(answering(rich_result(), workers), options());
  auto r = call_json(*c.client, "t");
  workers.join();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->at("vendorTop"), json::parse(R"({"a":[1,2]})"));
  EXPECT_EQ(r->at("content").at(0).at("vendorBlock"), 1);
  EXPECT_EQ(r->at("_meta").at("x"), "y");
  // What every answer of the revision carries is added by the server, as to a typed tool's.
  EXPECT_EQ(r->contains("resultType"), !GetParam());
}

TEST_P(Revision, ATypedCallReadsAJsonToolsAnswer) {
  Workers workers;
  Connected c(answering(rich_result(), workers), options());
  auto r = c.client->call_tool("t");
  workers.join();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(text_of(*r), "hi");
  EXPECT_EQ(r->extra.at("vendorTop"), json::parse(R"({"a":[1,2]})"));
}

INSTANTIATE_TEST_SUITE_P(JsonTool, Revision, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? "Handshake" : "Stateless"; });

TEST(JsonTool, AThrowingHandlerAnswersWithAToolError) {
  auto server = std::make_shared<Server>();
  server->add_async_json_tool(make_tool("t"), [](const json::object&, std::shared_ptr<RequestContext>, Reply<json::object>) {
    throw std::runtime_error("the backend is down");
  });
  Connected c(server);
  auto r = c.client->call_tool("t");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->is_error, true);
  EXPECT_EQ(text_of(*r), "tool failed: the backend is down");
  EXPECT_TRUE(c.client->ping());
}

TEST(JsonTool, ADroppedReplyIsAnInternalError) {
  auto server = std::make_shared<Server>();
  server->add_async_json_tool(make_tool("t"), [](const json::object&, std::shared_ptr<RequestContext>, Reply<json::object>) {});
  Connected c(server);
  auto r = call_json(*c.client, "t");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::kInternalError);
  EXPECT_NE(r.error().message.find("without answering"), std::string::npos) << r.error().message;
}

TEST(JsonTool, ItsAnswerGoesOutThroughTheStages) {
  Workers workers;
  auto server = answering(rich_result(), workers);
  server->use(make_stage("mark", {.on_result = [](const Call& call, Result<json::value>& answer) {
                                    if (call.method == method::kToolsCall && answer) answer->as_object()["marked"] = true;
                                  }}));
  Connected c(server);
  auto r = call_json(*c.client, "t");
  workers.join();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->at("marked"), true);
  EXPECT_EQ(r->at("vendorTop"), json::parse(R"({"a":[1,2]})"));
}

TEST(CallToolJson, AResultThatDoesNotSayWhatHappenedIsAClearError) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({})", "content: required field is missing"},
      {R"({"content":5})", "content: not an array"},
      {R"({"content":[1]})", "content: a block without a string type"},
      {R"({"content":[{"text":"x"}]})", "content: a block without a string type"},
      {R"({"content":[{"type":7}]})", "content: a block without a string type"},
      {R"({"content":[],"isError":"yes"})", "isError: not a boolean"},
      {R"({"content":[],"structuredContent":[1]})", "structuredContent: not an object"},
      {R"({"content":[],"_meta":3})", "_meta: not an object"},
  };
  for (const auto& [sent, why] : cases) {
    // In a 2025-11-25 session: a 2026-07-28 server makes every answer's _meta an object itself.
    Workers workers;
    Connected c(answering(json::parse(sent).as_object(), workers), handshake());
    auto r = call_json(*c.client, "t");
    workers.join();
    ASSERT_FALSE(r) << sent;
    EXPECT_EQ(r.error().code, error_code::kInternalError) << sent;
    EXPECT_EQ(r.error().message, std::string("invalid tools/call result from server: ") + why) << sent;
  }
}

TEST(CallToolJson, LeavesTheContentBlocksToTheirReader) {
  // A text block without its text: passed on as it is, where the typed call decodes it and refuses.
  const auto sent = json::parse(R"({"content":[{"type":"text"}],"isError":false})").as_object();
  Workers workers;
  Connected c(answering(sent, workers));
  auto passed = call_json(*c.client, "t");
  ASSERT_TRUE(passed) << passed.error().message;
  EXPECT_EQ(passed->at("content"), sent.at("content"));
  Connected typed(answering(sent, workers));
  auto decoded = typed.client->call_tool("t");
  ASSERT_FALSE(decoded);
  EXPECT_NE(decoded.error().message.find("invalid tools/call result from server"), std::string::npos)
      << decoded.error().message;
}
