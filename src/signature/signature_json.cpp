// ServerSignature to and from JSON, with the limits checked before any per-item work.
#include <set>

#include "mcp/signature/signature.hpp"
#include "mcp/trust/jcs.hpp"
#include "mcp/trust/sha256.hpp"

namespace mcp {

namespace {

// "signature is 5000000 bytes, over the limit of 4194304 bytes (SignatureLimits::max_bytes)".
Error limit_error(const std::string& what, std::size_t actual, std::string_view unit, std::size_t limit,
                  std::string_view name) {
  const std::string u = " " + std::string(unit);
  Error e = Error::invalid_params(what + " " + std::to_string(actual) + u + ", over the limit of " +
                                  std::to_string(limit) + u + " (SignatureLimits::" + std::string(name) + ")");
  e.data = json::object{{"limit", name}};
  return e;
}

// True when `v` nests deeper than `max_depth`. Recursion is bounded by max_depth + 1 frames.
bool too_deep(const json::value& v, std::size_t max_depth, std::size_t depth = 0) {
  if (v.is_object()) {
    if (depth + 1 > max_depth) return true;
    for (const auto& kv : v.get_object())
      if (too_deep(kv.value(), max_depth, depth + 1)) return true;
  } else if (v.is_array()) {
    if (depth + 1 > max_depth) return true;
    for (const auto& e : v.get_array())
      if (too_deep(e, max_depth, depth + 1)) return true;
  }
  return false;
}

// Serialized size without keeping the text: Boost.JSON's serializer writes into a small buffer.
std::size_t serialized_size(const json::value& v) {
  json::serializer sr;
  sr.reset(&v);
  char buf[4096];
  std::size_t n = 0;
  while (!sr.done()) n += sr.read(buf, sizeof buf).size();
  return n;
}

Error at(const std::string& path, const Error& inner) {
  Error e = inner;
  e.message = path + " -> " + inner.message;
  return e;
}

Result<SignatureTool> parse_tool(const json::value& v, const SignatureLimits& limits, const std::string& path) {
  if (!v.is_object()) return fail(Error::invalid_params(path + ": expected an object"));
  json::object rest = v.get_object();
  SignatureTool st;
  if (auto it = rest.find("annotations"); it != rest.end()) {
    const json::value& a = it->value();
    if (a.is_array()) {
      const auto& arr = a.get_array();
      if (arr.size() > limits.max_annotation_variants)
        return fail(limit_error(path + ".annotations has", arr.size(), "variants", limits.max_annotation_variants,
                                "max_annotation_variants"));
      st.annotations_array = true;
      for (std::size_t i = 0; i < arr.size(); ++i) {
        auto ann = from_json<ToolAnnotations>(arr[i]);
        if (!ann) return fail(at(path + ".annotations[" + std::to_string(i) + "]", ann.error()));
        st.annotations.push_back(std::move(*ann));
      }
    } else if (a.is_object()) {
      auto ann = from_json<ToolAnnotations>(a);
      if (!ann) return fail(at(path + ".annotations", ann.error()));
      st.annotations.push_back(std::move(*ann));
    } else if (!a.is_null()) {
      return fail(Error::invalid_params(path + ".annotations: expected an object or an array of objects"));
    }
    rest.erase(it);
  }
  auto tool = from_json<Tool>(rest);
  if (!tool) return fail(at(path, tool.error()));
  st.tool = std::move(*tool);
  return st;
}

// Reads the optional list `key` with `parse`, refusing two entries with the same key.
template <class T, class Parse, class KeyOf>
Result<void> read_list(const json::object& o, std::string_view key, std::vector<T>& out, Parse parse, KeyOf key_of) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return {};
  const std::string path = "signature." + std::string(key);
  if (!v->is_array()) return fail(Error::invalid_params(path + ": expected an array"));
  std::set<std::string, std::less<>> seen;
  const auto& arr = v->get_array();
  out.reserve(arr.size());
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string item_path = path + "[" + std::to_string(i) + "]";
    Result<T> item = parse(arr[i], item_path);
    if (!item) return fail(item.error());
    const std::string& k = key_of(*item);
    if (!seen.insert(k).second)
      return fail(Error::invalid_params(item_path + ": '" + k + "' is declared twice"));
    out.push_back(std::move(*item));
  }
  return {};
}

// from_json<T> with the item's path in front of its error.
template <class T>
auto plain() {
  return [](const json::value& v, const std::string& path) -> Result<T> {
    auto r = from_json<T>(v);
    if (!r) return fail(at(path, r.error()));
    return r;
  };
}

template <class T>
void write_list(json::object& o, std::string_view key, const std::vector<T>& items) {
  if (items.empty()) return;
  json::array a;
  a.reserve(items.size());
  for (const auto& i : items) a.push_back(to_json(i));
  o[key] = std::move(a);
}

template <class T, class Pred>
const T* find_in(const std::vector<T>& v, Pred pred) {
  for (const auto& x : v)
    if (pred(x)) return &x;
  return nullptr;
}

}  // namespace

const SignatureTool* ServerSignature::find_tool(std::string_view name) const {
  return find_in(tools, [&](const SignatureTool& t) { return t.tool.name == name; });
}
const Prompt* ServerSignature::find_prompt(std::string_view name) const {
  return find_in(prompts, [&](const Prompt& p) { return p.name == name; });
}
const Resource* ServerSignature::find_resource(std::string_view uri) const {
  return find_in(resources, [&](const Resource& r) { return r.uri == uri; });
}
const ResourceTemplate* ServerSignature::find_resource_template(std::string_view uri_template) const {
  return find_in(resource_templates, [&](const ResourceTemplate& t) { return t.uri_template == uri_template; });
}

json::value to_json(const SignatureTool& st) {
  json::value v = to_json(st.tool);
  json::object& o = v.as_object();
  o.erase("annotations");
  if (st.annotations.size() == 1 && !st.annotations_array) {
    o["annotations"] = to_json(st.annotations.front());
  } else if (!st.annotations.empty() || st.annotations_array) {
    json::array a;
    for (const auto& ann : st.annotations) a.push_back(to_json(ann));
    o["annotations"] = std::move(a);
  }
  return v;
}

json::value to_json(const ServerSignature& s) {
  json::object o;
  write_list(o, "tools", s.tools);
  write_list(o, "prompts", s.prompts);
  write_list(o, "resources", s.resources);
  write_list(o, "resourceTemplates", s.resource_templates);
  for (const auto& kv : s.extra)
    if (!o.contains(kv.key())) o[kv.key()] = kv.value();
  return o;
}

template <>
Result<SignatureTool> from_json<SignatureTool>(const json::value& v) {
  return parse_tool(v, SignatureLimits{}, "SignatureTool");
}

Result<std::size_t> check_signature_limits(const json::value& v, const SignatureLimits& limits) {
  const std::size_t size = serialized_size(v);
  if (size > limits.max_bytes) return fail(limit_error("signature is", size, "bytes", limits.max_bytes, "max_bytes"));
  if (too_deep(v, limits.max_depth)) {
    Error e = Error::invalid_params("signature nests deeper than " + std::to_string(limits.max_depth) +
                                    " levels (SignatureLimits::max_depth)");
    e.data = json::object{{"limit", "max_depth"}};
    return fail(std::move(e));
  }
  return size;
}

Result<ServerSignature> parse_server_signature(const json::value& v, const SignatureLimits& limits) {
  if (auto size = check_signature_limits(v, limits); !size) return fail(size.error());
  if (!v.is_object()) return fail(Error::invalid_params("signature: expected an object"));
  const json::object& o = v.get_object();
  std::size_t items = 0;
  for (std::string_view key : {"tools", "prompts", "resources", "resourceTemplates"}) {
    if (const json::value* l = o.if_contains(key); l && l->is_array()) items += l->get_array().size();
  }
  if (items > limits.max_items) return fail(limit_error("signature declares", items, "items", limits.max_items, "max_items"));

  ServerSignature s;
  auto tool = [&](const json::value& x, const std::string& path) { return parse_tool(x, limits, path); };
  if (auto r = read_list(o, "tools", s.tools, tool, [](const SignatureTool& t) -> const std::string& { return t.tool.name; }); !r)
    return fail(r.error());
  if (auto r = read_list(o, "prompts", s.prompts, plain<Prompt>(),
                         [](const Prompt& p) -> const std::string& { return p.name; }); !r)
    return fail(r.error());
  if (auto r = read_list(o, "resources", s.resources, plain<Resource>(),
                         [](const Resource& x) -> const std::string& { return x.uri; }); !r)
    return fail(r.error());
  if (auto r = read_list(o, "resourceTemplates", s.resource_templates, plain<ResourceTemplate>(),
                         [](const ResourceTemplate& t) -> const std::string& { return t.uri_template; }); !r)
    return fail(r.error());
  for (const auto& kv : o) {
    const std::string_view k = kv.key();
    if (k != "tools" && k != "prompts" && k != "resources" && k != "resourceTemplates") s.extra[k] = kv.value();
  }
  return s;
}

Result<ServerSignature> parse_server_signature_text(std::string_view text, const SignatureLimits& limits) {
  if (text.size() > limits.max_bytes)
    return fail(limit_error("signature is", text.size(), "bytes", limits.max_bytes, "max_bytes"));
  auto v = trust::parse_strict(text, trust::JcsLimits{limits.max_depth, limits.max_bytes});
  if (!v) return fail(v.error());
  return parse_server_signature(*v, limits);
}

template <>
Result<ServerSignature> from_json<ServerSignature>(const json::value& v) {
  return parse_server_signature(v);
}

Result<std::string> signature_canonical_bytes(const ServerSignature& signature) {
  return trust::canonicalize(to_json(signature));
}

Result<std::string> signature_digest(const ServerSignature& signature) {
  auto bytes = signature_canonical_bytes(signature);
  if (!bytes) return fail(bytes.error());
  return trust::sha256_tag(*bytes);
}

bool same_signature(const ServerSignature& a, const ServerSignature& b) {
  auto x = signature_canonical_bytes(a);
  auto y = signature_canonical_bytes(b);
  return x && y && *x == *y;
}

}  // namespace mcp
