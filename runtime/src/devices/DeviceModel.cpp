#include "devices/DeviceModel.hpp"
#include "support/Config.hpp" // parse_quantity, parse_memory_size

#include <sstream>

namespace gpuss {

namespace {

// "318us" -> 318e-6 seconds.
bool parse_duration(const std::string &text, double &seconds) {
  return parse_quantity(text, {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}}, seconds);
}

// "53G" -> 53e9 bytes per second (decimal, as link rates are quoted).
bool parse_rate(const std::string &text, double &bytes_per_second) {
  return parse_quantity(text, {{"", 1}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}}, bytes_per_second);
}

} // namespace

std::optional<DeviceModel> DeviceModel::parse(const std::string &spec, std::string &error) {
  DeviceModel model;
  std::istringstream items(spec);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.empty()) continue;
    auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0) {
      error = "'" + item + "' is not key=value";
      return std::nullopt;
    }
    std::string key = item.substr(0, equals), value = item.substr(equals + 1);
    bool ok = true;
    if (key == "h2d")
      ok = parse_rate(value, model.h2d) && model.h2d > 0;
    else if (key == "d2h")
      ok = parse_rate(value, model.d2h) && model.d2h > 0;
    else if (key == "p2p")
      ok = parse_rate(value, model.p2p) && model.p2p > 0;
    else if (key == "host_h2d")
      ok = parse_rate(value, model.host_h2d);
    else if (key == "host_d2h")
      ok = parse_rate(value, model.host_d2h);
    else if (key == "memory")
      ok = parse_memory_size(value, 0, model.memory) && value.back() != '%' && model.memory > 0;
    else if (key == "default")
      ok = parse_duration(value, model.default_task_seconds);
    else
      ok = parse_duration(value, model.task_seconds[key]);
    if (!ok) {
      error = "'" + item + "': " + value + " is not a valid " +
              (key == "memory" ? "size"
               : key == "h2d" || key == "d2h" || key == "p2p" || key == "host_h2d" || key == "host_d2h"
                   ? "rate"
                   : "duration");
      return std::nullopt;
    }
  }
  return model;
}

} // namespace gpuss
