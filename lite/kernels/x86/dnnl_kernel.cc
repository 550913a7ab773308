#include "lite/kernels/x86/dnnl_kernel.h"

#include <algorithm>

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

dnnl::memory::desc DnnlKernel::Desc(const Tensor& t) const {
  if (nhwc() && t.dims().size() == 4 && !t.persistable()) return lite::x86::NhwcDesc(t.dims());
  return lite::x86::PlainDesc(t.dims());
}

Tensor* DnnlKernel::TempTensor(const DDim& dims) {
  if (temps_used_ == temps_.size()) temps_.emplace_back();
  Tensor* t = &temps_[temps_used_++];
  t->Resize(dims);
  return t;
}

dnnl::memory DnnlKernel::Temp(const dnnl::memory::desc& md) {
  const int64_t floats = static_cast<int64_t>((md.get_size() + 3) / 4);
  Tensor* t = TempTensor({floats > 0 ? floats : 1});
  return Mem(kTempSlot + static_cast<int>(temps_used_), md, t->mutable_data<float>());
}

dnnl::memory DnnlKernel::Mem(int slot, const dnnl::memory::desc& md, const void* data) {
  auto it = std::find_if(mems_.begin(), mems_.end(),
                         [slot](const CachedMemory& c) { return c.slot == slot; });
  if (it == mems_.end()) it = mems_.insert(mems_.end(), CachedMemory{slot, md, {}});
  CachedMemory& c = *it;
  if (!c.mem || c.md != md) {
    c.md = md;
    c.mem = dnnl::memory(md, CpuEngine(), const_cast<void*>(data));
  } else {
    c.mem.set_data_handle(const_cast<void*>(data));
  }
  return c.mem;
}

void DnnlKernel::AddArg(int arg, const dnnl::memory& mem) { args_.push_back({arg, mem.get()}); }

void DnnlKernel::Execute(const dnnl::primitive& p,
                         std::initializer_list<std::pair<int, dnnl::memory>> args) {
  for (const auto& a : args) AddArg(a.first, a.second);
  const dnnl_status_t status = dnnl_primitive_execute(p.get(), stream().get(),
                                                      static_cast<int>(args_.size()), args_.data());
  args_.clear();
  if (status != dnnl_success) throw dnnl::error(status, "could not execute a primitive");
}

const Tensor* DnnlKernel::NchwInput(const Tensor& t) {
  const auto md = Desc(t);
  if (md == lite::x86::PlainDesc(t.dims())) return &t;
  Tensor* copy = TempTensor(t.dims());
  auto src = lite::x86::WrapMemory(md, t.data<float>());
  auto dst = lite::x86::WrapMemory(lite::x86::PlainDesc(t.dims()), copy->mutable_data<float>());
  dnnl::reorder(src, dst).execute(stream(), src, dst);
  stream().wait();
  return copy;
}

Tensor* DnnlKernel::NchwOutput(Tensor* t) {
  return Desc(*t) == lite::x86::PlainDesc(t->dims()) ? t : TempTensor(t->dims());
}

void DnnlKernel::StoreNchwOutput(const Tensor& nchw, Tensor* t) {
  if (&nchw == t) return;
  auto src = lite::x86::WrapMemory(lite::x86::PlainDesc(t->dims()), nchw.data<float>());
  auto dst = lite::x86::WrapMemory(Desc(*t), t->mutable_data<float>());
  dnnl::reorder(src, dst).execute(stream(), src, dst);
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
  args_.clear();  // arguments added before a step that threw
  return s;
}

}  // namespace x86
}  // namespace kernels
}  // namespace lite
