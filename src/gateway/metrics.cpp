#include "gateway/metrics.hpp"

#include <fmt/format.h>

namespace mcp::gateway {

namespace {

// Label values are ours (config names, method names), but escape as the format says anyway.
std::string label(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

void Metrics::count_locked(std::string_view upstream, std::string_view method, std::string_view outcome) {
  const std::tuple<std::string_view, std::string_view, std::string_view> series{upstream, method, outcome};
  auto r = requests_.find(series);
  if (r == requests_.end())
    r = requests_.emplace(std::tuple{std::string(upstream), std::string(method), std::string(outcome)}, 0).first;
  ++r->second;
}

void Metrics::count(std::string_view upstream, std::string_view method, std::string_view outcome) {
  std::lock_guard lock(mu_);
  count_locked(upstream, method, outcome);
}

void Metrics::observe(std::string_view upstream, std::string_view method, std::string_view outcome,
                      std::chrono::microseconds duration) {
  const double seconds = static_cast<double>(duration.count()) / 1e6;
  std::lock_guard lock(mu_);
  count_locked(upstream, method, outcome);
  const std::tuple<std::string_view, std::string_view> timed{upstream, method};
  auto d = durations_.find(timed);
  if (d == durations_.end()) d = durations_.emplace(std::tuple{std::string(upstream), std::string(method)}, Histogram{}).first;
  auto& h = d->second;
  for (std::size_t i = 0; i < kBuckets.size(); ++i) {
    if (seconds <= kBuckets[i]) {
      ++h.counts[i];
      break;
    }
  }
  ++h.count;
  h.sum += seconds;
}

std::string Metrics::render(const std::vector<UpstreamGauges>& gauges) const {
  std::string out;
  out += "# HELP mcp_gateway_requests_total Requests for an upstream's items, by outcome (refused: answered by the gateway).\n";
  out += "# TYPE mcp_gateway_requests_total counter\n";
  std::lock_guard lock(mu_);
  for (const auto& [key, n] : requests_) {
    const auto& [upstream, method, outcome] = key;
    out += fmt::format("mcp_gateway_requests_total{{upstream=\"{}\",method=\"{}\",outcome=\"{}\"}} {}\n", label(upstream),
                       label(method), label(outcome), n);
  }
  out += "# HELP mcp_gateway_request_duration_seconds Time an upstream took to answer a forwarded request.\n";
  out += "# TYPE mcp_gateway_request_duration_seconds histogram\n";
  for (const auto& [key, h] : durations_) {
    const std::string labels =
        fmt::format("upstream=\"{}\",method=\"{}\"", label(std::get<0>(key)), label(std::get<1>(key)));
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < kBuckets.size(); ++i) {
      cumulative += h.counts[i];
      out += fmt::format("mcp_gateway_request_duration_seconds_bucket{{{},le=\"{}\"}} {}\n", labels, kBuckets[i], cumulative);
    }
    out += fmt::format("mcp_gateway_request_duration_seconds_bucket{{{},le=\"+Inf\"}} {}\n", labels, h.count);
    out += fmt::format("mcp_gateway_request_duration_seconds_sum{{{}}} {}\n", labels, h.sum);
    out += fmt::format("mcp_gateway_request_duration_seconds_count{{{}}} {}\n", labels, h.count);
  }
  out += "# HELP mcp_gateway_quarantined_items Items of an upstream hidden until approved (quarantined or rejected).\n";
  out += "# TYPE mcp_gateway_quarantined_items gauge\n";
  for (const auto& g : gauges) out += fmt::format("mcp_gateway_quarantined_items{{upstream=\"{}\"}} {}\n", label(g.upstream), g.quarantined);
  out += "# HELP mcp_gateway_upstream_restarts_total Times an upstream was started again after its connection ended.\n";
  out += "# TYPE mcp_gateway_upstream_restarts_total counter\n";
  for (const auto& g : gauges) out += fmt::format("mcp_gateway_upstream_restarts_total{{upstream=\"{}\"}} {}\n", label(g.upstream), g.restarts);
  return out;
}

}  // namespace mcp::gateway
