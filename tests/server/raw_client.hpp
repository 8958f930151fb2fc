// A raw client for the server tests: the bare session engine over the in-memory transport, so
// every byte of a request's _meta is the test's choice (stateless requests, odd capabilities).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mcp/protocol/stateless.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"

namespace mcp::test {

// The client side: a bare session engine, so every byte of _meta is the test's choice.
struct RawClient : Session::Handler {
  std::shared_ptr<Server> server;
  std::shared_ptr<Session> session;
  std::shared_ptr<ServerSession> server_session;
  std::mutex mu;
  std::vector<jsonrpc::Notification> notifications;
  std::condition_variable arrived;

  explicit RawClient(std::shared_ptr<Server> s) : server(std::move(s)) {
    auto [a, b] = make_memory_transport_pair();
    auto connected = server->connect(a);
    EXPECT_TRUE(connected);
    if (connected) server_session = *connected;
    session = Session::create(b, *this, {});
    EXPECT_TRUE(session->start());
  }
  ~RawClient() override { session->shutdown(); }

  void handle_notification(const jsonrpc::Notification& n) override {
    {
      std::lock_guard lock(mu);
      notifications.push_back(n);
    }
    arrived.notify_all();
  }
  // Waits (bounded) until `n` notifications have arrived; false on timeout.
  bool wait_for_notifications(std::size_t n, std::chrono::seconds timeout = std::chrono::seconds(5)) {
    std::unique_lock lock(mu);
    return arrived.wait_for(lock, timeout, [&] { return notifications.size() >= n; });
  }
  jsonrpc::Notification notification(std::size_t i) {
    std::lock_guard lock(mu);
    return notifications.at(i);
  }
  std::size_t notification_count() {
    std::lock_guard lock(mu);
    return notifications.size();
  }

  Result<json::value> call(std::string_view method, json::object params) {
    return session->request(method, std::move(params));
  }
};

inline json::object stateless_meta(json::object capabilities = {}, std::string version = "2026-07-28") {
  return json::object{{meta_key::kProtocolVersion, version},
                      {meta_key::kClientCapabilities, std::move(capabilities)},
                      {meta_key::kClientInfo, json::object{{"name", "raw"}, {"version", "1"}}}};
}

inline json::object params_with(json::object meta, json::object params = {}) {
  params["_meta"] = std::move(meta);
  return params;
}

}  // namespace mcp::test
