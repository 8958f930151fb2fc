// Private: a budget for log lines a peer can make us write over and over, such as a warning for
// each item of a list it sends again every second (and, in the gateway's pin store, for the audit
// records its changed definitions would write). A token bucket: `burst` lines at once, then
// `per_second`. A dropped line is counted, and the next line written says how many went.
//
// Thread-safety: all members are thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "log/log.hpp"

namespace mcp::detail {

class LogBudget {
 public:
  LogBudget(double burst, double per_second) : burst_(burst), per_second_(per_second), tokens_(burst) {}
  // The budget of a warning written once per item a peer lists (it chooses how many, and how
  // often it lists them again): 20 at once, then one a second.
  LogBudget() : LogBudget(20, 1) {}

  // Whether a line may be written now: the number of lines dropped since the last one written,
  // or nothing when this one is dropped too.
  std::optional<std::uint64_t> take(std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
  std::uint64_t dropped() const;  // in all

 private:
  const double burst_;
  const double per_second_;
  mutable std::mutex mu_;
  double tokens_;
  std::chrono::steady_clock::time_point last_{};
  std::uint64_t dropped_ = 0;
  std::uint64_t dropped_since_ = 0;
};

// " (N similar lines dropped)", or nothing when none was.
std::string dropped_note(std::uint64_t dropped);

}  // namespace mcp::detail

// MCP_LOG_WARN, within `budget` (a LogBudget). FMT is a string literal; the line ends by saying
// how many lines the budget dropped before it.
#define MCP_LOG_WARN_WITHIN(BUDGET, FMT, ...)                                        \
  do {                                                                               \
    if (auto mcp_taken_ = (BUDGET).take())                                           \
      MCP_LOG_WARN(FMT "{}", __VA_ARGS__, ::mcp::detail::dropped_note(*mcp_taken_)); \
  } while (0)
#define MCP_LOG_ERROR_WITHIN(BUDGET, FMT, ...)                                        \
  do {                                                                                \
    if (auto mcp_taken_ = (BUDGET).take())                                            \
      MCP_LOG_ERROR(FMT "{}", __VA_ARGS__, ::mcp::detail::dropped_note(*mcp_taken_)); \
  } while (0)
