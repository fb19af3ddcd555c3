// Where the locals that tasks use stop living, the translator releases them
// (css_release: every task that uses them finishes, readers too, and the
// runtime forgets them): at the end of their block, before a return, and
// before a break or continue that leaves their block. Other tasks keep
// running, where a barrier would wait for them all.
// RUN: %gpuss-translate %s -o %t.c --
// RUN: FileCheck %s < %t.c
// RUN: %cc -fsyntax-only -Wall -Werror -Wno-unknown-pragmas -I %gpuss-include %t.c
#pragma css task inout(v[4])
void bump(double *v);
#pragma css task output(x)
void set(double *x);

double f(int c) {
  double buf[4] = {0};
  bump(buf);
  if (c)
    return buf[0];
  // CHECK: if (c)
  // CHECK-NEXT: { do { css_region __css_wait[1]; __css_wait[0] = css_contiguous(&buf, sizeof buf); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use buf */ return buf[0]; }
  for (int i = 0; i < 3; i++) {
    double t;
    set(&t);
    if (i == c)
      break;
    if (i)
      continue;
  }
  // CHECK: { do { css_region __css_wait[1]; __css_wait[0] = css_contiguous(&t, sizeof t); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use t */ break; }
  // CHECK: { do { css_region __css_wait[1]; __css_wait[0] = css_contiguous(&t, sizeof t); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use t */ continue; }
  // CHECK-NEXT: do { css_region __css_wait[1]; __css_wait[0] = css_contiguous(&t, sizeof t); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use t */ }
  return buf[1];
  // CHECK: { do { css_region __css_wait[1]; __css_wait[0] = css_contiguous(&buf, sizeof buf); css_release(__css_wait, 1); } while (0); /* gpuss: tasks use buf */ return buf[1]; }
}

void g(void) {
  double z;
  set(&z);
}
// CHECK: void g(void) {
// CHECK: css_release(__css_wait, 1); } while (0); /* gpuss: tasks use z */ }
// CHECK-NOT: {{css_barrier[(]}}
