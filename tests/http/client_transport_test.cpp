// HttpClientTransport: mcp::Client against our HttpServer over loopback, and its errors.
#include "mcp/http/client_transport.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>

#include "http/http_test_util.hpp"
#include "mcp/client/client.hpp"

using namespace mcp::http::test;
using mcp::http::HttpClientOptions;
using mcp::http::HttpClientTransport;
using mcp::http::HttpServerOptions;

namespace {

mcp::ClientOptions client_options() {
  mcp::ClientOptions co;
  co.session.request_timeout = 8s;
  return co;
}

// For the tests of a 2025-11-25 session over HTTP (session id, DELETE, the server's own requests).
mcp::ClientOptions session_client_options() {
  auto co = client_options();
  co.protocol_version = "2025-11-25";
  return co;
}

std::shared_ptr<HttpClientTransport> transport_for(const std::string& url, bool standalone = true) {
  HttpClientOptions o;
  o.url = url;
  o.connect_timeout = 3000ms;
  o.standalone_stream = standalone;
  auto t = HttpClientTransport::create(o);
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  return t ? *t : nullptr;
}

std::string first_text(const mcp::CallToolResult& r) {
  if (r.content.empty()) return {};
  auto* t = std::get_if<mcp::TextContent>(&r.content[0]);
  return t ? t->text : std::string();
}

// A port nothing listens on (bound, then released).
unsigned short free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
  socklen_t len = sizeof sa;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len);
  ::close(fd);
  return ntohs(sa.sin_port);
}

}  // namespace

TEST(HttpClient, FullRoundTrip) {
  TestServer s;
  std::atomic<int> list_changed{0};
  std::atomic<int> samplings{0};
  auto co = session_client_options();
  co.on_sampling = [&](const mcp::json::object& params, const mcp::CancellationToken&) -> mcp::Result<mcp::json::value> {
    ++samplings;
    EXPECT_TRUE(params.contains("messages"));
    return mcp::json::value{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "from client"}}}, {"model", "test-model"}};
  };
  co.on_list_changed = [&](const std::string& list) { list_changed += list == "tools"; };
  mcp::Client client(co);
  auto t = transport_for(s.url());
  ASSERT_TRUE(t);
  auto init = client.connect(t);
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_EQ(init->protocol_version, "2025-11-25");
  ASSERT_TRUE(t->session_id());
  EXPECT_EQ(t->session_id()->size(), 32u);
  EXPECT_EQ(s.http->session_count(), 1u);

  auto tools = client.list_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  EXPECT_GE(tools->tools.size(), 6u);

  auto echo = client.call_tool("echo", {{"text", "round trip"}});
  ASSERT_TRUE(echo) << echo.error().message;
  EXPECT_EQ(first_text(*echo), "round trip");

  std::vector<double> progress;
  std::mutex pmu;
  mcp::CallOptions opts;
  opts.on_progress = [&](const mcp::ProgressInfo& p) {
    std::lock_guard l(pmu);
    progress.push_back(p.progress);
  };
  auto prog = client.call_tool("progress", {}, opts);
  ASSERT_TRUE(prog) << prog.error().message;
  EXPECT_EQ(first_text(*prog), "progress done");
  {
    std::lock_guard l(pmu);
    EXPECT_EQ(progress, (std::vector<double>{1, 2}));  // both arrived, in order, before the result
  }

  // Sampling: the server's request travels on the tool call's SSE stream, the answer is POSTed back.
  auto sampled = client.call_tool("sample");
  ASSERT_TRUE(sampled) << sampled.error().message;
  EXPECT_EQ(first_text(*sampled), "sampled: from client");
  EXPECT_EQ(samplings.load(), 1);

  // Unrelated server notifications travel on the standalone GET stream.
  s.server->add_tool(named_tool("late"), [](const mcp::json::object&, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
    return text_result("late");
  });
  EXPECT_TRUE(eventually([&] { return list_changed.load() >= 1; }, 5s)) << "list_changed never reached the client";
  EXPECT_TRUE(client.ping());
}

// The same client speaking 2026-07-28 (its default) to our server: no session is ever opened;
// every request carries its own _meta and headers; a tool whose argument travels in an
// Mcp-Param header is called (our server refuses the call unless header and body agree); a
// multi round-trip call is answered with the client's handler; change notifications arrive on
// the subscriptions/listen the client keeps open.
TEST(HttpClient, StatelessRoundTrip) {
  TestServer s;
  std::atomic<int> list_changed{0};
  std::atomic<int> elicited{0};
  auto co = client_options();
  co.on_list_changed = [&](const std::string& list) { list_changed += list == "tools"; };
  co.on_elicitation = [&](const mcp::json::object&, const mcp::CancellationToken&) -> mcp::Result<mcp::json::value> {
    ++elicited;
    return mcp::json::value{{"action", "accept"}, {"content", {{"name", "Ada"}}}};
  };
  mcp::Tool regional = named_tool("regional");
  regional.input_schema = mcp::json::object{
      {"type", "object"},
      {"properties", {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}}}}};
  s.server->add_tool(regional, [](const mcp::json::object& a, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
    return text_result("in " + std::string(a.at("region").as_string()));
  });
  s.server->add_tool(named_tool("asks"), [](const mcp::json::object&, mcp::RequestContext& ctx) -> mcp::Result<mcp::CallToolResult> {
    if (const auto* answer = ctx.input_response("who")) return text_result(mcp::json::serialize(answer->at("content")));
    return ctx.input_required({{"who", mcp::InputRequest::elicit({{"message", "Name?"},
                                                                  {"requestedSchema", {{"type", "object"}}}})}});
  });
  mcp::Client client(co);
  auto t = transport_for(s.url());
  ASSERT_TRUE(t);
  auto init = client.connect(t);
  ASSERT_TRUE(init) << init.error().message;
  EXPECT_TRUE(client.stateless());
  EXPECT_EQ(init->protocol_version, "2026-07-28");
  EXPECT_EQ(init->server_info.name, s.server->options().info.name);
  EXPECT_FALSE(t->session_id());
  EXPECT_EQ(s.http->session_count(), 0u);

  auto tools = client.list_all_tools();
  ASSERT_TRUE(tools) << tools.error().message;
  auto echo = client.call_tool("echo", {{"text", "round trip"}});
  ASSERT_TRUE(echo) << echo.error().message;
  EXPECT_EQ(first_text(*echo), "round trip");
  // A value that must travel Base64-wrapped (a leading space, non-ASCII).
  auto in = client.call_tool("regional", {{"region", " m\xc3\xbcnchen"}});
  ASSERT_TRUE(in) << in.error().message;
  EXPECT_EQ(first_text(*in), "in  m\xc3\xbcnchen");
  auto asked = client.call_tool("asks");
  ASSERT_TRUE(asked) << asked.error().message;
  EXPECT_EQ(first_text(*asked), R"({"name":"Ada"})");
  EXPECT_EQ(elicited.load(), 1);

  std::vector<double> progress;
  std::mutex pmu;
  mcp::CallOptions opts;
  opts.on_progress = [&](const mcp::ProgressInfo& p) {
    std::lock_guard l(pmu);
    progress.push_back(p.progress);
  };
  auto prog = client.call_tool("progress", {}, opts);
  ASSERT_TRUE(prog) << prog.error().message;
  {
    std::lock_guard l(pmu);
    EXPECT_EQ(progress, (std::vector<double>{1, 2}));
  }

  s.server->add_tool(named_tool("late"), [](const mcp::json::object&, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
    return text_result("late");
  });
  EXPECT_TRUE(eventually([&] { return list_changed.load() >= 1; }, 5s)) << "list_changed never reached the client";
  EXPECT_TRUE(client.ping());
  EXPECT_EQ(s.http->session_count(), 0u);
  client.close();
}

TEST(HttpClient, ConcurrentCallsOnOneSession) {
  TestServer s;
  mcp::Client client(client_options());
  ASSERT_TRUE(client.connect(transport_for(s.url())));
  std::vector<std::thread> ts;
  std::atomic<int> ok{0};
  for (int i = 0; i < 6; ++i) {
    ts.emplace_back([&, i] {
      auto r = client.call_tool("echo", {{"text", "c" + std::to_string(i)}});
      if (r && first_text(*r) == "c" + std::to_string(i)) ++ok;
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(ok.load(), 6);
}

TEST(HttpClient, PolledAnswerArrivesThroughResumption) {
  TestServer s;  // sse_retry 100 ms
  mcp::Client client(client_options());
  ASSERT_TRUE(client.connect(transport_for(s.url())));
  auto r = client.call_tool("poll");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(first_text(*r), "polled");
}

TEST(HttpClient, WorksAgainstAJsonResponseServer) {
  HttpServerOptions o;
  o.prefer_json_response = true;
  TestServer s(o);
  mcp::Client client(client_options());
  auto init = client.connect(transport_for(s.url()));
  ASSERT_TRUE(init) << init.error().message;
  auto r = client.call_tool("echo", {{"text", "json"}});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(first_text(*r), "json");
}

TEST(HttpClient, NonMcpEndpointFailsClearly) {
  HttpServerOptions o;
  o.routes["/"] = [](const mcp::http::PlainRequest&) {
    mcp::http::PlainResponse p;
    p.headers["Content-Type"] = "text/html";
    p.body = "<html><body>Welcome</body></html>";
    return p;
  };
  TestServer s(o);
  mcp::Client client(client_options());
  auto t0 = Clock::now();
  auto init = client.connect(transport_for(s.url("/")));
  ASSERT_FALSE(init);
  EXPECT_LT(Clock::now() - t0, 5s);
  EXPECT_NE(init.error().message.find("not an MCP endpoint"), std::string::npos) << init.error().message;
  EXPECT_NE(init.error().message.find("text/html"), std::string::npos) << init.error().message;
  EXPECT_NE(init.error().message.find(s.url("/")), std::string::npos) << init.error().message;
}

TEST(HttpClient, HttpErrorStatusNamesStatusAndUrl) {
  TestServer s;
  mcp::Client client(client_options());
  auto init = client.connect(transport_for(s.url("/wrong-path")));
  ASSERT_FALSE(init);
  EXPECT_NE(init.error().message.find("404"), std::string::npos) << init.error().message;
  EXPECT_NE(init.error().message.find("/wrong-path"), std::string::npos) << init.error().message;
  // The transport's report of an HTTP failure, not an answer the server sent.
  EXPECT_FALSE(init.error().from_peer);
}

TEST(HttpClient, ConnectionRefusedFailsClearlyAndQuickly) {
  auto port = free_port();
  std::string url = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
  mcp::Client client(client_options());
  auto t0 = Clock::now();
  auto init = client.connect(transport_for(url));
  ASSERT_FALSE(init);
  EXPECT_LT(Clock::now() - t0, 4s);
  EXPECT_NE(init.error().message.find("cannot connect"), std::string::npos) << init.error().message;
  EXPECT_NE(init.error().message.find(url), std::string::npos) << init.error().message;
  EXPECT_NE(init.error().message.find("refused"), std::string::npos) << init.error().message;
  EXPECT_FALSE(init.error().from_peer);
}

TEST(HttpClient, CloseSendsDelete) {
  TestServer s;
  mcp::Client client(session_client_options());
  ASSERT_TRUE(client.connect(transport_for(s.url())));
  ASSERT_EQ(s.http->session_count(), 1u);
  client.close();
  EXPECT_TRUE(eventually([&] { return s.http->session_count() == 0; }, 3s)) << "no DELETE reached the server";
}

TEST(HttpClient, SessionEndedByTheServerFailsCallsWithA404Message) {
  TestServer s;
  mcp::Client client(session_client_options());
  auto t = transport_for(s.url());
  ASSERT_TRUE(client.connect(t));
  ASSERT_TRUE(t->session_id());
  ASSERT_EQ(raw_exchange(s.port, "DELETE", {{"Mcp-Session-Id", *t->session_id()}}).status, 200);
  auto t0 = Clock::now();
  auto r = client.call_tool("echo", {{"text", "x"}});
  ASSERT_FALSE(r);
  EXPECT_LT(Clock::now() - t0, 5s);
  EXPECT_NE(r.error().message.find("404"), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find("session"), std::string::npos) << r.error().message;
}

TEST(HttpClient, CreateRefusesNonHttpUrls) {
  for (const char* bad : {"ftp://example.com/mcp", "not a url", "http://", "/mcp"}) {
    auto t = HttpClientTransport::create({.url = bad});
    ASSERT_FALSE(t) << bad;
    EXPECT_EQ(t.error().code, mcp::error_code::kInvalidParams) << bad;
  }
  EXPECT_TRUE(HttpClientTransport::create({.url = "http://127.0.0.1:1/mcp?x=1"}));
  EXPECT_TRUE(HttpClientTransport::create({.url = "https://[::1]:8443/mcp"}));
}

TEST(HttpClient, CloseWithoutStartOrConnectIsSafe) {
  auto t = transport_for("http://127.0.0.1:" + std::to_string(free_port()) + "/mcp");
  ASSERT_TRUE(t);
  t->close();
  t->close();
  EXPECT_FALSE(t->send("{}", mcp::SendInfo{}));
}

TEST(HttpClient, CloseDoesNotTouchSocketsOfFinishedExchanges) {
  // Each notification or response is POSTed on its own connection, which is then closed. close()
  // must abort only live connections: a file descriptor number freed by an earlier exchange may
  // belong to someone else by then.
  HttpServerOptions o;
  o.routes["/hook"] = [](const mcp::http::PlainRequest&) { return mcp::http::PlainResponse{.status = 202, .headers = {}, .body = {}}; };
  TestServer s(o);
  auto t = transport_for(s.url("/hook"), false);
  ASSERT_TRUE(t);
  ASSERT_TRUE(t->start({[](std::string) {}, [](std::optional<mcp::Error>) {}}));
  ASSERT_TRUE(t->send(R"({"jsonrpc":"2.0","method":"notifications/x"})", mcp::SendInfo{}));
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);  // likely reuses the freed descriptor number
  t->close();
  char c;
  bool shut_down = false;
  for (int fd : sv) {
    auto n = ::recv(fd, &c, 1, MSG_DONTWAIT);
    if (n == 0) shut_down = true;  // EOF: someone called shutdown() on it
  }
  ::close(sv[0]);
  ::close(sv[1]);
  // Guards a fixed bug: client_transport.cpp:211-212 post_sync resets the connection then calls
  //  drop_conn(nullptr), leaving a dangling ClientConn* in conns_; close() then calls abort() on freed memory
  //  and shuts down an unrelated descriptor
  EXPECT_FALSE(shut_down) << "close() shut down a descriptor that no longer belongs to the transport";
}

TEST(HttpClient, UnreadableCaFileIsAnErrorNotAnException) {
  HttpClientOptions o;
  o.url = "https://localhost:1/mcp";
  o.ca_file = "/nonexistent/ca.pem";
  mcp::Result<std::shared_ptr<HttpClientTransport>> t = mcp::fail(mcp::Error::internal("not called"));
  // Guards a fixed bug: client_transport.cpp load_verify_file threw from create().
  try {
    t = HttpClientTransport::create(o);
  } catch (const std::exception& e) {
    FAIL() << "create() threw (" << e.what() << ") instead of returning an error";
  }
  // Either create() refuses it, or the first connection fails with a message naming the file.
  if (t) {
    mcp::Client client(client_options());
    auto init = client.connect(*t);
    ASSERT_FALSE(init);
  } else {
    EXPECT_NE(t.error().message.find("/nonexistent/ca.pem"), std::string::npos) << t.error().message;
  }
}

// A cancelled request frees its answer stream: more cancelled calls than max_streams_per_session
// must not lock the session out (each would otherwise hold its stream open forever).
TEST(HttpClient, CancelledRequestsReleaseTheirStreams) {
  HttpServerOptions o;
  o.max_streams_per_session = 2;
  TestServer s(o);
  mcp::Client client(client_options());
  auto t = transport_for(s.url());
  ASSERT_TRUE(t);
  ASSERT_TRUE(client.connect(t));
  for (int i = 0; i < 4; ++i) {
    mcp::CallOptions co;
    co.timeout = 300ms;  // the client gives up and sends notifications/cancelled
    auto r = client.call_tool("stuck", {}, co);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, mcp::error_code::kRequestTimeout);
  }
  // The server dropped those streams: a normal call still gets through.
  bool ok = eventually([&] {
    auto r = client.call_tool("echo", {{"text", "still here"}});
    return r && first_text(*r) == "still here";
  }, 5s);
  EXPECT_TRUE(ok) << "the session stayed locked out after cancelled requests";
  client.close();
}
