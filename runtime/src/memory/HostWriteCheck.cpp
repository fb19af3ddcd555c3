#include "memory/HostWriteCheck.hpp"

#include "graph/Task.hpp"
#include "memory/DataObject.hpp"
#include "support/Fatal.hpp"

#include <cstdio>

namespace gpuss {

bool HostWriteCheck::checked(const DataObject &object) {
  return !object.renamed && !object.has_parts() && !object.shape.empty();
}

std::uint64_t HostWriteCheck::fingerprint(const DataObject &object) {
  // In host memory: user memory, since checked() leaves renamed buffers out.
  return fingerprint_region_bytes(object.host, object.shape);
}

void HostWriteCheck::copied_from_host(const DataObject &object) {
  if (checked(object)) fingerprints_[&object] = fingerprint(object);
}

void HostWriteCheck::host_written(const Region &region, const DataObject *now_home) {
  std::erase_if(fingerprints_, [&](const auto &entry) { return entry.first->shape.overlaps(region); });
  if (now_home && checked(*now_home)) fingerprints_[now_home] = fingerprint(*now_home);
}

void HostWriteCheck::check_reuse(const Task &task, const DataObject &object,
                                 const std::string &device) const {
  auto it = fingerprints_.find(&object);
  if (it == fingerprints_.end() || it->second == fingerprint(object)) return;
  char region[96];
  std::snprintf(region, sizeof region, "%#zx (%zu bytes", static_cast<std::size_t>(object.shape.base),
                object.shape.payload_bytes());
  fatal_for_task(task.label, task.file, task.line,
                 std::string("reads ") + region +
                     (object.shape.rows > 1 ? " in " + std::to_string(object.shape.rows) + " rows)" : ")") +
                     " from its copy on " + device +
                     ", but the program changed those bytes in host memory after the copy was made, with no "
                     "barrier or 'wait on' naming them in between: without CSS_CHECK_REGIONS the task would "
                     "read the device's older copy. Wait for the data (#pragma css wait on, css_wait_on) "
                     "before writing it while tasks use it");
}

} // namespace gpuss
