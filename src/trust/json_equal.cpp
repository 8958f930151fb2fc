#include "mcp/trust/json_equal.hpp"

#include <cstdint>
#include <vector>

namespace mcp::trust {

namespace {

bool is_number(const json::value& v) noexcept { return v.is_int64() || v.is_uint64() || v.is_double(); }

// Integers compare exactly among themselves; against a double, as the double JCS would print
// (integers beyond 2^53 are rounded to a double by canonicalisation too).
bool number_equal(const json::value& a, const json::value& b) noexcept {
  if (a.is_int64() && b.is_int64()) return a.get_int64() == b.get_int64();
  if (a.is_uint64() && b.is_uint64()) return a.get_uint64() == b.get_uint64();
  if (!a.is_double() && !b.is_double()) {
    // int64 against uint64: equal only when both are non-negative and the same.
    const json::value& i = a.is_int64() ? a : b;
    const json::value& u = a.is_int64() ? b : a;
    return i.get_int64() >= 0 && static_cast<std::uint64_t>(i.get_int64()) == u.get_uint64();
  }
  auto as_double = [](const json::value& v) {
    if (v.is_double()) return v.get_double();
    if (v.is_int64()) return static_cast<double>(v.get_int64());
    return static_cast<double>(v.get_uint64());
  };
  return as_double(a) == as_double(b);
}

struct Pair {
  const json::value* a;
  const json::value* b;
};

// Compares one pair's scalars; for containers of equal size, pushes their children.
bool step(const json::value& a, const json::value& b, std::vector<Pair>& todo) {
  if (is_number(a) && is_number(b)) return number_equal(a, b);
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case json::kind::null: return true;
    case json::kind::bool_: return a.get_bool() == b.get_bool();
    case json::kind::string: return a.get_string() == b.get_string();
    case json::kind::object: {
      const auto& x = a.get_object();
      const auto& y = b.get_object();
      if (x.size() != y.size()) return false;
      for (const auto& kv : x) {
        const json::value* other = y.if_contains(kv.key());
        if (other == nullptr) return false;
        todo.push_back({&kv.value(), other});
      }
      return true;
    }
    case json::kind::array: {
      const auto& x = a.get_array();
      const auto& y = b.get_array();
      if (x.size() != y.size()) return false;
      for (std::size_t i = 0; i < x.size(); ++i) todo.push_back({&x[i], &y[i]});
      return true;
    }
    default: return false;  // numbers were handled above
  }
}

}  // namespace

bool canonically_equal(const json::value& a, const json::value& b) {
  std::vector<Pair> todo{{&a, &b}};
  while (!todo.empty()) {
    Pair p = todo.back();
    todo.pop_back();
    if (!step(*p.a, *p.b, todo)) return false;
  }
  return true;
}

bool canonically_equal(const json::object& a, const json::object& b) {
  if (a.size() != b.size()) return false;
  std::vector<Pair> todo;
  for (const auto& kv : a) {
    const json::value* other = b.if_contains(kv.key());
    if (other == nullptr) return false;
    todo.push_back({&kv.value(), other});
  }
  while (!todo.empty()) {
    Pair p = todo.back();
    todo.pop_back();
    if (!step(*p.a, *p.b, todo)) return false;
  }
  return true;
}

}  // namespace mcp::trust
