// Misuse: a bad task is reported as
//   gpuss: error: <file>:<line>: task '<label>': <what>
// and the process ends with exit status 1. Death tests run "threadsafe" (re-executing the
// test binary) because the runtime has threads, and TSan forbids fork then.
#include "TaskBuilder.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>

namespace gpuss::test {
namespace {

class Misuse : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }

  // The message for `task`: its file:line and label, then anything.
  static std::string expected_message(const Task &task, const std::string &label) {
    return "gpuss: error: " + regex_escape(task.file()) + ":" + std::to_string(task.line()) + ": task '" +
           regex_escape(label) + "'";
  }

  // What each death test runs: `task` submitted to a runtime with `cpus`
  // host workers, then a barrier.
  static void submit_and_wait(Task &task, unsigned cpus = 1) {
    Runtime runtime(host_config(cpus));
    task.submit(runtime);
    runtime.barrier();
  }
};

TEST_F(Misuse, NullBaseWithBytes) {
  Task task("null_base_task");
  task.access(css_region{nullptr, 64, 1, 64}, CSS_INOUT);
  EXPECT_DEATH(submit_and_wait(task, 2), expected_message(task, "null_base_task"));
}

TEST_F(Misuse, NullBaseOfAStridedRegion) {
  Task task("null_strided");
  task.access(css_region{nullptr, 8, 4, 64}, CSS_IN);
  EXPECT_DEATH(submit_and_wait(task), expected_message(task, "null_strided"));
}

TEST_F(Misuse, NullBaseWithZeroBytesIsFine) {
  Runtime runtime(host_config(1));
  bool ran = false;
  Task("empty_region")
      .access(css_region{nullptr, 0, 1, 0}, CSS_IN)
      .body([&](TaskEnv) { ran = true; })
      .submit(runtime);
  runtime.barrier();
  EXPECT_TRUE(ran);
}

TEST_F(Misuse, ContiguousRegionWrapsAroundTheAddressSpace) {
  Task task("wrapping_task");
  task.access(css_region{reinterpret_cast<void *>(UINTPTR_MAX - 15), 64, 1, 64}, CSS_IN);
  EXPECT_DEATH(submit_and_wait(task), expected_message(task, "wrapping_task"));
}

TEST_F(Misuse, StridedRegionWrapsAroundTheAddressSpace) {
  static char buffer[64];
  Task task("wrapping_strided");
  task.access(css_region{buffer, 8, 4, SIZE_MAX / 2}, CSS_OUT);
  EXPECT_DEATH(submit_and_wait(task), expected_message(task, "wrapping_strided"));
}

// A count computed negative at the call (`v[n]` with n = -3 ints) reaches
// the runtime as a size near 2^64: the message says the count is negative.
TEST_F(Misuse, NegativeCountIsNamedAsSuch) {
  static char buffer[64];
  Task task("negative_count");
  const auto bytes = static_cast<std::size_t>(-12);
  task.access(css_region{buffer, bytes, 1, bytes}, CSS_INOUT);
  EXPECT_DEATH(submit_and_wait(task),
               expected_message(task, "negative_count") + ".*negative at this call: -12 bytes a row");
}

// The generated code multiplies an item's counts and element size with
// css_mul (gpuss.h): a product past 2^63 is CSS_SIZE_OVERFLOW, not the
// wrapped product (v[n] of doubles at n = 2^61 + 1 was 8 bytes), and a
// negative count stays a negative size.
TEST(SizeProducts, OverflowIsTheSentinelAndNegativeCountsStayNegative) {
  const std::size_t huge = (std::size_t{1} << 61) + 1;
  EXPECT_EQ(css_mul(4, sizeof(double)), 32u);
  EXPECT_EQ(css_mul(huge, sizeof(double)), CSS_SIZE_OVERFLOW);
  EXPECT_EQ(css_mul(css_mul(std::size_t{1} << 40, std::size_t{1} << 30), 8), CSS_SIZE_OVERFLOW);
  EXPECT_EQ(css_mul(std::size_t{1} << 60, 8), CSS_SIZE_OVERFLOW); // 2^63: no size
  EXPECT_EQ(css_mul(CSS_SIZE_OVERFLOW, 1), CSS_SIZE_OVERFLOW);
  EXPECT_EQ(css_mul(CSS_SIZE_OVERFLOW, 0), 0u); // a count of 0 names no byte
  EXPECT_EQ(css_mul(static_cast<std::size_t>(-3), sizeof(int)), static_cast<std::size_t>(-12));
}

TEST_F(Misuse, SizeThatOverflowedIsNamedAsSuch) {
  static char buffer[64];
  Task task("overflowed_size");
  const std::size_t bytes = css_mul((std::size_t{1} << 61) + 1, sizeof(double));
  task.access(css_region{buffer, bytes, 1, bytes}, CSS_INOUT);
  EXPECT_DEATH(
      submit_and_wait(task),
      expected_message(task, "overflowed_size") +
          ": access 0: region size overflows: its size, a product of the item's counts and its element size");
}

TEST_F(Misuse, StrideThatOverflowedIsNamedAsSuch) {
  static char buffer[64];
  Task task("overflowed_stride");
  task.access(css_region{buffer, 8, 2, css_mul((std::size_t{1} << 61) + 1, sizeof(double))}, CSS_IN);
  EXPECT_DEATH(submit_and_wait(task), expected_message(task, "overflowed_stride") +
                                          ": access 0: region size overflows: the stride between its rows");
}

// Rows as long as their stride are one run of rows * row_bytes bytes: that
// product wrapped too (2^59 + 1 rows of 32 bytes were 32 bytes).
TEST_F(Misuse, RowsTimesTheirBytesThatOverflowIsNamed) {
  static char buffer[64];
  Task task("overflowed_rows");
  task.access(css_region{buffer, 32, (std::size_t{1} << 59) + 1, 32}, CSS_INOUT);
  EXPECT_DEATH(submit_and_wait(task),
               expected_message(task, "overflowed_rows") + ": access 0: region size overflows: its size");
}

// A negative count that goes through css_mul is still named as negative.
TEST_F(Misuse, NegativeCountThroughTheCheckedProductIsNamedAsSuch) {
  static char buffer[64];
  Task task("negative_product");
  const std::size_t bytes = css_mul(static_cast<std::size_t>(-3), sizeof(int));
  task.access(css_region{buffer, bytes, 1, bytes}, CSS_INOUT);
  EXPECT_DEATH(submit_and_wait(task),
               expected_message(task, "negative_product") + ".*negative at this call: -12 bytes a row");
}

TEST_F(Misuse, SubmitAfterFinish) {
  static int value;
  Task late("late_task");
  late.inout(value);
  EXPECT_DEATH(
      {
        Runtime runtime(host_config(2));
        Task("early_task").inout(value).submit(runtime);
        runtime.finish();
        late.submit(runtime);
        runtime.barrier();
      },
      expected_message(late, "late_task"));
}

TEST_F(Misuse, CudaTaskWithoutAGpu) {
  static int value;
  Task task("cuda_task_without_gpu");
  task.inout(value).device(CSS_DEVICE_CUDA);
  EXPECT_DEATH(
      {
        Config config = host_config(1); // num_gpus = 0
        Runtime runtime(config);
        task.submit(runtime);
        runtime.barrier();
      },
      expected_message(task, "cuda_task_without_gpu"));
}

TEST_F(Misuse, IncompatibleAbiVersion) {
  static int value;
  Task task("from_a_future_translator");
  task.inout(value).abi_version(GPUSS_ABI_VERSION + 100);
  EXPECT_DEATH(submit_and_wait(task), "gpuss: error: .*from_a_future_translator");
}

// The program changes data in host memory, with no barrier or `wait on`
// naming it, after a device copied it for a task that only read it; a later
// task on the same device reads it. The device's cache (wt and wb) holds
// the copy as current and uses it again: the change is ignored
// (docs/language.md). With CSS_CHECK_REGIONS=1 (HostWriteCheck.hpp) that
// reuse is an error at the later task's call; without, the later task
// computes from the old value. `wait_named`: a `wait on` of the data itself
// before the change (correct use), else of the first result only.
struct Sums {
  double first = 0, second = 0;
};

Sums sum_twice(CachePolicy policy, bool checking, bool wait_named, Task *second_task = nullptr) {
  static double data[64];
  for (double &value : data)
    value = 1.0;
  Sums sums;
  Config config = sim_config(0, 1, policy, "1M");
  config.check_regions = checking;
  Runtime runtime(config);
  auto sum = [](TaskEnv env) {
    double total = 0;
    for (int i = 0; i < 64; ++i)
      total += env.ptr<const double>(0)[i];
    *env.ptr<double>(1) = total;
  };
  Task("first_sum").in(data).out(sums.first).body(sum).submit(runtime);
  css_region waited =
      wait_named ? css_contiguous(data, sizeof data) : css_contiguous(&sums.first, sizeof sums.first);
  runtime.wait_on({&waited, 1});
  data[0] = 101.0; // 100 more
  Task fallback("second_sum");
  Task &second = second_task ? *second_task : fallback;
  second.in(data).out(sums.second).body(sum).submit(runtime);
  runtime.barrier();
  return sums;
}

TEST_F(Misuse, HostChangeBehindADeviceCopyIsAnErrorWhenChecking) {
  for (CachePolicy policy : {CachePolicy::WriteThrough, CachePolicy::WriteBack}) {
    Task second("second_sum");
    EXPECT_DEATH(
        sum_twice(policy, true, false, &second),
        expected_message(second, "second_sum") +
            ".*from its copy on sim0, but the program changed those bytes in host memory after the copy "
            "was made")
        << to_string(policy);
  }
}

TEST_F(Misuse, HostChangeBehindADeviceCopyIsIgnoredWithoutChecking) {
  const Sums sums = sum_twice(CachePolicy::WriteBack, false, false);
  EXPECT_EQ(sums.first, 64.0);
  EXPECT_EQ(sums.second, 64.0) << "the device's copy, from before the change: what the check reports";
}

TEST_F(Misuse, HostChangeAfterWaitingForTheDataIsSeen) {
  for (CachePolicy policy : {CachePolicy::WriteThrough, CachePolicy::WriteBack}) {
    const Sums sums = sum_twice(policy, true, true);
    EXPECT_EQ(sums.first, 64.0);
    EXPECT_EQ(sums.second, 164.0) << to_string(policy) << ": no error, and the change is read";
  }
}

} // namespace
} // namespace gpuss::test
