// Private to the client: counts one asynchronous operation of a Client::Impl from its start until
// its last callback has returned. ~Client and Client::shutdown() wait for the count to reach zero,
// so no callback ever runs on a freed Impl.
#pragma once

#include <mutex>

namespace mcp {

template <class Impl>
struct AsyncCall {
  Impl* impl;
  explicit AsyncCall(Impl* i) : impl(i) {
    std::lock_guard lock(impl->async_mu);
    ++impl->async_jobs;
  }
  ~AsyncCall() {
    std::lock_guard lock(impl->async_mu);
    --impl->async_jobs;
    impl->async_cv.notify_all();
  }
  AsyncCall(const AsyncCall&) = delete;
  AsyncCall& operator=(const AsyncCall&) = delete;
};

}  // namespace mcp
