// Proxy::watch for a test that waits for its answer (10 s at most).
#pragma once

#include <chrono>
#include <future>
#include <memory>
#include <string>

#include "gateway/proxy.hpp"

namespace mcp::test {

inline Result<void> watch_now(gateway::Proxy& proxy, const std::string& uri, bool on) {
  // Shared with the callback: an answer that comes after the wait gave up finds it still there.
  auto answered = std::make_shared<std::promise<Result<void>>>();
  auto future = answered->get_future();
  proxy.watch(uri, on, [answered](Result<void> r) { answered->set_value(std::move(r)); });
  if (future.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    return fail(Error::internal("Proxy::watch did not answer within 10 s"));
  }
  return future.get();
}

}  // namespace mcp::test
