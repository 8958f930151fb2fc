// Private to the gateway: the running gateway of a configuration file. Starts every upstream
// (upstream.hpp) and serves each at /servers/NAME/mcp, and all of them together at /mcp
// (aggregate.hpp), of one HttpServer, Streamable HTTP in both
// revisions (2025-11-25 sessions, 2026-07-28 stateless requests), with the HttpServer's bounds on
// connections, sessions, bodies and streams.
//
// An upstream that cannot be started is reported and left out; the others are served (a gateway
// with none is an error). /metrics serves the Prometheus metrics (metrics.hpp). Each upstream's
// server card (its signature, with a proof under the gateway's key when state.key is set) and its
// profiles are at well_known_path().
//
// The audit log is pruned as the configuration's gateway.audit says (audit_retention.hpp), if it
// says anything.
//
// Thread-safety: start(), reload() and stop() from one thread.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "gateway/aggregate.hpp"
#include "gateway/config.hpp"
#include "gateway/metrics.hpp"
#include "gateway/review_page.hpp"
#include "gateway/state.hpp"
#include "gateway/upstream.hpp"
#include "mcp/http/server.hpp"

namespace mcp::gateway {

// Where every upstream's items are served together (aggregate.hpp), and where each one is.
inline constexpr std::string_view kAggregatePath = "/mcp";
std::string upstream_path(const std::string& name);  // "/servers/NAME/mcp"
// Where its well-known `document` (kServerCardPath, kProfilesPath) is: "DOCUMENT/servers/NAME/mcp".
std::string well_known_path(std::string_view document, const std::string& name);

struct GatewayOptions {
  std::string state_dir;
  http::HttpServerOptions http{};  // host and port from the configuration's listen or --listen
  // Who may use the review page at /ui (review_access.hpp); unset: no page.
  std::optional<ReviewAccess> review{};
};

// What a reload did, by upstream name.
struct ReloadOutcome {
  std::vector<std::string> kept;     // unchanged: still running, their sessions too
  std::vector<std::string> started;  // new or changed, now served
  std::vector<std::string> stopped;  // removed or changed: their sessions ended
  std::vector<std::string> problems;  // one line per upstream that could not be started, and more
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
  // The names of the upstreams served now (after a reload: those kept, then those started).
  std::vector<std::string> upstream_names() const;
  // Applies a new configuration (SIGHUP): an upstream whose entries (in mcpServers and in
  // gateway.servers) are unchanged keeps running, and its clients' sessions with it; a changed one
  // is started anew and, once it runs, replaces the old one (whose sessions end; if it does not
  // start, the old one keeps running); a removed one is stopped; a new one started. The listen
  // address, the number of I/O threads and the review page are not changed (a problem says so).
  // Audited as a "config" record. From the owner's thread.
  ReloadOutcome reload(const GatewayConfig& config);
  void stop();

 private:
  Gateway() = default;
  std::string metrics_text() const;
  // What the review page shows of the upstreams, and what it tells them.
  json::array upstream_states() const;
  void decided(const std::string& server);
  // Starts serving an upstream at its path, its card and profiles at theirs, and in /mcp.
  Result<void> serve(std::unique_ptr<Upstream> upstream);
  // Stops serving it (its sessions end) and closes it.
  void retire(std::unique_ptr<Upstream> upstream);
  // The audit log pruned as gateway.audit says (audit_retention.hpp), from start and each reload.
  void retain(const RetentionPolicy& policy);

  State state_;
  std::string state_dir_;
  std::optional<std::string> listen_;  // as the configuration said it
  std::optional<std::size_t> io_threads_;  // likewise
  ReviewConfig ui_;                    // likewise (a reload does not re-apply it)
  std::shared_ptr<AuditRetention> retention_;  // null: the audit log is pruned only by a person
  std::shared_ptr<Metrics> metrics_ = std::make_shared<Metrics>();
  mutable std::mutex upstreams_mu_;  // /metrics reads the list (and retention_) while a reload changes it
  std::vector<std::unique_ptr<Upstream>> upstreams_;
  std::shared_ptr<Aggregate> aggregate_;
  std::shared_ptr<ReviewPage> review_;
  std::unique_ptr<http::HttpServer> http_;  // after the upstreams: stopped before they close
};

}  // namespace mcp::gateway
