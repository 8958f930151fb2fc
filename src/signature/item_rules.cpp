// The per-item rules of the checker: names of lists and modes, how one declared item is prepared,
// and how one listed item is compared with it (signature) or with its pinned copy (freezing).
#include <algorithm>
#include <array>

#include "mcp/signature/checker.hpp"
#include "mcp/protocol/methods.hpp"
#include "mcp/trust/json_equal.hpp"

namespace mcp {

namespace {

std::size_t at(ListKind k) { return static_cast<std::size_t>(k); }

// The members "definition" holds, per kind.
const std::vector<std::string_view>& held_fields(ListKind kind) {
  static const std::vector<std::string_view> tools = {"title", "description", "inputSchema", "outputSchema"};
  static const std::vector<std::string_view> prompts = {"title", "description", "arguments"};
  static const std::vector<std::string_view> resources = {"name", "title", "description", "mimeType"};
  switch (kind) {
    case ListKind::tools: return tools;
    case ListKind::prompts: return prompts;
    default: return resources;
  }
}

// A member as the comparison sees it: null is absent, and so is an empty `arguments` list (the
// SDKs disagree on writing it).
const json::value* member(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return nullptr;
  if (key == "arguments" && v->is_array() && v->get_array().empty()) return nullptr;
  return v;
}

bool same_member(const json::value* a, const json::value* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return trust::canonically_equal(*a, *b);
}

// A value for a message: compact JSON, cut at 160 characters (it may be a whole schema).
std::string quote(const json::value* v) {
  if (v == nullptr) return "nothing";
  std::string s = to_string(*v);
  if (s.size() > 160) s = s.substr(0, 157) + "...";
  return s;
}

SignatureViolation violation(std::string_view rule, ListKind kind, const std::string& item, std::string_view field,
                             std::string detail) {
  return SignatureViolation{std::string(rule), kind, item, std::string(field), std::move(detail)};
}

}  // namespace

std::string_view to_string(EnforcementMode mode) {
  switch (mode) {
    case EnforcementMode::strict: return "strict";
    case EnforcementMode::permissive: return "permissive";
    case EnforcementMode::advisory: return "advisory";
  }
  return "strict";
}

std::optional<EnforcementMode> parse_enforcement_mode(std::string_view text) {
  if (text == "strict") return EnforcementMode::strict;
  if (text == "permissive") return EnforcementMode::permissive;
  if (text == "advisory") return EnforcementMode::advisory;
  return std::nullopt;
}

std::string SignatureViolation::describe() const {
  std::string s(kind ? list_method(*kind) : std::string_view(mcp::method::kInitialize));
  s += ": ";
  if (!item.empty() && kind) {
    s += std::string(item_noun(*kind)) + " '" + item + "'";
    if (!field.empty()) s += ", field '" + field + "'";
    s += ": ";
  } else if (!field.empty()) {
    s += "field '" + field + "': ";
  }
  s += detail + " [" + rule + "]";
  return s;
}

json::value to_json(const SignatureViolation& v) {
  json::object o{{"rule", v.rule}, {"detail", v.detail}};
  if (v.kind) o["list"] = list_method(*v.kind);
  if (!v.item.empty()) o["item"] = v.item;
  if (!v.field.empty()) o["field"] = v.field;
  o["message"] = v.describe();
  return o;
}

struct SignatureChecker::Declared {
  json::object definition;                  // the declared item as JSON (a tool without annotations)
  std::optional<AnnotationSet> annotations;  // tools only
};

SignatureChecker::SignatureChecker(std::shared_ptr<const ServerSignature> signature, CheckOptions options)
    : signature_(std::move(signature)), options_(options) {
  if (!signature_) return;
  for (const auto& t : signature_->tools) {
    auto d = std::make_shared<Declared>();
    d->definition = to_json(t.tool).as_object();
    d->definition.erase("annotations");
    d->annotations.emplace(t.annotations);
    declared_[at(ListKind::tools)].emplace(t.tool.name, std::move(d));
  }
  auto add = [&](ListKind kind, const std::string& key, json::value v) {
    auto d = std::make_shared<Declared>();
    d->definition = std::move(v.as_object());
    declared_[at(kind)].emplace(key, std::move(d));
  };
  for (const auto& p : signature_->prompts) add(ListKind::prompts, p.name, to_json(p));
  for (const auto& r : signature_->resources) add(ListKind::resources, r.uri, to_json(r));
  for (const auto& t : signature_->resource_templates) {
    add(ListKind::resource_templates, t.uri_template, to_json(t));
    // A template that does not parse matches nothing; the signature's own validation reports it.
    if (auto parsed = UriTemplate::parse(t.uri_template)) templates_.push_back(std::move(*parsed));
  }
}

SignatureChecker::SignatureChecker(CheckOptions options) : options_(options) {}
SignatureChecker::~SignatureChecker() = default;

bool SignatureChecker::expands_declared_template(std::string_view uri) const {
  return std::any_of(templates_.begin(), templates_.end(), [&](const UriTemplate& t) { return t.match(uri).has_value(); });
}

std::vector<SignatureViolation> SignatureChecker::check_declared(ListKind kind, const json::object& item,
                                                                 const std::string& key) const {
  std::vector<SignatureViolation> out;
  const auto& index = declared_[at(kind)];
  auto it = index.find(key);
  if (it == index.end()) {
    // A concrete resource expanding a declared template is declared by that template.
    if (kind == ListKind::resources && expands_declared_template(key)) return out;
    out.push_back(violation(signature_rule::kCompleteness, kind, key, key_field(kind),
                            "not declared in the server's signature"));
    return out;
  }
  const Declared& d = *it->second;
  if (d.annotations) {
    const json::value* a = member(item, "annotations");
    if (a != nullptr && !a->is_object()) {
      out.push_back(violation(signature_rule::kAnnotationCompleteness, kind, key, "annotations",
                              "listed " + quote(a) + ", which is not an object"));
    } else if (!d.annotations->permits(a != nullptr ? &a->get_object() : nullptr)) {
      out.push_back(violation(signature_rule::kAnnotationCompleteness, kind, key, "annotations",
                              "listed " + quote(a) + ", which is not one of the declared " +
                                  d.annotations->describe()));
    }
  }
  if (!options_.hold_definitions) return out;
  for (std::string_view f : held_fields(kind)) {
    if (f == "description" && options_.relax_descriptions) continue;
    const json::value* listed = member(item, f);
    const json::value* declared = member(d.definition, f);
    if (!same_member(listed, declared)) {
      out.push_back(violation(signature_rule::kDefinition, kind, key, f,
                              "listed " + quote(listed) + "; the signature declares " + quote(declared)));
    }
  }
  return out;
}

std::vector<SignatureViolation> SignatureChecker::check_frozen(ListKind kind, const json::object& item,
                                                               const std::string& key) const {
  std::vector<SignatureViolation> out;
  const auto& pinned = frozen_[at(kind)];
  auto it = pinned.find(key);
  if (it == pinned.end()) {
    // Before the seal, a new item is pinned by check_list; after it, it is an addition.
    if (sealed_[at(kind)]) {
      out.push_back(violation(signature_rule::kSchemaFreezing, kind, key, key_field(kind),
                              "was not in the first list, which schema freezing pinned"));
    }
    return out;
  }
  const json::object& first = it->second;
  auto differs = [&](std::string_view f) {
    if (f == "_meta" || (f == "description" && options_.relax_descriptions)) return;
    const json::value* now = member(item, f);
    const json::value* then = member(first, f);
    if (!same_member(now, then)) {
      out.push_back(violation(signature_rule::kSchemaFreezing, kind, key, f,
                              "was " + quote(then) + " when first listed, now " + quote(now)));
    }
  };
  for (const auto& kv : item) differs(kv.key());
  for (const auto& kv : first)
    if (!item.contains(kv.key())) differs(kv.key());
  return out;
}

}  // namespace mcp
