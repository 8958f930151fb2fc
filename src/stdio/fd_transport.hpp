// Private: the Transport over a read descriptor and a write descriptor (see mcp/stdio/stdio.hpp).
#pragma once

#include <atomic>
#include <mutex>
#include <thread>

#include "mcp/stdio/stdio.hpp"

namespace mcp::detail {

class FdTransport : public Transport {
 public:
  FdTransport(int read_fd, int write_fd, FdTransportOptions options);
  ~FdTransport() override;

  Result<void> start(Callbacks callbacks) override;
  Result<void> send(std::string frame, const SendInfo& info) override;
  void close() override;
  // Closes only the write side (a child then sees end of input) and keeps reading.
  void close_write();

 private:
  void read_loop(const Callbacks& cb);

  int read_fd_;
  int write_fd_;
  FdTransportOptions opts_;
  int wake_[2] = {-1, -1};
  std::atomic<bool> closed_{false};
  std::atomic<bool> write_failed_{false};
  std::mutex write_mu_;
  std::thread reader_;
};

}  // namespace mcp::detail
