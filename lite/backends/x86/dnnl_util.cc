#include "lite/backends/x86/dnnl_util.h"

#include <omp.h>

#include <cstdlib>
#include <string>

#include "lite/utils/memory.h"

namespace lite {
namespace x86 {
namespace {

// oneDNN keeps every primitive it creates in a process-wide LRU cache of
// 1024 by default, each with its JIT code (about 0.3 MB apiece for det's
// convs): with a new input size on most calls that grew RSS by ~300 MB and
// never hit, since the kernels keep their current shape's primitive
// themselves. 128 holds one det shape's primitives, enough for sizes that
// alternate. DNNL_PRIMITIVE_CACHE_CAPACITY in the environment wins.
constexpr int kPrimitiveCacheCapacity = 128;

void BoundPrimitiveCache() {
  if (std::getenv("DNNL_PRIMITIVE_CACHE_CAPACITY") == nullptr) {
    dnnl::set_primitive_cache_capacity(kPrimitiveCacheCapacity);
  }
  // The memory budget's trimmer empties the cache and restores its capacity.
  RegisterProcessCache(
      "onednn primitive cache",
      [] {
        const int capacity = dnnl::get_primitive_cache_capacity();
        dnnl::set_primitive_cache_capacity(0);
        dnnl::set_primitive_cache_capacity(capacity);
      },
      [] {
        return "capacity " + std::to_string(dnnl::get_primitive_cache_capacity()) + " primitives";
      });
}

}  // namespace

const dnnl::engine& CpuEngine() {
  static const auto* engine = [] {
    BoundPrimitiveCache();
    return new dnnl::engine(dnnl::engine::kind::cpu, 0);
  }();
  return *engine;
}

void SetDnnlThreads(int threads) {
  if (threads < 1) threads = 1;
  if (omp_get_max_threads() != threads) omp_set_num_threads(threads);
}

int DnnlThreads() { return omp_get_max_threads(); }

bool CpuHasAvx512Core() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
}

dnnl::memory::dims ToDnnlDims(const DDim& dims) {
  return dnnl::memory::dims(dims.begin(), dims.end());
}

dnnl::memory::desc PlainDesc(const DDim& dims) {
  dnnl::memory::dims d = ToDnnlDims(dims);
  dnnl::memory::dims strides(d.size(), 1);
  for (int i = static_cast<int>(d.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * d[i + 1];
  return dnnl::memory::desc(d, dnnl::memory::data_type::f32, strides);
}

dnnl::memory::desc NhwcDesc(const DDim& dims) {
  return dnnl::memory::desc(ToDnnlDims(dims), dnnl::memory::data_type::f32,
                            dnnl::memory::format_tag::nhwc);
}

dnnl::memory WrapMemory(const dnnl::memory::desc& md, const void* data) {
  return dnnl::memory(md, CpuEngine(), const_cast<void*>(data));
}

Status DnnlError(const dnnl::error& e, const std::string& what) {
  return Internal(what + ": oneDNN status " + std::to_string(static_cast<int>(e.status)) + ": " +
                  e.what());
}

}  // namespace x86
}  // namespace lite
