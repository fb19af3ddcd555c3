// Built when libgpuss has no CUDA support: there are no GPUs to offer.
#include "devices/Device.hpp"
#include "devices/GpuSharing.hpp"
#include "memory/PageLocks.hpp"

namespace gpuss {
std::vector<std::unique_ptr<Device>> make_cuda_devices(int, int, unsigned, PageLocks *, CopyThreads *,
                                                       const CudaDeviceOptions &, NodeRanks) {
  return {};
}
int cuda_device_count() {
  return 0;
}
std::unique_ptr<PageLocker> make_cuda_page_locker() {
  return nullptr;
}
} // namespace gpuss

extern "C" void *css_cuda_stream_ptr(void) {
  return nullptr;
}
extern "C" void *css_cublas_handle_ptr(void) {
  return nullptr;
}
