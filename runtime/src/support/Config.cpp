#include "support/Config.hpp"
#include "../mpi/NetworkModel.hpp" // MPI layer hook: CSS_MPI_NET
#include "devices/DeviceModel.hpp"
#include "support/Fatal.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>
#include <thread>
#include <unistd.h>

namespace gpuss {

const char *to_string(CachePolicy policy) {
  switch (policy) {
  case CachePolicy::NoCache:
    return "nocache";
  case CachePolicy::WriteThrough:
    return "wt";
  case CachePolicy::WriteBack:
    return "wb";
  }
  return "?";
}

const char *to_string(Eviction eviction) {
  switch (eviction) {
  case Eviction::Lru:
    return "lru";
  case Eviction::NextUse:
    return "next-use";
  }
  return "?";
}

const char *to_string(UnlockedCopies copies) {
  switch (copies) {
  case UnlockedCopies::Auto:
    return "auto";
  case UnlockedCopies::Lock:
    return "lock";
  case UnlockedCopies::Pageable:
    return "pageable";
  }
  return "?";
}

const char *to_string(HostPinning pinning) {
  switch (pinning) {
  case HostPinning::Off:
    return "0";
  case HostPinning::UntilFreed:
    return "1";
  case HostPinning::UntilBarrier:
    return "barrier";
  }
  return "?";
}

unsigned Config::default_num_cpus() {
  unsigned cores = std::thread::hardware_concurrency();
  // The master submits and the helper schedules; on small machines they
  // would fight the workers for the cores, so leave them one.
  return cores > 2 ? cores - 1 : 1;
}

bool parse_quantity(const std::string &text, std::initializer_list<Unit> units, double &value) {
  // A plain decimal number: digits with at most one point. strtod alone
  // also took "1e3", "0x100000", "inf" and "nan", which environment.md does
  // not list, and nan and inf reached casts to integers whose result is
  // undefined (CSS_DEVICE_GUARD=nan faulted; a helper's sweep, 2026-11-29).
  const std::size_t digits = text.find_first_not_of("0123456789.");
  const std::string number_text = text.substr(0, digits);
  if (number_text.empty() || number_text == "." || std::count(number_text.begin(), number_text.end(), '.') > 1)
    return false;
  char *end = nullptr;
  errno = 0;
  double number = std::strtod(text.c_str(), &end);
  if (errno != 0 || end != text.c_str() + number_text.size() || number < 0) return false;
  for (const Unit &unit : units)
    if (std::strcmp(end, unit.suffix) == 0) {
      value = number * unit.multiplier;
      return true;
    }
  return false;
}

bool parse_memory_size(const std::string &text, std::size_t total, std::size_t &bytes) {
  constexpr double K = 1024.0, M = K * 1024, G = M * 1024;
  double percent = 0, value = 0;
  if (parse_quantity(text, {{"%", 1}}, percent)) {
    if (percent > 100) return false;
    bytes = static_cast<std::size_t>(static_cast<double>(total) * percent / 100.0);
    return true;
  }
  if (!parse_quantity(
          text,
          {{"", 1}, {"B", 1}, {"K", K}, {"k", K}, {"KiB", K}, {"M", M}, {"MiB", M}, {"G", G}, {"GiB", G}},
          value))
    return false;
  // A size_t holds it (a larger one cannot be memory anyway).
  if (!(value < 0x1p63)) return false;
  bytes = static_cast<std::size_t>(value);
  return true;
}

namespace {

// Every variable the runtime reads (docs/environment.md). from_environment
// reads only these, and unknown_variables warns about any other CSS_* name.
constexpr const char *known_variables[] = {
    "CSS_NUM_CPUS",
    "CSS_NUM_GPUS",
    "CSS_SIM_DEVICES",
    "CSS_GPU_PARTITIONS",
    "CSS_CACHE_POLICY",
    "CSS_EVICTION",
    "CSS_SCHEDULER",
    "CSS_SIM_MODEL",
    "CSS_GPU_MEMORY",
    "CSS_RENAME_MEMORY",
    "CSS_PREFETCH_DEPTH",
    "CSS_WB_CLEAN",
    "CSS_EARLY_WRITE_BACK",
    "CSS_CRITICAL_PATH",
    "CSS_RANK_BY_TIME",
    "CSS_FAN_OUT_FIRST",
    "CSS_LOAD_AHEAD",
    "CSS_RANKED_FETCHES",
    "CSS_FETCH_QUEUE",
    "CSS_OOC_ORDER",
    "CSS_PROGRAM_ORDER",
    "CSS_GPU_STREAMS",
    "CSS_GPU_LANE_DEPTH",
    "CSS_GPU_WAIT_ALL_FETCHES",
    "CSS_GPU_ALIAS_PRIORITY",
    "CSS_PIN_HOST",
    "CSS_NESTED",
    "CSS_DEVICE_GUARD",
    "CSS_SPIN",
    "CSS_STATS",
    "CSS_DAG",
    "CSS_TRACE",
    "CSS_MAX_TASKS",
    "CSS_PIN_THREADS",
    "CSS_MPI_NET",
    "CSS_STAGING_THREADS",
    "CSS_DEVICE_EXTENTS",
    "CSS_DEVICE_ALIASES",
    "CSS_UNLOCKED_COPIES",
    "CSS_GPU_PRIORITY_LANE",
    "CSS_CHECK_REGIONS", // read by RegionCheck.cpp at load, before any Config
};

const char *variable(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

// A file the runtime writes at finish: refused now if it cannot be created
// there, rather than after the whole run.
void check_output_file(const char *name, const std::string &path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (::access(folder.c_str(), W_OK) != 0)
    fatal(std::string(name) + "='" + path + "': cannot create a file in '" + folder + "' (" +
          std::strerror(errno) + ")");
}

// Edit distance, for the name an unknown variable most likely meant.
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

unsigned parse_count(const char *name, const char *text, unsigned low, unsigned high) {
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < static_cast<long>(low) || value > static_cast<long>(high))
    fatal(std::string(name) + "='" + text + "' is not a whole number from " + std::to_string(low) + " to " +
          std::to_string(high));
  return static_cast<unsigned>(value);
}

// The words every switch takes: on, off, or neither (nullopt).
std::optional<bool> switch_word(const std::string &value) {
  if (value == "1" || value == "yes" || value == "true" || value == "on") return true;
  if (value == "0" || value == "no" || value == "false" || value == "off") return false;
  return std::nullopt;
}

bool parse_flag(const char *name, const char *text) {
  const std::string value(text);
  if (std::optional<bool> on = switch_word(value)) return *on;
  fatal(std::string(name) + "='" + value + "' is not a switch (1/0, yes/no, true/false, on/off)");
}

HostPinning parse_host_pinning(const char *text) {
  const std::string value(text);
  if (value == "barrier") return HostPinning::UntilBarrier;
  if (std::optional<bool> on = switch_word(value)) return *on ? HostPinning::UntilFreed : HostPinning::Off;
  fatal("CSS_PIN_HOST='" + value + "' is not 1 (lock until freed), barrier (until the next barrier) or 0");
}

ProgramOrder parse_program_order(const char *text) {
  const std::string value(text);
  if (value == "auto") return ProgramOrder::Auto;
  if (std::optional<bool> on = switch_word(value)) return *on ? ProgramOrder::Always : ProgramOrder::Never;
  fatal("CSS_PROGRAM_ORDER='" + value +
        "' is not auto (program order when no task holds others up), 1 (always) or 0 (never)");
}

} // namespace

Config Config::from_environment() {
  Config config;
  config.num_cpus = default_num_cpus();
  if (const char *v = variable("CSS_NUM_CPUS")) config.num_cpus = parse_count("CSS_NUM_CPUS", v, 0, 4096);
  if (const char *v = variable("CSS_NUM_GPUS"))
    config.num_gpus = static_cast<int>(parse_count("CSS_NUM_GPUS", v, 0, 64));
  if (const char *v = variable("CSS_SIM_DEVICES"))
    config.sim_devices = parse_count("CSS_SIM_DEVICES", v, 0, 64);
  if (const char *v = variable("CSS_GPU_PARTITIONS")) {
    config.gpu_partitions = parse_count("CSS_GPU_PARTITIONS", v, 1, max_gpu_partitions);
    // Simulated devices replace the GPUs, so nothing would be partitioned:
    // refuse rather than let a run that means to test partitions test none.
    if (config.gpu_partitions > 1 && config.sim_devices > 0)
      fatal(std::string("CSS_GPU_PARTITIONS='") + v +
            "' splits GPUs, but CSS_SIM_DEVICES replaces them; ask for more simulated devices instead");
  }
  if (const char *v = variable("CSS_CACHE_POLICY")) {
    std::string policy = v;
    if (policy == "nocache")
      config.cache_policy = CachePolicy::NoCache;
    else if (policy == "wt")
      config.cache_policy = CachePolicy::WriteThrough;
    else if (policy == "wb")
      config.cache_policy = CachePolicy::WriteBack;
    else
      fatal("CSS_CACHE_POLICY='" + policy + "' is not one of nocache, wt, wb");
  }
  if (const char *v = variable("CSS_EVICTION")) {
    std::string eviction = v;
    if (eviction == "lru")
      config.eviction = Eviction::Lru;
    else if (eviction == "next-use")
      config.eviction = Eviction::NextUse;
    else
      fatal("CSS_EVICTION='" + eviction + "' is not one of lru, next-use");
  }
  if (const char *v = variable("CSS_SCHEDULER")) {
    if (std::find_if(std::begin(scheduler_names), std::end(scheduler_names),
                     [&](const char *name) { return std::strcmp(name, v) == 0; }) == std::end(scheduler_names))
      fatal(std::string("CSS_SCHEDULER='") + v + "' is not one of locality, locality-nowait, eager, round-robin");
    config.scheduler = v;
  }
  if (const char *v = variable("CSS_SIM_MODEL")) {
    std::string error;
    if (!DeviceModel::parse(v, error)) fatal(std::string("CSS_SIM_MODEL: ") + error);
    if (config.sim_devices == 0)
      fatal("CSS_SIM_MODEL is set but CSS_SIM_DEVICES is not: the model applies to simulated devices only");
    config.sim_model = v;
  }
  if (const char *v = variable("CSS_GPU_MEMORY")) {
    // A share is checked against a nominal 1 GiB: 0% or too small a share is
    // refused as a byte count of 0 is.
    std::size_t probe = 0;
    if (!parse_memory_size(v, std::size_t{1} << 30, probe))
      fatal(std::string("CSS_GPU_MEMORY='") + v + "' is not a size (bytes, with K/M/G) or a percentage");
    if (probe == 0)
      fatal(std::string("CSS_GPU_MEMORY='") + v +
            "' leaves no device memory for task data; give a size such as 4G or a share such as 90%");
    config.device_memory = v;
  }
  if (const char *v = variable("CSS_RENAME_MEMORY"))
    if (!parse_memory_size(v, 0, config.rename_memory) || std::string(v).back() == '%')
      fatal(std::string("CSS_RENAME_MEMORY='") + v + "' is not a size in bytes (with K/M/G)");
  if (const char *v = variable("CSS_PREFETCH_DEPTH"))
    config.prefetch_depth = parse_count("CSS_PREFETCH_DEPTH", v, 0, 64), config.prefetch_depth_set = true;
  if (const char *v = variable("CSS_WB_CLEAN")) config.clean_while_idle = parse_flag("CSS_WB_CLEAN", v);
  if (const char *v = variable("CSS_EARLY_WRITE_BACK"))
    config.early_write_back = parse_flag("CSS_EARLY_WRITE_BACK", v);
  if (const char *v = variable("CSS_CRITICAL_PATH"))
    config.critical_path = parse_flag("CSS_CRITICAL_PATH", v);
  if (const char *v = variable("CSS_RANK_BY_TIME")) config.rank_by_time = parse_flag("CSS_RANK_BY_TIME", v);
  if (const char *v = variable("CSS_FAN_OUT_FIRST"))
    config.fan_out_first = parse_flag("CSS_FAN_OUT_FIRST", v);
  if (const char *v = variable("CSS_LOAD_AHEAD")) config.load_ahead = parse_flag("CSS_LOAD_AHEAD", v);
  if (const char *v = variable("CSS_RANKED_FETCHES"))
    config.ranked_fetches = parse_flag("CSS_RANKED_FETCHES", v);
  if (const char *v = variable("CSS_FETCH_QUEUE"))
    if (!parse_memory_size(v, 0, config.fetch_queue) || std::string(v).back() == '%')
      fatal(std::string("CSS_FETCH_QUEUE='") + v + "' is not a size in bytes (with K/M/G)");
  if (const char *v = variable("CSS_OOC_ORDER")) config.ooc_order = parse_flag("CSS_OOC_ORDER", v);
  if (const char *v = variable("CSS_PROGRAM_ORDER")) config.program_order = parse_program_order(v);
  if (const char *v = variable("CSS_DEVICE_ALIASES"))
    config.device_aliases = parse_flag("CSS_DEVICE_ALIASES", v);
  if (const char *v = variable("CSS_DEVICE_EXTENTS"))
    config.device_extents = parse_flag("CSS_DEVICE_EXTENTS", v);
  if (const char *v = variable("CSS_GPU_STREAMS"))
    config.gpu_streams = parse_count("CSS_GPU_STREAMS", v, 1, 16);
  if (const char *v = variable("CSS_GPU_ALIAS_PRIORITY"))
    config.gpu_alias_priority = parse_flag("CSS_GPU_ALIAS_PRIORITY", v);
  if (const char *v = variable("CSS_GPU_WAIT_ALL_FETCHES"))
    config.gpu_wait_all_fetches = parse_flag("CSS_GPU_WAIT_ALL_FETCHES", v);
  if (const char *v = variable("CSS_GPU_LANE_DEPTH"))
    config.gpu_lane_depth = parse_count("CSS_GPU_LANE_DEPTH", v, 0, 64);
  if (const char *v = variable("CSS_GPU_PRIORITY_LANE"))
    config.gpu_priority_lane = parse_flag("CSS_GPU_PRIORITY_LANE", v);
  if (const char *v = variable("CSS_PIN_HOST")) config.pin_host = parse_host_pinning(v);
  if (const char *v = variable("CSS_PIN_THREADS")) {
    config.pin_threads = parse_count("CSS_PIN_THREADS", v, 0, 16);
    config.pin_threads_set = true;
  }
  if (const char *v = variable("CSS_UNLOCKED_COPIES")) {
    // The names are to_string's.
    const std::string value(v);
    const UnlockedCopies modes[] = {UnlockedCopies::Auto, UnlockedCopies::Lock, UnlockedCopies::Pageable};
    auto mode = std::find_if(std::begin(modes), std::end(modes),
                             [&](UnlockedCopies m) { return value == to_string(m); });
    if (mode != std::end(modes))
      config.unlocked_copies = *mode;
    else
      fatal("CSS_UNLOCKED_COPIES='" + value +
            "' is not auto, lock (lock host memory before its first copy) or pageable (copy it as it is "
            "while it is locked in the background)");
  }
  if (const char *v = variable("CSS_STAGING_THREADS")) {
    config.staging_auto = std::string(v) == "auto";
    if (!config.staging_auto) config.staging_threads = parse_count("CSS_STAGING_THREADS", v, 0, 64);
  }
  if (const char *v = variable("CSS_NESTED")) {
    std::string mode = v;
    if (mode != "tasks" && mode != "inline")
      fatal("CSS_NESTED='" + mode + "' is not tasks (child tasks) or inline (run at once in the parent)");
    config.nested_inline = mode == "inline";
  }
  if (const char *v = variable("CSS_DEVICE_GUARD"))
    if (!parse_memory_size(v, 0, config.device_guard) || std::string(v).back() == '%')
      fatal(std::string("CSS_DEVICE_GUARD='") + v + "' is not a size in bytes (with K/M/G)");
  if (const char *v = variable("CSS_MAX_TASKS"))
    config.max_tasks = parse_count("CSS_MAX_TASKS", v, 0, 1000000000);
  if (const char *v = variable("CSS_CHECK_REGIONS"))
    config.check_regions = parse_flag("CSS_CHECK_REGIONS", v);
  if (const char *v = variable("CSS_SPIN")) config.spin_rounds = parse_count("CSS_SPIN", v, 0, 100000000);
  if (const char *v = variable("CSS_STATS")) config.stats = parse_flag("CSS_STATS", v);
  if (const char *v = variable("CSS_DAG")) {
    check_output_file("CSS_DAG", v);
    config.dag_file = v;
  }
  if (const char *v = variable("CSS_TRACE")) {
    check_output_file("CSS_TRACE", v);
    config.trace_file = v;
  }
  if (const char *v = variable("CSS_MPI_NET")) { // MPI layer hook (runtime/mpi/NetworkModel.hpp)
    std::string error;
    if (!mpi::NetworkModel::parse(v, error)) fatal("CSS_MPI_NET: " + error);
    config.mpi_net = v;
  }
  return config;
}

std::vector<Config::UnknownVariable> Config::unknown_variables() {
  std::vector<UnknownVariable> unknown;
  for (char **entry = environ; entry && *entry; ++entry) {
    const std::string_view assignment(*entry);
    if (!assignment.starts_with("CSS_")) continue;
    const std::string name(assignment.substr(0, assignment.find('=')));
    if (std::find(std::begin(known_variables), std::end(known_variables), name) != std::end(known_variables))
      continue;
    UnknownVariable variable{name, ""};
    std::size_t best = 4; // more edits than this is another name, not a typo
    for (const char *known : known_variables)
      if (std::size_t d = distance(name, known); d < best) {
        best = d;
        variable.meant = known;
      }
    unknown.push_back(std::move(variable));
  }
  return unknown;
}

} // namespace gpuss
