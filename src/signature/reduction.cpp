#include "mcp/signature/reduction.hpp"

#include <array>
#include <string_view>

#include "mcp/trust/json_equal.hpp"

namespace mcp {

namespace {

constexpr std::array<std::string_view, 4> kHints = {"readOnlyHint", "destructiveHint", "idempotentHint",
                                                    "openWorldHint"};

bool is_hint(std::string_view key) {
  for (auto h : kHints)
    if (h == key) return true;
  return false;
}

// Effective hints of a listed object; nullopt when a hint is present but not a boolean (such an
// object can only match a declared one exactly, which it cannot, since declared hints are booleans).
std::optional<EffectiveHints> effective_hints(const json::object& o) {
  EffectiveHints h;
  auto read = [&](std::string_view key, bool& out) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) return true;
    if (!v->is_bool()) return false;
    out = v->get_bool();
    return true;
  };
  if (!read("readOnlyHint", h.read_only) || !read("destructiveHint", h.destructive) ||
      !read("idempotentHint", h.idempotent) || !read("openWorldHint", h.open_world))
    return std::nullopt;
  return h;
}

}  // namespace

EffectiveHints effective_hints(const ToolAnnotations& a) {
  EffectiveHints h;
  h.read_only = a.read_only_hint.value_or(false);
  h.destructive = a.destructive_hint.value_or(true);
  h.idempotent = a.idempotent_hint.value_or(false);
  h.open_world = a.open_world_hint.value_or(true);
  return h;
}

ToolAnnotations worst_case_annotations(std::span<const ToolAnnotations> declared) {
  if (declared.size() == 1) return declared.front();
  ToolAnnotations out;
  bool read_only = true, destructive = false, idempotent = true, open_world = false;
  bool any_ro = false, any_de = false, any_id = false, any_ow = false;
  for (const auto& a : declared) {
    const EffectiveHints h = effective_hints(a);
    read_only = read_only && h.read_only;
    destructive = destructive || h.destructive;
    idempotent = idempotent && h.idempotent;
    open_world = open_world || h.open_world;
    any_ro = any_ro || a.read_only_hint.has_value();
    any_de = any_de || a.destructive_hint.has_value();
    any_id = any_id || a.idempotent_hint.has_value();
    any_ow = any_ow || a.open_world_hint.has_value();
    if (!out.title && a.title) out.title = a.title;
  }
  if (any_ro) out.read_only_hint = read_only;
  if (any_de) out.destructive_hint = destructive;
  if (any_id) out.idempotent_hint = idempotent;
  if (any_ow) out.open_world_hint = open_world;
  // Members we cannot rank survive only when every variant agrees on them.
  if (!declared.empty()) {
    for (const auto& kv : declared.front().extra) {
      bool everywhere = true;
      for (const auto& a : declared.subspan(1)) {
        const json::value* v = a.extra.if_contains(kv.key());
        if (v == nullptr || !trust::canonically_equal(*v, kv.value())) {
          everywhere = false;
          break;
        }
      }
      if (everywhere) out.extra[kv.key()] = kv.value();
    }
  }
  return out;
}

std::optional<ToolAnnotations> listed_annotations(const SignatureTool& tool) {
  if (tool.annotations.empty()) return std::nullopt;
  return worst_case_annotations(tool.annotations);
}

AnnotationSet::AnnotationSet(const std::vector<ToolAnnotations>& declared) {
  declared_.reserve(declared.size());
  for (const auto& a : declared) declared_.push_back(to_json(a).as_object());
  if (declared.empty()) {
    listed_ = nullptr;
    worst_ = EffectiveHints{};
  } else {
    ToolAnnotations w = worst_case_annotations(declared);
    worst_ = effective_hints(w);
    listed_ = to_json(w);
  }
}

bool AnnotationSet::permits(const json::object* listed) const {
  static const json::object kEmpty;
  const json::object& o = listed != nullptr ? *listed : kEmpty;
  for (const auto& d : declared_)
    if (trust::canonically_equal(d, o)) return true;
  const auto hints = effective_hints(o);
  if (!hints || *hints != worst_) return false;
  // Every other member must be one some declared object has, with the same value.
  for (const auto& kv : o) {
    if (is_hint(kv.key())) continue;
    bool found = false;
    for (const auto& d : declared_) {
      const json::value* v = d.if_contains(kv.key());
      if (v != nullptr && trust::canonically_equal(*v, kv.value())) {
        found = true;
        break;
      }
    }
    if (!found) return false;
  }
  return true;
}

std::string AnnotationSet::describe() const {
  if (declared_.empty()) return "none";
  if (declared_.size() == 1) return to_string(declared_.front());
  json::array a;
  for (const auto& d : declared_) a.push_back(d);
  return to_string(a);
}

}  // namespace mcp
