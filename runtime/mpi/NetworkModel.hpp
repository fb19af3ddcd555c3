// NetworkModel: what a modelled network costs, for CSS_MPI_NET (docs/mpi.md).
//
// With CSS_SIM_MODEL (modelled devices), the MPI layer can model the network
// too: ranks exchange a small token per message instead of its bytes, and a
// message takes `latency` plus its bytes over `bandwidth`, on each node's
// one link out and one link in (a message waits for the messages before it
// on both). The spec is a comma-separated list of key=value:
//   latency=<duration>    2us (s, ms, us, ns; plain: seconds)
//   bandwidth=<rate>      bytes/s per link and direction, decimal K/M/G: 25G
//                         (200 Gb/s)
//
// Threads: parsed once (Config, the layer's start); read-only after.
#pragma once

#include "support/Config.hpp" // parse_quantity

#include <optional>
#include <sstream>
#include <string>

namespace gpuss::mpi {

struct NetworkModel {
  double latency = 2e-6;   // seconds
  double bandwidth = 25e9; // bytes per second, each way
  bool modelled = false;   // CSS_MPI_NET was given

  double seconds_for(double bytes) const { return bytes / bandwidth; }

  // Null and a reason in `error` when `spec` is malformed.
  static std::optional<NetworkModel> parse(const std::string &spec, std::string &error) {
    NetworkModel model;
    model.modelled = true;
    std::istringstream items(spec);
    std::string item;
    while (std::getline(items, item, ',')) {
      if (item.empty()) continue;
      const auto equals = item.find('=');
      const std::string key = item.substr(0, equals),
                        value = equals == std::string::npos ? "" : item.substr(equals + 1);
      bool ok = false;
      if (key == "latency")
        ok = parse_quantity(value, {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}},
                            model.latency);
      else if (key == "bandwidth")
        ok = parse_quantity(value, {{"", 1}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}}, model.bandwidth) &&
             model.bandwidth > 0;
      else {
        error = "'" + item + "': unknown key '" + key + "' (latency=, bandwidth=)";
        return std::nullopt;
      }
      if (!ok) {
        error = "'" + item + "': '" + value + "' is not a valid " + (key == "latency" ? "duration" : "rate");
        return std::nullopt;
      }
    }
    return model;
  }
};

} // namespace gpuss::mpi
