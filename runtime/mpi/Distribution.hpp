// Distribution: who owns each datum, which ranks hold its current value,
// and what each task call needs moved (docs/mpi.md).
//
// Pure bookkeeping, with no MPI in it. Every rank keeps the same one: it sees
// the same declarations and task calls in the same order, so it makes the
// same decisions, with no message to agree on them. A datum is a region the
// program declared (css_mpi_owner); the unit of every transfer is a whole
// datum. For each task call:
//   - it runs on the owner of the data it writes (owner computes), or where
//     css_mpi_task_rank placed it;
//   - a datum it reads (or writes only in part) that the executing rank does
//     not hold current comes from the rank that made the current value (its
//     last writer's, or its owner): one transfer, after which the executing
//     rank holds it too (the cache);
//   - a datum it writes is then current only where it ran.
// A barrier brings every value its owner lacks home and drops the caches:
// the program may write its own data after a barrier, as it may write user
// memory after a barrier without MPI (where device copies are dropped).
//
// Decisions never depend on addresses, which differ between ranks: data are
// numbered in declaration order, and every list is in that order.
//
// Threads: the master only (the MPI layer's calls hold the process lock).
#pragma once

#include "graph/IntervalIndex.hpp"
#include "graph/Region.hpp"
#include "gpuss.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpuss::mpi {

// The call site of an API call, for error messages.
struct Where {
  const char *file = nullptr;
  int line = 0;
  const char *call = ""; // css_mpi_owner, ...
};

// One datum's value moves from one rank to another.
struct Transfer {
  std::uint64_t datum = 0; // declaration number: the same on every rank
  Region region;           // the datum, in this rank's memory
  int from = 0;
  int to = 0;
};

struct TaskPlacement {
  int rank = 0;                    // where the task runs
  std::vector<Transfer> transfers; // before it, in this order
};

class Distribution {
public:
  explicit Distribution(int size);

  int size() const { return size_; }

  // css_mpi_owner: `owner` owns `region` from now on, and its memory holds
  // the value. Replaces the declarations it overlaps; a value tasks computed
  // must be in the new owner's memory already (css_mpi_gather to it), or the
  // declaration is an error: it would be lost silently.
  void declare(const Region &region, int owner, const Where &where);
  // css_mpi_task_rank: the next task call runs on `rank`.
  void place_next(int rank, const Where &where);
  // A task call: where it runs and what moves first. The state changes as if
  // it ran. Misuse (data of no declaration, written data of two owners) is
  // an error naming the task.
  TaskPlacement place(const css_task_desc &desc);
  // A barrier: the transfers that bring home every value its owner lacks;
  // after them every datum is current on its owner only.
  std::vector<Transfer> home();
  // css_mpi_gather and wait on: the transfers that bring the data
  // overlapping `range` to `root` (CSS_MPI_ALL: every rank). With every rank
  // or the owner as root the datum is then home, current on its owner only;
  // another root holds it as a cached copy. Also lists, in `data`, the
  // regions of the data found.
  std::vector<Transfer> gather(const Region &range, int root, std::vector<Region> *data = nullptr);
  // css_mpi_forget, css_release: the program is done with this memory; its
  // declarations go.
  void forget(const Region &range);

  // A digest of every decision so far: equal on every rank that made the
  // same calls (checked at barriers).
  std::uint64_t digest() const { return digest_; }
  std::size_t declared() const { return by_id_.size(); }

private:
  struct Datum {
    std::uint64_t id;
    Region region;
    int owner;
    int holder;                // made the current value: its last writer's rank, or its owner
    std::vector<int> valid_on; // ranks whose memory holds the current value, holder included
    bool computed = false;     // a task has written it: its value is not the program's initial one
    bool is_valid_on(int rank) const;
  };
  using DatumRef = std::shared_ptr<Datum>;

  void check_rank(int rank, const Where &where, const char *what) const;
  // The data overlapping `region`, by declaration number.
  std::vector<Datum *> overlapping(const Region &region);
  void erase(Datum *datum);
  // Bookkeeping of data not at rest (current elsewhere than on the owner alone).
  void note_state(Datum &datum);
  void mix(std::uint64_t value);

  const int size_;
  IntervalIndex<DatumRef> index_;
  std::map<std::uint64_t, DatumRef> by_id_;
  std::map<std::uint64_t, Datum *> unsettled_; // by id: holder != owner, or cached elsewhere
  std::uint64_t next_id_ = 1;
  int placed_next_ = -1; // css_mpi_task_rank for the next task call, or -1
  std::uint64_t digest_ = 0xcbf29ce484222325ULL;
};

} // namespace gpuss::mpi
