// peek_frame (src/http/frame_peek.hpp): the members the HTTP client transport routes by, read
// without building the frame; and the transport routing an answer nested as deep as the session
// accepts (the DOM parse it replaced stopped at 32 levels and reported a good answer as none).
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "http/frame_peek.hpp"
#include "http/outbound.hpp"
#include "http/http_test_util.hpp"
#include "mcp/http/client_transport.hpp"

using mcp::http::peek_frame;
using namespace mcp::http::test;

namespace {

std::string nested(std::size_t depth, std::string_view leaf) {
  std::string s;
  for (std::size_t i = 0; i < depth; ++i) s += R"({"a":)";
  s += leaf;
  s.append(depth, '}');
  return s;
}

// The HTTP client transport on its own, as a session drives it: counts the frames it delivers and
// the requests it reports failed.
struct RawHttpClient {
  std::shared_ptr<mcp::http::HttpClientTransport> t;
  std::mutex mu;
  std::condition_variable delivered;
  int messages = 0;  // guarded by mu
  std::atomic<int> failures{0};

  // Started and initialized (initialize answered, notifications/initialized sent).
  ::testing::AssertionResult connect(unsigned short port, bool standalone_stream) {
    mcp::http::HttpClientOptions o;
    o.url = "http://127.0.0.1:" + std::to_string(port) + "/mcp";
    o.standalone_stream = standalone_stream;
    auto created = mcp::http::HttpClientTransport::create(o);
    if (!created) return ::testing::AssertionFailure() << created.error().message;
    t = *created;
    mcp::Transport::Callbacks cb;
    cb.on_message = [this](std::string) {
      std::lock_guard l(mu);
      ++messages;
      delivered.notify_all();
    };
    cb.on_request_failed = [this](const mcp::jsonrpc::Id&, const mcp::Error&) { ++failures; };
    if (!t->start(std::move(cb)) || !t->send(kInitialize, request())) return ::testing::AssertionFailure() << "cannot send";
    if (!wait_for_messages(1)) return ::testing::AssertionFailure() << "initialize was not answered";
    if (!t->send(kInitialized, mcp::SendInfo{})) return ::testing::AssertionFailure() << "initialized refused";
    return ::testing::AssertionSuccess();
  }
  bool wait_for_messages(int n) {
    std::unique_lock l(mu);
    return delivered.wait_for(l, 10s, [&] { return messages >= n; });
  }
  static mcp::SendInfo request() {
    mcp::SendInfo info;
    info.kind = mcp::SendInfo::Kind::request;
    return info;
  }
};

}  // namespace

TEST(FramePeek, ReadsARequestsRoutingMembers) {
  auto p = peek_frame(R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"id":1,"name":"x"},)"
                      R"("_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","progressToken":3}}})");
  EXPECT_TRUE(p.is_object);
  EXPECT_TRUE(p.has_method);
  ASSERT_TRUE(p.id);
  EXPECT_EQ(*p.id, boost::json::value(7));
  EXPECT_EQ(p.method, "tools/call");
  EXPECT_EQ(p.name, "echo") << "params.name, not the argument of that name";
  EXPECT_EQ(p.meta_version, "2026-07-28");
  EXPECT_FALSE(p.uri);
  EXPECT_FALSE(p.result_version);
}

TEST(FramePeek, ReadsAnAnswersIdAndInitializesVersionButNothingNestedDeeper) {
  auto p = peek_frame(R"({"result":{"content":[{"id":9,"protocolVersion":"no"}],"protocolVersion":"2025-11-25",)"
                      R"("capabilities":{"id":3}},"jsonrpc":"2.0","id":"a\"b\\c"})");
  EXPECT_FALSE(p.has_method);
  ASSERT_TRUE(p.id);
  EXPECT_EQ(*p.id, boost::json::value("a\"b\\c")) << "escapes decoded";
  EXPECT_EQ(p.result_version, "2025-11-25");
  EXPECT_FALSE(p.has_error);
  EXPECT_TRUE(peek_frame(R"({"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"m"}})").has_error);
}

TEST(FramePeek, EveryKindOfIdAndTheCancelledRequest) {
  EXPECT_EQ(*peek_frame(R"({"id":null})").id, boost::json::value(nullptr));
  EXPECT_EQ(*peek_frame(R"({"id":18446744073709551615})").id, boost::json::value(18446744073709551615ull));
  EXPECT_EQ(*peek_frame(R"({"id":1.5})").id, boost::json::value(1.5));
  EXPECT_EQ(*peek_frame(R"({"id":true})").id, boost::json::value(true));
  EXPECT_FALSE(peek_frame(R"({"id":[1]})").id) << "an array is no id";
  EXPECT_FALSE(peek_frame(R"({"id":{"id":1}})").id) << "an object is no id, nor is the member inside it";
  auto c = peek_frame(R"({"method":"notifications/cancelled","params":{"requestId":"r1","reason":"x"}})");
  EXPECT_EQ(c.request_id, boost::json::value("r1"));
  EXPECT_FALSE(c.id);
  EXPECT_EQ(peek_frame(R"({"method":"resources/read","params":{"uri":"file:///a"}})").uri, "file:///a");
}

TEST(FramePeek, EscapedKeysAndRepeatedMembers) {
  auto p = peek_frame(R"({"meth\u006fd":"ping","id":1,"id":2})");
  EXPECT_EQ(p.method, "ping") << "a key is read as decoded";
  EXPECT_EQ(*p.id, boost::json::value(2)) << "the last of repeated members";
}

TEST(FramePeek, WhatIsNotOneObjectReadsAsNothing) {
  for (std::string_view bad : {R"([{"id":1}])", R"({"id":1)", R"({"id":1} {"id":2})", "", "null", R"({"id":1,})"}) {
    auto p = peek_frame(bad);
    EXPECT_FALSE(p.is_object && p.id) << bad;
  }
  EXPECT_FALSE(peek_frame("[1]").is_object);
  EXPECT_TRUE(peek_frame(" {\"id\":1} \n").id) << "whitespace around the object is fine";
}

TEST(FramePeek, HostileShapesAreBounded) {
  // Nesting: within the session's limit read, past it refused, never recursed.
  auto at_limit = peek_frame(R"({"id":5,"result":)" + nested(62, "1") + "}");
  ASSERT_TRUE(at_limit.id);
  EXPECT_FALSE(peek_frame(R"({"id":5,"result":)" + nested(64, "1") + "}").is_object);
  EXPECT_FALSE(peek_frame(std::string(1 << 20, '[')).is_object);
  // A key far longer than any read is passed over, and does not hide the members after it.
  auto long_key = peek_frame(R"({")" + std::string(1 << 20, 'k') + R"(":1,"id":3})");
  EXPECT_EQ(*long_key.id, boost::json::value(3));
  // A long string where a name is read is read whole (the frame's size bounds it).
  auto long_name = peek_frame(R"({"method":"tools/call","params":{"name":")" + std::string(100000, 'n') + R"("}})");
  ASSERT_TRUE(long_name.name);
  EXPECT_EQ(long_name.name->size(), 100000u);
}

TEST(HttpClientRouting, AnAnswerNestedAsDeepAsTheSessionAcceptsIsRoutedAsTheAnswer) {
  // The transport read answers with a DOM parse limited to 32 levels: a good answer 40 deep was
  // delivered, then reported failed as well ("did not answer request").
  auto server = std::make_shared<mcp::Server>();
  mcp::Tool deep;
  deep.name = "deep";
  server->add_tool(deep, [](const boost::json::object&, mcp::RequestContext&) -> mcp::Result<mcp::CallToolResult> {
    mcp::CallToolResult r;
    boost::json::value v = "leaf";
    for (int i = 0; i < 40; ++i) v = boost::json::object{{"a", std::move(v)}};
    r.structured_content = v.as_object();
    return r;
  });
  mcp::http::HttpServerOptions so;
  so.port = 0;
  so.prefer_json_response = true;  // the answer is the response's body, routed by its id
  mcp::http::HttpServer http(server, so);
  ASSERT_TRUE(http.start());
  RawHttpClient c;
  ASSERT_TRUE(c.connect(http.port(), /*standalone_stream=*/false));
  ASSERT_TRUE(c.t->send(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"deep"}})", RawHttpClient::request()));
  ASSERT_TRUE(c.wait_for_messages(2));
  c.t->close();  // finishes its exchanges: whatever they would report has been reported
  EXPECT_EQ(c.messages, 2);
  EXPECT_EQ(c.failures.load(), 0) << "a delivered answer must not also be reported as no answer";
  http.stop();
}

namespace {

// A Streamable HTTP endpoint reduced to what the client's stream logic needs: initialize answered
// with a session, other POSTs accepted (202), GET refused (405: no standalone stream offered, so the
// client's stream thread ends at once), counting the GETs.
ScriptedHttpServer::Respond counting_endpoint(std::atomic<int>& gets) {
  return [&gets](const ScriptedRequest& r, const ScriptedHttpServer::Send& send) {
    if (r.head.starts_with("GET")) {
      ++gets;
      return send("HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n");
    }
    if (r.body.find("\"initialize\"") == std::string::npos) return send("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n");
    const std::string result = R"({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},)"
                               R"("serverInfo":{"name":"counting","version":"1"}}})";
    send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: s1\r\nContent-Length: " +
         std::to_string(result.size()) + "\r\n\r\n" + result);
  };
}

}  // namespace

TEST(HttpClientRouting, OnlyTheInitializedNotificationOpensTheStandaloneStream) {
  // The transport looked for the text "notifications/initialized" anywhere in a frame: an answer
  // quoting it (a sampling result's text, say) opened a second standalone stream.
  std::atomic<int> gets{0};
  ScriptedHttpServer endpoint(counting_endpoint(gets));
  RawHttpClient c;
  // Each send returns once the stream it opens has had its answer, so the counts are final here.
  ASSERT_TRUE(c.connect(endpoint.port, /*standalone_stream=*/true));
  EXPECT_EQ(gets.load(), 1);
  mcp::SendInfo response;
  response.kind = mcp::SendInfo::Kind::response;
  ASSERT_TRUE(c.t->send(R"({"jsonrpc":"2.0","id":"s-1","result":{"role":"assistant","model":"m",)"
                        R"("content":{"type":"text","text":"notifications/initialized"}}})",
                        response));
  EXPECT_EQ(gets.load(), 1) << "an answer that quotes the method is no initialized notification";
  c.t->close();
}

TEST(HttpOutbound, AFrameOfOursIsReadHoweverDeepItsArguments) {
  // The peer refuses arguments nested past its limit, answering with the request's id: the id must
  // be read from our own frame whatever its depth, or that answer has no request to go to.
  std::string args;
  for (int i = 0; i < 100; ++i) args += "[";
  args.append(100, ']');
  auto out = mcp::http::Outbound::read(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":{"a":)" +
                                       args + "}}}");
  EXPECT_EQ(out.id, boost::json::value(9));
  EXPECT_EQ(out.method, "tools/call");
  EXPECT_EQ(out.name, "x");
}
