#include "support/Stats.hpp"
#include "support/StatsCounters.hpp"

#include <cstdio>
#include <sstream>

namespace gpuss {

std::string StatsSnapshot::format_line() const {
  std::ostringstream line;
  char wall[32];
  std::snprintf(wall, sizeof wall, "%.6f", wall_seconds);
  line << "css-stats: tasks=" << tasks << " renamed=" << renamed << " max_ready=" << max_ready
       << " wall_s=" << wall << " bytes_h2d=" << bytes_h2d << " bytes_d2h=" << bytes_d2h
       << " bytes_p2p=" << bytes_p2p << " cache_hits=" << cache_hits << " cache_misses=" << cache_misses
       << " evictions=" << evictions << " evictions_clean=" << evictions_clean
       << " evictions_dirty=" << evictions_dirty << " bytes_named=" << bytes_named;
  char per_data[32];
  std::snprintf(per_data, sizeof per_data, "%.3f",
                bytes_named == 0 ? 0.0 : static_cast<double>(bytes_h2d) / static_cast<double>(bytes_named));
  line << " h2d_per_data=" << per_data << " final_write_backs=" << final_write_backs
       << " loads_ahead=" << loads_ahead << " link_yields=" << link_yields << " early_releases=" << early_releases
       << " child_tasks=" << child_tasks << " inline_tasks=" << inline_tasks
       << " submit_waits=" << submit_waits << " edges=" << edges << " pin_host=" << pin_host
       << " pinned_bytes=" << pinned_bytes;
  auto seconds = [](double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6f", s);
    return std::string(text);
  };
  line << " pin_s=" << seconds(pin_seconds) << " pin_threads=" << pin_threads
       << " unlocked_copies=" << unlocked_copies << " staging_threads=" << staging_threads
       << " prefetch_depth=" << prefetch_depth << " staged_bytes=" << staged_bytes
       << " stage_s=" << seconds(stage_seconds) << " staging_alloc_s=" << seconds(staging_alloc_seconds)
       << " working_sets=" << working_sets << " program_ordered=" << program_ordered << " rankings=" << rankings << " timed_rankings=" << timed_rankings
       << " device_peak_bytes=" << device_peak_bytes << " bytes_on_device=" << bytes_on_device
       << " splits=" << splits << " priority_lane_tasks=" << priority_lane_tasks;
  for (std::size_t i = 0; i < cpu_busy_seconds.size(); ++i)
    line << " cpu" << i << "_busy_s=" << seconds(cpu_busy_seconds[i]);
  auto at = [](const std::vector<std::uint64_t> &values, std::size_t i) {
    return i < values.size() ? values[i] : 0;
  };
  for (std::size_t i = 0; i < device_busy_seconds.size(); ++i)
    line << " gpu" << i << "_busy_s=" << seconds(device_busy_seconds[i]) << " gpu" << i
         << "_tasks=" << at(device_tasks, i) << " gpu" << i << "_bytes_in=" << at(device_bytes_in, i) << " gpu"
         << i << "_bytes_out=" << at(device_bytes_out, i) << " gpu" << i
         << "_bytes_peer=" << at(device_bytes_peer, i) << " gpu" << i
         << "_evictions=" << at(device_evictions, i);
  return line.str();
}

Stats::Stats(std::size_t cpus, std::size_t devices)
    : cpu_busy_ns(cpus), device_busy_ns(devices), device_tasks(devices), device_bytes_in(devices),
      device_bytes_out(devices), device_bytes_peer(devices), device_evictions(devices),
      device_queued_ns(devices) {}

StatsSnapshot Stats::snapshot(double wall_seconds) const {
  StatsSnapshot s;
  auto get = [](const std::atomic<std::uint64_t> &a) { return a.load(std::memory_order_relaxed); };
  s.tasks = get(tasks);
  s.renamed = get(renamed);
  s.max_ready = get(max_ready);
  s.bytes_h2d = get(bytes_h2d);
  s.bytes_d2h = get(bytes_d2h);
  s.bytes_p2p = get(bytes_p2p);
  s.cache_hits = get(cache_hits);
  s.cache_misses = get(cache_misses);
  s.evictions = get(evictions);
  s.evictions_clean = get(evictions_clean);
  s.evictions_dirty = get(evictions_dirty);
  s.bytes_on_device = get(bytes_on_device);
  s.splits = get(splits);
  s.device_peak_bytes = get(device_peak_bytes);
  s.bytes_named = get(bytes_named);
  s.final_write_backs = get(final_write_backs);
  s.loads_ahead = get(loads_ahead);
  s.link_yields = get(link_yields);
  s.early_releases = get(early_releases);
  s.child_tasks = get(child_tasks);
  s.inline_tasks = get(inline_tasks);
  s.priority_lane_tasks = get(priority_lane_tasks);
  s.submit_waits = get(submit_waits);
  s.edges = get(edges.value);
  s.pin_host = pin_host;
  s.pinned_bytes = pinned_bytes;
  s.pin_seconds = pin_seconds;
  s.staged_bytes = staged_bytes;
  s.staging_threads = staging_threads;
  s.prefetch_depth = prefetch_depth;
  s.unlocked_copies = unlocked_copies;
  s.pin_threads = pin_threads;
  s.stage_seconds = stage_seconds;
  s.staging_alloc_seconds = get(staging_alloc_ns) * 1e-9;
  s.working_sets = get(working_sets);
  s.program_ordered = get(program_ordered);
  s.rankings = get(rankings);
  s.timed_rankings = get(timed_rankings);
  s.wall_seconds = wall_seconds;
  for (const auto &ns : cpu_busy_ns)
    s.cpu_busy_seconds.push_back(get(ns) * 1e-9);
  for (const auto &ns : device_busy_ns)
    s.device_busy_seconds.push_back(get(ns) * 1e-9);
  auto copy = [&](const std::vector<std::atomic<std::uint64_t>> &from, std::vector<std::uint64_t> &to) {
    for (const auto &value : from)
      to.push_back(get(value));
  };
  copy(device_tasks, s.device_tasks);
  copy(device_bytes_in, s.device_bytes_in);
  copy(device_bytes_out, s.device_bytes_out);
  copy(device_bytes_peer, s.device_bytes_peer);
  copy(device_evictions, s.device_evictions);
  for (const auto &ns : device_queued_ns)
    s.device_queued_seconds.push_back(get(ns) * 1e-9);
  return s;
}

} // namespace gpuss
