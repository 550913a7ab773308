#include "lite/kernels/x86/dnnl_kernel.h"

namespace lite {
namespace kernels {
namespace x86 {

using lite::x86::CpuEngine;
using lite::x86::DnnlError;
using lite::x86::SetDnnlThreads;

dnnl::stream& DnnlKernel::stream() {
  if (!stream_) stream_ = std::make_unique<dnnl::stream>(CpuEngine());
  return *stream_;
}

dnnl::memory DnnlKernel::Temp(const dnnl::memory::desc& md) {
  if (temps_used_ == temps_.size()) temps_.emplace_back();
  Tensor& t = temps_[temps_used_++];
  const int64_t floats = static_cast<int64_t>((md.get_size() + 3) / 4);
  t.Resize({floats > 0 ? floats : 1});
  return dnnl::memory(md, CpuEngine(), t.mutable_data<float>());
}

void DnnlKernel::ReleaseTemps() {
  for (size_t i = 0; i < temps_used_; ++i) {
    if (ctx()) ctx()->buffers.Release(&temps_[i]);
    else temps_[i].FreeMemory();
  }
  temps_used_ = 0;
}

Status DnnlKernel::Init() {
  SetDnnlThreads(threads());
  try {
    return InitDnnl();
  } catch (const dnnl::error& e) {
    return DnnlError(e, "x86 kernel " + def().op_type + " init");
  }
}

Status DnnlKernel::Run() {
  SetDnnlThreads(threads());
  Status s;
  try {
    s = RunDnnl();
    if (s.ok() && stream_) stream_->wait();
  } catch (const dnnl::error& e) {
    s = DnnlError(e, "x86 kernel " + def().op_type);
  }
  ReleaseTemps();
  return s;
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
