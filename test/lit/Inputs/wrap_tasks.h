#pragma css task inout(v[4])
void twice(int *v);
