// In a template, a call that may mean a task function or another function
// of the same name, depending on the template's arguments, is an error: as
// an ordinary call it would run at once, racing with the tasks in flight.
// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
// RUN: test ! -e %t.cpp
void smooth(int *y);
#pragma css task inout(y[4])
void smooth(float *y);

template <typename T>
void run(T *y) {
  smooth(y);
}
// CHECK: template-ambiguous-call.cpp:12:3: error: this call in a template may call task function 'smooth' or another function of that name, depending on the template's arguments; give the task function a name of its own
