#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>

#include "mcp/transport/stdio.hpp"
#include "stdio/fd_transport.hpp"
#include "stdio/line_framer.hpp"

namespace mcp::detail {

FdTransport::FdTransport(int read_fd, int write_fd, FdTransportOptions options)
    : read_fd_(read_fd), write_fd_(write_fd), opts_(options) {
  // A peer that goes away must give us EPIPE, not kill the process with SIGPIPE.
  static std::once_flag ignore_sigpipe;
  std::call_once(ignore_sigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });
  // A self-pipe lets close() wake the reader out of poll() from any thread.
  if (::pipe2(wake_, O_CLOEXEC) != 0) wake_[0] = wake_[1] = -1;
}

FdTransport::~FdTransport() {
  close();
  if (reader_.joinable()) {
    if (reader_.get_id() == std::this_thread::get_id()) reader_.detach();
    else reader_.join();
  }
  for (int fd : wake_) if (fd >= 0) ::close(fd);
}

Result<void> FdTransport::start(Callbacks cb) {
  if (reader_.joinable()) return fail(Error::internal("transport already started"));
  reader_ = std::thread([this, cb = std::move(cb)] { read_loop(cb); });
  return {};
}

Result<void> FdTransport::send(std::string frame, const SendInfo&) {
  frame.push_back('\n');
  std::lock_guard lock(write_mu_);
  if (closed_.load() || write_fd_ < 0) return fail(Error::connection_closed("transport closed"));
  std::string_view rest = frame;
  while (!rest.empty()) {
    ssize_t n = ::write(write_fd_, rest.data(), rest.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(Error::connection_closed(std::string("write failed: ") + std::strerror(errno)));
    }
    rest.remove_prefix(static_cast<std::size_t>(n));
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
    if (fds[1].revents) break;  // close() was called
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
