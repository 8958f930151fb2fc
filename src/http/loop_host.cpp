#include "http/loop_host.hpp"

namespace mcp::http {

namespace {
thread_local LoopHost::Here t_here{nullptr, 0};
}

void LoopHost::enter(std::size_t index) { t_here = Here{this, index}; }

const LoopHost::Here* LoopHost::here() { return t_here.host ? &t_here : nullptr; }

bool LoopHost::lend(const std::shared_ptr<LoopTenant>& tenant) {
  std::lock_guard lock(mu_);
  if (retired_) return false;
  // Those gone since are dropped on the way, so a host that outlives many tenants keeps none.
  std::erase_if(tenants_, [](const std::weak_ptr<LoopTenant>& t) { return t.expired(); });
  tenants_.push_back(tenant);
  return true;
}

void LoopHost::retire() {
  std::vector<std::weak_ptr<LoopTenant>> tenants;
  {
    std::lock_guard lock(mu_);
    if (retired_) return;
    retired_ = true;
    tenants.swap(tenants_);
  }
  // Outside the lock: a tenant's exchanges, ending, may call lend() (refused now).
  for (auto& weak : tenants)
    if (auto t = weak.lock()) t->evacuate(*this);
}

}  // namespace mcp::http
