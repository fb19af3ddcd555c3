// CudaSupport: the CUDA and cuBLAS pieces a GPU worker is made of, each
// call checked: streams, events, cuBLAS handles, and the cuBLAS library
// itself, loaded when the first worker starts.
//
// Included by CudaDevice.cpp alone. The objects belong to the GPU worker
// that makes them and are used on its thread; CublasLibrary is process-wide
// (see below).
#pragma once

#include "support/Fatal.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <string>
#include <type_traits>
#include <utility>

namespace gpuss::cuda {

inline void check_cuda(cudaError_t status, const char *call, const char *file, int line) {
  if (status == cudaSuccess) return;
  fatal(std::string(file) + ":" + std::to_string(line) + ": " + call +
        " failed: " + cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

// cuBLAS, loaded when the first GPU worker starts rather than linked: its
// libraries' start-up alone costs a process about a second where page faults
// are slow (a virtual machine), and every program built with gpuss-cc, GPUs
// or not, loads libgpuss. The program's own cuBLAS calls (task bodies with
// css_cublas_handle()) bind to this same library: one soname, one instance.
// A function-local static: the library is loaded once per process, whatever
// the number of runtimes.
class CublasLibrary {
public:
  static const CublasLibrary &get() {
    static const CublasLibrary library;
    return library;
  }
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasGetStatusName) status_name = nullptr;

private:
  CublasLibrary() {
    const std::string name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);
    // Never closed: the program's bodies may hold its functions until exit.
    void *handle = dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle)
      fatal("a GPU worker needs cuBLAS, and " + name + " could not be loaded: " + dlerror() +
            " (is the CUDA Toolkit's lib64 on LD_LIBRARY_PATH or in ld.so.conf?)");
    auto symbol = [&](auto &function, const char *symbol_name) {
      function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(dlsym(handle, symbol_name));
      if (!function) fatal(name + " has no " + symbol_name + ": " + dlerror());
    };
    symbol(create, "cublasCreate_v2");
    symbol(destroy, "cublasDestroy_v2");
    symbol(set_stream, "cublasSetStream_v2");
    symbol(status_name, "cublasGetStatusName");
  }
};

inline void check_cublas(cublasStatus_t status, const char *call, const char *file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  fatal(std::string(file) + ":" + std::to_string(line) + ": " + call +
        " failed: " + CublasLibrary::get().status_name(status));
}

#define CSS_CUDA_CHECK(call) ::gpuss::cuda::check_cuda((call), #call, __FILE__, __LINE__)
#define CSS_CUBLAS_CHECK(call) ::gpuss::cuda::check_cublas((call), #call, __FILE__, __LINE__)

class CudaStream {
public:
  CudaStream() { CSS_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  // `priority` from cudaDeviceGetStreamPriorityRange: lower numbers are more
  // urgent; the GPU gives SMs to the pending blocks of more urgent streams
  // first.
  explicit CudaStream(int priority) {
    CSS_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, priority));
  }
  ~CudaStream() { cudaStreamDestroy(stream_); }
  CudaStream(const CudaStream &) = delete;
  CudaStream &operator=(const CudaStream &) = delete;
  cudaStream_t get() const { return stream_; }

private:
  cudaStream_t stream_{};
};

class CudaEvent {
public:
  explicit CudaEvent(bool timing = false) {
    CSS_CUDA_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~CudaEvent() {
    if (event_) cudaEventDestroy(event_);
  }
  CudaEvent(CudaEvent &&other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  CudaEvent(const CudaEvent &) = delete;
  CudaEvent &operator=(const CudaEvent &) = delete;
  cudaEvent_t get() const { return event_; }
  void record(cudaStream_t stream) { CSS_CUDA_CHECK(cudaEventRecord(event_, stream)); }
  bool done() const {
    cudaError_t status = cudaEventQuery(event_);
    if (status == cudaErrorNotReady) return false;
    CSS_CUDA_CHECK(status);
    return true;
  }

private:
  cudaEvent_t event_{};
};

class CublasHandle {
public:
  CublasHandle() { CSS_CUBLAS_CHECK(CublasLibrary::get().create(&handle_)); }
  ~CublasHandle() { CublasLibrary::get().destroy(handle_); }
  CublasHandle(const CublasHandle &) = delete;
  CublasHandle &operator=(const CublasHandle &) = delete;
  cublasHandle_t get() const { return handle_; }

private:
  cublasHandle_t handle_{};
};

} // namespace gpuss::cuda
