// The SSE parser (HTTP client side): bytes in two reads; never crashes, and no event it delivers is
// larger than its bound.
#include "fuzz_util.hpp"
#include "http/sse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t kMax = 512;
  mcp::http::SseParser parser(kMax);
  auto [a, b] = mcp::fuzz::split(mcp::fuzz::as_text(data, size));
  auto emit = [&](mcp::http::SseEvent e) {
    FUZZ_CHECK(e.data.size() <= kMax);
    // What we write, we can read back.
    std::string bytes = mcp::http::format_sse(e);
    mcp::http::SseParser echo(4 * kMax + 64);
    std::size_t seen = 0;
    echo.feed(bytes, [&](mcp::http::SseEvent back) {
      ++seen;
      FUZZ_CHECK(back.data == e.data);
    });
    FUZZ_CHECK(seen <= 1);
  };
  parser.feed(a, emit);
  parser.feed(b, emit);
  return 0;
}
