#include "http/sse.hpp"

namespace mcp::http {

std::string format_sse(const SseEvent& e) {
  std::string out;
  if (!e.event.empty()) out += "event: " + e.event + "\n";
  if (e.id) out += "id: " + *e.id + "\n";
  if (e.retry_ms) out += "retry: " + std::to_string(*e.retry_ms) + "\n";
  std::string_view d = e.data;
  for (;;) {
    auto nl = d.find('\n');
    out += "data: ";
    out += d.substr(0, nl);
    out += '\n';
    if (nl == std::string_view::npos) break;
    d.remove_prefix(nl + 1);
  }
  out += '\n';
  return out;
}

void SseParser::feed(std::string_view bytes, const std::function<void(SseEvent)>& emit) {
  // A CR that ended the previous feed may be the first half of a CRLF.
  if (skip_lf_ && !bytes.empty()) {
    if (bytes.front() == '\n') bytes.remove_prefix(1);
    skip_lf_ = false;
  }
  if (discard_line_) {
    // The rest of an oversized line is dropped up to its end; nothing of it is parsed.
    auto nl = bytes.find_first_of("\r\n");
    if (nl == std::string_view::npos) return;
    discard_line_ = false;
    skip_lf_ = bytes[nl] == '\r';
    bytes.remove_prefix(nl + 1);
    if (skip_lf_ && !bytes.empty()) {
      if (bytes.front() == '\n') bytes.remove_prefix(1);
      skip_lf_ = false;
    }
  }
  buf_.append(bytes);
  std::size_t start = 0;
  for (;;) {
    auto nl = buf_.find_first_of("\r\n", start);
    if (nl == std::string::npos) break;
    std::string_view l(buf_.data() + start, nl - start);
    // "\r\n" counts as one line end; a CR at the very end is handled now and a following LF skipped.
    std::size_t next = nl + 1;
    if (buf_[nl] == '\r') {
      if (next < buf_.size()) {
        if (buf_[next] == '\n') ++next;
      } else {
        skip_lf_ = true;
      }
    }
    line(l, emit);
    start = next;
  }
  buf_.erase(0, start);
  if (buf_.size() > max_) {
    too_large_ = true;
    buf_.clear();
    discard_line_ = true;
    skip_event_ = true;
  }
}

void SseParser::line(std::string_view l, const std::function<void(SseEvent)>& emit) {
  if (skip_event_) {
    // The event had an oversized line: drop it whole, up to the blank line that ends it.
    if (l.empty()) {
      skip_event_ = false;
      cur_ = SseEvent{};
      has_data_ = false;
    }
    return;
  }
  if (l.empty()) {
    if (has_data_) emit(std::move(cur_));
    else if (cur_.retry_ms || cur_.id) {
      // An event without data is not dispatched, but its id and retry still apply: report them.
      SseEvent meta;
      meta.id = cur_.id;
      meta.retry_ms = cur_.retry_ms;
      meta.event = "__meta";
      emit(std::move(meta));
    }
    cur_ = SseEvent{};
    has_data_ = false;
    return;
  }
  if (l.front() == ':') return;  // comment
  auto colon = l.find(':');
  std::string_view field = l.substr(0, colon);
  std::string_view value = colon == std::string_view::npos ? std::string_view{} : l.substr(colon + 1);
  if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  if (field == "data") {
    if (has_data_) cur_.data += '\n';
    cur_.data += value;
    has_data_ = true;
    if (cur_.data.size() > max_) {
      too_large_ = true;
      cur_ = SseEvent{};
      has_data_ = false;
      skip_event_ = true;
    }
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) cur_.id = std::string(value);
  } else if (field == "event") {
    cur_.event = std::string(value);
  } else if (field == "retry") {
    long ms = 0;
    bool ok = !value.empty();
    for (char c : value) {
      if (c < '0' || c > '9' || ms > 86'400'000) { ok = false; break; }
      ms = ms * 10 + (c - '0');
    }
    if (ok) cur_.retry_ms = ms;
  }
}

}  // namespace mcp::http
