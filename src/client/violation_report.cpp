#include "client/violation_report.hpp"

#include "log/log.hpp"

namespace mcp::detail {

Result<void> report_violations(const ViolationSink& sink, std::vector<SignatureViolation> found) {
  if (found.empty()) return {};
  {
    std::lock_guard lock(sink.mu);
    for (const auto& v : found) sink.violations.push_back(v);
  }
  for (const auto& v : found) {
    if (sink.on_violation) sink.on_violation(v);
    if (sink.mode == EnforcementMode::permissive) {
      MCP_LOG_WARN("client: {} (permissive, continuing): {}", sink.what, v.describe());
    }
  }
  if (sink.mode != EnforcementMode::strict) return {};
  json::array all;
  for (const auto& v : found) all.push_back(to_json(v));
  Error e{sink.error_code, std::string(sink.what) + ": " + found.front().describe(),
          json::object{{"violations", std::move(all)}}};
  if (found.size() > 1) e.message += " (and " + std::to_string(found.size() - 1) + " more)";
  MCP_LOG_ERROR("client: {}; ending the session (strict mode)", peer_text(e.message, kMaxQuotedReasonBytes));
  std::lock_guard lock(sink.mu);
  if (!sink.fatal) sink.fatal = e;
  return fail(std::move(e));
}

}  // namespace mcp::detail
