// What every device worker does the same way when a command is done.
#include "devices/Device.hpp"
#include "support/StatsCounters.hpp"
#include "support/Trace.hpp"

namespace gpuss {

std::uint64_t payload_bytes(const std::vector<Transfer> &transfers) {
  std::uint64_t total = 0;
  for (const Transfer &transfer : transfers)
    total += transfer.payload_bytes();
  return total;
}

void WorkerContext::count_device_task(int device_index, const std::string &track, const Task &task) const {
  Stats::add(stats->device_busy_ns[device_index],
             static_cast<std::uint64_t>((task.end_time - task.start_time) * 1e9));
  Stats::add(stats->device_tasks[device_index], 1);
  if (trace->enabled()) trace->record(track, task.label, task.start_time, task.end_time, 0, task.traced());
}

void WorkerContext::report_done(DeviceCommand &command, int space) const {
  Completion done{command.task, space, std::move(command.before)};
  done.transfers.insert(done.transfers.end(), std::make_move_iterator(command.after.begin()),
                        std::make_move_iterator(command.after.end()));
  report(std::move(done));
}

} // namespace gpuss
