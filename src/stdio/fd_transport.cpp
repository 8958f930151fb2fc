#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <csignal>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "mcp/stdio/stdio.hpp"
#include "stdio/fd_transport.hpp"
#include "stdio/line_framer.hpp"
#include "session/reaper.hpp"
#include "session/thread_name.hpp"

namespace mcp::detail {

FdTransport::FdTransport(int read_fd, int write_fd, FdTransportOptions options)
    : read_fd_(read_fd), write_fd_(write_fd), opts_(options) {
  // A peer that goes away must give us EPIPE, not kill the process with SIGPIPE.
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });
  // A self-pipe lets close() wake the reader, and a blocked sender, out of poll() from any thread.
  if (::pipe2(wake_, O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;
  // Writes to a pipe or socket are non-blocking, so a peer that stops reading cannot hold a sender
  // (and with it close()) forever: send() waits in poll(), which close() interrupts. A terminal or
  // a file keeps blocking writes (O_NONBLOCK on a tty would leak into the user's shell).
  struct stat st{};
  if (write_fd_ >= 0 && ::fstat(write_fd_, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
    int flags = ::fcntl(write_fd_, F_GETFL);
    if (flags >= 0) ::fcntl(write_fd_, F_SETFL, flags | O_NONBLOCK);
  }
}

FdTransport::~FdTransport() {
  close();
  detail::join_or_reap(reader_);  // the reader's own thread if released by its own callback
  for (int fd : wake_) if (fd >= 0) ::close(fd);
}

Result<void> FdTransport::start(Callbacks cb) {
  if (reader_.joinable()) return fail(Error::internal("transport already started"));
  reader_ = std::thread([this, cb = std::move(cb)] {
    detail::name_this_thread("mcp-fd-reader");
    read_loop(cb);
  });
  return {};
}

Result<void> FdTransport::send(std::string frame, const SendInfo&) {
  // The frame and its newline go out together (writev): appending the newline to the frame would
  // copy it whenever it has no spare capacity, which the encoders' frames, made at their exact
  // size, never have (a copy of every message, of a megabyte for a megabyte's result).
  static constexpr char kNewline = '\n';
  iovec parts[2] = {{frame.data(), frame.size()}, {const_cast<char*>(&kNewline), 1}};
  iovec* rest = parts;
  int left = 2;
  std::lock_guard lock(write_mu_);
  if (closed_.load() || write_fd_ < 0) return fail(Error::connection_closed("transport closed"));
  auto stalled_since = std::chrono::steady_clock::now();
  while (left > 0) {
    ssize_t n = ::writev(write_fd_, rest, left);
    if (n >= 0) {
      // Past what was written: whole parts, then into the part it stopped in.
      auto done = static_cast<std::size_t>(n);
      while (left > 0 && done >= rest->iov_len) {
        done -= rest->iov_len;
        ++rest;
        --left;
      }
      if (left > 0) {
        rest->iov_base = static_cast<char*>(rest->iov_base) + done;
        rest->iov_len -= done;
      }
      stalled_since = std::chrono::steady_clock::now();
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      return fail(Error::connection_closed(std::string("write failed: ") + std::strerror(errno)));
    }
    // The peer is not reading: wait for room, for close(), or for write_timeout.
    auto time_left = opts_.write_timeout - (std::chrono::steady_clock::now() - stalled_since);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(time_left).count();
    pollfd fds[2] = {{write_fd_, POLLOUT, 0}, {wake_[0], POLLIN, 0}};
    int pr = ms > 0 ? ::poll(fds, wake_[0] >= 0 ? 2 : 1, static_cast<int>(ms)) : 0;
    if (pr < 0 && errno == EINTR) continue;
    if (pr > 0 && fds[1].revents) return fail(Error::connection_closed("transport closed while a message was being written"));
    if (pr == 0) {
      write_failed_ = true;
      // Unblocks the reader too: the transport is done.
      if (wake_[1] >= 0) {
        char b = 1;
        [[maybe_unused]] auto w = ::write(wake_[1], &b, 1);
      }
      return fail(Error::connection_closed("the peer stopped reading: no progress writing a message for " +
                                           std::to_string(opts_.write_timeout.count()) + " ms (write_timeout)"));
    }
  }
  return {};
}

void FdTransport::close_write() {
  std::lock_guard lock(write_mu_);
  if (write_fd_ >= 0) ::close(write_fd_);
  write_fd_ = -1;
}

void FdTransport::close() {
  if (closed_.exchange(true)) return;
  if (wake_[1] >= 0) {
    char b = 1;
    [[maybe_unused]] auto n = ::write(wake_[1], &b, 1);
  }
  std::lock_guard lock(write_mu_);  // no write in progress past this point
  if (opts_.close_fds && write_fd_ >= 0) ::close(write_fd_);
  write_fd_ = -1;
}

void FdTransport::read_loop(const Callbacks& cb) {
  LineFramer framer(opts_.max_line_bytes);
  std::optional<Error> reason;
  std::string buf(64 * 1024, '\0');
  for (;;) {
    pollfd fds[2] = {{read_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    int pr = ::poll(fds, wake_[0] >= 0 ? 2 : 1, -1);
    if (pr < 0) {
      if (errno == EINTR) continue;
      reason = Error::connection_closed(std::string("poll failed: ") + std::strerror(errno));
      break;
    }
    if (fds[1].revents) {  // close() was called, or a write timed out
      if (write_failed_) {
        reason = Error::connection_closed("the peer stopped reading (write_timeout " +
                                          std::to_string(opts_.write_timeout.count()) + " ms)");
      }
      break;
    }
    if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    ssize_t n = ::read(read_fd_, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      reason = Error::connection_closed(std::string("read failed: ") + std::strerror(errno));
      break;
    }
    if (n == 0) {
      if (framer.buffered()) {
        reason = Error::connection_closed("input ended in the middle of a message (" +
                                          std::to_string(framer.buffered()) + " bytes without a newline)");
      } else if (cb.on_input_end && !closed_.load()) {
        cb.on_input_end();  // the write side is still open: answers to what came in can go out
      }
      break;
    }
    framer.feed(std::string_view(buf.data(), static_cast<std::size_t>(n)), cb.on_message);
  }
  if (!closed_.load()) {
    closed_.store(true);
    std::lock_guard lock(write_mu_);
    if (opts_.close_fds && write_fd_ >= 0) ::close(write_fd_);
    write_fd_ = -1;
  }
  if (opts_.close_fds && read_fd_ >= 0) ::close(read_fd_);
  if (cb.on_close) cb.on_close(reason);
}

}  // namespace mcp::detail

namespace mcp {

std::shared_ptr<Transport> make_fd_transport(int read_fd, int write_fd, FdTransportOptions options) {
  return std::make_shared<detail::FdTransport>(read_fd, write_fd, options);
}

std::shared_ptr<Transport> make_stdio_transport(FdTransportOptions options) {
  return std::make_shared<detail::FdTransport>(STDIN_FILENO, STDOUT_FILENO, options);
}

}  // namespace mcp
