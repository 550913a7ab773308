// oneDNN glue for the x86 target: the process-wide CPU engine, the thread
// count oneDNN runs with, plain (NCHW-style) memory descriptors over our
// tensors, and dnnl::error -> Status.
//
// Threading (what Debian's libdnnl 2.6 is): dnnl_config.h says
// DNNL_CPU_THREADING_RUNTIME = DNNL_RUNTIME_OMP and libdnnl.so links
// libgomp, so oneDNN parallelizes with OpenMP and has no threadpool interop
// (that exists only in DNNL_RUNTIME_THREADPOOL builds). The number of OpenMP
// threads is a per-calling-thread setting (the nthreads-var ICV), and
// oneDNN's JIT primitives partition their work for omp_get_max_threads() at
// creation. So every x86 kernel calls SetDnnlThreads(ctx threads) before it
// creates or executes a primitive: the predictor's set_threads() decides,
// OMP_NUM_THREADS does not. Between primitives libgomp's idle workers spin
// (GOMP_SPINCOUNT, about 300k iterations by default) before sleeping, so
// back-to-back x86 ops do not pay a wake-up; OMP_WAIT_POLICY=passive in the
// environment would make them sleep at once.
//
// The engine is owned here (a function-local static); kernels own their
// streams and primitives. Nothing here allocates tensor memory.
#pragma once

#include <string>

#include <oneapi/dnnl/dnnl.hpp>

#include "lite/base/tensor.h"
#include "lite/utils/status.h"

namespace lite {
namespace x86 {

// The CPU engine all x86 kernels use (thread-safe, created on first use).
const dnnl::engine& CpuEngine();

// Makes oneDNN on the calling thread use `threads` OpenMP threads (>= 1).
void SetDnnlThreads(int threads);
// The thread count oneDNN would use on the calling thread now.
int DnnlThreads();

// Whether the CPU has what oneDNN calls avx512_core (AVX-512 F, BW, VL,
// DQ), which its Winograd and brgconv kernels need.
bool CpuHasAvx512Core();

dnnl::memory::dims ToDnnlDims(const DDim& dims);
// fp32 memory of `dims` in plain row-major order (nchw for 4-D).
dnnl::memory::desc PlainDesc(const DDim& dims);
// fp32 memory of logical NCHW `dims` (rank 4) stored in NHWC order.
dnnl::memory::desc NhwcDesc(const DDim& dims);
// A memory object over `data` (not owned; oneDNN takes a non-const
// pointer even for inputs it only reads).
dnnl::memory WrapMemory(const dnnl::memory::desc& md, const void* data);

// Status for a caught oneDNN exception: "<what>: oneDNN <status>: <message>".
Status DnnlError(const dnnl::error& e, const std::string& what);

}  // namespace x86
}  // namespace lite
