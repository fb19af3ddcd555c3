// Regions that reach memory the program does not own (issue 16, item 8).
//
// CopyFault: a device's copy of such a region, or a copy-back of a renamed
// value into it, faults inside the runtime; the run must end with
//   gpuss: error: FILE:LINE: task 'LABEL': copying region ADDRESS (...) from/to DEVICE faulted at ADDRESS:
//   ...
// and exit status 1, not a bare SIGSEGV. The regions run from a page of
// memory into a PROT_NONE page after it.
//
// FaultHandler: the runtime's SIGSEGV handler leaves every other fault to
// the handler that was there before (the program's own, or the default),
// names the task of a body that crashes where the program has no handler,
// and is gone after finish.
//
// CheckRegions: with CSS_CHECK_REGIONS=1 every region is checked at submit
// against the heap blocks the program allocated (each allocation function
// in turn) and, for other memory, against the process's mappings. The
// variable is set inside each death test's child, and the C API's runtime
// reads it at start, as a program's would. Under a sanitizer libgpuss does
// not see malloc(), so the heap cases skip (the mapping cases still run).
// CheckRegionsFromStart runs with the variable set before the process
// starts (ctest runtime.check-regions-from-start), so that a block
// allocated before the runtime starts is known.
//
// Death tests run "threadsafe" (re-executing the test binary): the runtime
// has threads, and TSan forbids fork then.
#include "memory/RegionCheck.hpp"
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <new>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace gpuss::test {
namespace {

std::string hex(const void *address) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", address);
  return text;
}

// A death test's child runs the test again from its start, in a new
// process: its addresses are not the parent's. So the child says where its
// memory is, first thing on stderr, and the expected message refers back to
// that line: `where` matches it, giving \\2 and \\4. (GoogleTest also
// compiles each pattern wrapped in one more group, where a reference to
// group n must still be valid: each address is captured twice, nested, so
// that \\2 and \\4 are valid in both and name the addresses.)
void say_where(const void *first, const void *second = nullptr) {
  std::fprintf(stderr, "where: %s %s\n", hex(first).c_str(), hex(second).c_str());
  std::fflush(stderr);
}
const std::string where = "where: ((0x[0-9a-f]+)) ((0x[0-9a-f]+|\\(nil\\)))\n";
// The same for "block ADDRESS USABLE USABLE+8": \\2, \\4, \\6.
const std::string block_line = "block ((0x[0-9a-f]+)) (([0-9]+)) (([0-9]+))\n";
void say_block(const void *block, std::size_t usable) {
  std::fprintf(stderr, "block %s %zu %zu\n", hex(block).c_str(), usable, usable + 8);
  std::fflush(stderr);
}

// "gpuss: error: FILE:LINE: task 'LABEL': " for `task`, as a regex.
std::string error_for(const Task &task, const std::string &label) {
  return "gpuss: error: " + regex_escape(task.file()) + ":" + std::to_string(task.line()) + ": task '" +
         regex_escape(label) + "': ";
}

// A sanitizer's SIGSEGV handler comes before the runtime's: the runtime
// passes a body's fault on to it, and it reports the crash itself.
bool under_sanitizer() {
#if defined(GPUSS_TEST_SANITIZER)
  return true;
#else
  return false;
#endif
}

// One page of data followed by a PROT_NONE page: a region that runs past
// the end of the data reaches memory no access may touch.
class GuardedPage {
public:
  GuardedPage() : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    void *mapped = mmap(nullptr, 2 * page_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) std::abort();
    base_ = static_cast<std::byte *>(mapped);
    if (mprotect(base_ + page_, page_, PROT_NONE) != 0) std::abort();
    std::memset(base_, 7, page_);
  }
  ~GuardedPage() { munmap(base_, 2 * page_); }
  GuardedPage(const GuardedPage &) = delete;
  GuardedPage &operator=(const GuardedPage &) = delete;

  // `before` bytes of data, then the guard page.
  std::byte *last(std::size_t before) const { return base_ + page_ - before; }
  std::byte *guard() const { return base_ + page_; }

private:
  std::size_t page_;
  std::byte *base_ = nullptr;
};

// The end of a death test that must not die: exit status 0 and a word on
// stderr (a statement that returns is a failure of EXPECT_EXIT).
[[noreturn]] void passed() {
  std::fprintf(stderr, "region-test: passed\n");
  std::fflush(stderr);
  std::_Exit(0);
}

class CopyFault : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// Fetch: host to device, inside the task's own command.
TEST_F(CopyFault, FetchIntoASimulatedDevice) {
  GuardedPage memory;
  std::byte *start = memory.last(64);
  Task task("reads_past_its_buffer");
  task.in(start, 128);
  EXPECT_EXIT(
      {
        say_where(start);
        Runtime runtime(sim_config(0, 1, CachePolicy::WriteBack)); // no host workers: the device runs it
        task.submit(runtime);
        runtime.barrier();
      },
      ::testing::ExitedWithCode(1),
      where + error_for(task, "reads_past_its_buffer") + "copying region \\2" +
          " \\(128 bytes\\) from the host to sim0 faulted at 0x[0-9a-f]+: the region reaches memory the "
          "program does not own \\(past the end of its allocation\\?\\)");
}

// A strided region: its last row runs into the guard page.
TEST_F(CopyFault, StridedFetchNamesRowsAndStride) {
  GuardedPage memory;
  std::byte *start = memory.last(3 * 256 + 64 - 32);
  Task task("strided_past_its_buffer");
  task.strided(CSS_INOUT, start, 64, 4, 256); // the last row ends 32 bytes into the guard page
  EXPECT_EXIT(
      {
        say_where(start);
        Runtime runtime(sim_config(0, 1, CachePolicy::WriteBack));
        task.submit(runtime);
        runtime.barrier();
      },
      ::testing::ExitedWithCode(1),
      where + error_for(task, "strided_past_its_buffer") + "copying region \\2" +
          " \\(256 bytes: 4 rows of 64, stride 256\\) from the host to sim0 faulted at 0x[0-9a-f]+");
}

// Write-back after the task, in the task's command (nocache), of an output
// the device never fetched.
TEST_F(CopyFault, WriteBackFromASimulatedDevice) {
  GuardedPage memory;
  std::byte *start = memory.last(32);
  Task task("writes_past_its_buffer");
  task.out(start, 96);
  EXPECT_EXIT(
      {
        say_where(start);
        Runtime runtime(sim_config(0, 1, CachePolicy::NoCache));
        task.submit(runtime);
        runtime.barrier();
      },
      ::testing::ExitedWithCode(1),
      where + error_for(task, "writes_past_its_buffer") + "copying region \\2" +
          " \\(96 bytes\\) from sim0 to the host faulted at 0x[0-9a-f]+: the region reaches memory");
}

// Write-back at the barrier under wb: a command with no task; the message
// names the task that first named the region.
TEST_F(CopyFault, FinalWriteBackNamesTheTaskOfTheRegion) {
  GuardedPage memory;
  std::byte *start = memory.last(16);
  Task task("its_value_goes_home_at_the_barrier");
  task.out(start, 48);
  EXPECT_EXIT(
      {
        say_where(start);
        Runtime runtime(sim_config(0, 1, CachePolicy::WriteBack));
        task.submit(runtime);
        runtime.barrier();
      },
      ::testing::ExitedWithCode(1),
      where + error_for(task, "its_value_goes_home_at_the_barrier") + "copying region \\2" +
          " \\(48 bytes\\) from sim0 to the host faulted at 0x[0-9a-f]+");
}

// On host workers a renamed output reaches user memory by a copy-back task,
// whose copy is the first to touch the region.
TEST_F(CopyFault, CopyBackOfARenamedValue) {
  GuardedPage memory;
  std::byte *start = memory.last(8);
  Task reader("holds_the_region");
  Task writer("renamed_past_its_buffer");
  EXPECT_EXIT(
      {
        say_where(start);
        Runtime runtime(host_config(1));
        Gate gate;
        // Touches nothing: it only keeps the writer from writing in place.
        reader.in(start, 24).body([&](TaskEnv) { gate.wait(); }).submit(runtime);
        writer.out(start, 24).submit(runtime); // renamed: the body writes a buffer of the runtime's
        gate.open();
        runtime.barrier();
      },
      ::testing::ExitedWithCode(1),
      where + error_for(writer, "renamed_past_its_buffer") + "copying region \\2" +
          " \\(24 bytes\\) from its renamed buffer to user memory faulted at 0x[0-9a-f]+");
}

class FaultHandler : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// The program's own handlers: one of each kind, each saying it ran and
// ending the process with a status of its own.
void program_handler(int) {
  const char text[] = "program handler: SIGSEGV\n";
  (void)!write(2, text, sizeof text - 1);
  _exit(3);
}
void program_siginfo_handler(int, siginfo_t *info, void *) {
  char text[64];
  int length = std::snprintf(text, sizeof text, "program handler: fault at %p\n", info->si_addr);
  (void)!write(2, text, static_cast<std::size_t>(length));
  _exit(4);
}

void install(struct sigaction action) {
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGSEGV, &action, nullptr) != 0) std::abort();
}

void touch(std::byte *address) {
  *reinterpret_cast<volatile std::byte *>(address) = std::byte{1};
}

// Outside every copy and body, with a runtime running: the program's
// handler, installed before the runtime started, gets the fault.
TEST_F(FaultHandler, ProgramHandlerGetsFaultsOutsideCopies) {
  EXPECT_EXIT(
      {
        struct sigaction action {};
        action.sa_handler = program_handler;
        install(action);
        GuardedPage memory;
        Runtime runtime(sim_config(1, 1));
        static int value;
        Task("an_ordinary_task").inout(value).submit(runtime);
        runtime.barrier();
        touch(memory.guard());
      },
      ::testing::ExitedWithCode(3), "program handler: SIGSEGV");
}

// A body that crashes where the program has a handler: the program's
// handler gets it, with the fault's address, and the runtime says nothing.
TEST_F(FaultHandler, ProgramHandlerGetsFaultsInTaskBodies) {
  GuardedPage memory;
  EXPECT_EXIT(
      {
        struct sigaction action {};
        action.sa_sigaction = program_siginfo_handler;
        action.sa_flags = SA_SIGINFO;
        install(action);
        std::byte *guard = memory.guard();
        say_where(guard);
        Runtime runtime(host_config(1));
        Task("crashes_in_its_body").body([guard](TaskEnv) { touch(guard); }).submit(runtime);
        runtime.barrier();
      },
      ::testing::ExitedWithCode(4), "^" + where + "program handler: fault at \\2\n$");
}

// The same without a handler of the program's: the runtime names the task,
// and the process still dies of the signal, as it would have.
TEST_F(FaultHandler, BodyCrashNamesTheTask) {
  if (under_sanitizer()) GTEST_SKIP() << "the sanitizer's own SIGSEGV handler reports the crash";
  GuardedPage memory;
  std::byte *guard = memory.guard();
  Task task("crashes_in_its_body");
  task.body([guard](TaskEnv) { touch(guard); });
  EXPECT_EXIT(
      {
        say_where(guard);
        Runtime runtime(host_config(1));
        task.submit(runtime);
        runtime.barrier();
      },
      ::testing::KilledBySignal(SIGSEGV),
      where + error_for(task, "crashes_in_its_body") + "crashed with SIGSEGV at \\2" +
          " in its body \\(on a host worker\\)");
}

// The same on a simulated device: the body runs on the device's worker.
TEST_F(FaultHandler, BodyCrashOnASimulatedDeviceNamesTheDevice) {
  if (under_sanitizer()) GTEST_SKIP() << "the sanitizer's own SIGSEGV handler reports the crash";
  GuardedPage memory;
  std::byte *guard = memory.guard();
  Task task("crashes_on_the_device");
  task.body([guard](TaskEnv) { touch(guard); });
  EXPECT_EXIT(
      {
        say_where(guard);
        Runtime runtime(sim_config(0, 1));
        task.submit(runtime);
        runtime.barrier();
      },
      ::testing::KilledBySignal(SIGSEGV),
      where + error_for(task, "crashes_on_the_device") + "crashed with SIGSEGV at \\2" +
          " in its body \\(on sim0\\)");
}

// Recursion without end: each call keeps a kilobyte of the stack in use.
volatile int depth_limit = -1; // never reached; keeps the compiler from seeing an endless recursion
int recurse(int depth) {
  volatile char frame[1024];
  frame[0] = static_cast<char>(depth);
  if (depth == depth_limit) return frame[0];
  return recurse(depth + 1) + frame[0];
}

// A body that overflows its worker's stack: the handler has no stack left
// there, and runs on the worker's alternate stack (without one the process
// dies of a bare SIGSEGV).
TEST_F(FaultHandler, BodyStackOverflowNamesTheTask) {
  if (under_sanitizer()) GTEST_SKIP() << "the sanitizer's own SIGSEGV handler reports the overflow";
  Task task("overflows_its_stack");
  task.body([](TaskEnv) { recurse(0); });
  EXPECT_EXIT(
      {
        Runtime runtime(host_config(1));
        task.submit(runtime);
        runtime.barrier();
      },
      ::testing::KilledBySignal(SIGSEGV),
      error_for(task, "overflows_its_stack") + "crashed with SIGSEGV at 0x[0-9a-f]+ in its body \\(on a host "
                                               "worker\\)");
}

// Once the runtime has finished, the handler that was there before is back.
TEST_F(FaultHandler, FinishRestoresThePreviousHandler) {
  struct sigaction before {};
  ASSERT_EQ(sigaction(SIGSEGV, nullptr, &before), 0);
  struct sigaction program {};
  program.sa_handler = program_handler;
  install(program);
  {
    Runtime runtime(sim_config(1, 1));
    static int value;
    Task("an_ordinary_task").inout(value).submit(runtime);
    runtime.finish();
    struct sigaction now {};
    ASSERT_EQ(sigaction(SIGSEGV, nullptr, &now), 0);
    EXPECT_EQ(now.sa_handler, &program_handler);
  }
  ASSERT_EQ(sigaction(SIGSEGV, &before, nullptr), 0);
}

class CheckRegions : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// Inside a death test's child: the C API's runtime, started with checking
// on, one host worker.
void start_checking() {
  setenv("CSS_CHECK_REGIONS", "1", 1);
  setenv("CSS_NUM_CPUS", "1", 1);
  setenv("CSS_NUM_GPUS", "0", 1);
  unsetenv("CSS_SIM_DEVICES");
  css_start();
}

// Why the heap cases skip where libgpuss does not see malloc().
constexpr const char *heap_unknown =
    "malloc() does not reach libgpuss in this build (a sanitizer's allocator "
    "comes first): checking mode knows only the memory map";

// Each way a program allocates a heap block.
struct Allocation {
  const char *name;
  void *(*allocate)(std::size_t bytes);
  void (*release)(void *block);
};

void plain_free(void *block) {
  std::free(block);
}

const Allocation allocations[] = {
    {"malloc", [](std::size_t n) { return std::malloc(n); }, plain_free},
    {"calloc", [](std::size_t n) { return std::calloc(n, 1); }, plain_free},
    {"realloc", [](std::size_t n) { return std::realloc(std::malloc(8), n); }, plain_free},
    {"reallocarray", [](std::size_t n) { return reallocarray(std::malloc(8), n, 1); }, plain_free},
    {"posix_memalign",
     [](std::size_t n) {
       void *block = nullptr;
       return posix_memalign(&block, 64, n) == 0 ? block : nullptr;
     },
     plain_free},
    {"aligned_alloc", [](std::size_t n) { return std::aligned_alloc(64, (n + 63) / 64 * 64); }, plain_free},
    {"memalign", [](std::size_t n) { return memalign(256, n); }, plain_free},
    {"valloc", [](std::size_t n) { return valloc(n); }, plain_free},
    {"pvalloc", [](std::size_t n) { return pvalloc(n); }, plain_free},
    {"new[]", [](std::size_t n) { return static_cast<void *>(new char[n]); },
     [](void *block) { delete[] static_cast<char *>(block); }},
    {"aligned new", [](std::size_t n) { return ::operator new[](n, std::align_val_t{128}); },
     [](void *block) { ::operator delete[](block, std::align_val_t{128}); }},
};

class CheckRegionsPerAllocation : public ::testing::TestWithParam<Allocation> {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    if (!region_check::heap_blocks_known()) GTEST_SKIP() << heap_unknown;
  }
};

INSTANTIATE_TEST_SUITE_P(, CheckRegionsPerAllocation, ::testing::ValuesIn(allocations),
                         [](const ::testing::TestParamInfo<Allocation> &info) {
                           std::string name;
                           for (const char *c = info.param.name; *c; ++c)
                             name += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
                           return name;
                         });

// 8 bytes past the end of the block (its usable size): an error at submit,
// with both sizes, before any task runs.
TEST_P(CheckRegionsPerAllocation, RegionPastTheEndOfTheBlock) {
  const Allocation &allocation = GetParam();
  Task task("past_the_end");
  EXPECT_EXIT(
      {
        start_checking();
        auto *block = static_cast<std::byte *>(allocation.allocate(1000));
        std::size_t usable = malloc_usable_size(block);
        say_block(block, usable);
        task.inout(block, usable + 8).body([](TaskEnv) { std::_Exit(9); }).submit_c();
        css_barrier();
      },
      ::testing::ExitedWithCode(1),
      block_line + error_for(task, "past_the_end") +
          "region \\2 \\(\\6 bytes, access 0\\) reaches 8 bytes past the end of the \\4-byte block "
          "allocated at \\2\n");
}

// The whole usable block, and a part of it: both fine.
TEST_P(CheckRegionsPerAllocation, RegionsInsideTheBlockPass) {
  const Allocation &allocation = GetParam();
  EXPECT_EXIT(
      {
        start_checking();
        auto *block = static_cast<std::byte *>(allocation.allocate(1000));
        std::size_t usable = malloc_usable_size(block);
        Task("whole_block").inout(block, usable).submit_c();
        Task("part_of_it").in(block + 100, 200).submit_c();
        css_barrier();
        allocation.release(block);
        passed();
      },
      ::testing::ExitedWithCode(0), "region-test: passed");
}

// A region that starts before a block and runs into it.
TEST_F(CheckRegions, RegionStartingBeforeABlock) {
  if (!region_check::heap_blocks_known()) GTEST_SKIP() << heap_unknown;
  Task task("starts_before_its_block");
  EXPECT_EXIT(
      {
        start_checking();
        auto *block = static_cast<std::byte *>(std::malloc(1000));
        std::size_t usable = malloc_usable_size(block);
        say_block(block, usable);
        // The 8 bytes before a block are the allocator's (its size), not the
        // previous block's.
        task.in(block - 8, 64).submit_c();
        css_barrier();
      },
      ::testing::ExitedWithCode(1),
      block_line + error_for(task, "starts_before_its_block") +
          "region 0x[0-9a-f]+ \\(64 bytes, access 0\\) starts 8 bytes before the \\4-byte block allocated at "
          "\\2 and runs into it\n");
}

// Memory that is not from the heap: a static array, the stack, a mapping
// of the program's own. Checked against the memory map only.
TEST_F(CheckRegions, StaticStackAndMappedRegionsPass) {
  EXPECT_EXIT(
      {
        start_checking();
        static double table[512];
        static const double constants[64] = {1.0};
        double local[32] = {};
        GuardedPage mapped;
        Task("static_array").inout(table, sizeof table).submit_c();
        Task("part_of_it").in(table + 100, 8 * sizeof(double)).submit_c();
        Task("read_only_input").in(constants, sizeof constants).submit_c();
        Task("stack").inout(local, sizeof local).submit_c();
        Task("mapped").inout(mapped.last(256), 256).submit_c();
        css_barrier();
        passed();
      },
      ::testing::ExitedWithCode(0), "region-test: passed");
}

// Into a PROT_NONE page after a mapping: caught at submit, not at the copy.
TEST_F(CheckRegions, RegionIntoAnInaccessiblePage) {
  GuardedPage memory;
  std::byte *start = memory.last(64);
  Task task("into_a_guard_page");
  EXPECT_EXIT(
      {
        start_checking(); // under a sanitizer, this warns: say where after it
        say_where(start, memory.guard());
        task.in(start, 128).body([](TaskEnv) { std::_Exit(9); }).submit_c();
        css_barrier();
      },
      ::testing::ExitedWithCode(1),
      where + error_for(task, "into_a_guard_page") +
          "region \\2 \\(128 bytes, access 0\\) reaches memory the program cannot read at \\4" +
          " \\(64 bytes past the accessible memory it starts in\\)");
}

// Past the end of every mapping.
// The hole is made after the runtime has started: its threads' own small
// mappings (a sanitizer's, say) could fill a hole made before.
TEST_F(CheckRegions, RegionIntoUnmappedMemory) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  Task task("into_unmapped_memory");
  EXPECT_EXIT(
      {
        start_checking();
        void *mapped = mmap(nullptr, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        auto *start = static_cast<std::byte *>(mapped);
        if (mapped == MAP_FAILED || munmap(start + page, page) != 0) std::_Exit(8);
        say_where(start + page - 8, start + page);
        task.out(start + page - 8, 16).body([](TaskEnv) { std::_Exit(9); }).submit_c();
        css_barrier();
      },
      ::testing::ExitedWithCode(1),
      where + error_for(task, "into_unmapped_memory") +
          "region \\2 \\(16 bytes, access 0\\) reaches unmapped memory at \\4" +
          " \\(8 bytes past the accessible memory it starts in\\)");
}

// An output in read-only memory: the task, or a write-back, would write it.
TEST_F(CheckRegions, OutputInReadOnlyMemory) {
  static const double constants[64] = {1.0};
  Task task("writes_constants");
  EXPECT_EXIT(
      {
        start_checking();
        say_where(constants);
        task.access(css_contiguous(constants, sizeof constants), CSS_OUT)
            .body([](TaskEnv) { std::_Exit(9); })
            .submit_c();
        css_barrier();
      },
      ::testing::ExitedWithCode(1),
      where + error_for(task, "writes_constants") +
          "region \\2 \\(512 bytes, access 0\\) is written by the task but lies in read-only memory at \\2");
}

// A child task's region is checked like any other.
TEST_F(CheckRegions, ChildTaskRegionPastTheEnd) {
  if (!region_check::heap_blocks_known()) GTEST_SKIP() << heap_unknown;
  Task child("child_past_the_end");
  EXPECT_EXIT(
      {
        start_checking();
        auto *block = static_cast<std::byte *>(std::malloc(1000));
        std::size_t usable = malloc_usable_size(block);
        say_block(block, usable);
        Task("parent")
            .inout(block, usable)
            .body([&](TaskEnv env) {
              child.inout(env.ptr(0), usable + 8).body([](TaskEnv) { std::_Exit(9); }).submit_c();
            })
            .submit_c();
        css_barrier();
      },
      ::testing::ExitedWithCode(1),
      block_line + error_for(child, "child_past_the_end") +
          "region \\2 \\(\\6 bytes, access 0\\) reaches 8 bytes past the end of the \\4-byte block allocated "
          "at "
          "\\2\n");
}

// Without the variable, nothing is checked: the same region runs (and its
// body, which touches nothing, returns).
TEST_F(CheckRegions, OffByDefault) {
  EXPECT_EXIT(
      {
        unsetenv("CSS_CHECK_REGIONS");
        setenv("CSS_NUM_CPUS", "1", 1);
        setenv("CSS_NUM_GPUS", "0", 1);
        auto *block = static_cast<std::byte *>(std::malloc(1000));
        Task("past_the_end_unchecked").in(block, malloc_usable_size(block) + 8).submit_c();
        css_barrier();
        passed();
      },
      ::testing::ExitedWithCode(0), "region-test: passed");
}

// With CSS_CHECK_REGIONS=1 in the environment before the process started
// (ctest runtime.check-regions-from-start), blocks allocated before the
// runtime starts are known too.
class CheckRegionsFromStart : public ::testing::Test {
protected:
  void SetUp() override {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const char *value = std::getenv("CSS_CHECK_REGIONS");
    if (!value || std::string(value) != "1")
      GTEST_SKIP() << "needs CSS_CHECK_REGIONS=1 from the start (ctest runtime.check-regions-from-start)";
    if (!region_check::heap_blocks_known()) GTEST_SKIP() << heap_unknown;
  }
};

// Allocated while the test binary started, long before any runtime.
std::byte *const early_block = static_cast<std::byte *>(std::malloc(1000));

TEST_F(CheckRegionsFromStart, BlockAllocatedBeforeTheRuntimeStarted) {
  Task task("past_an_early_block");
  EXPECT_EXIT(
      {
        std::size_t usable = malloc_usable_size(early_block);
        say_block(early_block, usable);
        setenv("CSS_NUM_CPUS", "1", 1);
        setenv("CSS_NUM_GPUS", "0", 1);
        task.in(early_block, usable + 8).body([](TaskEnv) { std::_Exit(9); }).submit_c();
        css_barrier();
      },
      ::testing::ExitedWithCode(1),
      block_line + error_for(task, "past_an_early_block") +
          "region \\2 \\(\\6 bytes, access 0\\) reaches 8 bytes past the end of the \\4-byte block allocated "
          "at "
          "\\2\n");
}

} // namespace
} // namespace gpuss::test
