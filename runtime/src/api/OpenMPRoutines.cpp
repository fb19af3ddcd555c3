// OpenMPRoutines.cpp: the OpenMP routines of include/omp/omp.h over libgpuss.
//
// GPUSs has no OpenMP thread team: the program's thread submits, and the
// runtime's host workers and device threads run the task bodies. The
// routines answer in those terms, so that what OmpSs programs do with them
// stays right: a per-thread slot indexed by omp_get_thread_num() inside a
// task is never shared by two threads, and always below
// omp_get_max_threads(). The thread numbers and the count are process-wide
// (OpenMP's are per process too).
#include "api/OpenMPRoutines.hpp"

#include "graph/NestedTasks.hpp"

#include "gpuss.h"
#include "omp/omp.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

namespace {

std::atomic<unsigned> body_threads{0}; // 0 until the runtime starts
std::atomic<int> next_thread_number{0};

int this_thread_number() {
  thread_local int number = next_thread_number.fetch_add(1, std::memory_order_relaxed);
  return number;
}

// An omp lock handle owns its mutex from init to destroy.
template <typename Mutex> void create_mutex(void *&impl) {
  impl = std::make_unique<Mutex>().release();
}
template <typename Mutex> void destroy_mutex(void *&impl) {
  std::unique_ptr<Mutex>(static_cast<Mutex *>(impl));
  impl = nullptr;
}
template <typename Mutex> Mutex &mutex_of(void *impl) {
  return *static_cast<Mutex *>(impl);
}

} // namespace

void gpuss::omp::runtime_started(unsigned threads) {
  (void)this_thread_number(); // the program's thread is number 0 if it asks first
  body_threads.store(threads, std::memory_order_release);
}

extern "C" {

double omp_get_wtime(void) {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double omp_get_wtick(void) {
  using Period = std::chrono::steady_clock::period;
  return static_cast<double>(Period::num) / static_cast<double>(Period::den);
}

int omp_get_max_threads(void) {
  // Outside task bodies the runtime may not have started yet; a task body
  // runs only once it has (and must not take the process lock).
  if (body_threads.load(std::memory_order_acquire) == 0 && gpuss::running_task() == nullptr) css_start();
  return static_cast<int>(body_threads.load(std::memory_order_acquire));
}

int omp_get_num_threads(void) {
  // Outside task bodies the program's thread is alone, as in a parallel
  // region run by one thread: work split by omp_get_thread_num() and
  // omp_get_num_threads() there is all done by it.
  return gpuss::running_task() != nullptr ? omp_get_max_threads() : 1;
}

int omp_get_thread_num(void) {
  return this_thread_number();
}

int omp_get_num_procs(void) {
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int omp_in_parallel(void) {
  return gpuss::running_task() != nullptr;
}

int omp_in_final(void) {
  const gpuss::RunningTask *running = gpuss::running_task();
  return running != nullptr && running->task->is_final;
}

void omp_set_num_threads(int threads) {
  static std::once_flag warned;
  std::call_once(warned, [threads] {
    std::fprintf(stderr,
                 "gpuss: warning: omp_set_num_threads(%d) is ignored: CSS_NUM_CPUS sets GPUSs's host workers "
                 "(docs/environment.md)\n",
                 threads);
  });
}

void omp_set_dynamic(int) {}
int omp_get_dynamic(void) {
  return 0;
}
void omp_set_nested(int) {}
int omp_get_nested(void) {
  return 0;
}
int omp_get_level(void) {
  return gpuss::running_task() != nullptr ? 1 : 0;
}

void omp_init_lock(omp_lock_t *lock) {
  create_mutex<std::mutex>(lock->gpuss_impl);
}
void omp_destroy_lock(omp_lock_t *lock) {
  destroy_mutex<std::mutex>(lock->gpuss_impl);
}
void omp_set_lock(omp_lock_t *lock) {
  mutex_of<std::mutex>(lock->gpuss_impl).lock();
}
void omp_unset_lock(omp_lock_t *lock) {
  mutex_of<std::mutex>(lock->gpuss_impl).unlock();
}
int omp_test_lock(omp_lock_t *lock) {
  return mutex_of<std::mutex>(lock->gpuss_impl).try_lock();
}

void omp_init_nest_lock(omp_nest_lock_t *lock) {
  create_mutex<std::recursive_mutex>(lock->gpuss_impl);
}
void omp_destroy_nest_lock(omp_nest_lock_t *lock) {
  destroy_mutex<std::recursive_mutex>(lock->gpuss_impl);
}
void omp_set_nest_lock(omp_nest_lock_t *lock) {
  mutex_of<std::recursive_mutex>(lock->gpuss_impl).lock();
}
void omp_unset_nest_lock(omp_nest_lock_t *lock) {
  mutex_of<std::recursive_mutex>(lock->gpuss_impl).unlock();
}
int omp_test_nest_lock(omp_nest_lock_t *lock) {
  // OpenMP: the new nesting count, or 0 when another thread holds it; the
  // count is not kept, so a held lock answers 1.
  return mutex_of<std::recursive_mutex>(lock->gpuss_impl).try_lock() ? 1 : 0;
}

} // extern "C"
