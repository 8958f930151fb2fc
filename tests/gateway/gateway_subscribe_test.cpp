// Resource subscriptions through the gateway (Proxy::watch): a client subscribed at the gateway is
// subscribed at the upstream, and the upstream's notifications/resources/updated reach it, at the
// upstream's own path and at /mcp, in both revisions. Against the real program in front of
// `file-manager --root DIR` (inotify in the upstream); waits on the notification, never on time.
#include <gtest/gtest.h>

#include <condition_variable>
#include <fstream>
#include <mutex>
#include <set>

#include "../examples/tmp_dir.hpp"
#include "gateway_test_util.hpp"
#include "mcp/client/client.hpp"
#include "mcp/http/client_transport.hpp"
#include "support/process.hpp"

using namespace mcp;
using mcp::gateway_test::bin;
using mcp::gateway_test::json_string;
using namespace std::chrono_literals;

namespace {

class GatewaySubscribe : public ::testing::TestWithParam<std::tuple<const char*, const char*>> {
 protected:
  test::TmpDir dir;
  std::unique_ptr<test::BackgroundProgram> gateway;
  std::map<std::string, std::string> urls;
  std::mutex mu;
  std::condition_variable cv;
  std::multiset<std::string> updated;
  // Every resources/updated that reached the client, before its own filter: a 2026-07-28 client
  // drops one for a URI it is not subscribed to, so `updated` alone cannot show that the gateway
  // passed it on.
  std::multiset<std::string> arrived;

  void SetUp() override {
    std::filesystem::create_directories(dir.path / "root");
    std::ofstream(dir.path / "root" / "watched.txt") << "one";
    std::ofstream(dir.path / "root" / "other.txt") << "one";
    std::ofstream(dir.path / "servers.json") << R"({"mcpServers": {"files": {"command": )" << json_string(bin("file-manager"))
                                             << R"(, "args": ["--root", )" << json_string((dir.path / "root").string())
                                             << "]}}}";
    std::string error;
    gateway = gateway_test::start_gateway(dir.path / "servers.json", (dir.path / "state").string(), dir.path / "gw", urls, error);
    ASSERT_TRUE(gateway) << error;
    ASSERT_TRUE(urls.contains("files")) << gateway->err();
  }

  std::unique_ptr<Client> client(const std::string& url) {
    ClientOptions co;
    co.protocol_version = std::get<0>(GetParam());
    co.fallback = false;
    co.session.request_timeout = 20s;
    co.on_resource_updated = [this](const std::string& uri) {
      std::lock_guard lock(mu);
      updated.insert(uri);
      cv.notify_all();
    };
    co.on_notification = [this](const jsonrpc::Notification& n) {
      if (n.method != "notifications/resources/updated" || !n.params) return;
      const json::value* uri = n.params->if_contains("uri");
      std::lock_guard lock(mu);
      if (uri && uri->is_string()) arrived.insert(std::string(uri->get_string()));
    };
    return gateway_test::connected_client(url, std::move(co));
  }
};

}  // namespace

TEST_P(GatewaySubscribe, AChangeAtTheUpstreamReachesTheSubscribersOnly) {
  const std::string path = std::get<1>(GetParam());
  auto c = client(urls.at(path));
  ASSERT_TRUE(c->server_supports("resources.subscribe"));
  auto sub = c->subscribe("file:///watched.txt");
  ASSERT_TRUE(sub) << sub.error().message;
  ASSERT_TRUE(c->subscribe("file:///other.txt"));
  ASSERT_TRUE(c->unsubscribe("file:///other.txt"));

  // The unsubscribed file changes first: had its change been passed on, it would arrive before
  // the watched one's (one inotify queue, one upstream connection). Over 2025-11-25 HTTP the update
  // travels on the client's standalone GET stream, which the client opens on its own after the
  // handshake: an update sent before it is open is not replayed to it (a fresh GET starts at the
  // stream's end). So the pair of changes is made again, a second apart, until one arrives.
  int changes = 0;
  std::unique_lock lock(mu);
  for (; changes < 20 && !updated.contains("file:///watched.txt"); ++changes) {
    lock.unlock();
    std::ofstream(dir.path / "root" / "other.txt", std::ios::app) << " two";
    std::ofstream(dir.path / "root" / "watched.txt", std::ios::app) << " two";
    lock.lock();
    cv.wait_for(lock, 1s, [&] { return updated.contains("file:///watched.txt"); });
  }
  ASSERT_TRUE(updated.contains("file:///watched.txt")) << "no update after " << changes << " changes\n" << gateway->err();
  EXPECT_FALSE(updated.contains("file:///other.txt"));
  EXPECT_FALSE(arrived.contains("file:///other.txt")) << "the gateway passed on an update nobody is subscribed to";
  lock.unlock();
  auto read = c->read_resource("file:///watched.txt");
  ASSERT_TRUE(read) << read.error().message;
  std::string expected = "one";
  for (int i = 0; i < changes; ++i) expected += " two";
  EXPECT_EQ(std::get<TextResourceContents>(read->contents.at(0)).text, expected);
}

TEST_P(GatewaySubscribe, ASubscriptionToWhatTheUpstreamDoesNotServeIsRefusedWithItsReason) {
  auto c = client(urls.at(std::get<1>(GetParam())));
  auto sub = c->subscribe("file:///no-such-file.txt");
  ASSERT_FALSE(sub);
  EXPECT_NE(sub.error().message.find("refused the subscription"), std::string::npos) << sub.error().message;
}

INSTANTIATE_TEST_SUITE_P(RevisionsAndPaths, GatewaySubscribe,
                         ::testing::Combine(::testing::Values("2025-11-25", "2026-07-28"), ::testing::Values("files", "(all)")),
                         [](const auto& param_info) {
                           std::string name = std::string(std::get<0>(param_info.param)) + (std::get<1>(param_info.param)[0] == '(' ? "_all" : "_files");
                           for (auto& ch : name) if (ch == '-') ch = '_';
                           return name;
                         });
