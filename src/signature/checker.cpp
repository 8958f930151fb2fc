// The checker over whole list results: keys, completeness, freezing's pin and seal, the cached path
// and what is currently available.
#include "mcp/signature/checker.hpp"

namespace mcp {

namespace {

std::size_t at(ListKind k) { return static_cast<std::size_t>(k); }

SignatureViolation malformed(ListKind kind, std::string item, std::string detail) {
  return SignatureViolation{std::string(signature_rule::kMalformed), kind, std::move(item),
                            std::string(key_field(kind)), std::move(detail)};
}

}  // namespace

std::vector<SignatureViolation> SignatureChecker::check_item(ListKind kind, const json::object& item) const {
  const json::value* k = item.if_contains(key_field(kind));
  if (k == nullptr || !k->is_string())
    return {malformed(kind, "", "an item has no string '" + std::string(key_field(kind)) + "'")};
  const std::string key(k->get_string());
  if (signature_) return check_declared(kind, item, key);
  std::lock_guard lock(mu_);
  return check_frozen(kind, item, key);
}

std::vector<SignatureViolation> SignatureChecker::check_list(ListKind kind, const json::value& result, bool complete) {
  std::vector<SignatureViolation> out;
  const json::value* list = result.is_object() ? result.get_object().if_contains(result_key(kind)) : nullptr;
  if (list == nullptr || !list->is_array()) {
    out.push_back(SignatureViolation{std::string(signature_rule::kMalformed), kind, "", std::string(result_key(kind)),
                                     "the result has no '" + std::string(result_key(kind)) + "' array"});
    return out;
  }
  std::set<std::string> keys;
  std::lock_guard lock(mu_);
  const auto& items = list->get_array();
  for (std::size_t i = 0; i < items.size(); ++i) {
    const json::value& v = items[i];
    const json::value* k = v.is_object() ? v.get_object().if_contains(key_field(kind)) : nullptr;
    if (k == nullptr || !k->is_string()) {
      out.push_back(malformed(kind, "#" + std::to_string(i),
                              "item " + std::to_string(i) + " has no string '" + std::string(key_field(kind)) + "'"));
      continue;
    }
    std::string key(k->get_string());
    const json::object& item = v.get_object();
    auto found = signature_ ? check_declared(kind, item, key) : check_frozen(kind, item, key);
    for (auto& f : found) out.push_back(std::move(f));
    if (!signature_ && !sealed_[at(kind)]) frozen_[at(kind)].emplace(key, item);  // no-op once pinned
    keys.insert(std::move(key));
  }
  if (!complete) return out;
  if (!signature_) {
    // Freezing: the first complete list seals the pin; later ones must still hold every pinned item.
    if (sealed_[at(kind)]) {
      for (const auto& [key, first] : frozen_[at(kind)]) {
        if (!keys.contains(key))
          out.push_back(SignatureViolation{std::string(signature_rule::kSchemaFreezing), kind, key,
                                           std::string(key_field(kind)),
                                           "was in the first list, which schema freezing pinned, and is gone"});
      }
    }
    sealed_[at(kind)] = true;
  }
  last_listed_[at(kind)] = std::move(keys);
  return out;
}

std::vector<SignatureViolation> SignatureChecker::check_list_bytes(ListKind kind, std::string_view result_json,
                                                                   bool complete) {
  const trust::Sha256Digest digest = trust::sha256(result_json);
  {
    std::lock_guard lock(mu_);
    const auto& c = clean_[at(kind)];
    // Equal bytes give the same verdict, unless this result must now also update the complete view.
    if (c && c->digest == digest && (c->complete || !complete)) return {};
  }
  boost::system::error_code ec;
  json::parse_options po;
  po.max_depth = 64;
  json::value v = json::parse(result_json, ec, {}, po);
  if (ec) return {malformed(kind, "", "the result is not JSON: " + ec.message())};
  auto out = check_list(kind, v, complete);
  if (out.empty()) {
    std::lock_guard lock(mu_);
    clean_[at(kind)] = CleanResult{digest, complete};
  }
  return out;
}

std::vector<std::string> SignatureChecker::available_if_enabled(ListKind kind) const {
  std::vector<std::string> out;
  if (!signature_) return out;
  std::vector<std::string> declared;
  switch (kind) {
    case ListKind::tools: for (const auto& t : signature_->tools) declared.push_back(t.tool.name); break;
    case ListKind::prompts: for (const auto& p : signature_->prompts) declared.push_back(p.name); break;
    case ListKind::resources: for (const auto& r : signature_->resources) declared.push_back(r.uri); break;
    case ListKind::resource_templates:
      for (const auto& t : signature_->resource_templates) declared.push_back(t.uri_template);
      break;
  }
  std::lock_guard lock(mu_);
  const auto& listed = last_listed_[at(kind)];
  for (auto& k : declared)
    if (!listed || !listed->contains(k)) out.push_back(std::move(k));
  return out;
}

}  // namespace mcp
