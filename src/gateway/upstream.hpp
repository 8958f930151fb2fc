// Private to the gateway: one running upstream. Starts it as its configuration says (a child
// process over stdio, or a Streamable HTTP session), connects a Client to it, and puts a Proxy
// (proxy.hpp: pins, quarantine, audit) in front of it; the Proxy's Server is what our clients reach.
//
// Thread-safety: server() and name() from any thread; close() once, from the owner.
#pragma once

#include <memory>
#include <mutex>

#include "gateway/config.hpp"
#include "gateway/proxy.hpp"
#include "gateway/state.hpp"
#include "mcp/transport/transport.hpp"

namespace mcp::gateway {

class Upstream {
 public:
  // `state_dir` is shown in errors that say how to approve an item; the served name is always
  // "mcp-trust-gateway/NAME". Errors: the upstream could not be started, did not initialize, or
  // its tools could not be listed.
  [[nodiscard]] static Result<std::unique_ptr<Upstream>> start(const UpstreamConfig& config, const State& state,
                                                                const std::string& state_dir,
                                                                ServerOptions server_options = {});
  ~Upstream();
  Upstream(const Upstream&) = delete;
  Upstream& operator=(const Upstream&) = delete;

  const UpstreamConfig& config() const { return config_; }
  std::shared_ptr<Server> server() const { return proxy_->server(); }
  // Ends the upstream session (a child gets its stdin closed, then signals).
  void close();

 private:
  // The Client's list_changed arrives on its reader thread, possibly before the Proxy exists: it
  // finds the Proxy here, under a lock.
  struct ProxySlot {
    std::mutex mutex;
    std::weak_ptr<Proxy> proxy;
  };
  explicit Upstream(UpstreamConfig config) : config_(std::move(config)) {}

  UpstreamConfig config_;
  std::shared_ptr<ProxySlot> slot_ = std::make_shared<ProxySlot>();
  std::shared_ptr<Client> client_;
  std::shared_ptr<Proxy> proxy_;
};

}  // namespace mcp::gateway
