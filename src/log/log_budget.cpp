#include "log/log_budget.hpp"

#include <algorithm>
#include <utility>

namespace mcp::detail {

std::optional<std::uint64_t> LogBudget::take(std::chrono::steady_clock::time_point now) {
  std::lock_guard lock(mu_);
  if (last_ != std::chrono::steady_clock::time_point{}) {
    const double seconds = std::chrono::duration<double>(now - last_).count();
    tokens_ = std::min(burst_, tokens_ + std::max(0.0, seconds) * per_second_);
  }
  last_ = now;
  if (tokens_ < 1) {
    ++dropped_;
    ++dropped_since_;
    return std::nullopt;
  }
  tokens_ -= 1;
  return std::exchange(dropped_since_, 0);
}

std::uint64_t LogBudget::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

std::string dropped_note(std::uint64_t dropped) {
  return dropped == 0 ? std::string()
                      : " (" + std::to_string(dropped) + " similar lines dropped: more than the log takes)";
}

}  // namespace mcp::detail
