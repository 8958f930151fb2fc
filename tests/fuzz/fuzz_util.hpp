// Helpers shared by the libFuzzer targets. A target must never crash, hang or leak on any input;
// where a property can be checked (a round trip, a bound), FUZZ_CHECK aborts with a message so the
// fuzzer records the input as a finding.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#define FUZZ_CHECK(cond)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      std::fprintf(stderr, "FUZZ_CHECK failed: %s at %s:%d\n", #cond, __FILE__, __LINE__); \
      std::abort();                                                             \
    }                                                                           \
  } while (0)

namespace mcp::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Splits the input at a position chosen by its first byte (for targets taking two strings, or
// feeding bytes in two reads).
inline std::pair<std::string_view, std::string_view> split(std::string_view in) {
  if (in.empty()) return {{}, {}};
  std::size_t at = static_cast<unsigned char>(in[0]) % in.size();
  in.remove_prefix(1);
  at = at > in.size() ? in.size() : at;
  return {in.substr(0, at), in.substr(at)};
}

}  // namespace mcp::fuzz
