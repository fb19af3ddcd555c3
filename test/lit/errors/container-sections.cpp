// A section of a std::vector in `taskwait on`: its elements are not in the
// object, and naming the object alone (what the message once advised)
// waits for its own bytes only, which no task uses: the program read the
// elements before their tasks had run. The error names the way through
// its data; naming the object alone is warned about. A std::array holds
// its elements: naming it alone is fine.
// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: %gpuss-translate %s -o %t.cpp -- -std=c++17 -DALONE 2>&1 | FileCheck --check-prefix=ALONE --implicit-check-not=warning: %s
#include <array>
#include <vector>
#pragma omp task inout(b[0;n])
void bump(long *b, int n);
void run(std::vector<long> &v, std::array<long, 8> &a) {
  bump(v.data(), 64);
#ifdef ALONE
#pragma omp taskwait on(v, a)
  // ALONE: container-sections.cpp:[[@LINE-1]]:25: warning: 'v' names the object of class type 'std::vector<long>' itself, not the elements it holds elsewhere (through its 'data()'): the tasks that use those elements through a pointer are not ordered by it; name the elements through a pointer to its data
#else
#pragma omp taskwait on(v[0;64])
  // CHECK: container-sections.cpp:[[@LINE-1]]:26: error: dimensions on 'v', an object of class type 'std::vector<long>': its elements are not in the object; name them through a pointer to its data (for example 'auto *v_data = v.data();' before the directive, and 'v_data[0;64]' in it)
#endif
}
