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
// A `T &` named in a clause is the object it refers to, one T: no dimensions.
// CHECK: template-unsupported.cpp:19:25: error: dimensions on 'v', which is a scalar of type 'T'; name the variable alone ('v')
