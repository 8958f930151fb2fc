#include "gateway/gateway.hpp"

namespace mcp::gateway {

std::string upstream_path(const std::string& name) { return "/servers/" + name + "/mcp"; }

Result<std::unique_ptr<Gateway>> Gateway::start(const GatewayConfig& config, State state, GatewayOptions options,
                                                std::vector<std::string>& problems) {
  std::unique_ptr<Gateway> g(new Gateway());
  g->state_ = std::move(state);
  for (const auto& c : config.upstreams) {
    auto u = Upstream::start(c, g->state_, options.state_dir);
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
  g->http_ = std::make_unique<http::HttpServer>(g->upstreams_.front()->server(), std::move(http_options));
  if (auto ok = g->http_->start(); !ok) return fail(ok.error());
  return g;
}

Gateway::~Gateway() { stop(); }

void Gateway::stop() {
  if (http_) http_->stop();
  for (auto& u : upstreams_) u->close();
}

}  // namespace mcp::gateway
