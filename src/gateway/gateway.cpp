#include "gateway/gateway.hpp"

namespace mcp::gateway {

std::string upstream_path(const std::string& name) { return "/servers/" + name + "/mcp"; }

Result<std::unique_ptr<Gateway>> Gateway::start(const GatewayConfig& config, State state, GatewayOptions options,
                                                std::vector<std::string>& problems) {
  std::unique_ptr<Gateway> g(new Gateway());
  g->state_ = std::move(state);
  for (const auto& c : config.upstreams) {
    auto u = Upstream::start(c, g->state_, options.state_dir, g->metrics_);
    if (!u) {
      problems.push_back(u.error().message);
      continue;
    }
    g->upstreams_.push_back(std::move(*u));
  }
  if (g->upstreams_.empty()) return fail(Error::internal("gateway: no upstream could be started"));
  // The main path of the HttpServer is the first upstream's; the others are more endpoints.
  auto http_options = std::move(options.http);
  http_options.path = upstream_path(g->upstreams_.front()->config().name);
  for (std::size_t i = 1; i < g->upstreams_.size(); ++i) {
    http_options.more_endpoints[upstream_path(g->upstreams_[i]->config().name)] = g->upstreams_[i]->server();
  }
  // The gateway outlives its HttpServer (declared after the upstreams, stopped first).
  http_options.routes.emplace("/metrics", [raw = g.get()](const http::PlainRequest&) {
    return http::PlainResponse{200, {{"Content-Type", "text/plain; version=0.0.4; charset=utf-8"}}, raw->metrics_text()};
  });
  g->http_ = std::make_unique<http::HttpServer>(g->upstreams_.front()->server(), std::move(http_options));
  if (auto ok = g->http_->start(); !ok) return fail(ok.error());
  return g;
}

std::string Gateway::metrics_text() const {
  std::vector<Metrics::UpstreamGauges> gauges;
  for (const auto& u : upstreams_) {
    Metrics::UpstreamGauges g{u->config().name, 0, u->restarts()};
    if (auto blocked = state_.pins->count_blocked(u->config().name)) g.quarantined = *blocked;
    gauges.push_back(std::move(g));
  }
  return metrics_->render(gauges);
}

Gateway::~Gateway() { stop(); }

void Gateway::stop() {
  if (http_) http_->stop();
  for (auto& u : upstreams_) u->close();
}

}  // namespace mcp::gateway
