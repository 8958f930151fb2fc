// Who may use the review page (src/gateway/review_access.hpp) and what its API does
// (review_page.hpp), without a browser (review_page_test.mjs has one): the token, the Host (no DNS
// rebinding), the peer (loopback unless configured), the same-origin rule for changes, the
// security headers; a decision made through the API is recorded with who made it.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <fstream>

#include "../examples/tmp_dir.hpp"
#include "gateway/review_page.hpp"
#include "pin_rows.hpp"

using namespace mcp;
using namespace mcp::gateway;

namespace {

const std::string kToken(64, 'a');

http::PlainRequest request(std::string method, std::string target, std::map<std::string, std::string> headers = {},
                           std::string body = {}) {
  headers.try_emplace("host", "127.0.0.1:7800");
  return http::PlainRequest{std::move(method), std::move(target), std::move(headers), std::move(body), "127.0.0.1"};
}

// A state-changing request as the page itself sends it.
http::PlainRequest change(std::string target, std::string body) {
  return request("POST", std::move(target),
                 {{"content-type", "application/json"}, {"origin", "http://127.0.0.1:7800"}, {"sec-fetch-site", "same-origin"},
                  {std::string(kReviewTokenHeader), kToken}},
                 std::move(body));
}

TEST(GatewayReviewAccess, TheTokenIsMadeOncePrivateAndKept) {
  test::TmpDir dir;
  auto made = load_or_create_review_token(dir.path);
  ASSERT_TRUE(made) << made.error().message;
  EXPECT_EQ(made->size(), 64u);
  struct stat st {};
  ASSERT_EQ(::stat((dir.path / kReviewTokenFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto again = load_or_create_review_token(dir.path);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *made);
  // One another user could read is not used.
  ::chmod((dir.path / kReviewTokenFile).c_str(), 0644);
  auto open = load_or_create_review_token(dir.path);
  ASSERT_FALSE(open);
  EXPECT_NE(open.error().message.find("readable by other users"), std::string::npos) << open.error().message;
}

TEST(GatewayReviewAccess, ReadingNeedsALoopbackPeerALoopbackHostAndForTheApiTheToken) {
  ReviewAccess access{.token = kToken};
  EXPECT_FALSE(access.refuse_read(request("GET", "/ui"), false));  // the static page needs no token
  auto no_token = access.refuse_read(request("GET", "/ui/api/state"), true);
  ASSERT_TRUE(no_token);
  EXPECT_EQ(no_token->status, 401);
  EXPECT_FALSE(access.refuse_read(request("GET", "/ui/api/state", {{std::string(kReviewTokenHeader), kToken}}), true));
  auto wrong = access.refuse_read(request("GET", "/ui/api/state", {{std::string(kReviewTokenHeader), std::string(64, 'b')}}), true);
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->status, 401);
  // DNS rebinding: another site's name that resolves here.
  auto rebound = access.refuse_read(request("GET", "/ui", {{"host", "evil.example:7800"}}), false);
  ASSERT_TRUE(rebound);
  EXPECT_EQ(rebound->status, 421);
  for (const char* host : {"localhost:7800", "[::1]:7800", "127.0.0.1", "127.1.2.3:80"})
    EXPECT_FALSE(access.refuse_read(request("GET", "/ui", {{"host", host}}), false)) << host;
  // Names that merely begin like a loopback address are anyone's.
  for (const char* host : {"127.attacker.example:7800", "127.0.0.1.nip.io:7800", "localhost.attacker.example"}) {
    auto r = access.refuse_read(request("GET", "/ui", {{"host", host}}), false);
    ASSERT_TRUE(r) << host;
    EXPECT_EQ(r->status, 421) << host;
  }
  // An IPv4 peer on an IPv6 socket is still loopback.
  auto mapped = request("GET", "/ui");
  mapped.peer = "::ffff:127.0.0.1";
  EXPECT_FALSE(access.refuse_read(mapped, false));
  // Another machine: refused unless the configuration says remote, and its Host is allowed.
  auto far = request("GET", "/ui", {{"host", "gw.internal:7800"}});
  far.peer = "10.0.0.5";
  auto refused = access.refuse_read(far, false);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 403);
  ReviewAccess remote{.token = kToken, .remote = true, .allowed_hosts = {"gw.internal"}};
  EXPECT_FALSE(remote.refuse_read(far, false));
}

TEST(GatewayReviewAccess, AChangeMustBeAJsonPostFromThePageItself) {
  ReviewAccess access{.token = kToken};
  EXPECT_FALSE(access.refuse_change(change("/ui/api/pins", "{}")));
  auto get = change("/ui/api/pins", "{}");
  get.method = "GET";
  EXPECT_EQ(access.refuse_change(get)->status, 405);
  auto form = change("/ui/api/pins", "decision=reject");
  form.headers["content-type"] = "application/x-www-form-urlencoded";
  EXPECT_EQ(access.refuse_change(form)->status, 415);
  auto elsewhere = change("/ui/api/pins", "{}");
  elsewhere.headers["origin"] = "http://127.0.0.1:9999";
  EXPECT_EQ(access.refuse_change(elsewhere)->status, 403);
  auto no_origin = change("/ui/api/pins", "{}");
  no_origin.headers.erase("origin");
  EXPECT_EQ(access.refuse_change(no_origin)->status, 403);
  auto cross_site = change("/ui/api/pins", "{}");
  cross_site.headers["sec-fetch-site"] = "cross-site";
  EXPECT_EQ(access.refuse_change(cross_site)->status, 403);
  auto no_token = change("/ui/api/pins", "{}");
  no_token.headers.erase(std::string(kReviewTokenHeader));
  EXPECT_EQ(access.refuse_change(no_token)->status, 401);
}

class GatewayReviewApi : public ::testing::Test {
 protected:
  test::TmpDir dir;
  State state;
  std::shared_ptr<ReviewPage> page;
  std::map<std::string, http::RouteHandler> routes;
  std::vector<std::string> told;

  void SetUp() override {
    auto s = open_state(dir.path);
    ASSERT_TRUE(s) << s.error().message;
    state = *s;
    // A tool pinned, then changed: quarantined.
    ASSERT_TRUE(state.pins->observe("up", ListKind::tools, "t", json::object{{"name", "t"}, {"description", "old <b>"}}, NewItems::allow));
    ASSERT_TRUE(state.pins->observe("up", ListKind::tools, "t", json::object{{"name", "t"}, {"description", "new <script>"}}, NewItems::allow));
    ReviewSource source;
    source.upstreams = [] { return json::array{json::object{{"name", "up"}, {"status", "connected"}, {"restarts", 0}}}; };
    source.decided = [this](const std::string& server) { told.push_back(server); };
    page = ReviewPage::make(state, ReviewAccess{.token = kToken}, source);
    routes = page->routes();
  }
  // The hash of the definition the page shows, as it sends it back with a decision.
  std::string shown_hash() {
    auto r = routes.at("/ui/api/state")(request("GET", "/ui/api/state", {{std::string(kReviewTokenHeader), kToken}}));
    return std::string(json::parse(r.body).at("quarantined").at(0).at("seenHash").as_string());
  }
  std::string decision(const std::string& what, const std::string& hash) {
    return R"({"server":"up","kind":"tools","key":"t","seenHash":")" + hash + R"(","decision":")" + what + R"("})";
  }
};


TEST_F(GatewayReviewApi, TheStateShowsAQuarantinedChangeWithBothDefinitions) {
  auto r = routes.at("/ui/api/state")(request("GET", "/ui/api/state", {{std::string(kReviewTokenHeader), kToken}}));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.headers.at("Content-Security-Policy").find("script-src 'self'"), std::string::npos);
  EXPECT_EQ(r.headers.at("X-Content-Type-Options"), "nosniff");
  auto s = json::parse(r.body).as_object();
  ASSERT_EQ(s.at("quarantined").as_array().size(), 1u);
  const auto& q = s.at("quarantined").as_array().at(0).as_object();
  EXPECT_EQ(q.at("key"), "t");
  EXPECT_EQ(q.at("approved").at("description"), "old <b>");
  EXPECT_EQ(q.at("seen").at("description"), "new <script>");
  EXPECT_EQ(s.at("upstreams").as_array().size(), 1u);
  EXPECT_EQ(s.at("audit").at("chain").at("intact"), true);
  EXPECT_EQ(s.at("pins").at("total"), 1);
}

// The largest resident size this process has had, in bytes (Linux: ru_maxrss is in KiB).
long peak_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss * 1024L;
}

// An upstream that renamed its tools on every list leaves thousands of pins, each with its
// definitions: the page's poll reads what it shows (a count, 200 changes, 1,000 keys), not them all.
TEST_F(GatewayReviewApi, AStoreOfThousandsOfPinsCostsAPollOnlyWhatItShows) {
  const std::string definition = R"({"description":")" + std::string(12'000, 'd') + R"("})";
  mcp::test::insert_pins(dir.path, "up", 4'000, definition, /*quarantined=*/10);  // ~96 MB of definitions

  const long before = peak_bytes();
  auto r = routes.at("/ui/api/state")(request("GET", "/ui/api/state", {{std::string(kReviewTokenHeader), kToken}}));
  const long grew = peak_bytes() - before;
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 500);
  auto s = json::parse(r.body).as_object();
  EXPECT_EQ(s.at("pins").at("total"), 4'001);
  EXPECT_EQ(s.at("pins").at("items").as_array().size(), ReviewPage::kMaxPins);
  EXPECT_EQ(s.at("quarantined").as_array().size(), 11u) << "the fixture's change and these ten";
  // The eleven changes' definitions are ~0.5 MB; reading every pin's was ~100 MB.
  EXPECT_LT(grew, 16L << 20) << "a poll read more than the page shows";
}

TEST_F(GatewayReviewApi, ApprovingRecordsWhoAndTellsTheUpstream) {
  auto r = routes.at("/ui/api/pins")(change("/ui/api/pins", decision("approve", shown_hash())));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(told, std::vector<std::string>{"up"});
  auto pin = state.pins->state("up", ListKind::tools, "t");
  ASSERT_TRUE(pin && *pin);
  EXPECT_EQ(**pin, PinState::approved);
  auto last = state.audit->tail(1);
  ASSERT_TRUE(last && !last->empty());
  EXPECT_EQ(last->front().kind, "approve");
  EXPECT_NE(json::serialize(last->front().body).find("review page (127.0.0.1)"), std::string::npos) << json::serialize(last->front().body);
}

TEST_F(GatewayReviewApi, ADefinitionThatChangedAgainSinceItWasShownIsNotApproved) {
  const std::string shown = shown_hash();
  ASSERT_TRUE(state.pins->observe("up", ListKind::tools, "t", json::object{{"name", "t"}, {"description", "third"}}, NewItems::allow));
  auto r = routes.at("/ui/api/pins")(change("/ui/api/pins", decision("approve", shown)));
  EXPECT_EQ(r.status, 409);
  EXPECT_NE(r.body.find("changed again since it was shown"), std::string::npos) << r.body;
  EXPECT_EQ(state.pins->state("up", ListKind::tools, "t").value_or(std::nullopt), PinState::quarantined);
}

TEST_F(GatewayReviewApi, TheChainStateShowsARemovedTailEvenBetweenFullChecks) {
  auto chain = [&] {
    auto r = routes.at("/ui/api/state")(request("GET", "/ui/api/state", {{std::string(kReviewTokenHeader), kToken}}));
    return json::parse(r.body).at("audit").at("chain").as_object();
  };
  ASSERT_EQ(chain().at("intact"), true);
  // A local attacker removes the last record: the rest of the chain is intact on its own.
  ASSERT_TRUE(state.db->transaction([](Db& d) { return d.exec("DELETE FROM audit WHERE seq = (SELECT MAX(seq) FROM audit)"); }));
  auto after = chain();
  EXPECT_EQ(after.at("intact"), false);
  EXPECT_NE(std::string(after.at("why").as_string()).find("removed after it was verified"), std::string::npos)
      << json::serialize(after);
}

TEST_F(GatewayReviewApi, AFloodOfHugeDefinitionsIsNamedButNotAllShown) {
  // A hostile upstream offers 40 tools whose changed definitions are 512 KiB each: 20 MiB that
  // a page polling every second would be sent again and again.
  const std::string huge(512 * 1024, 'x');
  for (int i = 0; i < 40; ++i) {
    const std::string name = "big" + std::to_string(i);
    ASSERT_TRUE(state.pins->observe("up", ListKind::tools, name, json::object{{"name", name}, {"description", "short"}}, NewItems::allow));
    ASSERT_TRUE(state.pins->observe("up", ListKind::tools, name, json::object{{"name", name}, {"description", huge}}, NewItems::allow));
  }
  auto r = routes.at("/ui/api/state")(request("GET", "/ui/api/state", {{std::string(kReviewTokenHeader), kToken}}));
  ASSERT_EQ(r.status, 200);
  EXPECT_LT(r.body.size(), ReviewPage::kMaxShownBytes + (1 << 20)) << "the state grew with what the upstream offers";
  auto s = json::parse(r.body).as_object();
  EXPECT_EQ(s.at("quarantined").as_array().size(), 41u) << "every change is still named";
  EXPECT_NE(r.body.find("more than the page shows at once"), std::string::npos);
  // What is not shown cannot be approved from the page: no hash to approve it with.
  std::size_t unshown = 0;
  for (const auto& q : s.at("quarantined").as_array()) {
    const auto& seen = q.at("seen");
    if (seen.is_object() && seen.as_object().contains("(not shown)")) {
      ++unshown;
      EXPECT_FALSE(q.as_object().contains("seenHash")) << q.at("key");
    }
  }
  EXPECT_GT(unshown, 0u);
}

TEST_F(GatewayReviewApi, BadRequestsGetClearErrorsAndChangeNothing) {
  auto post = routes.at("/ui/api/pins");
  EXPECT_EQ(post(change("/ui/api/pins", "not json")).status, 400);
  auto missing = post(change("/ui/api/pins", R"({"server":"up","key":"t","decision":"approve"})"));
  EXPECT_EQ(missing.status, 400);
  EXPECT_NE(missing.body.find("\\\"kind\\\""), std::string::npos) << missing.body;
  EXPECT_EQ(post(change("/ui/api/pins", R"({"server":"up","kind":"tools","key":"t","decision":"approve"})")).status, 400)
      << "a decision without the hash of what was shown";
  EXPECT_EQ(post(change("/ui/api/pins", R"({"server":"up","kind":"tools","key":"nope","seenHash":"x","decision":"approve"})")).status, 409);
  auto calls = routes.at("/ui/api/calls");
  EXPECT_EQ(calls(change("/ui/api/calls", R"({"id":"1","decision":"allow"})")).status, 400);
  EXPECT_EQ(calls(change("/ui/api/calls", R"({"id":99,"decision":"allow"})")).status, 409);
  // A deeply nested body is refused by the parser's depth limit, not by a crash.
  EXPECT_EQ(post(change("/ui/api/pins", std::string(100000, '[') + std::string(100000, ']'))).status, 400);
  EXPECT_TRUE(told.empty());
  EXPECT_EQ(state.pins->state("up", ListKind::tools, "t").value_or(std::nullopt), PinState::quarantined);
}

}  // namespace
