#include "stdio/line_framer.hpp"

namespace mcp::detail {

void LineFramer::feed(std::string_view bytes, const std::function<void(std::string)>& emit) {
  while (!bytes.empty()) {
    auto nl = bytes.find('\n');
    std::string_view part = nl == std::string_view::npos ? bytes : bytes.substr(0, nl);
    if (!overflow_) {
      std::size_t room = max_ + 1 - buf_.size();
      if (part.size() >= room) {
        buf_.append(part.substr(0, room));
        overflow_ = true;
      } else {
        buf_.append(part);
      }
    }
    if (nl == std::string_view::npos) return;
    bytes.remove_prefix(nl + 1);
    if (!overflow_ && !buf_.empty() && buf_.back() == '\r') buf_.pop_back();
    bool blank = buf_.find_first_not_of(" \t\r") == std::string::npos;
    if (!blank) emit(std::move(buf_));
    buf_.clear();
    overflow_ = false;
  }
}

}  // namespace mcp::detail
