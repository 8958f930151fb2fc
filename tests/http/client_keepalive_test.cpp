// The HTTP client transport keeps connections alive (src/http/client_transport.cpp, the idle
// pool): sequential requests reuse one connection instead of opening one each, a kept connection
// the server has closed meanwhile is replaced without failing the request, and a response not read
// to its end never puts its connection back.
#include <gtest/gtest.h>

#include "http/http_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"

using namespace mcp::http::test;
using mcp::http::HttpClientOptions;
using mcp::http::HttpClientTransport;
using mcp::http::HttpServer;
using mcp::http::HttpServerOptions;

namespace {

std::shared_ptr<HttpClientTransport> transport_for(const std::string& url) {
  HttpClientOptions o;
  o.url = url;
  o.connect_timeout = 3000ms;
  auto t = HttpClientTransport::create(o);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  return t ? *t : nullptr;
}

mcp::ClientOptions options(const char* revision) {
  mcp::ClientOptions co;
  co.protocol_version = revision;
  co.session.request_timeout = 8s;
  return co;
}

class KeepAlive : public ::testing::TestWithParam<const char*> {};

TEST_P(KeepAlive, SequentialCallsShareAConnection) {
  TestServer s;
  ASSERT_TRUE(s.started);
  mcp::Client c(options(GetParam()));
  ASSERT_TRUE(c.connect(transport_for(s.url())));
  const auto before = s.http->accepted_connections();
  for (int i = 0; i < 50; ++i) {
    auto r = c.call_tool("echo", {{"text", "again"}});
    ASSERT_TRUE(r) << r.error().message;
  }
  // One connection (two at most, if the standalone stream's open raced a call) for 50 calls.
  EXPECT_LE(s.http->accepted_connections() - before, 2u);
}

INSTANTIATE_TEST_SUITE_P(BothRevisions, KeepAlive, ::testing::Values("2025-11-25", "2026-07-28"));

TEST(KeepAliveStale, AKeptConnectionTheServerClosedIsReplacedWithoutAFailure) {
  // Stateless requests need no session, so a new server on the same port answers them: the kept
  // connection to the old one is dead, and the request must go out again on a new one.
  auto gate = std::make_shared<Gate>();
  auto server = make_test_server(gate);
  HttpServerOptions o;
  auto first = std::make_unique<HttpServer>(server, o);
  ASSERT_TRUE(first->start());
  const auto port = first->port();
  mcp::Client c(options("2026-07-28"));
  ASSERT_TRUE(c.connect(transport_for("http://127.0.0.1:" + std::to_string(port) + "/mcp")));
  ASSERT_TRUE(c.call_tool("echo", {{"text", "one"}}));
  first->stop();
  first.reset();
  o.port = port;
  HttpServer second(server, o);
  ASSERT_TRUE(second.start());
  auto r = c.call_tool("echo", {{"text", "two"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(second.accepted_connections(), 1u);
  gate->release();
  second.stop();
}

}  // namespace
