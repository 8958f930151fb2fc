// file-manager --root DIR, the real program: a subscribed file changed on disk reaches the client
// as notifications/resources/updated (inotify in the server), over stdio in both revisions, and an
// unsubscribed one does not (issue 11). Waits on the notification itself, never on time.
#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>

#include "mcp/client/client.hpp"
#include "mcp/stdio/child_process.hpp"

using namespace mcp;
namespace fs = std::filesystem;

namespace {

std::string bin_dir() {
  const char* b = std::getenv("MCP_BIN");
  return b ? b : MCP_ROOT_BIN_FALLBACK;
}

class RootSubscribe : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "mcp-root-sub-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    std::ofstream(dir_ / "watched.txt") << "one";
    std::ofstream(dir_ / "other.txt") << "one";
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::multiset<std::string> updated_;
};

TEST_P(RootSubscribe, AChangedFileOnDiskReachesItsSubscribersOnly) {
  ClientOptions co;
  co.protocol_version = GetParam();
  co.session.request_timeout = std::chrono::seconds(20);
  co.on_resource_updated = [this](const std::string& uri) {
    std::lock_guard lock(mu_);
    updated_.insert(uri);
    cv_.notify_all();
  };
  Client client(co);
  ChildProcessOptions po;
  po.program = bin_dir() + "/file-manager";
  po.args = {"--root", dir_.string()};
  auto child = ChildProcessTransport::spawn(po);
  ASSERT_TRUE(child) << child.error().message;
  auto init = client.connect(*child);
  ASSERT_TRUE(init) << init.error().message;

  auto meta = client.resource_metadata("file:///watched.txt");
  ASSERT_TRUE(meta) << meta.error().message;
  ASSERT_TRUE(meta->capabilities && meta->capabilities->subscribe == true);
  ASSERT_TRUE(client.subscribe("file:///watched.txt"));
  ASSERT_TRUE(client.subscribe("file:///other.txt"));
  ASSERT_TRUE(client.unsubscribe("file:///other.txt"));

  // The unsubscribed file changes first: if its change were reported, it would arrive before the
  // watched one's (one inotify queue, one connection), so seeing the watched one alone proves it.
  std::ofstream(dir_ / "other.txt", std::ios::app) << " two";
  std::ofstream(dir_ / "watched.txt", std::ios::app) << " two";
  std::unique_lock lock(mu_);
  ASSERT_TRUE(cv_.wait_for(lock, std::chrono::seconds(20), [&] { return updated_.contains("file:///watched.txt"); }));
  EXPECT_FALSE(updated_.contains("file:///other.txt"));
  lock.unlock();
  auto read = client.read_resource("file:///watched.txt");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(std::get<TextResourceContents>(read->contents.at(0)).text, "one two");
  client.close();
}

INSTANTIATE_TEST_SUITE_P(BothRevisions, RootSubscribe, ::testing::Values("2025-11-25", "2026-07-28"));

}  // namespace
