#include "client/manifest_enforcer.hpp"

#include "mcp/protocol/methods.hpp"

#include <algorithm>

#include "client/manifest_compare.hpp"
#include "client/violation_report.hpp"
#include "log/log.hpp"
#include "mcp/trust/manifest.hpp"

namespace mcp {

namespace {

SignatureViolation whole(std::string_view rule, std::optional<ListKind> during, std::string field, std::string detail) {
  SignatureViolation v;
  v.rule = std::string(rule);
  v.kind = during;
  v.field = std::move(field);
  v.detail = std::move(detail);
  return v;
}

SignatureViolation of_tool(std::string_view rule, std::string name, std::string field, std::string detail) {
  SignatureViolation v;
  v.rule = std::string(rule);
  v.kind = ListKind::tools;
  v.item = std::move(name);
  v.field = std::move(field);
  v.detail = std::move(detail);
  return v;
}

const json::object* capability_of(const json::object& init) {
  const json::value* caps = init.if_contains("capabilities");
  if (caps == nullptr || !caps->is_object()) return nullptr;
  const json::value* c = caps->get_object().if_contains(trust::kSignedManifestsCapability);
  return c != nullptr && c->is_object() ? &c->get_object() : nullptr;
}

std::optional<std::string> string_member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

}  // namespace

Result<void> ManifestEnforcer::verify_advertised(const json::object& result, const Fetch& fetch) {
  const json::object* cap = capability_of(result);
  if (cap == nullptr) {
    if (!policy_.require) return {};
    return report({whole(manifest_rule::kRequired, std::nullopt, "capabilities",
                         "the server does not advertise " + std::string(trust::kSignedManifestsCapability))});
  }
  std::vector<SignatureViolation> found;
  auto algorithm = string_member(*cap, "algorithm");
  if (algorithm != "ed25519") {
    // Nothing else is specified; a manifest signed otherwise could not be verified.
    found.push_back(whole(manifest_rule::kVerification, std::nullopt, "algorithm",
                          "unsupported_algorithm: the capability names algorithm " +
                              (algorithm ? "'" + *algorithm + "'" : std::string("(none)")) + ", not 'ed25519'"));
    return report(std::move(found));
  }
  {
    std::lock_guard lock(mu_);
    advertised_ = true;
    advertised_key_id_ = string_member(*cap, "keyId");
  }
  found = refresh(fetch, std::nullopt);
  if (auto f = fatal()) return fail(*f);
  return report(std::move(found));
}

std::vector<SignatureViolation> ManifestEnforcer::refresh(const Fetch& fetch, std::optional<ListKind> during) {
  std::optional<std::string> advertised_key_id;
  {
    std::lock_guard lock(mu_);
    stale_ = false;
    advertised_key_id = advertised_key_id_;
  }
  auto answer = fetch();
  if (!answer) {
    return {whole(manifest_rule::kVerification, during, "manifest",
                  "tools/manifest failed: " + answer.error().describe())};
  }
  trust::VerifyResult r;
  if (policy_.public_key) r = trust::verify_manifest(*answer, *policy_.public_key, policy_.verify);
  else if (policy_.trust_store) r = trust::verify_manifest(*answer, *policy_.trust_store, policy_.verify);
  else r = {.verdict = trust::Verdict::unknown_key, .detail = "no public key or trust store is configured"};
  auto last = std::make_shared<const trust::VerifyResult>(r);
  {
    std::lock_guard lock(mu_);
    last_ = last;
    // Over a limit is not a failed check but a hostile or broken server: whatever the mode, the
    // session ends (Client closes it), with an error naming the limit.
    if (r.limit_exceeded && !fatal_) fatal_ = Error::invalid_params("the server's signed tool manifest is refused: " + r.detail);
  }
  if (r.limit_exceeded) return {};
  if (!r.ok()) {
    std::string detail = std::string(trust::to_string(r.verdict));
    if (!r.detail.empty()) detail += ": " + r.detail;
    return {whole(manifest_rule::kVerification, during, "manifest", std::move(detail))};
  }
  // The capability promised this key; a manifest under another is not the one advertised.
  if (advertised_key_id && *advertised_key_id != r.key_id) {
    return {whole(manifest_rule::kVerification, during, "keyId",
                  "the manifest is signed under keyId '" + r.key_id + "', the capability advertised '" +
                      *advertised_key_id + "'")};
  }
  auto v = std::make_shared<Verified>();
  v->result = last;
  v->manifest = std::make_shared<const trust::ToolManifest>(*r.manifest);
  // The verified value's own tools, as received: the signature covers exactly these.
  const json::value& tools = answer->as_object().at("manifest").as_object().at("tools");
  for (const auto& t : tools.as_array()) {
    const auto& o = t.as_object();
    v->tools.emplace(std::string(o.at("name").as_string()), o);
  }
  {
    std::lock_guard lock(mu_);
    verified_ = std::move(v);
  }
  if (policy_.on_manifest) policy_.on_manifest(r);
  return {};
}

std::vector<SignatureViolation> ManifestEnforcer::check(const json::value& result, const Verified& v) {
  std::vector<SignatureViolation> found;
  const json::object* o = result.if_object();
  const json::value* tools = o != nullptr ? o->if_contains("tools") : nullptr;
  if (tools == nullptr || !tools->is_array()) return found;  // the typed conversion reports it
  for (const auto& t : tools->get_array()) {
    const json::object* listed = t.if_object();
    const json::value* name = listed != nullptr ? listed->if_contains("name") : nullptr;
    if (name == nullptr || !name->is_string()) continue;
    std::string n(name->get_string());
    auto it = v.tools.find(n);
    if (it == v.tools.end()) {
      found.push_back(of_tool(manifest_rule::kUnsigned, n, "name", "listed, but absent from the signed manifest"));
      continue;
    }
    if (auto d = detail::first_difference(*listed, it->second))
      found.push_back(of_tool(manifest_rule::kMismatch, n, d->field, "differs from the signed manifest: " + d->detail));
  }
  return found;
}

Result<void> ManifestEnforcer::on_tools(const json::value& result, const Fetch& fetch) {
  bool stale;
  {
    std::lock_guard lock(mu_);
    if (fatal_) return fail(*fatal_);
    if (!advertised_) return {};
    stale = stale_;
  }
  std::vector<SignatureViolation> found;
  auto v = verified();
  // An expired manifest is no reference; the server re-signs well before expiry, so ask again.
  const std::int64_t now = policy_.verify.now_ms.value_or(trust::now_unix_ms());
  if (v && trust::sub_ms(now, std::max<std::int64_t>(policy_.verify.clock_skew_ms, 0)) > v->manifest->expires_at_ms) stale = true;
  bool refreshed = false;
  if (stale) {
    found = refresh(fetch, ListKind::tools);
    if (auto f = fatal()) return fail(*f);
    refreshed = true;
    v = verified();
  }
  if (!v) return report(std::move(found));
  auto mismatches = check(result, *v);
  if (!mismatches.empty() && !refreshed) {
    // Perhaps the tools changed and the key holder signed them (a list_changed not seen yet):
    // only a change the trusted key does not vouch for is a violation.
    found = refresh(fetch, ListKind::tools);
    if (auto f = fatal()) return fail(*f);
    v = verified();
    mismatches = check(result, *v);
  }
  for (auto& m : mismatches) found.push_back(std::move(m));
  return report(std::move(found));
}

void ManifestEnforcer::mark_stale() {
  std::lock_guard lock(mu_);
  stale_ = true;
}

Result<void> ManifestEnforcer::report(std::vector<SignatureViolation> found) {
  return detail::report_violations({mu_, violations_, fatal_, policy_.mode, policy_.on_violation, kManifestViolationCode, "signed manifest violation"},
                                   std::move(found));
}

std::optional<Error> ManifestEnforcer::fatal() const {
  std::lock_guard lock(mu_);
  return fatal_;
}

std::shared_ptr<const ManifestEnforcer::Verified> ManifestEnforcer::verified() const {
  std::lock_guard lock(mu_);
  return verified_;
}

std::shared_ptr<const trust::VerifyResult> ManifestEnforcer::last_verification() const {
  std::lock_guard lock(mu_);
  return last_;
}

std::shared_ptr<const trust::ToolManifest> ManifestEnforcer::manifest() const {
  auto v = verified();
  return v ? v->manifest : nullptr;
}

std::vector<SignatureViolation> ManifestEnforcer::violations() const {
  std::lock_guard lock(mu_);
  return violations_;
}

Result<void> ManifestEnforcer::on_connected(const json::object& result, ClientStageHost& host) {
  return verify_advertised(result, [&host] { return host.send_direct(method::kToolsManifest, {}); });
}

Result<void> ManifestEnforcer::on_request(std::string_view, json::object&) {
  if (auto f = fatal()) return fail(*f);
  return {};
}

Result<void> ManifestEnforcer::on_list(ListKind kind, const json::value& result, bool, ClientStageHost& host) {
  // Signed manifests cover tools only.
  if (kind != ListKind::tools) return {};
  return on_tools(result, [&host] { return host.send_direct(method::kToolsManifest, {}); });
}

void ManifestEnforcer::on_notification(const jsonrpc::Notification& n) {
  if (n.method == method::kToolsListChanged) mark_stale();
}

}  // namespace mcp
