#include "gateway/gateway.hpp"

#include <algorithm>

#include "http/profiles_route.hpp"
#include "mcp/http/server_card.hpp"
#include "mcp/protocol/profiles.hpp"

namespace mcp::gateway {

std::string upstream_path(const std::string& name) { return "/servers/" + name + "/mcp"; }

std::string well_known_path(std::string_view document, const std::string& name) {
  return std::string(document) + upstream_path(name);
}

Result<std::unique_ptr<Gateway>> Gateway::start(const GatewayConfig& config, State state, GatewayOptions options,
                                                std::vector<std::string>& problems) {
  std::unique_ptr<Gateway> g(new Gateway());
  g->state_ = std::move(state);
  g->state_dir_ = options.state_dir;
  // Call records go through a journal, off the calls' path (call_journal.hpp).
  if (auto j = g->state_.audit->start_journal(); !j) return fail(j.error());
  g->listen_ = config.listen;
  g->io_threads_ = config.io_threads;
  g->ui_ = config.ui;
  g->retain(config.audit);
  std::vector<std::unique_ptr<Upstream>> started;
  for (const auto& c : config.upstreams) {
    auto u = Upstream::start(c, g->state_, g->state_dir_, g->metrics_, /*in_server_card=*/true);
    if (!u) {
      problems.push_back(u.error().message);
      continue;
    }
    started.push_back(std::move(*u));
  }
  if (started.empty()) return fail(Error::internal("gateway: no upstream could be started"));
  // The main path is the aggregate's; each upstream is an endpoint added to it, as a reload adds one.
  g->aggregate_ = Aggregate::make(g->state_.key, g->state_.audit, g->metrics_);
  auto http_options = std::move(options.http);
  http_options.path = std::string(kAggregatePath);
  if (config.io_threads) http_options.io_threads = *config.io_threads;
  // The gateway outlives its HttpServer (declared after the upstreams, stopped first).
  http_options.routes.emplace("/metrics", [raw = g.get()](const http::PlainRequest&) {
    return http::PlainResponse{200, {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"}}, raw->metrics_text()};
  });
  // /mcp's card at its own well-known URL, as each upstream's is at its (serve()); not at the
  // origin's, where a client looking for an upstream's card that has none would take it.
  http::ServerCardOptions card;
  card.key = g->state_.key;
  http_options.routes.emplace(std::string(kServerCardPath) + std::string(kAggregatePath),
                              http::server_card_route(g->aggregate_->server(), card));
  if (options.review) {
    ReviewSource source;
    source.upstreams = [raw = g.get()] { return raw->upstream_states(); };
    source.decided = [raw = g.get()](const std::string& server) { raw->decided(server); };
    g->review_ = ReviewPage::make(g->state_, std::move(*options.review), std::move(source));
    http_options.routes.merge(g->review_->routes());
  }
  g->http_ = std::make_unique<http::HttpServer>(g->aggregate_->server(), std::move(http_options));
  if (auto ok = g->http_->start(); !ok) return fail(ok.error());
  for (auto& u : started) {
    if (auto ok = g->serve(std::move(u)); !ok) return fail(ok.error());
  }
  return g;
}

Result<void> Gateway::serve(std::unique_ptr<Upstream> upstream) {
  const std::string& name = upstream->config().name;
  // Its card and profiles at its own well-known URL (the document's path followed by the
  // endpoint's, as RFC 9728 places a resource's metadata). The origin has none, so no client
  // takes one upstream's for another's.
  http::ServerCardOptions card;
  card.key = state_.key;
  std::map<std::string, http::RouteHandler> routes{
      {well_known_path(kServerCardPath, name), http::server_card_route(upstream->server(), card)},
      {well_known_path(kProfilesPath, name), http::profiles_route(upstream->server())}};
  if (auto ok = http_->add_endpoint(upstream_path(name), upstream->server(), std::move(routes)); !ok) {
    upstream->close();
    return fail(ok.error());
  }
  aggregate_->add(upstream->proxy());
  std::lock_guard lock(upstreams_mu_);
  upstreams_.push_back(std::move(upstream));
  return {};
}

void Gateway::retire(std::unique_ptr<Upstream> upstream) {
  const std::string& name = upstream->config().name;
  http_->remove_endpoint(upstream_path(name), {well_known_path(kServerCardPath, name), well_known_path(kProfilesPath, name)});
  // Closed before it leaves /mcp: a re-listing stuck on a hung upstream then fails at once instead
  // of holding the proxy (and this reload) for the upstream's timeout.
  upstream->close();
  aggregate_->remove(*upstream->proxy());
}

ReloadOutcome Gateway::reload(const GatewayConfig& config) {
  ReloadOutcome out;
  if (config.listen != listen_) out.problems.push_back("gateway.listen changed: restart the gateway to listen elsewhere");
  if (config.io_threads != io_threads_) {
    out.problems.push_back("gateway.ioThreads changed: restart the gateway to run another number of I/O threads");
  }
  if (config.ui != ui_) out.problems.push_back("gateway.ui changed: restart the gateway to apply it to the review page");
  retain(config.audit);
  std::vector<std::unique_ptr<Upstream>> running;
  {
    std::lock_guard lock(upstreams_mu_);
    running = std::move(upstreams_);
    upstreams_.clear();
  }
  auto keep = [&](std::unique_ptr<Upstream> u) {
    out.kept.push_back(u->config().name);
    std::lock_guard lock(upstreams_mu_);
    upstreams_.push_back(std::move(u));
  };
  for (const auto& c : config.upstreams) {
    auto it = std::find_if(running.begin(), running.end(), [&](const auto& u) { return u && u->config().name == c.name; });
    std::unique_ptr<Upstream> old = it != running.end() ? std::move(*it) : nullptr;
    if (old && old->config().fingerprint == c.fingerprint) {
      keep(std::move(old));
      continue;
    }
    // New or changed: started first, so a changed upstream whose new entry does not start keeps
    // running as it was (and a typo does not take it down).
    auto u = Upstream::start(c, state_, state_dir_, metrics_, /*in_server_card=*/true);
    if (!u) {
      out.problems.push_back(u.error().message + (old ? " (the running one is kept)" : ""));
      if (old) keep(std::move(old));
      continue;
    }
    if (old) {
      out.stopped.push_back(c.name);
      retire(std::move(old));  // its path is then free for its successor
    }
    if (auto served = serve(std::move(*u)); !served) {
      out.problems.push_back(served.error().message);
      continue;
    }
    out.started.push_back(c.name);
  }
  for (auto& u : running) {
    if (!u) continue;
    out.stopped.push_back(u->config().name);
    retire(std::move(u));
  }
  auto names = [](const std::vector<std::string>& v) {
    json::array a;
    for (const auto& n : v) a.emplace_back(n);
    return a;
  };
  (void)state_.audit->append("config",
                             json::object{{"event", "reload"}, {"kept", names(out.kept)}, {"started", names(out.started)},
                                          {"stopped", names(out.stopped)}, {"problems", out.problems.size()}},
                             Db::Durability::power_loss);
  return out;
}

std::vector<std::string> Gateway::upstream_names() const {
  std::lock_guard lock(upstreams_mu_);
  std::vector<std::string> out;
  for (const auto& u : upstreams_) out.push_back(u->config().name);
  return out;
}

std::string Gateway::metrics_text() const {
  std::vector<Metrics::UpstreamGauges> gauges;
  {
    std::lock_guard lock(upstreams_mu_);
    for (const auto& u : upstreams_) gauges.push_back(Metrics::UpstreamGauges{u->config().name, 0, u->restarts()});
  }
  for (auto& g : gauges) {
    if (auto blocked = state_.pins->count_blocked(g.upstream)) g.quarantined = *blocked;
  }
  std::string text = metrics_->render(gauges);
  std::shared_ptr<const AuditRetention> retention;
  {
    std::lock_guard lock(upstreams_mu_);
    retention = retention_;
  }
  if (retention) {
    // Only with a retention: a gateway without one prunes nothing and checks the chain nowhere.
    text +=
        "# HELP mcp_gateway_audit_pruned_records_total Audit records the gateway's retention pruned (gateway.audit).\n"
        "# TYPE mcp_gateway_audit_pruned_records_total counter\n"
        "mcp_gateway_audit_pruned_records_total " +
        std::to_string(retention->pruned_total()) +
        "\n"
        "# HELP mcp_gateway_audit_chain_broken 1 when the retention's last check found the audit chain broken.\n"
        "# TYPE mcp_gateway_audit_chain_broken gauge\n"
        "mcp_gateway_audit_chain_broken " +
        std::string(retention->chain_broken() ? "1" : "0") + "\n";
  }
  return text;
}

json::array Gateway::upstream_states() const {
  std::lock_guard lock(upstreams_mu_);
  json::array out;
  for (const auto& u : upstreams_) {
    out.push_back(json::object{{"name", u->config().name}, {"status", u->status()}, {"restarts", u->restarts()},
                               {"path", upstream_path(u->config().name)}});
  }
  return out;
}

void Gateway::decided(const std::string& server) {
  std::lock_guard lock(upstreams_mu_);
  for (const auto& u : upstreams_) {
    // It lists again: what its clients may see changed, and they are told so.
    if (u->config().name == server) u->proxy()->refresh_later();
  }
}

Gateway::~Gateway() { stop(); }

void Gateway::retain(const RetentionPolicy& policy) {
  std::shared_ptr<AuditRetention> gone;  // stopped outside the lock: /metrics does not wait for a pass
  std::lock_guard lock(upstreams_mu_);
  if (!policy.any()) {
    gone = std::move(retention_);
  } else if (retention_) {
    if (retention_->policy() != policy) retention_->set_policy(policy);
  } else {
    retention_ = AuditRetention::start(state_.audit, policy);
  }
}

void Gateway::stop() {
  retain(RetentionPolicy{});  // no prune while the last calls are recorded
  if (http_) http_->stop();
  std::lock_guard lock(upstreams_mu_);
  for (auto& u : upstreams_) u->close();
}

}  // namespace mcp::gateway
