// file-manager --root's inotify watcher (examples/file-manager/dir_watch.hpp): a watched file's
// change is reported by URI, an unwatched one's is not, the number of watches is bounded, and only
// what the root may serve can be watched. Waits on the reports, never on time.
#include "dir_watch.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <fstream>
#include <set>

#include "tmp_dir.hpp"

using namespace file_manager;
namespace fs = std::filesystem;

namespace {

class DirWatch : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path / "root");
    for (const char* f : {"one.txt", "two.txt", "three.txt"}) std::ofstream(dir_.path / "root" / f) << "x";
    std::ofstream(dir_.path / "secret.txt") << "s";
    auto root = RootDirectory::open(dir_.path / "root");
    ASSERT_TRUE(root);
    root_ = *root;
  }
  std::unique_ptr<RootWatcher> watcher(std::size_t max = 1024) {
    return std::make_unique<RootWatcher>(
        root_,
        [this](const std::string& uri) {
          std::lock_guard lock(mu_);
          seen_.push_back(uri);
          cv_.notify_all();
        },
        max);
  }
  bool wait_for(const std::string& uri) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(10),
                        [&] { return std::find(seen_.begin(), seen_.end(), uri) != seen_.end(); });
  }
  void append(const char* name) { std::ofstream(dir_.path / "root" / name, std::ios::app) << "more"; }

  mcp::test::TmpDir dir_;
  std::shared_ptr<const RootDirectory> root_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> seen_;
};

TEST_F(DirWatch, AWatchedFileThatChangesIsReportedAndAnUnwatchedOneIsNot) {
  auto w = watcher();
  ASSERT_TRUE(w->watch("file:///one.txt"));
  ASSERT_TRUE(w->watch("file:///two.txt"));
  w->unwatch("file:///two.txt");
  EXPECT_EQ(w->watching(), 1u);
  // two.txt changes first: one inotify queue, so a report of it would come before one.txt's.
  append("two.txt");
  append("one.txt");
  ASSERT_TRUE(wait_for("file:///one.txt"));
  std::lock_guard lock(mu_);
  EXPECT_EQ(std::count(seen_.begin(), seen_.end(), "file:///two.txt"), 0);
}

TEST_F(DirWatch, WatchesAreCountedPerUri) {
  auto w = watcher();
  ASSERT_TRUE(w->watch("file:///one.txt"));
  ASSERT_TRUE(w->watch("file:///one.txt"));
  w->unwatch("file:///one.txt");
  EXPECT_EQ(w->watching(), 1u) << "one watch() still holds it";
  append("one.txt");
  EXPECT_TRUE(wait_for("file:///one.txt"));
  w->unwatch("file:///one.txt");
  EXPECT_EQ(w->watching(), 0u);
}

TEST_F(DirWatch, TheNumberOfWatchedUrisIsBounded) {
  auto w = watcher(2);
  ASSERT_TRUE(w->watch("file:///one.txt"));
  ASSERT_TRUE(w->watch("file:///two.txt"));
  auto third = w->watch("file:///three.txt");
  ASSERT_FALSE(third);
  EXPECT_EQ(third.error().code, mcp::error_code::kInvalidParams);
  EXPECT_NE(third.error().message.find("limit"), std::string::npos);
  EXPECT_TRUE(w->watch("file:///one.txt")) << "counting an existing one needs no new watch";
}

TEST_F(DirWatch, OnlyWhatTheRootServesCanBeWatched) {
  fs::create_symlink(dir_.path / "secret.txt", dir_.path / "root/leak.txt");
  auto w = watcher();
  EXPECT_FALSE(w->watch("file:///../secret.txt"));
  EXPECT_FALSE(w->watch("file:///leak.txt"));
  EXPECT_FALSE(w->watch("file:///missing.txt"));
  EXPECT_EQ(w->watching(), 0u);
}

TEST_F(DirWatch, ADeletedFileIsReported) {
  auto w = watcher();
  ASSERT_TRUE(w->watch("file:///three.txt"));
  fs::remove(dir_.path / "root/three.txt");
  EXPECT_TRUE(wait_for("file:///three.txt"));
  w->unwatch("file:///three.txt");  // after its watch went away with the file: still fine
  EXPECT_EQ(w->watching(), 0u);
}

TEST_F(DirWatch, AFileDeletedAndRecreatedIsWatchedAgainByTheNextWatch) {
  auto w = watcher();
  ASSERT_TRUE(w->watch("file:///three.txt"));
  fs::remove(dir_.path / "root/three.txt");
  ASSERT_TRUE(wait_for("file:///three.txt"));
  std::ofstream(dir_.path / "root/three.txt") << "back";
  {
    std::lock_guard lock(mu_);
    seen_.clear();
  }
  ASSERT_TRUE(w->watch("file:///three.txt"));  // a second subscriber, while the first still holds it
  append("three.txt");
  EXPECT_TRUE(wait_for("file:///three.txt"));
}

TEST_F(DirWatch, AWatchedDirectoryReportsNewEntries) {
  auto w = watcher();
  ASSERT_TRUE(w->watch("file:///"));
  std::ofstream(dir_.path / "root/new.txt") << "n";
  EXPECT_TRUE(wait_for("file:///"));
}

}  // namespace
