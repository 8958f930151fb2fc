#include "client/signature_enforcer.hpp"

#include "client/violation_report.hpp"
#include "log/log.hpp"

namespace mcp {

namespace {

SignatureViolation whole(std::string_view rule, std::string detail) {
  SignatureViolation v;
  v.rule = std::string(rule);
  v.field = "signature";
  v.detail = std::move(detail);
  return v;
}

std::string digest_of(const ServerSignature& s) {
  auto d = signature_digest(s);
  return d ? *d : std::string("(not canonicalisable)");
}

}  // namespace

void SignatureEnforcer::use(std::shared_ptr<const ServerSignature> signature) {
  CheckOptions o;
  o.hold_definitions = policy_.hold_definitions.value_or(policy_.mode == EnforcementMode::strict);
  o.relax_descriptions = policy_.relax_descriptions;
  std::shared_ptr<SignatureChecker> checker;
  if (signature) checker = std::make_shared<SignatureChecker>(std::move(signature), o);
  else if (policy_.freeze_without_signature) checker = std::make_shared<SignatureChecker>(o);
  std::lock_guard lock(mu_);
  checker_ = std::move(checker);
}

Result<void> SignatureEnforcer::on_initialize(const json::object& result) {
  std::vector<SignatureViolation> found;
  std::shared_ptr<const ServerSignature> received;
  const json::value* sig = result.if_contains("signature");
  bool advertised = false;
  if (const json::value* caps = result.if_contains("capabilities"); caps && caps->is_object()) {
    if (const json::value* s = caps->get_object().if_contains("signature"); s && s->is_object()) {
      const json::value* in = s->get_object().if_contains("inInitialize");
      advertised = in != nullptr && in->is_bool() && in->get_bool();
    }
  }
  if (sig != nullptr && !sig->is_null()) {
    auto parsed = parse_server_signature(*sig, policy_.limits);
    if (parsed) {
      received = std::make_shared<const ServerSignature>(std::move(*parsed));
    } else {
      const auto& data = parsed.error().data;
      const bool limit = data && data->is_object() && data->get_object().contains("limit");
      // Over a limit is not a violation to weigh by mode but a hostile or broken server: the
      // session ends whatever the mode, with an error naming the limit.
      if (limit) return fail(Error::invalid_params("the server's capability signature is refused: " + parsed.error().message));
      found.push_back(whole(signature_rule::kMalformed, "refused: " + parsed.error().message));
    }
  } else if (advertised) {
    found.push_back(whole(signature_rule::kMalformed,
                          "capabilities.signature.inInitialize is true, but the result carries no signature"));
  }

  std::shared_ptr<const ServerSignature> in_force = received;
  if (policy_.expected) {
    auto expected = std::make_shared<const ServerSignature>(*policy_.expected);
    if (received && !same_signature(*received, *expected)) {
      found.push_back(whole(signature_rule::kStability, "the signature from initialize (" + digest_of(*received) +
                                                            ") differs from the one expected (" +
                                                            digest_of(*expected) + ")"));
    }
    in_force = std::move(expected);
  }
  if (!in_force && policy_.require_signature)
    found.push_back(whole(signature_rule::kRequired, "the server provides no capability signature"));
  use(std::move(in_force));
  return report(std::move(found));
}

Result<void> SignatureEnforcer::on_request(std::string_view, json::object&) {
  if (auto f = fatal()) return fail(*f);
  return {};
}

Result<void> SignatureEnforcer::on_list(ListKind kind, const json::value& result, bool complete, ClientStageHost&) {
  std::shared_ptr<SignatureChecker> checker;
  {
    std::lock_guard lock(mu_);
    if (fatal_) return fail(*fatal_);
    checker = checker_;
  }
  if (!checker) return {};
  return report(checker->check_list(kind, result, complete));
}

Result<void> SignatureEnforcer::on_children(const std::string&, const json::value& result) {
  std::shared_ptr<SignatureChecker> checker;
  {
    std::lock_guard lock(mu_);
    if (fatal_) return fail(*fatal_);
    checker = checker_;
  }
  if (!checker || !checker->signature()) return {};
  const json::value* list = result.is_object() ? result.get_object().if_contains("resources") : nullptr;
  if (!list || !list->is_array()) return {};  // the typed result's own decoding reports it
  std::vector<SignatureViolation> found;
  for (const auto& item : list->get_array()) {
    if (!item.is_object()) continue;
    auto v = checker->check_item(ListKind::resources, item.get_object());
    found.insert(found.end(), std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
  }
  return report(std::move(found));
}

Result<void> SignatureEnforcer::report(std::vector<SignatureViolation> found) {
  return detail::report_violations({mu_, violations_, fatal_, policy_.mode, policy_.on_violation, kSignatureViolationCode, "capability signature violation"},
                                   std::move(found));
}

std::optional<Error> SignatureEnforcer::fatal() const {
  std::lock_guard lock(mu_);
  return fatal_;
}

std::shared_ptr<const ServerSignature> SignatureEnforcer::signature() const {
  std::lock_guard lock(mu_);
  return checker_ ? checker_->signature() : nullptr;
}

std::vector<SignatureViolation> SignatureEnforcer::violations() const {
  std::lock_guard lock(mu_);
  return violations_;
}

std::vector<DeclaredItem> SignatureEnforcer::available_if_enabled() const {
  std::shared_ptr<SignatureChecker> checker;
  {
    std::lock_guard lock(mu_);
    checker = checker_;
  }
  std::vector<DeclaredItem> out;
  if (!checker) return out;
  for (ListKind k : kListKinds)
    for (auto& key : checker->available_if_enabled(k)) out.push_back(DeclaredItem{k, std::move(key)});
  return out;
}

}  // namespace mcp
