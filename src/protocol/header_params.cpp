// x-mcp-header annotations (mcp/protocol/header_params.hpp).
#include "mcp/protocol/header_params.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace mcp {

namespace {

constexpr std::string_view kAnnotation = "x-mcp-header";
constexpr std::int64_t kMaxSafeInteger = (std::int64_t{1} << 53) - 1;

// RFC 9110 §5.6.2 tchar: the characters of an HTTP field name.
bool is_tchar(unsigned char c) {
  return std::isalnum(c) || std::string_view("!#$%&'*+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos;
}

// A property path, kept once however many places below it the walk visits: each step names its
// parent. Copying the whole path into every node instead cost the schema's node count times its
// path's bytes (one tool of ~120 KB took a gigabyte).
struct Step {
  std::size_t parent;    // kRoot: the schema itself
  std::string_view key;  // a key of a `properties` object of the schema (outlives the walk)
};
constexpr std::size_t kRoot = static_cast<std::size_t>(-1);

std::vector<std::string_view> keys_to(const std::vector<Step>& steps, std::size_t at) {
  std::vector<std::string_view> keys;
  for (; at != kRoot; at = steps[at].parent) keys.push_back(steps[at].key);
  std::reverse(keys.begin(), keys.end());
  return keys;
}

// The path in an error: each name cut short, and only its first two and last three names when it
// is deeper than that, so the message stays a few hundred bytes however deep a peer nests.
std::string path_text(const std::vector<Step>& steps, std::size_t at) {
  const auto keys = keys_to(steps, at);
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (keys.size() > 5 && i == 2) {
      out += ".(" + std::to_string(keys.size() - 5) + " more)";
      i = keys.size() - 4;
      continue;
    }
    out += (out.empty() ? "" : ".") + peer_text(keys[i], 64);
  }
  return out.empty() ? "(root)" : out;
}

Error invalid(const std::vector<Step>& steps, std::size_t at, std::string why) {
  return Error::invalid_params("inputSchema property " + path_text(steps, at) + ": x-mcp-header " + std::move(why));
}

Result<HeaderParamType> param_type(const json::object& schema, const std::vector<Step>& steps, std::size_t at) {
  const json::value* type = schema.if_contains("type");
  const json::string* name = type ? type->if_string() : nullptr;
  if (name && *name == "string") return HeaderParamType::string;
  if (name && *name == "integer") return HeaderParamType::integer;
  if (name && *name == "boolean") return HeaderParamType::boolean;
  return fail(invalid(steps, at, "is only allowed on a property of type string, integer or boolean"));
}

// One place in the schema still to look at: the value, its property path, and whether every step
// to it was a `properties` key (only there may an annotation be).
struct Pending {
  const json::value* value;  // null: the root, `root` below
  std::size_t path;          // into the walk's steps; kRoot: none
  bool reachable;
  bool is_property_schema;  // the value is the schema of the property at `path`
};

}  // namespace

Result<std::vector<HeaderParam>> header_params(const json::object& input_schema) {
  std::vector<HeaderParam> out;
  std::size_t out_bytes = 0;   // of the annotated properties' paths: each parameter keeps its own
  std::set<std::string> seen;  // lower-cased names
  std::vector<Step> steps;
  std::vector<Pending> todo{{nullptr, kRoot, true, false}};
  while (!todo.empty()) {
    Pending at = todo.back();
    todo.pop_back();
    if (const json::array* a = at.value ? at.value->if_array() : nullptr) {
      for (const auto& v : *a) todo.push_back({&v, at.path, false, false});
      continue;
    }
    const json::object* o = at.value ? at.value->if_object() : &input_schema;
    if (!o) continue;
    if (const json::value* annotation = o->if_contains(kAnnotation)) {
      if (!at.reachable || !at.is_property_schema) {
        return fail(
            invalid(steps, at.path, "is only allowed on a property reached from the root through properties alone"));
      }
      const json::string* name = annotation->if_string();
      if (!name || name->empty()) return fail(invalid(steps, at.path, "must be a non-empty string"));
      if (!std::all_of(name->begin(), name->end(), [](char c) { return is_tchar(static_cast<unsigned char>(c)); })) {
        return fail(
            invalid(steps, at.path, "\"" + peer_text(*name, 64) + "\" is not an HTTP field name (RFC 9110 token)"));
      }
      if (out.size() >= kMaxHeaderParams) {
        return fail(invalid(steps, at.path, "is one too many: a tool has at most " + std::to_string(kMaxHeaderParams)));
      }
      std::string lower(name->data(), name->size());
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
      if (!seen.insert(lower).second) {
        return fail(invalid(steps, at.path, "\"" + peer_text(*name, 64) + "\" repeats another annotation's name"));
      }
      auto type = param_type(*o, steps, at.path);
      if (!type) return fail(type.error());
      const auto keys = keys_to(steps, at.path);
      for (std::string_view k : keys) out_bytes += k.size();
      if (out_bytes > kMaxHeaderPathBytes) {
        return fail(invalid(steps, at.path,
                            "paths are too long: the annotated properties' names take more than " +
                                std::to_string(kMaxHeaderPathBytes) + " bytes together"));
      }
      out.push_back(
          {std::vector<std::string>(keys.begin(), keys.end()), std::string(name->data(), name->size()), *type});
    }
    for (const auto& [key, v] : *o) {
      if (key == "properties" && v.is_object() && at.reachable) {
        for (const auto& [property, schema] : v.get_object()) {
          steps.push_back({at.path, std::string_view(property.data(), property.size())});
          todo.push_back({&schema, steps.size() - 1, true, true});
        }
      } else if (key != kAnnotation) {
        todo.push_back({&v, at.path, false, false});
      }
    }
  }
  // The stack visits the schema backwards; the specification lists no order, a stable one helps.
  std::reverse(out.begin(), out.end());
  return out;
}

std::optional<std::string> header_param_text(const json::object& arguments, const HeaderParam& param) {
  const json::object* at = &arguments;
  const json::value* value = nullptr;
  for (std::size_t i = 0; i < param.path.size(); ++i) {
    if (!at) return std::nullopt;
    value = at->if_contains(param.path[i]);
    if (!value) return std::nullopt;
    at = value->if_object();
  }
  if (!value) return std::nullopt;
  if (const json::string* s = value->if_string()) return std::string(s->data(), s->size());
  if (value->is_bool()) return value->get_bool() ? "true" : "false";
  if (value->is_int64() && value->get_int64() >= -kMaxSafeInteger && value->get_int64() <= kMaxSafeInteger) {
    return std::to_string(value->get_int64());
  }
  if (value->is_uint64() && value->get_uint64() <= static_cast<std::uint64_t>(kMaxSafeInteger)) {
    return std::to_string(value->get_uint64());
  }
  return std::nullopt;
}

}  // namespace mcp
