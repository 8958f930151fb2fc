#include "json/equal.hpp"

#include <utility>

#include <boost/container/small_vector.hpp>

namespace mcp::detail {

namespace {

using Pair = std::pair<const json::value*, const json::value*>;
using Stack = boost::container::small_vector<Pair, 16>;

// Pushes the pairs of members two objects share a key for; false when their keys differ.
bool push_members(const json::object& x, const json::object& y, Stack& todo) {
  if (x.size() != y.size()) return false;
  for (const auto& member : x) {
    const json::value* other = y.if_contains(member.key());
    if (!other) return false;
    todo.emplace_back(&member.value(), other);
  }
  return true;
}

// Compares what can be compared at once; pushes the members or elements of two containers of the
// same size. False when they differ.
bool step(const json::value& a, const json::value& b, Stack& todo) {
  if (a.is_object() && b.is_object()) return push_members(a.get_object(), b.get_object(), todo);
  if (a.is_array() && b.is_array()) {
    const auto& x = a.get_array();
    const auto& y = b.get_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) todo.emplace_back(&x[i], &y[i]);
    return true;
  }
  if (a.is_structured() || b.is_structured()) return false;
  return a == b;  // scalars: no copies (and 1 == 1u, as == has it)
}

// Whether every pair left to compare is equal.
bool drain(Stack& todo) {
  while (!todo.empty()) {
    const auto [x, y] = todo.back();
    todo.pop_back();
    if (!step(*x, *y, todo)) return false;
  }
  return true;
}

}  // namespace

bool json_equal(const json::value& a, const json::value& b) {
  Stack todo;
  todo.emplace_back(&a, &b);
  return drain(todo);
}

bool json_equal(const json::object& a, const json::object& b) {
  Stack todo;
  return push_members(a, b, todo) && drain(todo);
}

}  // namespace mcp::detail
