// Private to the gateway: an open file descriptor, closed when its owner goes (and with it any
// flock held through it). Movable, not copyable.
#pragma once

#include <unistd.h>

#include <utility>

namespace mcp::gateway {

struct UniqueFd {
  int fd = -1;
  UniqueFd() = default;
  explicit UniqueFd(int f) : fd(f) {}
  UniqueFd(UniqueFd&& o) noexcept : fd(std::exchange(o.fd, -1)) {}
  UniqueFd& operator=(UniqueFd&&) = delete;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace mcp::gateway
