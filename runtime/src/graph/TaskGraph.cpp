#include "support/Fatal.hpp"
#include "support/StatsCounters.hpp"
#include "graph/Task.hpp"

#include <fstream>

namespace gpuss {

void check_task_desc(const css_task_desc &desc) {
  if (desc.abi_version != GPUSS_ABI_VERSION)
    fatal_for_task(&desc, "was translated for runtime ABI " + std::to_string(desc.abi_version) +
                              " but libgpuss implements ABI " + std::to_string(GPUSS_ABI_VERSION) +
                              "; translate it again with this version of gpuss-translate");
  if (desc.body == nullptr) fatal_for_task(&desc, "has no body");
  if (desc.num_accesses > 0 && desc.accesses == nullptr)
    fatal_for_task(&desc, "lists accesses at a null address");
  if (desc.args_size > 0 && desc.args == nullptr) fatal_for_task(&desc, "has arguments at a null address");
  for (std::uint32_t i = 0; i < desc.num_accesses; ++i) {
    const css_access &access = desc.accesses[i];
    if (access.direction < CSS_IN || access.direction > CSS_INOUT)
      fatal_for_task(&desc, "access " + std::to_string(i) + " has no valid direction");
    if (auto problem = Region::from(access.region).misuse())
      fatal_for_task(&desc, "access " + std::to_string(i) + ": " + *problem);
  }
}

TaskRef make_user_task(const css_task_desc &desc, std::uint64_t id) {
  auto task = std::make_shared<Task>();
  task->id = id;
  task->label = desc.label ? desc.label : "<task>";
  task->file = desc.file ? desc.file : "<unknown>";
  task->line = desc.line;
  task->body = desc.body;
  task->device_kind = desc.device_kind;
  task->high_priority = (desc.flags & CSS_TASK_HIGH_PRIORITY) != 0;
  task->is_final = (desc.flags & CSS_TASK_FINAL) != 0;
  task->set_args(desc.args, desc.args_size);
  task->accesses.reserve(desc.num_accesses);
  for (std::uint32_t i = 0; i < desc.num_accesses; ++i) {
    const css_access &access = desc.accesses[i];
    BoundAccess bound;
    bound.user = access;
    bound.region = Region::from(access.region);
    bound.reads = access.direction != CSS_OUT;
    bound.writes = access.direction != CSS_IN;
    if (access.copy & CSS_COPY_EXPLICIT) {
      bound.copy_in = (access.copy & CSS_COPY_IN) != 0;
      bound.copy_out = (access.copy & CSS_COPY_OUT) != 0;
    }
    task->accesses.push_back(bound);
  }
  task->user_accesses.assign(desc.accesses, desc.accesses + desc.num_accesses);
  return task;
}

void host_addresses(const Task &task, std::vector<void *> &addresses) {
  addresses.clear();
  for (const BoundAccess &access : task.accesses)
    addresses.push_back(access.object ? access.object->host + (access.region.base - access.object->shape.base)
                                      : empty_access_address(task, access, [](const DataObject &object) {
                                          return object.host;
                                        }));
}

void mark_completed(Task &task, Stats &stats, LiveTasks &live_tasks) {
  // The task no longer needs its storage; dropping the references lets
  // renamed buffers retire. Under the edges lock: a master ranking tasks at
  // a barrier may be reading them (RuntimeImpl::load_order).
  // clear(), not a swap into a local: the vector's buffer stays with the
  // task and is freed with it, not here on a worker thread (freeing memory
  // another thread allocated cost 2.8 us per task in bench/task_overhead).
  {
    std::lock_guard lock(task.edges_mutex);
    task.accesses.clear();
  }
  task.user_accesses.clear();
  task.heap_args.reset();
  if (task.kind == TaskKind::User) Stats::add(stats.tasks, 1);
  // release: a master waiting on this task or on the count sees user memory
  // (and the directory) as the completion left them.
  // seq_cst with the waiter's: either it sees `completed`, or this sees
  // `awaited` and wakes it (a ring for every task cost a system call each).
  task.completed.store(true, std::memory_order_seq_cst);
  if (task.awaited.load(std::memory_order_seq_cst)) task.completed.notify_all();
  live_tasks.remove();
}

bool TaskGraph::add_edge(Task &predecessor, const TaskRef &successor) {
  if (&predecessor == successor.get()) return false;
  bool added = false;
  {
    std::lock_guard lock(predecessor.edges_mutex);
    // The tracker meets one predecessor through several overlapping entries
    // (a block, and the halo strips in it that it wrote last) while it adds
    // one task's edges. Only the thread that submits the tasks of a domain
    // adds successors to them, so an edge made to this successor since is
    // still the last in the list, unless a copy-back made for the same
    // submit got an edge from it in between (a duplicate then stays, which
    // is harmless). A second edge would count twice in `pending` and in the
    // fan-out the helper goes by (successor_count).
    if (!predecessor.successors.empty() && predecessor.successors.back() == successor) return false;
    if (!predecessor.finished) {
      // relaxed: the successor cannot become ready before its guard reference
      // is dropped (acq_rel in release_guard), which happens after this.
      successor->pending.fetch_add(1, std::memory_order_relaxed);
      predecessor.successors.push_back(successor);
      added = true;
    }
  }
  if (record_dag_) {
    // The graph shows every dependency, also on tasks that finished before
    // their successor was submitted (no runtime edge is needed for those).
    std::lock_guard lock(dag_mutex_);
    dag_edges_.emplace_back(predecessor.id, successor->id);
  }
  return added;
}

std::vector<TaskRef> TaskGraph::complete(Task &task) {
  std::vector<TaskRef> successors;
  {
    std::lock_guard lock(task.edges_mutex);
    task.finished = true;
    successors.swap(task.successors);
  }
  std::vector<TaskRef> ready;
  for (TaskRef &successor : successors)
    if (successor->pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
      ready.push_back(std::move(successor));
  return ready;
}

void TaskGraph::note_task(const Task &task) {
  if (!record_dag_) return;
  std::lock_guard lock(dag_mutex_);
  dag_nodes_.push_back({task.id, task.label, task.where(), task.kind == TaskKind::CopyBack});
}

bool TaskGraph::write_dot(const std::string &path) const {
  std::lock_guard lock(dag_mutex_);
  std::ofstream out(path);
  if (!out) return false;
  out << "digraph gpuss {\n  node [shape=box, fontname=\"monospace\"];\n";
  for (const DagNode &node : dag_nodes_) {
    out << "  t" << node.id << " [label=\"" << node.label << " #" << node.id << "\\n" << node.where << "\"";
    if (node.copy_back) out << ", style=dashed";
    out << "];\n";
  }
  for (auto [from, to] : dag_edges_)
    out << "  t" << from << " -> t" << to << ";\n";
  out << "}\n";
  return static_cast<bool>(out);
}

} // namespace gpuss
