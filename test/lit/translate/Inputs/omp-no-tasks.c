// An OpenMP program without tasks (test/lit/translate/omp-pragmas.c).
long count;
void tally(int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp critical
    count++;
  }
#pragma omp barrier
}
