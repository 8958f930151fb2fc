#include "gateway/call_audit.hpp"

#include <algorithm>

#include "gateway/call_record.hpp"
#include "log/log.hpp"
#include "log/log_budget.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/trust/jcs.hpp"

namespace mcp::gateway {

namespace {

constexpr std::size_t kMaxItemText = 1024;

// A string a peer chose, as a record keeps it: most are short printable ASCII, kept without a copy.
std::string_view bounded(std::string_view s, std::size_t max, std::string& storage) {
  const bool printable = std::ranges::all_of(s, [](char c) { return c >= 0x20 && c < 0x7f; });
  if (printable && s.size() <= max) return s;
  return storage = peer_text(s, max);
}

std::string_view string_member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  return v && v->is_string() ? std::string_view(v->get_string()) : std::string_view();
}

}  // namespace

Result<void> audit_call(AuditLog& audit, Metrics* metrics, const CallAudit& call) {
  if (metrics) {
    if (call.outcome == "refused")
      metrics->count(call.server, call.method, call.outcome);
    else
      metrics->observe(call.server, call.method, call.outcome, call.latency);
  }
  std::string item_storage;
  const std::string error_text = call.error ? peer_text(call.error->message) : std::string();
  auto text = call_record_text(CallRecord{.server = call.server,
                                          .method = call.method,
                                          .item = bounded(call.item, kMaxItemText, item_storage),
                                          .arguments = call.arguments,
                                          .client = call.client,
                                          .client_info = call.client_info,
                                          .latency_us = call.latency.count(),
                                          .outcome = call.outcome,
                                          .error = call.error ? std::optional<std::string_view>(error_text) : std::nullopt});
  if (!text) return fail(text.error());
  return audit.append_call_canonical(*text);
}

namespace {

class RefusalStage final : public Stage {
 public:
  RefusalStage(RefusedWhere where, std::string unmatched, std::shared_ptr<AuditLog> audit, std::shared_ptr<Metrics> metrics)
      : where_(std::move(where)), unmatched_(std::move(unmatched)), audit_(std::move(audit)), metrics_(std::move(metrics)) {}
  std::string_view name() const override { return "audit-refusals"; }

  void on_result(const Call& call, Result<json::value>& answer) override {
    // A forwarding handler (the request named a served item and passed every stage) records its
    // own answer when the upstream's arrives; anything else answered with an error was refused here.
    if (answer || call.handled) return;
    ListKind kind;
    std::string_view named_key = "name";
    if (call.method == method::kToolsCall) {
      kind = ListKind::tools;
    } else if (call.method == method::kPromptsGet) {
      kind = ListKind::prompts;
    } else if (call.method == method::kResourcesRead) {
      kind = ListKind::resources;
      named_key = "uri";
    } else {
      return;
    }
    // What the request named: the item found (a template's key for a templated read), else the
    // name or URI it sent.
    std::string key;
    std::string uri;
    if (call.target) {
      kind = call.target->kind;
      key = call.target->key;
      uri = call.target->uri;
    } else {
      key = std::string(string_member(call.params, named_key));
      if (kind == ListKind::resources) uri = key;
    }
    const bool resource = kind == ListKind::resources || kind == ListKind::resource_templates;
    auto at = where_(kind, key);
    const std::string& server = at ? at->server : unmatched_;
    const std::string& item = resource ? uri : (at ? at->item : key);
    const json::value* arguments = call.params.if_contains("arguments");
    const std::string digest = arguments_digest(arguments && arguments->is_object() ? trust::canonicalize(arguments->get_object())
                                                                                    : trust::canonicalize(json::object{}));
    const auto latency =
        std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - call.received);
    auto recorded = audit_call(*audit_, metrics_.get(),
                               CallAudit{.server = server,
                                         .method = call.method,
                                         .item = item,
                                         .arguments = digest,
                                         .client = call.context.session_id(),
                                         .client_info = call.context.client_label(),
                                         .latency = latency,
                                         .outcome = "refused",
                                         .error = &answer.error()});
    if (!recorded) {
      // As for a forwarded call (Proxy::record): what the log cannot hold is answered as such.
      MCP_LOG_ERROR_WITHIN(failures_, "gateway {}: could not record a refused {}: {}", server, call.method,
                           recorded.error().message);
      answer = fail(Error::internal("the gateway could not record the call: " + recorded.error().message));
    }
  }

 private:
  RefusedWhere where_;
  std::string unmatched_;
  std::shared_ptr<AuditLog> audit_;
  std::shared_ptr<Metrics> metrics_;
  detail::LogBudget failures_;  // a client chooses how many refusals a failing log must report
};

}  // namespace

std::shared_ptr<Stage> refusal_stage(RefusedWhere where, std::string unmatched_server, std::shared_ptr<AuditLog> audit,
                                     std::shared_ptr<Metrics> metrics) {
  return std::make_shared<RefusalStage>(std::move(where), std::move(unmatched_server), std::move(audit), std::move(metrics));
}

}  // namespace mcp::gateway
