// file-manager --root's view of a real directory (examples/file-manager/dir_tree.hpp): metadata,
// children paged in one pass, reads as text or blob, and every way out of the root refused.
#include "dir_tree.hpp"

#include <gtest/gtest.h>
#include <sodium.h>
#include <sys/stat.h>

#include <fstream>
#include <set>

#include "tmp_dir.hpp"

using namespace file_manager;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, std::string_view bytes) { std::ofstream(p, std::ios::binary) << bytes; }

class DirTree : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path / "root/a/sub");
    fs::create_directories(dir_.path / "outside/inner");
    write(root() / "a/b.txt", "hello");
    write(root() / "a/sub/c.md", "# C\n");
    write(dir_.path / "outside/secret.txt", "secret");
    write(dir_.path / "outside/inner/deep.txt", "deep");
  }
  fs::path root() const { return dir_.path / "root"; }
  std::shared_ptr<const RootDirectory> open(RootOptions o = {}) {
    auto r = RootDirectory::open(root(), o);
    EXPECT_TRUE(r) << r.error().message;
    return *r;
  }
  static std::vector<std::string> uris(const mcp::ListResourcesResult& page) {
    std::vector<std::string> out;
    for (const auto& r : page.resources) out.push_back(r.uri);
    return out;
  }
  mcp::test::TmpDir dir_;
};

TEST_F(DirTree, TheRootDirectoriesAndFilesHaveTheirMetadata) {
  auto d = open();
  auto r = d->metadata("file:///");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->uri, "file:///");
  EXPECT_EQ(r->name, "root");
  EXPECT_EQ(r->capabilities->list, true);
  auto a = d->metadata("file:///a");  // either spelling of a directory; the canonical one comes back
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->uri, "file:///a/");
  EXPECT_EQ(a->mime_type, "inode/directory");
  auto b = d->metadata("file:///a/b.txt");
  ASSERT_TRUE(b) << b.error().message;
  EXPECT_EQ(b->name, "b.txt");
  EXPECT_EQ(b->size, 5);
  EXPECT_EQ(b->mime_type, "text/plain");
  EXPECT_EQ(b->capabilities->subscribe, true);
  ASSERT_TRUE(b->annotations && b->annotations->last_modified);
  EXPECT_EQ(b->annotations->last_modified->size(), 20u) << *b->annotations->last_modified;  // 2026-11-25T04:25:42Z
}

TEST_F(DirTree, ChildrenArePagedInNameOrderWithNoneLostOrRepeated) {
  for (int i = 0; i < 10; ++i) write(root() / ("f" + std::to_string(i)), "x");
  auto d = open({.page_size = 3});
  std::vector<std::string> all;
  std::optional<std::string> cursor;
  int pages = 0;
  do {
    auto page = d->children("file:///", cursor);
    ASSERT_TRUE(page) << page.error().message;
    EXPECT_LE(page->resources.size(), 3u);
    for (auto& u : uris(*page)) all.push_back(u);
    cursor = page->next_cursor;
    ++pages;
  } while (cursor && pages < 20);
  EXPECT_EQ(pages, 4);  // a/ and f0..f9: 11 entries, 3 per page
  ASSERT_EQ(all.size(), 11u);
  EXPECT_EQ(all.front(), "file:///a/");
  EXPECT_TRUE(std::is_sorted(all.begin(), all.end()));
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
}

TEST_F(DirTree, BadCursorsFilesAndMissingPathsAreClearErrors) {
  auto d = open();
  for (std::string bad : {"garbage", "after:zz", "after:2f", "after:", "after:6"}) {
    auto r = d->children("file:///", bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().code, mcp::error_code::kInvalidParams) << bad;
    EXPECT_NE(r.error().message.find("invalid cursor"), std::string::npos) << r.error().message;
  }
  auto file = d->children("file:///a/b.txt", std::nullopt);
  ASSERT_FALSE(file);
  EXPECT_NE(file.error().message.find("not listable"), std::string::npos);
  EXPECT_FALSE(d->read("file:///a/b.txt/")) << "a file named as a directory names nothing";
  auto missing = d->metadata("file:///nope.txt");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code, mcp::error_code::kResourceNotFound);
}

TEST_F(DirTree, NothingOutsideTheRootIsListedOrRead) {
  fs::create_symlink(dir_.path / "outside", root() / "out");
  fs::create_symlink(dir_.path / "outside/secret.txt", root() / "leak.txt");
  fs::create_symlink(root() / "a", root() / "inside");  // inside: served under its own URI
  auto d = open();
  for (std::string uri : {"file:///../outside/secret.txt", "file:///a/../../outside/secret.txt",
                          "file:///%2e%2e/outside/secret.txt", "file:///a%2F..%2F..%2Foutside%2Fsecret.txt",
                          "file:///out/secret.txt", "file:///out/inner/deep.txt", "file:///leak.txt", "file:///out/",
                          "file:///a/./b.txt", "file:///a//b.txt", "file:///a%00b"}) {
    EXPECT_FALSE(d->read(uri)) << uri;
    EXPECT_FALSE(d->metadata(uri)) << uri;
    EXPECT_FALSE(d->children(uri, std::nullopt)) << uri;
  }
  auto listed = d->children("file:///", std::nullopt);
  ASSERT_TRUE(listed);
  EXPECT_EQ(uris(*listed), (std::vector<std::string>{"file:///a/", "file:///inside/"}));
  auto via = d->read("file:///inside/b.txt");
  ASSERT_TRUE(via) << via.error().message;
  EXPECT_EQ(std::get<mcp::TextResourceContents>(via->contents[0]).uri, "file:///inside/b.txt");
}

TEST_F(DirTree, MalformedUrisAreRefusedNamingWhy) {
  auto d = open();
  const std::string long_uri = "file:///" + std::string(5000, 'a');
  for (std::string uri : {std::string("http://x/a"), std::string("file:///a?x=1"), std::string("file:///a#f"),
                          std::string("file:///a%zz"), std::string("file:///a%2"), long_uri}) {
    auto r = d->metadata(uri);
    ASSERT_FALSE(r) << uri;
    EXPECT_EQ(r.error().code, mcp::error_code::kInvalidParams) << uri;
    EXPECT_LT(r.error().message.size(), 400u) << "the URI is not echoed whole";
  }
}

TEST_F(DirTree, AFifoIsNeitherListedNorOpened) {
  ASSERT_EQ(::mkfifo((root() / "pipe").c_str(), 0600), 0);
  auto d = open();
  auto listed = d->children("file:///", std::nullopt);
  ASSERT_TRUE(listed);
  EXPECT_EQ(uris(*listed), (std::vector<std::string>{"file:///a/"}));
  auto read = d->read("file:///pipe");  // would block for ever if it were opened for reading
  ASSERT_FALSE(read);
  EXPECT_NE(read.error().message.find("neither a regular file nor a directory"), std::string::npos);
}

TEST_F(DirTree, OddNamesRoundTripThroughPercentEncoding) {
  const std::string odd = "a b%c#d?.txt", utf8 = "\xc3\xa9t\xc3\xa9.txt";
  write(root() / odd, "odd");
  write(root() / utf8, "ete");
  auto d = open();
  auto listed = d->children("file:///", std::nullopt);
  ASSERT_TRUE(listed);
  std::set<std::string> names;
  for (const auto& r : listed->resources) {
    names.insert(r.name);
    auto back = d->read(r.uri);  // each emitted URI reads back
    EXPECT_TRUE(back || r.capabilities->list) << r.uri;
  }
  EXPECT_TRUE(names.contains(odd));
  EXPECT_TRUE(names.contains(utf8));
  auto m = d->metadata("file:///a%20b%25c%23d%3F.txt");
  ASSERT_TRUE(m) << m.error().message;
  EXPECT_EQ(m->name, odd);
}

TEST_F(DirTree, TextIsTextAndBinaryIsABlobThatDecodesBack) {
  const std::string bytes("\x00\xff\x01 binary", 10);
  write(root() / "bin.dat", bytes);
  auto d = open();
  auto text = d->read("file:///a/b.txt");
  ASSERT_TRUE(text);
  const auto& t = std::get<mcp::TextResourceContents>(text->contents.at(0));
  EXPECT_EQ(t.text, "hello");
  EXPECT_EQ(t.name, "b.txt");
  EXPECT_EQ(t.size, 5);
  auto blob = d->read("file:///bin.dat");
  ASSERT_TRUE(blob) << blob.error().message;
  const auto& b = std::get<mcp::BlobResourceContents>(blob->contents.at(0));
  EXPECT_EQ(b.mime_type, "application/octet-stream");
  std::string decoded(bytes.size() + 8, '\0');
  std::size_t len = 0;
  ASSERT_EQ(sodium_base642bin(reinterpret_cast<unsigned char*>(decoded.data()), decoded.size(), b.blob.data(),
                              b.blob.size(), nullptr, &len, nullptr, sodium_base64_VARIANT_ORIGINAL),
            0);
  decoded.resize(len);
  EXPECT_EQ(decoded, bytes);
}

// Bytes that only look like UTF-8 (overlong, a surrogate, past U+10FFFF) would make JSON a client
// cannot parse: they are blobs.
TEST_F(DirTree, OnlyStrictUtf8IsText) {
  write(root() / "overlong.txt", std::string("a\xc0\x80" "b"));
  write(root() / "surrogate.txt", std::string("a\xed\xa0\x80" "b"));
  write(root() / "high.txt", std::string("a\xf5\x80\x80\x80" "b"));
  write(root() / "fine.txt", std::string("caf\xc3\xa9 \xf0\x9f\x99\x82"));
  auto d = open();
  for (const char* f : {"overlong.txt", "surrogate.txt", "high.txt"}) {
    auto r = d->read(std::string("file:///") + f);
    ASSERT_TRUE(r) << f;
    EXPECT_TRUE(std::holds_alternative<mcp::BlobResourceContents>(r->contents.at(0))) << f;
  }
  auto fine = d->read("file:///fine.txt");
  ASSERT_TRUE(fine);
  EXPECT_TRUE(std::holds_alternative<mcp::TextResourceContents>(fine->contents.at(0)));
}

TEST_F(DirTree, AFileOverTheReadLimitIsRefusedUnread) {
  write(root() / "big.txt", std::string(2048, 'x'));
  auto d = open({.max_read_bytes = 1024});
  auto r = d->read("file:///big.txt");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("2048 bytes, over the limit of 1024"), std::string::npos) << r.error().message;
  EXPECT_TRUE(d->metadata("file:///big.txt")) << "its metadata is still there";
}

TEST_F(DirTree, OpeningSomethingThatIsNotADirectoryFails) {
  EXPECT_FALSE(RootDirectory::open(root() / "a/b.txt"));
  EXPECT_FALSE(RootDirectory::open(root() / "missing"));
}

}  // namespace
