// Messages as values on the direct transport (mcp/transport/direct.hpp, carries_values): a value
// sent reaches the other end's on_decoded as the value itself, in order with text frames; an end
// that reads only text gets the value's text; and two sessions on a direct link exchange values,
// the params of a request with _meta members arriving as encode_request would have written them.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "mcp/jsonrpc/codec.hpp"
#include "mcp/session/session.hpp"
#include "mcp/transport/direct.hpp"
#include "mcp/transport/memory.hpp"

using namespace mcp;

namespace {

// What an end saw, text and values in one list, in arrival order.
struct Arrivals {
  std::mutex mu;
  std::vector<std::string> what;  // "text:FRAME" or "value:ENCODED size=N"
  std::vector<jsonrpc::Message> values;
  std::condition_variable cv;
  // Waits (bounded) until `n` messages have arrived.
  bool wait_for(std::size_t n) {
    std::unique_lock l(mu);
    return cv.wait_for(l, std::chrono::seconds(5), [&] { return what.size() >= n; });
  }
};

Transport::Callbacks recording(Arrivals& s, bool reads_values) {
  Transport::Callbacks cb;
  cb.on_message = [&s](std::string f) {
    std::lock_guard l(s.mu);
    s.what.push_back("text:" + f);
    s.cv.notify_all();
  };
  cb.on_close = [](std::optional<Error>) {};
  if (reads_values) {
    cb.on_decoded = [&s](jsonrpc::Message m, std::size_t size) {
      std::lock_guard l(s.mu);
      s.what.push_back("value:" + jsonrpc::encode(m) + " size=" + std::to_string(size));
      s.values.push_back(std::move(m));
      s.cv.notify_all();
    };
  }
  return cb;
}

TEST(DirectValues, AValueArrivesAsItselfInOrderWithText) {
  auto [a, b] = make_direct_transport_pair();
  EXPECT_TRUE(a->carries_values());
  EXPECT_FALSE(make_memory_transport_pair().first->carries_values());
  Arrivals sa, sb;
  ASSERT_TRUE(a->start(recording(sa, true)));
  ASSERT_TRUE(b->start(recording(sb, true)));
  const json::object params{{"name", "t"}, {"arguments", json::object{{"deep", json::array{1, json::object{{"x", "y"}}}}}}};
  ASSERT_TRUE(a->send_value(jsonrpc::Request{json::value(1), "tools/call", params}, SendInfo{}));
  ASSERT_TRUE(a->send(R"({"jsonrpc":"2.0","method":"n"})", SendInfo{}));
  ASSERT_TRUE(a->send_value(jsonrpc::Response{json::value("r"), json::object{{"ok", true}}}, SendInfo{}));
  ASSERT_EQ(sb.what.size(), 3u);
  EXPECT_EQ(sb.what[0], R"(value:{"jsonrpc":"2.0","id":1,"method":"tools/call","params":)" + json::serialize(params) + "} size=0");
  EXPECT_EQ(sb.what[1], R"(text:{"jsonrpc":"2.0","method":"n"})");
  EXPECT_EQ(sb.what[2], R"(value:{"jsonrpc":"2.0","id":"r","result":{"ok":true}} size=0)");
  const auto& req = std::get<jsonrpc::Request>(sb.values[0]);
  EXPECT_EQ(*req.params, params);
  EXPECT_TRUE(sa.what.empty());
}

TEST(DirectValues, AnEndThatReadsOnlyTextGetsTheValuesText) {
  auto [a, b] = make_direct_transport_pair();
  Arrivals sa, sb;
  ASSERT_TRUE(a->start(recording(sa, true)));
  ASSERT_TRUE(b->start(recording(sb, false)));
  ASSERT_TRUE(a->send_value(jsonrpc::ErrorResponse{json::value(4), Error::invalid_params("no")}, SendInfo{}));
  ASSERT_EQ(sb.what.size(), 1u);
  EXPECT_EQ(sb.what[0], "text:" + jsonrpc::encode_error(json::value(4), Error::invalid_params("no")));
  a->close();
  EXPECT_FALSE(a->send_value(jsonrpc::Notification{"n", std::nullopt}, SendInfo{}));
}

// A handler that answers with what it was sent: method and params.
struct Echo : Session::Handler {
  Result<json::value> handle_request(InboundRequest& r) override {
    return json::object{{"method", r.method}, {"params", r.params}};
  }
  void handle_notification(const jsonrpc::Notification&) override {}
};

// A session on a direct link sends values: the raw end sees its answers (ping's too) come through
// on_decoded, never as text, and a request written with _meta members and a progress token
// reaches the handler with the params the text would have carried.
TEST(DirectValues, SessionsOnADirectLinkExchangeValues) {
  auto [ta, tb] = make_direct_transport_pair();
  Echo echo;
  auto server = Session::create(ta, echo, {});
  ASSERT_TRUE(server->start());
  Arrivals raw;
  ASSERT_TRUE(tb->start(recording(raw, true)));
  ASSERT_TRUE(tb->send(R"({"jsonrpc":"2.0","id":1,"method":"ping"})", SendInfo{}));
  ASSERT_TRUE(tb->send_value(jsonrpc::Request{json::value(2), "x/y", json::object{{"a", 1}}}, SendInfo{}));
  ASSERT_TRUE(raw.wait_for(2));  // the second is answered by a worker
  {
    std::lock_guard l(raw.mu);
    ASSERT_EQ(raw.what.size(), 2u);
    EXPECT_EQ(raw.what[0], R"(value:{"jsonrpc":"2.0","id":1,"result":{}} size=0)");
    EXPECT_EQ(raw.what[1], R"(value:{"jsonrpc":"2.0","id":2,"result":{"method":"x/y","params":{"a":1}}} size=0)");
  }
  server->shutdown();

  // Two sessions: the client's request with an envelope and a progress token.
  auto [ca, cb] = make_direct_transport_pair();
  Echo echo2, unused;
  auto s = Session::create(ca, echo2, {});
  auto c = Session::create(cb, unused, {});
  ASSERT_TRUE(s->start());
  ASSERT_TRUE(c->start());
  const json::object params{{"name", "t"}, {"_meta", json::object{{"own", 1}, {"progressToken", "mine"}}}};
  RequestOptions ro;
  auto meta = std::make_shared<jsonrpc::MetaMembers>();
  meta->push_back(jsonrpc::meta_member("io.modelcontextprotocol/protocolVersion", "2026-07-28"));
  ro.meta = meta;
  ro.on_progress = [](const ProgressInfo&) {};
  auto r = c->request("x/y", params, std::move(ro));
  ASSERT_TRUE(r) << r.error().message;
  const json::object& got = r->as_object().at("params").as_object();
  const auto id = r->as_object().at("params").at("_meta").at("progressToken");
  EXPECT_EQ(got, jsonrpc::request_params(params, meta.get(), id.to_number<std::int64_t>()));
  EXPECT_EQ(got.at("_meta").at("own"), 1);
  EXPECT_EQ(got.at("_meta").at("io.modelcontextprotocol/protocolVersion"), "2026-07-28");
  c->shutdown();
  s->shutdown();
}

}  // namespace
