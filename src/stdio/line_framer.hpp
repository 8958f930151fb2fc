// Private: splits a byte stream into newline-delimited frames, bounded in memory.
// Pure parsing, no I/O: feed it bytes, it calls `emit` for each complete frame.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace mcp::detail {

class LineFramer {
 public:
  explicit LineFramer(std::size_t max_line_bytes) : max_(max_line_bytes) {}

  // Calls emit(frame) for each complete line in `bytes` (plus what was buffered before).
  // Oversized lines are emitted truncated to max+1 bytes, once, when their newline arrives.
  void feed(std::string_view bytes, const std::function<void(std::string)>& emit);

  // Bytes of an unterminated last line, if any (for an error message at end of input).
  std::size_t buffered() const { return buf_.size(); }

 private:
  std::size_t max_;
  std::string buf_;
  bool overflow_ = false;  // the current line passed max_: drop bytes until its newline
};

}  // namespace mcp::detail
