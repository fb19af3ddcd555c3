// mg_layout.h: the cusolverMg side of the multi-GPU vendor baselines (vendor_cholesky, vendor_potri and
// vendor_lu, --mode mg).
//
// cusolverMg's 1-D column-block-cyclic layout over devices 0..nd-1 (a 1 x nd grid): column block jb
// (columns [jb * block, (jb + 1) * block)) lives on device jb % nd as its local block jb / nd; each
// device holds mg_local_blocks() blocks of ld x block elements, one after the other (ld = the rows of
// the global matrix). A vector distributed like the columns (getrf's pivots) has ld = 1.
#pragma once

#include "cuda_check.h"

#include <cuda_runtime.h>
#include <cusolverMg.h>

#include <cstddef>
#include <cstdint>
#include <vector>

inline int64_t mg_blocks(int64_t n, int64_t block) {
  return (n + block - 1) / block;
}

// Blocks on the device that holds the most of them (device 0): what every device allocates.
inline int64_t mg_local_blocks(int64_t n, int64_t block, int nd) {
  return (mg_blocks(n, block) + nd - 1) / nd;
}

// Elements of one device's part of a matrix with ld rows (ld = 1 for a vector like the columns).
inline size_t mg_local_elements(int64_t ld, int64_t n, int64_t block, int nd) {
  return (size_t)ld * (size_t)block * (size_t)mg_local_blocks(n, block, nd);
}

inline int mg_owner(int64_t jb, int nd) {
  return (int)(jb % nd);
}

// Offset, in elements, of column block jb in its owner's part.
inline size_t mg_local_offset(int64_t jb, int nd, int64_t block, int64_t ld) {
  return (size_t)(jb / nd) * (size_t)block * (size_t)ld;
}

inline size_t mg_free_device_bytes(int device) {
  CUDA_CHECK(cudaSetDevice(device));
  size_t free_bytes = 0, total = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  return free_bytes;
}

// cusolverMg moves panels between the GPUs; without peer access it goes through the host.
inline void mg_enable_peer_access(int nd) {
  for (int d = 0; d < nd; d++) {
    CUDA_CHECK(cudaSetDevice(d));
    for (int e = 0; e < nd; e++) {
      int can = 0;
      if (e == d) continue;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&can, d, e));
      if (!can) continue;
      cudaError_t status = cudaDeviceEnablePeerAccess(e, 0);
      if (status == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError(); // clear it: enabled already is what we want
      else
        CUDA_CHECK(status);
    }
  }
}

inline void mg_synchronize(int nd) {
  for (int d = 0; d < nd; d++) {
    CUDA_CHECK(cudaSetDevice(d));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
}

// cusolverMg over devices 0..nd-1 for an n x n double matrix in column blocks of `block`: peer access
// enabled, the handle, the 1 x nd grid and the matrix descriptor, destroyed with it.
struct MgContext {
  std::vector<int> devices;
  cusolverMgHandle_t handle = nullptr;
  cudaLibMgGrid_t grid = nullptr;
  cudaLibMgMatrixDesc_t desc = nullptr;

  MgContext(int nd, int64_t n, int64_t block) : devices(nd) {
    for (int d = 0; d < nd; d++)
      devices[d] = d;
    mg_enable_peer_access(nd);
    CUSOLVER_CHECK(cusolverMgCreate(&handle));
    CUSOLVER_CHECK(cusolverMgDeviceSelect(handle, nd, devices.data()));
    CUSOLVER_CHECK(
        cusolverMgCreateDeviceGrid(&grid, 1, nd, devices.data(), CUDALIBMG_GRID_MAPPING_COL_MAJOR));
    CUSOLVER_CHECK(cusolverMgCreateMatrixDesc(&desc, n, n, n, block, CUDA_R_64F, grid));
  }
  ~MgContext() {
    CUSOLVER_CHECK(cusolverMgDestroyMatrixDesc(desc));
    CUSOLVER_CHECK(cusolverMgDestroyGrid(grid));
    CUSOLVER_CHECK(cusolverMgDestroy(handle));
  }
  MgContext(const MgContext &) = delete;
  MgContext &operator=(const MgContext &) = delete;
};
