// Helpers shared by the server tests: a minimal tool definition, a server and our client connected
// in memory, the text of a result, the threads asynchronous handlers start.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mcp/client/client.hpp"
#include "mcp/protocol/tool.hpp"
#include "mcp/server/server.hpp"
#include "mcp/transport/memory.hpp"

namespace mcp::test {

inline Tool make_tool(std::string name) {
  Tool t;
  t.name = std::move(name);
  t.description = "test tool";
  return t;
}

// Client options for a test of a 2025-11-25 session (initialize, the session's own requests to
// the client, subscriptions, setLevel): the client otherwise speaks 2026-07-28 to our server.
inline ClientOptions handshake(ClientOptions co = {}) {
  co.protocol_version = "2025-11-25";
  return co;
}

// A server and our client, connected through the in-memory transport and initialized.
struct Connected {
  std::shared_ptr<Server> server;
  std::shared_ptr<ServerSession> session;
  std::unique_ptr<Client> client;

  explicit Connected(std::shared_ptr<Server> s, ClientOptions co = {}) : server(std::move(s)) {
    co.session.request_timeout = std::chrono::seconds(10);
    client = std::make_unique<Client>(std::move(co));
    auto [a, b] = make_memory_transport_pair();
    auto connected = server->connect(a);
    EXPECT_TRUE(connected);
    if (connected) session = *connected;
    auto init = client->connect(b);
    EXPECT_TRUE(init) << init.error().message;
  }
  ~Connected() {
    client.reset();
    if (session) session->close();
  }
};

// The text of a result's first block ("" if it has none).
inline std::string text_of(const CallToolResult& r) {
  if (r.content.empty()) return "";
  const auto* t = std::get_if<TextContent>(&r.content.front());
  return t ? t->text : "";
}

// Threads the handlers start for their work. Each is recorded under the lock it was started
// under, so once a client has the answer a thread gave, that thread is here to join.
class Workers {
 public:
  ~Workers() { join(); }
  template <class F>
  void start(F work) {
    std::lock_guard l(mu_);
    threads_.emplace_back(std::move(work));
  }
  void join() {
    std::vector<std::thread> threads;
    {
      std::lock_guard l(mu_);
      threads.swap(threads_);
    }
    for (auto& t : threads) t.join();
  }

 private:
  std::mutex mu_;
  std::vector<std::thread> threads_;
};

}  // namespace mcp::test
