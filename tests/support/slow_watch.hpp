// Two resources to subscribe to, for the tests that a watch slow for one URI holds up no other
// (the SDK server's hooks, the gateway's subscribes): `slow_uri`, whose watch hook blocks until
// release() (20 s at most), and `quick_uri`, watched at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include "mcp/server/server.hpp"

namespace mcp::test {

class SlowWatch {
 public:
  SlowWatch(const std::string& slow_uri, const std::string& quick_uri) : server_(std::make_shared<Server>()) {
    auto reader = [](const std::string& uri, RequestContext&) -> Result<ReadResourceResult> {
      ReadResourceResult r;
      r.contents.push_back(TextResourceContents{.uri = uri, .text = "x"});
      return r;
    };
    server_->add_resource(Resource{.uri = slow_uri, .name = "slow"}, reader,
                          ResourceTree{.watch = [this](const std::string&, bool on) -> Result<void> {
                            if (!on) return {};
                            std::unique_lock lock(mu_);
                            entered_ = true;
                            cv_.notify_all();
                            cv_.wait_for(lock, std::chrono::seconds(20), [&] { return released_; });
                            return {};
                          }});
    server_->add_resource(Resource{.uri = quick_uri, .name = "quick"}, reader,
                          ResourceTree{.watch = [](const std::string&, bool) -> Result<void> { return {}; }});
  }
  ~SlowWatch() { release(); }

  const std::shared_ptr<Server>& server() const { return server_; }
  // Whether the slow hook was entered within `bound`.
  bool entered_within(std::chrono::seconds bound) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, bound, [&] { return entered_; });
  }
  void release() {
    {
      std::lock_guard lock(mu_);
      released_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::shared_ptr<Server> server_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool entered_ = false, released_ = false;
};

}  // namespace mcp::test
