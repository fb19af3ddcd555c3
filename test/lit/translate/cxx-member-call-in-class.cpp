// A static member task called inside its class's definition (an inline
// member function): the task's code goes at the end of the class, public,
// where the member functions and the calls after the class see it (the call
// was refused).
// RUN: %gpuss-translate %s -o %t.cpp -- -std=c++17
// RUN: FileCheck %s < %t.cpp
// RUN: %cxx -std=c++17 -fsyntax-only -I %gpuss-include %t.cpp
struct Grid {
#pragma css task inout([n] v) input(n)
  static void relax(int n, double *v);
  void step(double *v) {
    relax(8, v);
  }
};
void sweep(double *v) {
  Grid::relax(8, v);
}
// CHECK: void step(double *v) {
// CHECK-NEXT: ::Grid::__css_submit_relax(8, v, "{{.*}}", 12);
// CHECK: public:
// CHECK-NEXT: #line 9
// CHECK: static void __css_submit_relax(int n, double *v,
// CHECK: #line 14
// CHECK-NEXT: };
// CHECK: void sweep(double *v) {
// CHECK-NEXT: ::Grid::__css_submit_relax(8, v, "{{.*}}", 16);
