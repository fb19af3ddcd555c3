// Distribution: owner computes, the cache, and barriers (Distribution.hpp).
#include "Distribution.hpp"
#include "support/Fatal.hpp"
#include "gpuss_mpi.h"

#include <algorithm>
#include <cstdio>

namespace gpuss::mpi {

namespace {

std::string describe(const Region &region) {
  char text[96];
  if (region.is_contiguous())
    std::snprintf(text, sizeof text, "%zu bytes at %p", region.row_bytes,
                  reinterpret_cast<void *>(region.base));
  else
    std::snprintf(text, sizeof text, "%zu rows of %zu bytes, %zu apart, at %p", region.rows, region.row_bytes,
                  region.stride, reinterpret_cast<void *>(region.base));
  return text;
}

[[noreturn]] void fatal_at(const Where &where, const std::string &message) {
  fatal(std::string(where.file ? where.file : "<unknown>") + ":" + std::to_string(where.line) + ": " +
        where.call + ": " + message);
}

} // namespace

bool Distribution::Datum::is_valid_on(int rank) const {
  return std::find(valid_on.begin(), valid_on.end(), rank) != valid_on.end();
}

Distribution::Distribution(int size) : size_(size) {}

void Distribution::mix(std::uint64_t value) {
  // FNV-1a over the value's bytes: any different decision changes it.
  for (int byte = 0; byte < 8; ++byte) {
    digest_ ^= (value >> (8 * byte)) & 0xff;
    digest_ *= 0x100000001b3ULL;
  }
}

void Distribution::check_rank(int rank, const Where &where, const char *what) const {
  if (rank < 0 || rank >= size_)
    fatal_at(where, std::string(what) + " " + std::to_string(rank) + " is not a rank: the program runs on " +
                        std::to_string(size_) +
                        (size_ == 1 ? " rank (0)" : " ranks (0 to " + std::to_string(size_ - 1) + ")"));
}

std::vector<Distribution::Datum *> Distribution::overlapping(const Region &region) {
  std::vector<Datum *> found;
  index_.for_each_overlapping(
      region, [](const DatumRef &datum) -> const Region & { return datum->region; },
      [&](DatumRef &datum) { found.push_back(datum.get()); });
  std::sort(found.begin(), found.end(), [](const Datum *a, const Datum *b) { return a->id < b->id; });
  return found;
}

void Distribution::erase(Datum *datum) {
  unsettled_.erase(datum->id);
  index_.erase_overlapping_if(
      datum->region, [](const DatumRef &d) -> const Region & { return d->region; },
      [&](const DatumRef &d) { return d.get() == datum; });
  by_id_.erase(datum->id); // last: it holds the datum alive
}

void Distribution::note_state(Datum &datum) {
  bool at_rest = datum.holder == datum.owner && datum.valid_on.size() == 1;
  if (at_rest)
    unsettled_.erase(datum.id);
  else
    unsettled_.emplace(datum.id, &datum);
}

void Distribution::declare(const Region &region, int owner, const Where &where) {
  if (auto problem = region.misuse()) fatal_at(where, *problem);
  if (region.empty()) fatal_at(where, "declares no bytes");
  check_rank(owner, where, "owner");
  std::vector<Datum *> found = overlapping(region);
  bool computed = false;
  for (Datum *old : found) {
    // The new owner's memory is to hold the value: a value tasks computed
    // must be there already, or the declaration would lose it silently.
    if (old->computed && !old->is_valid_on(owner))
      fatal_at(where,
               describe(region) + " overlaps data (" + describe(old->region) + ", rank " +
                   std::to_string(old->owner) + "'s) whose current value tasks computed on rank " +
                   std::to_string(old->holder) + ", and rank " + std::to_string(owner) +
                   " lacks it: to move the data, call css_mpi_gather(address, bytes, " +
                   std::to_string(owner) +
                   ") first; if the memory was freed and is reused, call css_mpi_forget before freeing it");
    computed = computed || old->computed;
  }
  for (Datum *old : found)
    erase(old);
  auto datum = std::make_shared<Datum>(Datum{next_id_++, region, owner, owner, {owner}, computed});
  index_.insert(region, datum);
  by_id_.emplace(datum->id, datum);
  mix(0xdec1a7e);
  mix(region.payload_bytes());
  mix(static_cast<std::uint64_t>(owner));
}

void Distribution::place_next(int rank, const Where &where) {
  check_rank(rank, where, "rank");
  placed_next_ = rank;
}

TaskPlacement Distribution::place(const css_task_desc &desc) {
  struct Use {
    Datum *datum;
    std::uint32_t access; // the first access that uses it, for messages
    bool needs_value;     // the task reads it, or writes only part of it
    bool writes;
  };
  std::vector<Use> uses;
  for (std::uint32_t i = 0; i < desc.num_accesses; ++i) {
    const css_access &access = desc.accesses[i];
    const Region region = Region::from(access.region);
    if (region.empty()) continue;
    if (auto problem = region.misuse())
      fatal_for_task(&desc, "access " + std::to_string(i) + ": " + *problem);
    std::vector<Datum *> found = overlapping(region);
    if (found.empty())
      fatal_for_task(&desc, "access " + std::to_string(i) + " (" + describe(region) +
                                ") lies in no data declared with css_mpi_owner: under MPI every datum a task "
                                "uses needs an owner (docs/mpi.md)");
    if (found.size() != 1 || !found.front()->region.contains(region)) {
      // Several whole data, such as a task over a whole array declared by
      // parts: each is used, as if the access named it alone.
      bool whole_data = region.is_contiguous();
      std::size_t covered = 0;
      for (const Datum *datum : found) {
        whole_data = whole_data && datum->region.is_contiguous() && region.contains(datum->region);
        covered += datum->region.payload_bytes();
      }
      if (!whole_data || covered != region.payload_bytes())
        fatal_for_task(&desc,
                       "access " + std::to_string(i) + " (" + describe(region) +
                           ") is neither inside one datum declared with css_mpi_owner nor made of whole "
                           "declared data: it lies partly outside them, or cuts through one (" +
                           describe(found.front()->region) + ", rank " +
                           std::to_string(found.front()->owner) + "'s)");
    }
    for (Datum *datum : found) {
      auto use = std::find_if(uses.begin(), uses.end(), [&](const Use &u) { return u.datum == datum; });
      if (use == uses.end()) use = uses.insert(uses.end(), Use{datum, i, false, false});
      use->needs_value |= access.direction != CSS_OUT || !region.contains(datum->region);
      use->writes |= access.direction != CSS_IN;
    }
  }

  TaskPlacement placement;
  if (placed_next_ >= 0) {
    placement.rank = placed_next_;
    placed_next_ = -1;
  } else {
    const Use *writer = nullptr;
    for (const Use &use : uses) {
      if (!use.writes) continue;
      if (writer && use.datum->owner != writer->datum->owner)
        fatal_for_task(&desc, "writes data of two owners: access " + std::to_string(writer->access) + " (" +
                                  describe(writer->datum->region) + ") is rank " +
                                  std::to_string(writer->datum->owner) + "'s, access " +
                                  std::to_string(use.access) + " (" + describe(use.datum->region) +
                                  ") rank " + std::to_string(use.datum->owner) +
                                  "'s. Under MPI a task runs where the data it writes lives: split the task, "
                                  "declare both data with one owner, or place it with css_mpi_task_rank");
      if (!writer) writer = &use;
    }
    // A task that writes nothing runs with its first datum; one without
    // data, once, on rank 0.
    placement.rank = writer ? writer->datum->owner : uses.empty() ? 0 : uses.front().datum->owner;
  }

  const int rank = placement.rank;
  mix(static_cast<std::uint64_t>(rank));
  for (const Use &use : uses) {
    Datum &datum = *use.datum;
    mix(datum.id);
    if (!use.needs_value || datum.is_valid_on(rank)) continue;
    placement.transfers.push_back(Transfer{datum.id, datum.region, datum.holder, rank});
    mix(static_cast<std::uint64_t>(datum.holder));
    datum.valid_on.push_back(rank);
    note_state(datum);
  }
  for (const Use &use : uses) {
    if (!use.writes) continue;
    Datum &datum = *use.datum;
    datum.holder = rank;
    datum.valid_on.assign(1, rank);
    datum.computed = true;
    note_state(datum);
  }
  return placement;
}

std::vector<Transfer> Distribution::home() {
  std::vector<Transfer> transfers;
  for (auto &[id, datum] : unsettled_) {
    if (datum->holder != datum->owner) {
      transfers.push_back(Transfer{id, datum->region, datum->holder, datum->owner});
      mix(id);
    }
    datum->holder = datum->owner;
    datum->valid_on.assign(1, datum->owner);
  }
  unsettled_.clear();
  mix(0xba441e7);
  return transfers;
}

std::vector<Transfer> Distribution::gather(const Region &range, int root, std::vector<Region> *data) {
  std::vector<Transfer> transfers;
  for (Datum *datum : overlapping(range)) {
    if (data) data->push_back(datum->region);
    for (int to = root == CSS_MPI_ALL ? 0 : root; to < (root == CSS_MPI_ALL ? size_ : root + 1); ++to)
      if (!datum->is_valid_on(to)) {
        transfers.push_back(Transfer{datum->id, datum->region, datum->holder, to});
        mix(datum->id);
      }
    if (root == CSS_MPI_ALL || root == datum->owner) {
      datum->holder = datum->owner;
      datum->valid_on.assign(1, datum->owner);
    } else if (!datum->is_valid_on(root)) {
      datum->valid_on.push_back(root); // a copy there, as a task's input would leave
    }
    note_state(*datum);
  }
  mix(0x6a74e5);
  return transfers;
}

void Distribution::forget(const Region &range) {
  for (Datum *datum : overlapping(range))
    erase(datum);
}

} // namespace gpuss::mpi
