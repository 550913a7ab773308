#include "lite/backends/x86/dnnl_util.h"

#include <omp.h>

namespace lite {
namespace x86 {

const dnnl::engine& CpuEngine() {
  static const auto* engine = new dnnl::engine(dnnl::engine::kind::cpu, 0);
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
