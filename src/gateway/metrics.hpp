// Private to the gateway: its Prometheus metrics, served at /metrics in the text exposition format
// (version 0.0.4):
//   mcp_gateway_requests_total{upstream,method,outcome}            counter (refused ones too)
//   mcp_gateway_request_duration_seconds{upstream,method}          histogram, the upstream's time
//   mcp_gateway_quarantined_items{upstream}                        gauge (read from the pins at scrape)
//   mcp_gateway_upstream_restarts_total{upstream}                  counter
// and, with a retention (gateway.audit), the gateway's own mcp_gateway_audit_pruned_records_total
// (counter) and mcp_gateway_audit_chain_broken (gauge).
// Labels are bounded by construction: upstream names come from the configuration, methods and
// outcomes from fixed sets; no label carries an item name an upstream chose.
//
// Thread-safety: all members are thread-safe.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace mcp::gateway {

class Metrics {
 public:
  // One forwarded request: `outcome` is "ok", "tool-error" or "error".
  void observe(std::string_view upstream, std::string_view method, std::string_view outcome,
               std::chrono::microseconds duration);
  // One request counted, not timed: one the gateway refused itself (outcome "refused"; `upstream`
  // is "/mcp" for a name no upstream serves there).
  void count(std::string_view upstream, std::string_view method, std::string_view outcome);

  // Per-upstream values read at scrape time.
  struct UpstreamGauges {
    std::string upstream;
    std::int64_t quarantined = 0;
    std::int64_t restarts = 0;
  };
  std::string render(const std::vector<UpstreamGauges>& gauges) const;

  static constexpr std::array<double, 14> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                      0.1,    0.25,  0.5,    1,     2.5,  5,     10};

 private:
  struct Histogram {
    std::array<std::uint64_t, kBuckets.size()> counts{};  // per bucket, not cumulative
    std::uint64_t count = 0;
    double sum = 0;
  };
  mutable std::mutex mu_;
  void count_locked(std::string_view upstream, std::string_view method, std::string_view outcome);
  // Transparent (std::less<>): observe() finds a series by views of its labels, and copies them
  // only for a new series, not on every call.
  std::map<std::tuple<std::string, std::string, std::string>, std::uint64_t, std::less<>> requests_;
  std::map<std::tuple<std::string, std::string>, Histogram, std::less<>> durations_;
};

}  // namespace mcp::gateway
