// SHA-256: FIPS 180-4's examples, the incremental form against the one-shot one, and the one-shot
// form reusing its thread's digest context (sha256.cpp) without carrying anything from one digest
// to the next, on several threads at once.
#include "mcp/trust/sha256.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

using namespace mcp::trust;

namespace {

const std::string kAbc = "abc";
const std::string kTwoBlocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

}  // namespace

TEST(Sha256, KnownAnswers) {
  EXPECT_EQ(sha256_tag(std::string_view()), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_tag(kAbc), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_tag(kTwoBlocks), "sha256:248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_tag(std::string(1000000, 'a')),
            "sha256:cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// The one-shot form and the incremental one agree at every size around the block and buffer edges.
TEST(Sha256, OneShotAndIncrementalAgree) {
  std::string text;
  for (std::size_t size : {0, 1, 55, 56, 63, 64, 65, 4095, 4096, 4097, 100000}) {
    text.resize(size);
    for (std::size_t i = 0; i < size; ++i) text[i] = static_cast<char>('a' + (i * 7 + size) % 26);
    Sha256 h;
    h.update(text);
    EXPECT_EQ(sha256(text), h.finish()) << size << " bytes";
  }
}

TEST(Sha256, PiecesGiveTheDigestOfTheWhole) {
  Sha256 h;
  for (char c : kTwoBlocks) h.update(std::string_view(&c, 1));
  EXPECT_EQ(h.finish(), sha256(kTwoBlocks));
  // finish() resets: the same object hashes the next message from scratch.
  h.update("ab");
  h.update("c");
  EXPECT_EQ(h.finish(), sha256(kAbc));
}

TEST(Sha256, EachDigestStartsAfreshOnEveryThread) {
  const auto abc = sha256(kAbc);
  const auto two = sha256(kTwoBlocks);
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        // Alternating inputs of different lengths: any state left over would change the next one.
        if (sha256((i + t) % 2 ? std::string_view(kAbc) : std::string_view(kTwoBlocks)) != ((i + t) % 2 ? abc : two)) ++wrong;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
}
