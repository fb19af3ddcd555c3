// 'wait on(x[b])' or a task block's 'out(x[b])' inside a loop counting with
// 'b': in GPUSs 'x[b]' is the b elements from x[0], so an OmpSs user's wait
// for element b waits for other data, and for none at b = 0; the master then
// reads a value its task may still be writing (a silent wrong result before
// this warning), and the task block names other data than it writes. A
// warning that suggests 'x[b;1]'. Counts that are not a loop's counter
// ('x[n]', the whole array), items already of one element, and tile pointers
// stored in an array ('wait on(T[b])' is the tile) are not warned about.
// RUN: %gpuss-translate %s -o %t.c -- 2>&1 | FileCheck --implicit-check-not=warning: %s
#pragma css task output(c[1])
void produce(int *c, int v);
#pragma css task output(t[4])
void fill(double *t);

void collect(int *counts, int n, double *tiles[8]) {
  for (int b = 0; b < n; b++)
    produce(&counts[b], b);
  for (int b = 0; b < n; b++) {
#pragma css wait on(counts[b])
    // CHECK: warn-loop-counter-extent.c:[[@LINE-1]]:27: warning: 'counts[b]' is the b elements from counts[0] ('x[n]' counts elements in GPUSs), not element b as in OmpSs: with 'b' the counter of a loop around this wait, it waits for other data than element b (for none when b is 0); to wait for element b write 'counts[b;1]'
    counts[b] += 1;
  }
  int i;
  for (i = 0; i < n; ++i) {
#pragma css taskwait on(counts[i])
    // CHECK: warn-loop-counter-extent.c:[[@LINE-1]]:31: warning: 'counts[i]' is the i elements
  }
#pragma css wait on(counts[n])
  for (int b = 0; b < n; b++) {
#pragma css wait on(counts[b;1])
#pragma css wait on(counts[n])
  }
  for (int b = 0; b < 8; b++) {
    fill(tiles[b]);
#pragma css wait on(tiles[b])
  }
  long sums[4], data[64];
  for (int b = 0; b < 4; b++) {
#pragma css task in(data[b*16;16]) out(sums[b])
    // CHECK: warn-loop-counter-extent.c:[[@LINE-1]]:44: warning: 'sums[b]' is the b elements from sums[0] ('x[n]' counts elements in GPUSs), not element b as in OmpSs: with 'b' the counter of a loop around this task, the task names other data than element b (none when b is 0); for element b write 'sums[b;1]'
    {
      sums[b] = data[b * 16];
    }
#pragma css task in(data[b*16;16]) out(sums[b;1])
    {
      sums[b] = data[b * 16 + 1];
    }
#pragma css task in(data[n]) inout(sums[4])
    {
      sums[b] += data[0];
    }
  }
}
