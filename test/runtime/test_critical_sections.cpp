// The locks behind OpenMP's critical and atomic constructs in OmpSs programs
// (css_critical_enter/held/leave, runtime/src/api/CriticalSections.cpp), as
// the translator uses them: for (enter(n); held(n); leave(n)) statement.
#include "gpuss.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace {

// What `#pragma omp critical (name)` before `statement` becomes.
template <typename Statement> void critical(const char *name, Statement statement) {
  for (css_critical_enter(name); css_critical_held(name); css_critical_leave(name))
    statement();
}

TEST(CriticalSections, TheStatementRunsOnceHoldingTheLock) {
  int runs = 0;
  critical("once", [&] {
    EXPECT_TRUE(css_critical_held("once"));
    ++runs;
  });
  EXPECT_EQ(runs, 1);
  EXPECT_FALSE(css_critical_held("once"));
}

TEST(CriticalSections, ExcludeOtherThreadsOfTheSameName) {
  // Unguarded, these read-modify-writes lose updates (a plain long, split
  // into a load, a pause and a store so that threads interleave).
  long counter = 0;
  constexpr int threads = 4, rounds = 2000;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (int r = 0; r < rounds; ++r)
        critical("counter", [&] {
          long seen = counter;
          std::this_thread::yield();
          counter = seen + 1;
        });
    });
  for (std::thread &t : pool)
    t.join();
  EXPECT_EQ(counter, long{threads} * rounds);
}

TEST(CriticalSections, DifferentNamesAreDifferentLocks) {
  // Held "a" on this thread; "b" is free for another thread meanwhile.
  critical("a", [] {
    bool other_got_b = false;
    std::thread([&] { critical("b", [&] { other_got_b = true; }); }).join();
    EXPECT_TRUE(other_got_b);
    EXPECT_FALSE(css_critical_held("b"));
  });
}

TEST(CriticalSections, NamesAreComparedByTheirText) {
  // Two translation units pass two literals of the same name.
  std::string first = "shared", second = "shared";
  css_critical_enter(first.c_str());
  EXPECT_TRUE(css_critical_held(second.c_str()));
  css_critical_leave(second.c_str());
}

TEST(CriticalSectionsDeathTest, NestingTheSameNameIsReportedNotHung) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(critical("again", [] { css_critical_enter("again"); }),
               "gpuss: error: critical section 'again' entered again by the thread inside it");
  EXPECT_DEATH(critical("<atomic>", [] { css_critical_enter("<atomic>"); }),
               "gpuss: error: an atomic construct entered again");
}

TEST(CriticalSectionsDeathTest, LeavingALockNotHeldIsReported) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(css_critical_leave(""), "gpuss: error: the unnamed critical section left by a thread that is "
                                       "not inside it");
}

} // namespace
