// HttpServerOptions::more_endpoints: one HttpServer, several MCP endpoints each with its own Server
// (how the gateway serves each upstream at /servers/NAME/mcp). A session belongs to the endpoint
// that created it; stateless requests reach the endpoint they are posted to.
#include <gtest/gtest.h>

#include "http_test_util.hpp"

namespace mcp::http::test {
namespace {

std::shared_ptr<Server> server_with_tool(const std::string& tool) {
  auto s = std::make_shared<Server>(ServerOptions{});
  s->add_tool(named_tool(tool), [tool](const json::object&, RequestContext&) -> Result<CallToolResult> {
    return CallToolResult::text("from " + tool);
  });
  return s;
}

std::string open_session_at(unsigned short port, std::string_view path) {
  auto r = raw_exchange(port, "POST", mcp_post_headers(), kInitialize, path);
  auto sid = r.header("mcp-session-id");
  if (r.status != 200 || sid.empty()) return {};
  return raw_exchange(port, "POST", mcp_post_headers(sid), kInitialized, path).status == 202 ? sid : std::string();
}

std::vector<std::string> tool_names(const RawResponse& r) {
  std::vector<std::string> names;
  auto msgs = sse_messages(r.body);
  if (msgs.size() != 1 || !msgs[0].as_object().contains("result")) return names;
  for (const auto& t : msgs[0].at("result").at("tools").as_array()) names.emplace_back(t.at("name").as_string());
  return names;
}

struct TwoEndpoints : ::testing::Test {
  std::unique_ptr<TestServer> s;
  void SetUp() override {
    HttpServerOptions o;
    o.more_endpoints["/servers/b/mcp"] = server_with_tool("b_only");
    s = std::make_unique<TestServer>(std::move(o));
    ASSERT_TRUE(s->started);
  }
};

TEST_F(TwoEndpoints, EachPathIsServedByItsOwnServer) {
  auto main_sid = open_session_at(s->port, "/mcp");
  auto b_sid = open_session_at(s->port, "/servers/b/mcp");
  ASSERT_FALSE(main_sid.empty());
  ASSERT_FALSE(b_sid.empty());
  auto b_tools = tool_names(raw_exchange(s->port, "POST", mcp_post_headers(b_sid), rpc(2, "tools/list"), "/servers/b/mcp"));
  EXPECT_EQ(b_tools, std::vector<std::string>{"b_only"});
  auto main_tools = tool_names(raw_exchange(s->port, "POST", mcp_post_headers(main_sid), rpc(2, "tools/list"), "/mcp"));
  EXPECT_NE(std::find(main_tools.begin(), main_tools.end(), "echo"), main_tools.end());
  EXPECT_EQ(std::find(main_tools.begin(), main_tools.end(), "b_only"), main_tools.end());
  EXPECT_EQ(s->http->session_count(), 2u);
}

TEST_F(TwoEndpoints, ASessionIsUnknownAtAnotherEndpoint) {
  auto b_sid = open_session_at(s->port, "/servers/b/mcp");
  ASSERT_FALSE(b_sid.empty());
  EXPECT_EQ(raw_exchange(s->port, "POST", mcp_post_headers(b_sid), rpc(2, "tools/list"), "/mcp").status, 404);
  EXPECT_EQ(raw_exchange(s->port, "GET", {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", b_sid}}, {}, "/mcp").status, 404);
  // Nor can it be ended from there: it still works where it was made.
  EXPECT_EQ(raw_exchange(s->port, "DELETE", {{"Mcp-Session-Id", b_sid}}, {}, "/mcp").status, 404);
  auto again = raw_exchange(s->port, "POST", mcp_post_headers(b_sid), rpc(3, "tools/call", R"({"name":"b_only"})"),
                            "/servers/b/mcp");
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_NE(again.body.find("from b_only"), std::string::npos) << again.body;
  EXPECT_EQ(raw_exchange(s->port, "DELETE", {{"Mcp-Session-Id", b_sid}}, {}, "/servers/b/mcp").status, 200);
  EXPECT_EQ(s->http->session_count(), 0u);
}

TEST_F(TwoEndpoints, APathWithNoEndpointIs404) {
  auto r = raw_exchange(s->port, "POST", mcp_post_headers(), kInitialize, "/servers/c/mcp");
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_EQ(s->http->session_count(), 0u);
}

TEST_F(TwoEndpoints, AStatelessRequestReachesTheEndpointItIsPostedTo) {
  Headers h{{"Content-Type", "application/json"},
            {"Accept", "application/json, text/event-stream"},
            {"MCP-Protocol-Version", "2026-07-28"},
            {"Mcp-Method", "tools/list"}};
  const std::string body = rpc(1, "tools/list",
                               R"({"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
                               R"("io.modelcontextprotocol/clientCapabilities":{},)"
                               R"("io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}})");
  auto r = raw_exchange(s->port, "POST", h, body, "/servers/b/mcp");
  ASSERT_EQ(r.status, 200) << r.body;
  auto v = parse_json(r.body);
  const auto& tools = v.at("result").at("tools").as_array();
  ASSERT_EQ(tools.size(), 1u) << r.body;
  EXPECT_EQ(tools[0].at("name"), "b_only");
}

TEST_F(TwoEndpoints, AnEndpointAddedLaterIsServedWithItsRoutes) {
  auto added = s->http->add_endpoint("/servers/c/mcp", server_with_tool("c_only"),
                                     {{"/.well-known/c", [](const PlainRequest&) { return PlainResponse{200, {}, "c's"}; }}});
  ASSERT_TRUE(added) << added.error().message;
  auto c_sid = open_session_at(s->port, "/servers/c/mcp");
  ASSERT_FALSE(c_sid.empty());
  auto c_tools = tool_names(raw_exchange(s->port, "POST", mcp_post_headers(c_sid), rpc(2, "tools/list"), "/servers/c/mcp"));
  EXPECT_EQ(c_tools, std::vector<std::string>{"c_only"});
  auto route = raw_exchange(s->port, "GET", {}, {}, "/.well-known/c");
  EXPECT_EQ(route.status, 200);
  EXPECT_EQ(route.body, "c's");
  // A path (or route) served already is refused, and what is served stays.
  EXPECT_FALSE(s->http->add_endpoint("/servers/b/mcp", server_with_tool("other")));
  EXPECT_FALSE(s->http->add_endpoint("/servers/d/mcp", server_with_tool("d"),
                                     {{"/.well-known/c", [](const PlainRequest&) { return PlainResponse{}; }}}));
  EXPECT_EQ(raw_exchange(s->port, "POST", mcp_post_headers(), kInitialize, "/servers/d/mcp").status, 404);
}

TEST_F(TwoEndpoints, ARemovedEndpointEndsItsSessionsAndLeavesTheOthers) {
  auto main_sid = open_session_at(s->port, "/mcp");
  auto b_sid = open_session_at(s->port, "/servers/b/mcp");
  ASSERT_FALSE(main_sid.empty());
  ASSERT_FALSE(b_sid.empty());
  EXPECT_TRUE(s->http->remove_endpoint("/servers/b/mcp"));
  EXPECT_FALSE(s->http->remove_endpoint("/servers/b/mcp"));  // gone already
  EXPECT_FALSE(s->http->remove_endpoint("/mcp"));            // the main one stays until stop()
  EXPECT_EQ(raw_exchange(s->port, "POST", mcp_post_headers(b_sid), rpc(2, "tools/list"), "/servers/b/mcp").status, 404);
  EXPECT_EQ(raw_exchange(s->port, "POST", mcp_post_headers(), kInitialize, "/servers/b/mcp").status, 404);
  EXPECT_EQ(s->http->session_count(), 1u);
  auto main_tools = tool_names(raw_exchange(s->port, "POST", mcp_post_headers(main_sid), rpc(3, "tools/list"), "/mcp"));
  EXPECT_FALSE(main_tools.empty());
  // Served again under the same path: a new endpoint, where the old session id means nothing.
  ASSERT_TRUE(s->http->add_endpoint("/servers/b/mcp", server_with_tool("b_again")));
  EXPECT_EQ(raw_exchange(s->port, "POST", mcp_post_headers(b_sid), rpc(4, "tools/list"), "/servers/b/mcp").status, 404);
  auto fresh = open_session_at(s->port, "/servers/b/mcp");
  ASSERT_FALSE(fresh.empty());
  EXPECT_EQ(tool_names(raw_exchange(s->port, "POST", mcp_post_headers(fresh), rpc(5, "tools/list"), "/servers/b/mcp")),
            std::vector<std::string>{"b_again"});
}

TEST(HttpEndpoints, AnEndpointWithoutAServerIsRefusedAtStart) {
  HttpServerOptions o;
  o.more_endpoints["/servers/x/mcp"] = nullptr;
  HttpServer http(std::make_shared<Server>(ServerOptions{}), o);
  auto r = http.start();
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("/servers/x/mcp"), std::string::npos) << r.error().message;
}

}  // namespace
}  // namespace mcp::http::test
