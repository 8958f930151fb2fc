// The stdio line framer: bytes in two reads, any split; every frame is bounded (max + 1 bytes for
// an oversized line, which the codec then refuses), and the frames plus what stays buffered account
// for every byte of the input (none invented, none lost besides the cut of oversized lines).
#include "fuzz_util.hpp"
#include "stdio/line_framer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kMax = 256;
  mcp::detail::LineFramer framer(kMax);
  auto [a, b] = mcp::fuzz::split(mcp::fuzz::as_text(data, size));
  std::size_t newlines = 0, frames = 0;
  for (char c : a) newlines += c == '\n';
  for (char c : b) newlines += c == '\n';
  auto emit = [&](std::string frame) {
    FUZZ_CHECK(frame.size() <= kMax + 1);
    FUZZ_CHECK(frame.find('\n') == std::string::npos);
    ++frames;
  };
  framer.feed(a, emit);
  framer.feed(b, emit);
  FUZZ_CHECK(framer.buffered() <= kMax + 1);
  FUZZ_CHECK(frames <= newlines);
  return 0;
}
