#include "Config.hpp"
#include "DeviceModel.hpp"
#include "Fatal.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

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
  if (text.empty()) return false;
  char *end = nullptr;
  errno = 0;
  double number = std::strtod(text.c_str(), &end);
  if (errno != 0 || end == text.c_str() || number < 0) return false;
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
  bytes = static_cast<std::size_t>(value);
  return true;
}

namespace {

const char *variable(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

unsigned parse_count(const char *name, const char *text, unsigned low, unsigned high) {
  char *end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (*end != '\0' || value < static_cast<long>(low) || value > static_cast<long>(high))
    fatal(std::string(name) + "='" + text + "' is not a whole number from " + std::to_string(low) + " to " +
          std::to_string(high));
  return static_cast<unsigned>(value);
}

bool parse_flag(const char *name, const char *text) {
  const std::string value(text);
  if (value == "1" || value == "yes" || value == "true" || value == "on") return true;
  if (value == "0" || value == "no" || value == "false" || value == "off") return false;
  fatal(std::string(name) + "='" + value + "' is not a switch (1/0, yes/no, true/false, on/off)");
}

HostPinning parse_host_pinning(const char *text) {
  const std::string value(text);
  if (value == "barrier") return HostPinning::UntilBarrier;
  if (value == "1" || value == "yes" || value == "true" || value == "on") return HostPinning::UntilFreed;
  if (value == "0" || value == "no" || value == "false" || value == "off") return HostPinning::Off;
  fatal("CSS_PIN_HOST='" + value + "' is not 1 (lock until freed), barrier (until the next barrier) or 0");
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
  if (const char *v = variable("CSS_SCHEDULER")) config.scheduler = v;
  if (const char *v = variable("CSS_SIM_MODEL")) {
    std::string error;
    if (!DeviceModel::parse(v, error)) fatal(std::string("CSS_SIM_MODEL: ") + error);
    if (config.sim_devices == 0)
      fatal("CSS_SIM_MODEL is set but CSS_SIM_DEVICES is not: the model applies to simulated devices only");
    config.sim_model = v;
  }
  if (const char *v = variable("CSS_GPU_MEMORY")) {
    std::size_t probe = 0;
    if (!parse_memory_size(v, 100, probe))
      fatal(std::string("CSS_GPU_MEMORY='") + v + "' is not a size (bytes, with K/M/G) or a percentage");
    config.device_memory = v;
  }
  if (const char *v = variable("CSS_RENAME_MEMORY"))
    if (!parse_memory_size(v, 0, config.rename_memory) || std::string(v).back() == '%')
      fatal(std::string("CSS_RENAME_MEMORY='") + v + "' is not a size in bytes (with K/M/G)");
  if (const char *v = variable("CSS_PREFETCH_DEPTH"))
    config.prefetch_depth = parse_count("CSS_PREFETCH_DEPTH", v, 0, 64);
  if (const char *v = variable("CSS_WB_CLEAN")) config.clean_while_idle = parse_flag("CSS_WB_CLEAN", v);
  if (const char *v = variable("CSS_EARLY_WRITE_BACK"))
    config.early_write_back = parse_flag("CSS_EARLY_WRITE_BACK", v);
  if (const char *v = variable("CSS_CRITICAL_PATH"))
    config.critical_path = parse_flag("CSS_CRITICAL_PATH", v);
  if (const char *v = variable("CSS_FAN_OUT_FIRST"))
    config.fan_out_first = parse_flag("CSS_FAN_OUT_FIRST", v);
  if (const char *v = variable("CSS_LOAD_AHEAD")) config.load_ahead = parse_flag("CSS_LOAD_AHEAD", v);
  if (const char *v = variable("CSS_GPU_STREAMS"))
    config.gpu_streams = parse_count("CSS_GPU_STREAMS", v, 1, 16);
  if (const char *v = variable("CSS_PIN_HOST")) config.pin_host = parse_host_pinning(v);
  if (const char *v = variable("CSS_NESTED")) {
    std::string mode = v;
    if (mode != "tasks" && mode != "inline")
      fatal("CSS_NESTED='" + mode + "' is not tasks (child tasks) or inline (run at once in the parent)");
    config.nested_inline = mode == "inline";
  }
  if (const char *v = variable("CSS_DEVICE_GUARD"))
    if (!parse_memory_size(v, 0, config.device_guard) || std::string(v).back() == '%')
      fatal(std::string("CSS_DEVICE_GUARD='") + v + "' is not a size in bytes (with K/M/G)");
  if (const char *v = variable("CSS_CHECK_REGIONS"))
    config.check_regions = parse_flag("CSS_CHECK_REGIONS", v);
  if (const char *v = variable("CSS_SPIN")) config.spin_rounds = parse_count("CSS_SPIN", v, 0, 100000000);
  if (const char *v = variable("CSS_STATS")) config.stats = parse_flag("CSS_STATS", v);
  if (const char *v = variable("CSS_DAG")) config.dag_file = v;
  if (const char *v = variable("CSS_TRACE")) config.trace_file = v;
  return config;
}

} // namespace gpuss
