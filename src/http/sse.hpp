// Private: Server-Sent Events framing (WHATWG HTML "server-sent events"), both ways, without I/O.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::http {

struct SseEvent {
  std::optional<std::string> id;
  std::string event;  // empty means "message"
  std::string data;   // data lines joined with "\n"
  std::optional<long> retry_ms;
};

// One event as bytes. A data payload with newlines becomes several data: lines. The SDK always
// writes a data: line, even an empty one, because parsers drop events without one.
std::string format_sse(const SseEvent& e);

// Incremental parser: feed bytes as they arrive; `emit` gets each complete event. Bounded: an event
// larger than max_event_bytes is reported through `too_large` and skipped.
class SseParser {
 public:
  explicit SseParser(std::size_t max_event_bytes = 4 * 1024 * 1024) : max_(max_event_bytes) {}
  void feed(std::string_view bytes, const std::function<void(SseEvent)>& emit);
  bool too_large() const { return too_large_; }

 private:
  void line(std::string_view l, const std::function<void(SseEvent)>& emit);

  std::size_t max_;
  std::string buf_;
  SseEvent cur_;
  bool has_data_ = false;
  bool too_large_ = false;
  bool skip_lf_ = false;       // the last feed ended with CR: a leading LF belongs to it
  bool discard_line_ = false;  // inside an oversized line: drop bytes up to its end
  bool skip_event_ = false;    // inside an event with an oversized line: drop it up to its blank line
};

}  // namespace mcp::http
