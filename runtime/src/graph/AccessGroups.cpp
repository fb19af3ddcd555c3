#include "graph/AccessGroups.hpp"

#include <numeric>

namespace gpuss {

namespace {

bool joined(const BoundAccess &a, const BoundAccess &b) {
  if (a.region.empty() || b.region.empty()) return false;
  if (a.user.group != 0 && a.user.group == b.user.group) return true;
  return a.region.overlaps(b.region);
}

} // namespace

bool accesses_stand_alone(const std::vector<BoundAccess> &accesses) {
  for (std::size_t i = 0; i < accesses.size(); ++i)
    for (std::size_t j = i + 1; j < accesses.size(); ++j)
      if (joined(accesses[i], accesses[j])) return false;
  return true;
}

std::vector<AccessGroup> group_accesses(const std::vector<BoundAccess> &accesses) {
  // Union-find over the accesses; tasks have few, so the pairwise test is
  // cheaper than anything cleverer.
  std::vector<std::uint32_t> leader(accesses.size());
  std::iota(leader.begin(), leader.end(), 0u);
  auto find = [&](std::uint32_t i) {
    while (leader[i] != i)
      i = leader[i] = leader[leader[i]];
    return i;
  };
  for (std::uint32_t i = 0; i < accesses.size(); ++i)
    for (std::uint32_t j = i + 1; j < accesses.size(); ++j)
      if (joined(accesses[i], accesses[j])) {
        std::uint32_t a = find(i), b = find(j);
        leader[std::max(a, b)] = std::min(a, b);
      }

  std::vector<AccessGroup> groups;
  std::vector<std::int64_t> group_of_leader(accesses.size(), -1);
  for (std::uint32_t i = 0; i < accesses.size(); ++i) {
    const BoundAccess &access = accesses[i];
    if (access.region.empty()) continue;
    std::uint32_t root = find(i);
    if (group_of_leader[root] < 0) {
      group_of_leader[root] = static_cast<std::int64_t>(groups.size());
      groups.emplace_back();
    }
    AccessGroup &group = groups[static_cast<std::size_t>(group_of_leader[root])];
    group.members.push_back(i);
    GroupPart *part = nullptr;
    for (GroupPart &existing : group.parts)
      if (existing.region == access.region) part = &existing;
    if (!part) part = &group.parts.emplace_back(GroupPart{access.region});
    part->reads |= access.reads;
    part->writes |= access.writes;
    part->copy_in |= access.reads && access.copy_in;
  }
  return groups;
}

} // namespace gpuss
