#include "dir_watch.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <set>

namespace file_manager {

namespace {
constexpr std::uint32_t kMask = IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_CREATE |
                                IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO;
}  // namespace

RootWatcher::RootWatcher(std::shared_ptr<const RootDirectory> root, std::function<void(const std::string&)> on_change,
                         std::size_t max_watches)
    : root_(std::move(root)), on_change_(std::move(on_change)), max_watches_(max_watches) {
  inotify_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  wake_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  // Without either, watch() reports why; the server still serves.
  if (inotify_ >= 0 && wake_ >= 0) thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

RootWatcher::~RootWatcher() {
  if (thread_.joinable()) {
    thread_.request_stop();
    const std::uint64_t one = 1;
    (void)!::write(wake_, &one, sizeof one);
    thread_.join();
  }
  if (inotify_ >= 0) ::close(inotify_);
  if (wake_ >= 0) ::close(wake_);
}

mcp::Result<void> RootWatcher::watch(const std::string& uri) {
  if (inotify_ < 0 || wake_ < 0) return mcp::fail(mcp::Error::internal("file watching is unavailable (inotify)"));
  auto real = root_->resolve(uri);
  if (!real) return mcp::fail(real.error());
  std::lock_guard lock(mu_);
  if (auto it = by_uri_.find(uri); it != by_uri_.end()) {
    if (it->second.wd < 0) {  // its file went away and came back: watch the new one
      const int wd = ::inotify_add_watch(inotify_, real->c_str(), kMask);
      if (wd < 0) return mcp::fail(mcp::Error::internal(std::string("cannot watch the file: ") + std::strerror(errno)));
      it->second.wd = wd;
      by_wd_.emplace(wd, uri);
    }
    ++it->second.count;
    return {};
  }
  if (by_uri_.size() >= max_watches_) {
    return mcp::fail(mcp::Error::invalid_params("the server already watches " + std::to_string(by_uri_.size()) +
                                                " files, its limit; unsubscribe from some first"));
  }
  const int wd = ::inotify_add_watch(inotify_, real->c_str(), kMask);
  if (wd < 0) return mcp::fail(mcp::Error::internal(std::string("cannot watch the file: ") + std::strerror(errno)));
  by_uri_.emplace(uri, Watched{wd, 1});
  by_wd_.emplace(wd, uri);
  return {};
}

void RootWatcher::unwatch(const std::string& uri) {
  std::lock_guard lock(mu_);
  auto it = by_uri_.find(uri);
  if (it == by_uri_.end() || --it->second.count > 0) return;
  const int wd = it->second.wd;
  by_uri_.erase(it);
  auto [from, to] = by_wd_.equal_range(wd);
  for (auto w = from; w != to; ++w) {
    if (w->second == uri) {
      by_wd_.erase(w);
      break;
    }
  }
  if (wd >= 0 && !by_wd_.contains(wd)) ::inotify_rm_watch(inotify_, wd);
}

std::size_t RootWatcher::watching() const {
  std::lock_guard lock(mu_);
  return by_uri_.size();
}

void RootWatcher::run(const std::stop_token& stop) {
  alignas(inotify_event) std::array<char, 64 * 1024> buf{};
  while (!stop.stop_requested()) {
    std::array<pollfd, 2> fds{{{inotify_, POLLIN, 0}, {wake_, POLLIN, 0}}};
    if (::poll(fds.data(), fds.size(), -1) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;  // woken to stop
    const ssize_t n = ::read(inotify_, buf.data(), buf.size());
    if (n <= 0) continue;
    // One batch of events: each URI reported once, outside the lock.
    std::set<std::string> changed;
    {
      std::lock_guard lock(mu_);
      for (ssize_t off = 0; off < n;) {
        const auto* e = reinterpret_cast<const inotify_event*>(buf.data() + off);
        off += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
        auto [from, to] = by_wd_.equal_range(e->wd);
        if (e->mask & IN_IGNORED) {
          // The watch is gone (the file was deleted or moved away): its URIs stay subscribed, with
          // nothing to watch until they are watched again.
          for (auto w = from; w != to; ++w) {
            if (auto u = by_uri_.find(w->second); u != by_uri_.end()) u->second.wd = -1;
          }
          by_wd_.erase(from, to);
          continue;
        }
        for (auto w = from; w != to; ++w) changed.insert(w->second);
      }
    }
    for (const auto& uri : changed) on_change_(uri);
  }
}

}  // namespace file_manager
