// Private to the gateway: one running upstream. Starts it as its configuration says (a child
// process over stdio, or a Streamable HTTP session), connects a Client to it, and puts a Proxy
// (proxy.hpp: pins, quarantine, audit) in front of it; the Proxy's Server is what our clients reach.
//
// Keeps it running: when the upstream's connection ends (the child exits or crashes, the HTTP
// session is lost), the calls in flight fail with an error naming the upstream and why, and a
// restarter thread starts it again after a backoff (0.5 s doubling to 30 s, back to 0.5 s once it
// has stayed up 30 s), then re-lists it through the Proxy, whose Server and sessions stay. Each exit
// and restart is in the audit log. A hung upstream: each request to it times out after
// UpstreamConfig::timeout (the error says so), and the upstream is asked to cancel it.
//
// Held to its own word when configured: its capability signature (signatureMode; with cardKey, the
// one its server card carries under a verified proof, fetched before each connection) and its
// signed tools/manifest (manifestKey) are checked by the SDK's client stages in the configured
// mode, and every violation is in the audit log.
//
// What its client says of itself: sampling and elicitation (bridged, bridge.hpp), the configured
// roots, and the configured log level, its messages going to the gateway's log (upstream_log.hpp).
//
// Thread-safety: server(), restarts(), status() and config() from any thread; close() once, from the owner.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "gateway/config.hpp"
#include "gateway/proxy.hpp"
#include "gateway/state.hpp"
#include "mcp/transport/transport.hpp"

namespace mcp::gateway {

class Upstream {
 public:
  // `state_dir` is shown in errors that say how to approve an item; the served name is always
  // "mcp-trust-gateway/NAME". With state.key, tools/manifest is signed; `in_server_card`: the
  // signature is also served in a card (the Gateway serves it). Errors: the upstream could not be
  // started, did not initialize, or could not be listed; the configured signature or profiles are
  // invalid.
  [[nodiscard]] static Result<std::unique_ptr<Upstream>> start(const UpstreamConfig& config, const State& state,
                                                                const std::string& state_dir,
                                                                std::shared_ptr<Metrics> metrics = nullptr,
                                                                bool in_server_card = false,
                                                                ServerOptions server_options = {});
  ~Upstream();
  Upstream(const Upstream&) = delete;
  Upstream& operator=(const Upstream&) = delete;

  const UpstreamConfig& config() const { return config_; }
  std::shared_ptr<Server> server() const { return proxy_->server(); }
  std::shared_ptr<Proxy> proxy() const { return proxy_; }
  // How many times the upstream was started again after its connection ended.
  int restarts() const { return restarts_.load(); }
  // "connected", or "restarting: WHY" while its connection is down.
  std::string status() const;
  // Stops restarting and ends the upstream session (a child gets its stdin closed, then signals).
  void close();

 private:
  // The Client's list_changed and close arrive on its reader thread, possibly before the Proxy
  // exists: they find what they need here, under a lock.
  struct Shared {
    std::mutex mutex;
    std::condition_variable_any cv;  // with the restarter's stop_token
    std::weak_ptr<Proxy> proxy;
    std::uint64_t generation = 0;  // of the current client; a close of an older one is ignored
    bool down = false;             // the current client's connection ended
    std::string why;               // how it ended
    bool closing = false;
    std::shared_ptr<Client> connecting;  // the client being connected, for close() to end it
  };
  Upstream(UpstreamConfig config, std::shared_ptr<AuditLog> audit) : config_(std::move(config)), audit_(std::move(audit)) {}
  Result<std::shared_ptr<Client>> connect(std::uint64_t generation);
  // The signature of the upstream's server card, fetched now, whose proof verifies with cardKey.
  Result<ServerSignature> verified_card() const;
  void restart_loop(std::stop_token stop);

  UpstreamConfig config_;
  std::shared_ptr<AuditLog> audit_;
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
  std::shared_ptr<Proxy> proxy_;
  std::atomic<int> restarts_{0};
  std::jthread restarter_;  // last: stopped and joined first
};

}  // namespace mcp::gateway
