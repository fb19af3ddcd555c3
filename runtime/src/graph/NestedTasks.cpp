#include "graph/NestedTasks.hpp"
#include "devices/CpuWorkers.hpp"
#include "support/Fatal.hpp"
#include "memory/RegionCheck.hpp"
#include "support/StatsCounters.hpp"

#include <link.h>
#include <pthread.h>

#include <cstring>
#include <mutex>
#include <string>

namespace gpuss {

namespace {

// Thread-local because "which task's body is this" is a property of the
// thread running it: a body calls css_submit with no other handle.
thread_local RunningTask *current_running = nullptr;

// This thread's stack: the parent body's local variables, which its
// children may use although no clause names them.
struct StackRange {
  std::uintptr_t low = 0, high = 0;
};

const StackRange &thread_stack() {
  thread_local StackRange range = [] {
    StackRange found;
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
      void *low = nullptr;
      std::size_t size = 0;
      if (pthread_attr_getstack(&attributes, &low, &size) == 0) {
        found.low = reinterpret_cast<std::uintptr_t>(low);
        found.high = found.low + size;
      }
      pthread_attr_destroy(&attributes);
    }
    return found;
  }();
  return range;
}

// The writable static data of the program and its libraries (globals):
// memory any task may name, so never a parent's private memory.
struct StaticData {
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
  bool overlaps(const Region &region) const {
    for (auto [low, high] : ranges)
      if (region.overlaps(Region::contiguous(low, high - low))) return true;
    return false;
  }
};

const StaticData &static_data() {
  static StaticData data;
  static std::once_flag found;
  std::call_once(found, [] {
    dl_iterate_phdr(
        [](dl_phdr_info *info, std::size_t, void *out) {
          auto &ranges = static_cast<StaticData *>(out)->ranges;
          for (int i = 0; i < info->dlpi_phnum; ++i) {
            const ElfW(Phdr) &segment = info->dlpi_phdr[i];
            if (segment.p_type == PT_LOAD && (segment.p_flags & PF_W) && segment.p_memsz > 0)
              ranges.emplace_back(info->dlpi_addr + segment.p_vaddr,
                                  info->dlpi_addr + segment.p_vaddr + segment.p_memsz);
          }
          return 0;
        },
        &data);
  });
  return data;
}

std::string describe(const Region &region) {
  char text[128];
  std::snprintf(text, sizeof text, "%zu bytes at %p", region.payload_bytes(),
                reinterpret_cast<void *>(region.base));
  std::string description = text;
  if (!region.is_contiguous())
    description += " (" + std::to_string(region.rows) + " rows of " + std::to_string(region.row_bytes) +
                   ", " + std::to_string(region.stride) + " apart)";
  return description;
}

} // namespace

ChildDomain::ChildDomain(Stats &stats)
    : objects(no_renaming), tracker(graph, objects, stats, /*allow_renaming=*/false) {}

RunningScope::RunningScope(const RunningTask &running) : running_(running), previous_(current_running) {
  current_running = &running_;
}

RunningScope::~RunningScope() {
  current_running = previous_;
}

RunningTask *running_task() {
  return current_running;
}

Region NestedTasks::parent_region_as_seen(const RunningTask &running, std::size_t access) {
  // At the address the parent's body was given (a device copy's, or a
  // renamed buffer's), not the one the parent's call named.
  Region seen = Region::from(running.task->user_accesses[access].region);
  seen.base = reinterpret_cast<std::uintptr_t>((*running.addresses)[access]);
  return seen;
}

void NestedTasks::check_write_allowed(const RunningTask &running, const css_task_desc &desc,
                                      const Region &region, std::uint32_t direction) const {
  // A child that writes what its parent only reads: the parent's caller
  // orders nothing after the parent for those bytes, so other readers run
  // beside it (with children writing the same bytes), and on a device the
  // parent's copy is never written back (a parent with input(g[0;n]) whose
  // child had inout: G0=0 where the program gives 2, no message; a helper's
  // sweep of nested tasks, 2026-11-29).
  if (direction == CSS_IN) return;
  const Task &parent = *running.task;
  const css_access *read_only = nullptr;
  for (std::size_t a = 0; a < parent.user_accesses.size(); ++a) {
    const Region seen = parent_region_as_seen(running, a);
    if (parent.user_accesses[a].direction != CSS_IN && seen.contains(region)) return;
    if (parent.user_accesses[a].direction == CSS_IN && seen.overlaps(region)) read_only = &parent.user_accesses[a];
  }
  if (read_only)
    fatal_for_task(&desc, "is called inside task '" + std::string(parent.label) + "' (" + parent.where() +
                              ") and writes " + describe(region) +
                              ", which that task only reads (input): the tasks around the parent are not ordered "
                              "with that write; give the parent inout(...) or output(...) on it");
}

void NestedTasks::check_within_parent(const RunningTask &running, const css_task_desc &desc) const {
  const Task &parent = *running.task;
  const StackRange &stack = thread_stack();
  for (std::uint32_t i = 0; i < desc.num_accesses; ++i) {
    Region region = Region::from(desc.accesses[i].region);
    if (region.empty()) continue;
    check_write_allowed(running, desc, region, desc.accesses[i].direction);
    if (region.base >= stack.low && region.end() <= stack.high) continue; // the parent body's locals
    // Heap memory outside the parent's data is taken for the body's own (a
    // temporary it allocated, as Strassen's): only globals are surely not.
    if (!static_data().overlaps(region)) continue;
    bool within = false;
    for (std::size_t a = 0; a < parent.user_accesses.size() && !within; ++a)
      within = parent_region_as_seen(running, a).contains(region);
    if (!within && !running.on_host_worker)
      // The parent runs on a device: its data is the device's copy, and a
      // global's host address is not it, even where the parent's clauses
      // name that global (the advice below could not be followed; a
      // helper's sweep of nested tasks, 2026-11-29).
      fatal_for_task(&desc, "is called inside task '" + std::string(parent.label) + "' (" + parent.where() +
                                "), which runs on a device, and names " + describe(region) +
                                ", a global's host memory: there the parent's data is the device's copy; name "
                                "it through the pointer the parent's body was given");
    if (!within)
      fatal_for_task(
          &desc, "is called inside task '" + std::string(parent.label) + "' (" + parent.where() +
                     ") and names " + describe(region) +
                     ", a global that is not in that task's data; a child task may use only what its "
                     "parent's clauses name, its body's locals and memory its body allocated (other tasks "
                     "may be using the rest): name it in the parent's clauses too");
  }
}

void NestedTasks::submit(RunningTask &running, const css_task_desc &desc) {
  check_task_desc(desc);
  // In a body on a device, a child's regions are in device memory, which is
  // not the program's to check.
  if (check_regions_ && running.on_host_worker) region_check::check_task(desc);
  Task &parent = *running.task;
  bool gpu_child = desc.device_kind == CSS_DEVICE_CUDA;
  if (gpu_child && parent.device_kind != CSS_DEVICE_CUDA)
    fatal_for_task(&desc,
                   "targets device(cuda) and is called inside host task '" + std::string(parent.label) +
                       "' (" + parent.where() +
                       "); GPU tasks cannot be created inside host tasks: call it from the main program");
  check_within_parent(running, desc);
  // Inline children run with the parent still the running task, so a final
  // task's descendants all run inline.
  if (inline_only_ || parent.is_final || !running.on_host_worker || gpu_child || !workers_ ||
      workers_->count() == 0) {
    run_inline(desc);
    return;
  }

  TaskRef child = make_user_task(desc, next_id_.fetch_add(1, std::memory_order_relaxed));
  child->parent = &parent;
  if (!parent.children) parent.children = std::make_shared<ChildDomain>(stats_);
  std::vector<TaskRef> created; // no renaming among siblings: no copy-backs
  parent.children->tracker.add_task(child, created);
  // relaxed: the decrements happen after the child runs, which the inbox
  // (a lock) orders after this.
  parent.unfinished_children.fetch_add(1, std::memory_order_relaxed);
  if (TaskGraph::release_guard(*child)) workers_->submit_child(std::move(child));
}

void NestedTasks::run_inline(const css_task_desc &desc) {
  // The parent's own pointers: the child's regions are in its address space.
  std::vector<void *> addresses(desc.num_accesses);
  for (std::uint32_t i = 0; i < desc.num_accesses; ++i)
    addresses[i] = desc.accesses[i].region.base;
  std::vector<std::max_align_t> args((desc.args_size + sizeof(std::max_align_t) - 1) /
                                     sizeof(std::max_align_t));
  if (desc.args_size) std::memcpy(args.data(), desc.args, desc.args_size);
  RunningTask *running = running_task();
  css_task_env env{addresses.data(),
                   desc.accesses,
                   desc.num_accesses,
                   running ? static_cast<int32_t>(running->task->device_kind) : CSS_DEVICE_SMP,
                   -1,
                   css_cuda_stream_ptr(),
                   css_cublas_handle_ptr()};
  desc.body(args.data(), &env);
  Stats::add(stats_.inline_tasks, 1);
}

void NestedTasks::wait_for_children(RunningTask &running) {
  Task &parent = *running.task;
  if (parent.unfinished_children.load(std::memory_order_acquire) == 0) return;
  if (!workers_ || !running.on_host_worker)
    fatal_for_task(parent.label, parent.file, parent.line,
                   "waits for its children off a host worker (internal error: they should have run inline)");
  workers_->help_until(running.worker,
                       [&] { return parent.unfinished_children.load(std::memory_order_acquire) == 0; });
}

void NestedTasks::wait_written(RunningTask &running, std::span<const css_region> regions) {
  Task &parent = *running.task;
  if (parent.unfinished_children.load(std::memory_order_acquire) == 0 || !parent.children) return;
  // The domain is the body's own, filled on this thread (above).
  for (const css_region &region : regions)
    if (parent.children->tracker.written_since_barrier(Region::from(region), false))
      return wait_for_children(running);
}

void NestedTasks::child_done(const TaskRef &child) {
  Task &parent = *child->parent;
  for (TaskRef &sibling : parent.children->graph.complete(*child))
    workers_->submit_child(std::move(sibling));
  {
    std::lock_guard lock(child->edges_mutex);
    child->accesses.clear();
  }
  child->user_accesses.clear();
  child->heap_args.reset();
  Stats::add(stats_.tasks, 1);
  Stats::add(stats_.child_tasks, 1);
  child->completed.store(true, std::memory_order_release);
  // Last: once the count is zero the parent may drop its domain and finish.
  if (parent.unfinished_children.fetch_sub(1, std::memory_order_acq_rel) == 1) workers_->wake_all();
}

} // namespace gpuss
