// DeviceModel: what a modelled accelerator costs, for CSS_SIM_MODEL.
//
// With a model, simulated devices do not run task bodies or copy bytes:
// they take the time the model gives each task (by label) and each copy (by
// size over the path's bandwidth), on the same three in-order engines a GPU
// worker uses (fetch, compute, write-back), and report completions when that
// time has passed. The runtime above them (dependencies, directory, cache,
// scheduling) runs for real, so a two-core machine can replay a four-GPU run
// of the real problem size in real time and show where the schedule loses
// time (CSS_TRACE, CSS_STATS). Results are not computed: for performance
// studies only. StarPU's SimGrid mode plays the same role.
//
// The spec is one comma-separated list of key=value:
//   <task label>=<duration>   e.g. chol_dgemm=318us (s, ms, us, ns; plain: seconds)
//   default=<duration>        tasks not listed (0 if absent)
//   h2d=, d2h=, p2p=<rate>    per device, bytes/s with K/M/G (decimal): 53G
//   host_h2d=, host_d2h=      all devices together over the host's links (0: no limit)
//   memory=<size>             each device's memory (binary K/M/G), default 80G
//
// Parsed on the master when the runtime starts; read-only afterwards, by
// the modelled devices' workers.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>

namespace gpuss {

struct DeviceModel {
  std::map<std::string, double, std::less<>> task_seconds;
  double default_task_seconds = 0;
  double h2d = 50e9, d2h = 50e9, p2p = 150e9; // bytes per second, per device
  double host_h2d = 0, host_d2h = 0;          // shared by all devices; 0 = unlimited
  std::size_t memory = std::size_t{80} << 30;

  // Null and a reason in `error` when `spec` is malformed.
  static std::optional<DeviceModel> parse(const std::string &spec, std::string &error);

  double seconds_for(const char *label) const {
    auto it = task_seconds.find(std::string_view(label));
    return it == task_seconds.end() ? default_task_seconds : it->second;
  }
};

} // namespace gpuss
