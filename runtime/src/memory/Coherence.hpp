// Coherence: the state of one object's copy in one memory space, and the
// only ways it changes.
//
// Every object has a Replica per memory space (space 0 is host memory, 1..
// the accelerators). Its state says whether the copy there holds the
// object's current value; the named transitions below are the only writers
// of that state, each checking in checked builds (GPUSS_CHECK_INVARIANTS)
// that it starts from a state it is defined for. Who decides that a copy
// moves or a value is superseded is the Directory (Directory.hpp); this
// file is the vocabulary it decides in.
//
//                 attach                begin_fill
//   Absent ─────────────────▶ Valid ─────────────────▶ Filling
//     ▲  ▲                     │ ▲                        │
//     │  │ release_storage     │ └──────── land ──────────┘
//     │  └───── (unused) ──────┤                          │ supersede
//     │                        │ supersede (in use)       ▼
//     │                        └────────────▶ Stale ◀── Outdated
//     └──────────── release_storage (unused) ◀─┘   land (device)
//
// Host memory (space 0) has no storage to attach or release: its replica
// goes Absent (a device holds the value) → Filling (a write-back is on its
// way) → Valid, and Filling → Outdated → Absent when a newer value was
// written meanwhile.
//
// Helper thread only (the directory's owner), except at creation, where the
// master sets the host replica of a new object Valid before anyone else
// can see it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuss {

// Device memory reserved in an accelerator's pool: a replica's bytes, and
// around them the guard zones of CSS_DEVICE_GUARD (none by default).
struct DeviceBlock {
  std::size_t offset = 0;       // of the reservation in the pool
  std::size_t bytes = 0;        // reserved, guard zones included
  std::byte *address = nullptr; // where the replica starts (host-addressable for simulated devices)
  std::size_t usable = 0;       // bytes from `address` the replica may use
  std::uint32_t extent = 0;     // 0: a pool block of its own; else the shared extent it views (holds no
                                // pool bytes itself: SoftwareCache.hpp)
  explicit operator bool() const { return address != nullptr; }
};

enum class ReplicaState : std::uint8_t {
  Absent,   // no value here (on a device, no storage either)
  Valid,    // holds the current value
  Filling,  // a copy of the current value is on its way in; a device runs what it is given after the
            // copy (its fetch streams are in order), so it counts as holding the value
  Outdated, // a copy is on its way in, but a newer value has been written since: dropped once it lands
  Stale,    // a device's copy of an obsolete value that a task or a copy still uses: freed once unused
};

const char *to_string(ReplicaState state);

// A transition made from a state it is not defined for: a directory bug.
[[noreturn]] void coherence_violation(const char *transition, ReplicaState state);

class Replica {
public:
  ReplicaState state() const { return state_; }
  // Holds the current value, or will before anything ordered after the copy reads it.
  bool holds_value() const { return state_ == ReplicaState::Valid || state_ == ReplicaState::Filling; }
  // A copy into it is in flight.
  bool filling() const { return state_ == ReplicaState::Filling || state_ == ReplicaState::Outdated; }
  // Obsolete storage kept for its users: freed once unused.
  bool doomed() const { return state_ == ReplicaState::Stale || (state_ == ReplicaState::Outdated && storage_); }
  // Its storage must stay: a task uses it, a copy reads it, or one fills it.
  bool pinned() const { return task_pins_ > 0 || readers_in_flight_ > 0 || filling(); }
  const DeviceBlock &storage() const { return storage_; }
  std::uint32_t task_pins() const { return task_pins_; }

  // ---- transitions (helper thread)

  // A device: storage reserved for the object, which will hold its current
  // value from now on (a copy into it, begin_fill, may follow). Absent → Valid.
  void attach(const DeviceBlock &block) {
    expect(state_ == ReplicaState::Absent && !storage_, "attach");
    storage_ = block;
    state_ = ReplicaState::Valid;
  }
  // A copy of the current value into this replica starts. A device replica
  // was just attached (Valid); the host lacks the value (Absent).
  // → Filling.
  void begin_fill() {
    expect(state_ == ReplicaState::Valid || state_ == ReplicaState::Absent, "begin_fill");
    state_ = ReplicaState::Filling;
  }
  // A copy into this replica has landed. `current`: it carries the object's
  // current value (a device's fetch always does; a copy home may carry an
  // older one). Also for a write-through copy home, which starts before the
  // task that produces its value has run and so never began filling.
  // Filling → Valid (or Absent/Stale when not current), Absent → Valid
  // (host), Outdated → Absent (host) or Stale (device; freed once unused).
  void land(bool current) {
    switch (state_) {
    case ReplicaState::Filling:
    case ReplicaState::Absent:
      if (current) {
        state_ = ReplicaState::Valid;
        return;
      }
      [[fallthrough]];
    case ReplicaState::Outdated:
      state_ = storage_ ? ReplicaState::Stale : ReplicaState::Absent;
      return;
    case ReplicaState::Valid:
    case ReplicaState::Stale:
      coherence_violation("land", state_);
    }
  }
  // A newer value is being written elsewhere: this copy is obsolete. Valid
  // → Absent (host) or Stale (device: release_storage next if unused),
  // Filling → Outdated; already obsolete copies stay as they are.
  void supersede() {
    switch (state_) {
    case ReplicaState::Valid:
      state_ = storage_ ? ReplicaState::Stale : ReplicaState::Absent;
      return;
    case ReplicaState::Filling:
      state_ = ReplicaState::Outdated;
      return;
    case ReplicaState::Absent:
    case ReplicaState::Outdated:
    case ReplicaState::Stale:
      return;
    }
  }
  // A task running in this space wrote the value: it is the current one
  // here. Absent → Valid (a host task that only writes: nothing was
  // fetched), Valid stays; Filling (the task's own fetch, whose completion
  // is processed after the task's) lands as Valid.
  void record_write() {
    expect(state_ == ReplicaState::Absent || holds_value(), "record_write");
    if (state_ == ReplicaState::Absent) state_ = ReplicaState::Valid;
  }
  // Host only. The object's current value, which a device held, now lies in
  // the copy of an overlapping object that contains it and is being
  // written; that object's write-back brings the bytes home before anyone
  // reads this object from the host (Directory::absorb). Absent → Valid.
  void absorbed_into_overlap() {
    expect(state_ == ReplicaState::Absent && !storage_, "absorbed_into_overlap");
    state_ = ReplicaState::Valid;
  }
  // The host's value is the one the program gave (a new object). → Valid.
  void start_valid() {
    expect(state_ == ReplicaState::Absent && !storage_, "start_valid");
    state_ = ReplicaState::Valid;
  }
  // A device's storage goes back to its pool: nothing uses it (not pinned)
  // and it holds no value another space lacks. → Absent.
  void release_storage() {
    expect(!pinned(), "release_storage");
    storage_ = DeviceBlock{};
    state_ = ReplicaState::Absent;
    task_pins_ = 0;
    readers_in_flight_ = 0;
  }

  // ---- uses

  void pin_for_task() { ++task_pins_; }
  void unpin_for_task() {
    expect(task_pins_ > 0, "unpin_for_task");
    --task_pins_;
  }
  void add_reader() { ++readers_in_flight_; }
  void remove_reader() {
    expect(readers_in_flight_ > 0, "remove_reader");
    --readers_in_flight_;
  }
  std::uint32_t readers_in_flight() const { return readers_in_flight_; }

private:
  void expect(bool condition, const char *transition) const {
#ifdef GPUSS_CHECK_INVARIANTS
    if (!condition) coherence_violation(transition, state_);
#else
    (void)condition;
    (void)transition;
#endif
  }

  ReplicaState state_ = ReplicaState::Absent;
  std::uint32_t readers_in_flight_ = 0; // transfers reading this replica are in flight
  std::uint32_t task_pins_ = 0;         // staged or running tasks use this replica
  DeviceBlock storage_;                 // accelerators only
};

} // namespace gpuss
