// A task block inside a lambda may use the variables of the function around
// the lambda, but not the lambda's own parameters and locals (the outlined
// task cannot reach them). Naming a parameter in a clause once said
// "unknown name" of a name in scope; both forms now say why and what to do.
// RUN: not %gpuss-translate %s -o %t.cpp -- -std=c++17 2>&1 | FileCheck %s
void run(double *acc) {
  auto add = [&](int k, double v) {
#pragma omp task inout(acc[k;1]) firstprivate(v)
    acc[k] += v;
  };
  // CHECK: task-block-in-lambda.cpp:[[@LINE-3]]:28: error: unknown name 'k'; this task block is inside a lambda, where a clause may use the variables of 'run' around the lambda, macros, enumerators and globals, but not the lambda's own parameters and locals: make the task a task function that the lambda calls
  auto twice = [&](int k) {
    int j = k;
#pragma omp task inout(acc[0;4])
    acc[j] *= 2;
  };
  // CHECK: task-block-in-lambda.cpp:[[@LINE-4]]:9: error: 'j', used in the task block at line {{[0-9]+}}, belongs to a lambda or block around the task block, which the outlined task cannot reach: there a task block may use only the variables of the function around the lambda; make the task a task function that the lambda calls
  add(1, 2.0);
  twice(1);
}
