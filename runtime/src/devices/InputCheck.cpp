#include "devices/InputCheck.hpp"

#include "support/Fatal.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace gpuss {

InputCheck::InputCheck(const Task &task, const std::vector<void *> &addresses)
    : task_(task), addresses_(addresses) {
  const std::vector<BoundAccess> &accesses = task.accesses;
  for (std::size_t i = 0; i < accesses.size() && i < addresses.size(); ++i) {
    const BoundAccess &access = accesses[i];
    if (!access.reads || access.writes || access.region.empty() || !addresses[i]) continue;
    const bool written_too = std::any_of(accesses.begin(), accesses.end(), [&](const BoundAccess &other) {
      return other.writes && other.region.overlaps(access.region);
    });
    if (!written_too) watched_.push_back({i, hash_of(i)});
  }
}

std::uint64_t InputCheck::hash_of(std::size_t access) const {
  // Where the body sees the region.
  return fingerprint_region_bytes(static_cast<const std::byte *>(addresses_[access]),
                                  task_.accesses[access].region);
}

void InputCheck::verify() const {
  for (const Watched &watched : watched_) {
    if (hash_of(watched.access) == watched.hash) continue;
    const Region &region = task_.accesses[watched.access].region;
    char address[32];
    std::snprintf(address, sizeof address, "%#lx", static_cast<unsigned long>(region.base));
    fatal_for_task(task_.label, task_.file, task_.line,
                   std::string("its body wrote region ") + address + " (" +
                       std::to_string(region.payload_bytes()) + " bytes, access " +
                       std::to_string(watched.access) +
                       "), which the task names only as input: name it inout (or output) in the clause, "
                       "or the result depends on where the task runs (CSS_CHECK_REGIONS)");
  }
}

} // namespace gpuss
