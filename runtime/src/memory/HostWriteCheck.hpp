// HostWriteCheck: CSS_CHECK_REGIONS=1, host memory the program changed
// behind a device copy the runtime still holds as current.
//
// A device keeps the copies it made (write-through and write-back caches),
// and uses one again for a later task without looking at host memory. A
// program that writes such data in host memory without a barrier or a
// `wait on` naming it between (after a `wait on` of something else, say)
// has its change ignored: the later task reads the device's older copy
// (docs/language.md). In checking mode, the host bytes of every copy made
// from user memory to a device are fingerprinted as the copy is issued, and
// a task that would use that device copy again, while host memory is still
// deemed current too, has them fingerprinted again; a difference is an
// error at the task's call:
//   gpuss: error: FILE:LINE: task 'LABEL': reads REGION (N bytes) from its
//   copy on DEVICE, but the program changed those bytes in host memory after
//   the copy was made, with no barrier or `wait on` naming them between ...
// The runtime's own writes to host memory (a value written back, a host
// task's or a copy-back's result) change the bytes legitimately: each one
// makes the fingerprints of the objects overlapping it unknown (or, for the
// written-back object, that of its new value), so only the program's writes
// are caught. Renamed buffers and objects of several parts are not checked
// (the program cannot reach the former; the latter's parts are).
//
// Owned by the Directory; helper thread only. Reading the bytes races with
// the program only when the program is writing them, which is the misuse.
#pragma once

#include "graph/Region.hpp"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace gpuss {

struct DataObject;
struct Task;

class HostWriteCheck {
public:
  // A copy of `object`'s value is leaving host memory for a device.
  void copied_from_host(const DataObject &object);
  // The runtime wrote host memory over `region` (`object`'s own value, if it
  // is the object that was written back and its value is now home).
  void host_written(const Region &region, const DataObject *now_home = nullptr);
  // `task` reads `object` from its copy on `device`, which is current, and
  // host memory holds the same value: an error if the program changed it.
  void check_reuse(const Task &task, const DataObject &object, const std::string &device) const;
  void forget(const DataObject &object) { fingerprints_.erase(&object); }

private:
  static bool checked(const DataObject &object);
  static std::uint64_t fingerprint(const DataObject &object);

  std::unordered_map<const DataObject *, std::uint64_t> fingerprints_;
};

} // namespace gpuss
