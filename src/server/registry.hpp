// Private to the server: the items of one kind (tools, prompts, resources, templates), kept in the
// order they were registered, which is the order lists are served in, and found, replaced and
// removed by key in logarithmic time, without looking at the others.
//
// A gateway registers every item an upstream lists, and an upstream is a peer: up to 50,000 pins
// per upstream (PinStore::kMaxPinsPerServer), more at /mcp. Kept in vectors, each registration and
// removal scanned them all, and so did each request naming an item, under the server's lock that
// every session shares: 50,000 tools took 6.4 s to register and a tools/call on them 513 µs
// instead of 6 µs (bench/server/registry_bench.cpp, bench/RESULTS.md "2026-12-06: a server with
// many items").
//
// Not thread-safe: the server's `mu` guards it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ranges>
#include <string>
#include <string_view>
#include <utility>

namespace mcp::detail {

template <class T>
class Registry {
 public:
  // Registers `item` under `key`: in the place of the item it replaces, or last. The replaced one,
  // if any.
  std::optional<T> upsert(const std::string& key, T item) {
    if (auto it = index_.find(std::string_view(key)); it != index_.end()) {
      T& slot = it->second->second;
      std::optional<T> replaced(std::move(slot));
      slot = std::move(item);
      return replaced;
    }
    auto placed = ordered_.emplace_hint(ordered_.end(), next_++, std::move(item));
    index_.emplace(key, placed);
    return std::nullopt;
  }

  // Removes the item registered under `key`; the removed one, if any.
  std::optional<T> erase(std::string_view key) {
    auto it = index_.find(key);
    if (it == index_.end()) return std::nullopt;
    auto node = ordered_.extract(it->second);  // the item moves out of its node, uncopied
    index_.erase(it);
    return std::optional<T>(std::move(node.mapped()));
  }

  // The item registered under `key`, or null. Valid until the registry changes.
  const T* find(std::string_view key) const {
    auto it = index_.find(key);
    return it == index_.end() ? nullptr : &it->second->second;
  }

  // Every item, in registration order.
  auto items() const { return std::views::values(ordered_); }
  // The items at `place` and after, each as (place, item): a place names an item's position for as
  // long as it stays registered (a list's cursor), and a later item always has a greater one.
  auto from(std::uint64_t place) const { return std::ranges::subrange(ordered_.lower_bound(place), ordered_.end()); }
  std::size_t size() const { return ordered_.size(); }

 private:
  // Each item's place: a number that only grows, so the map's order is registration order and a
  // removal leaves the others where they are. The index holds each key's node of the map (its
  // iterators stay valid until that node is erased). It is ordered, not hashed: the keys are a
  // peer's names, and names chosen to collide in a known hash would make each lookup a scan again.
  using Ordered = std::map<std::uint64_t, T>;
  Ordered ordered_;
  std::map<std::string, typename Ordered::iterator, std::less<>> index_;
  std::uint64_t next_ = 0;
};

}  // namespace mcp::detail
