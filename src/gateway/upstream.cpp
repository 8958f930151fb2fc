#include "gateway/upstream.hpp"

#include <iostream>

#include "mcp/http/client_transport.hpp"
#include "mcp/stdio/child_process.hpp"

namespace mcp::gateway {

namespace {

Result<std::shared_ptr<Transport>> open_transport(const UpstreamConfig& c) {
  if (!c.is_stdio()) {
    http::HttpClientOptions ho;
    ho.url = c.url;
    ho.headers = c.headers;
    auto t = http::HttpClientTransport::create(std::move(ho));
    if (!t) return fail(t.error());
    return std::shared_ptr<Transport>(*t);
  }
  ChildProcessOptions cp;
  cp.program = c.command;
  cp.args = c.args;
  cp.env = c.env;
  cp.cwd = c.cwd;
  // The upstream's stderr is the gateway's, each line naming the upstream it came from.
  cp.on_stderr = [prefix = "[" + c.name + "] "](const std::string& line) { std::cerr << prefix + line + "\n"; };
  auto t = ChildProcessTransport::spawn(std::move(cp));
  if (!t) return fail(t.error());
  return std::shared_ptr<Transport>(*t);
}

}  // namespace

Result<std::unique_ptr<Upstream>> Upstream::start(const UpstreamConfig& config, const State& state,
                                                  const std::string& state_dir, ServerOptions server_options) {
  std::unique_ptr<Upstream> u(new Upstream(config));
  ClientOptions co;
  co.info.name = "mcp-trust-gateway";
  co.on_list_changed = [slot = u->slot_](const std::string&) {
    std::shared_ptr<Proxy> p;
    {
      std::lock_guard lock(slot->mutex);
      p = slot->proxy.lock();
    }
    if (p) p->refresh_later();
  };
  u->client_ = std::make_shared<Client>(co);
  auto transport = open_transport(config);
  if (!transport) return fail(Error::internal(config.name + ": cannot start the upstream: " + transport.error().message));
  if (auto init = u->client_->connect(*transport); !init) {
    u->client_->close();
    return fail(Error::internal(config.name + ": the upstream did not initialize: " + init.error().message));
  }
  ProxyOptions po;
  po.name = config.name;
  po.new_items = config.new_items;
  po.state_dir = state_dir;
  server_options.info.name = "mcp-trust-gateway/" + config.name;
  auto proxy = Proxy::start(u->client_, state.pins, state.audit, std::move(po), std::move(server_options));
  if (!proxy) {
    u->client_->close();
    return fail(Error::internal(config.name + ": " + proxy.error().message));
  }
  u->proxy_ = *proxy;
  {
    std::lock_guard lock(u->slot_->mutex);
    u->slot_->proxy = u->proxy_;
  }
  return u;
}

Upstream::~Upstream() { close(); }

void Upstream::close() {
  if (client_) client_->close();
}

}  // namespace mcp::gateway
