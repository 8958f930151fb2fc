// Private to the gateway: the running gateway of a configuration file. Starts every upstream
// (upstream.hpp) and serves each at /servers/NAME/mcp of one HttpServer, Streamable HTTP in both
// revisions (2025-11-25 sessions, 2026-07-28 stateless requests), with the HttpServer's bounds on
// connections, sessions, bodies and streams.
//
// An upstream that cannot be started is reported and left out; the others are served (a gateway
// with none is an error). /metrics serves the Prometheus metrics (metrics.hpp).
//
// Thread-safety: start() and stop() from one thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gateway/config.hpp"
#include "gateway/metrics.hpp"
#include "gateway/state.hpp"
#include "gateway/upstream.hpp"
#include "mcp/http/server.hpp"

namespace mcp::gateway {

// Where an upstream is served.
std::string upstream_path(const std::string& name);  // "/servers/NAME/mcp"

struct GatewayOptions {
  std::string state_dir;
  http::HttpServerOptions http{};  // host and port from the configuration's listen or --listen
};

class Gateway {
 public:
  // `problems` receives one line per upstream left out.
  [[nodiscard]] static Result<std::unique_ptr<Gateway>> start(const GatewayConfig& config, State state,
                                                               GatewayOptions options,
                                                               std::vector<std::string>& problems);
  ~Gateway();

  unsigned short port() const { return http_->port(); }
  http::HttpServer& http() { return *http_; }
  const std::vector<std::unique_ptr<Upstream>>& upstreams() const { return upstreams_; }
  void stop();

 private:
  Gateway() = default;
  std::string metrics_text() const;

  State state_;
  std::shared_ptr<Metrics> metrics_ = std::make_shared<Metrics>();
  std::vector<std::unique_ptr<Upstream>> upstreams_;
  std::unique_ptr<http::HttpServer> http_;  // after the upstreams: stopped before they close
};

}  // namespace mcp::gateway
