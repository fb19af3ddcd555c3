// IntervalIndex: finds the entries whose regions overlap a query region.
//
// Entries are keyed by base address. A query scans keys from
// (query.base - longest span seen) to query.end(), so the cost is the number
// of entries in that window plus a logarithmic search: small for blocked
// codes, where regions are many but of bounded size.
//
// Not thread-safe: each index belongs to the thread of its owner (the
// tracker's to the master, the directory's to the helper).
#pragma once

#include "graph/Region.hpp"

#include <map>

namespace gpuss {

template <typename Value> class IntervalIndex {
public:
  using Map = std::multimap<std::uintptr_t, Value>;

  typename Map::iterator insert(const Region &region, Value value) {
    longest_span_ = std::max(longest_span_, region.span());
    return entries_.emplace(region.base, std::move(value));
  }

  // Calls fn(Value&) for every entry whose region (given by region_of(Value))
  // overlaps `query`.
  template <typename RegionOf, typename Fn>
  void for_each_overlapping(const Region &query, RegionOf region_of, Fn fn) {
    if (query.empty()) return;
    for (auto it = first_candidate(query); it != entries_.end() && it->first < query.end(); ++it)
      if (region_of(it->second).overlaps(query)) fn(it->second);
  }

  // Erases every entry whose region overlaps `query` and for which
  // erase(Value&) returns true (it may also update the ones it keeps).
  template <typename RegionOf, typename Erase>
  void erase_overlapping_if(const Region &query, RegionOf region_of, Erase erase) {
    if (query.empty()) return;
    for (auto it = first_candidate(query); it != entries_.end() && it->first < query.end();)
      it = region_of(it->second).overlaps(query) && erase(it->second) ? entries_.erase(it) : std::next(it);
  }

  // The entry with exactly this region, or nullptr.
  template <typename RegionOf> Value *find_exact(const Region &query, RegionOf region_of) {
    auto [first, last] = entries_.equal_range(query.base);
    for (auto it = first; it != last; ++it)
      if (region_of(it->second) == query) return &it->second;
    return nullptr;
  }

  void erase(typename Map::iterator it) { entries_.erase(it); }
  Map &entries() { return entries_; }
  bool empty() const { return entries_.empty(); }
  void clear() {
    entries_.clear();
    longest_span_ = 0;
  }

private:
  // No entry before this one can reach `query`: none spans more than longest_span_.
  typename Map::iterator first_candidate(const Region &query) {
    return entries_.lower_bound(query.base > longest_span_ ? query.base - longest_span_ : 0);
  }

  Map entries_;
  std::size_t longest_span_ = 0;
};

} // namespace gpuss
