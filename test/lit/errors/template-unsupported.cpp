// Function templates that cannot be tasks, each with its reason.
// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
#pragma css task inout(v[n]) input(n)
template <typename... Ts>
void pack(int n, int *v, Ts... rest);
// CHECK: template-unsupported.cpp:6:32: error: parameter pack 'rest' of task function 'pack': a task needs a fixed list of parameters

#pragma css task inout(v[4])
template <typename T = double>
void defaulted(T *v);
// CHECK: template-unsupported.cpp:10:20: error: default argument of template parameter 'T' of task function 'defaulted' is not supported; name the argument at the calls or let it be deduced

#pragma css task inout(v[4])
template <template <typename> class Box, typename T>
void boxed(T *v);
// CHECK: template-unsupported.cpp:15:37: error: template template parameter 'Box' of task function 'boxed' is not supported

#pragma css task inout(v[4])
template <typename T>
void by_reference(T &v);
// CHECK: template-unsupported.cpp:21:22: error: parameter 'v' of task function 'by_reference' is a reference (type 'T &'): a task runs later and cannot keep a reference to the caller's variable; pass a pointer and name it in a data clause (e.g. 'inout(v)')
