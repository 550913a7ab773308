// Host kernels for concat, split, stack and unstack: row-block memcpy on raw
// bytes, so every dtype works. Output dims are re-evaluated each run because
// AxisTensor / SectionsTensorList may change value with unchanged dims.
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/concat_split_ops.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

int64_t ProductFrom(const DDim& d, size_t from) {
  int64_t n = 1;
  for (size_t i = from; i < d.size(); ++i) n *= d[i];
  return n;
}

int64_t ProductTo(const DDim& d, size_t to) {
  int64_t n = 1;
  for (size_t i = 0; i < to && i < d.size(); ++i) n *= d[i];
  return n;
}

// Joins `ins` (each [outer, inner_i] bytes) into out ([outer, sum inner_i]).
Status JoinRows(const std::vector<const Tensor*>& ins, int64_t outer,
                const std::vector<int64_t>& inner_elems, Tensor* out) {
  const DataType t = ins[0]->dtype();
  for (const Tensor* x : ins) {
    if (x->dtype() != t) {
      return InvalidArgument(std::string("inputs mix dtypes ") + DataTypeName(t) +
                             " and " + DataTypeName(x->dtype()));
    }
    if (x->numel() > 0 && !x->raw_data()) return FailedPrecondition("an input has no data");
  }
  const size_t es = DataTypeSize(t);
  char* dst = static_cast<char*>(out->mutable_data(t));
  int64_t row = 0;
  for (int64_t e : inner_elems) row += e;
  int64_t offset = 0;
  for (size_t i = 0; i < ins.size(); ++i) {
    const char* src = static_cast<const char*>(ins[i]->raw_data());
    const size_t bytes = static_cast<size_t>(inner_elems[i]) * es;
    if (bytes > 0) {
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(dst + (o * row + offset) * es, src + o * bytes, bytes);
      }
    }
    offset += inner_elems[i];
  }
  return Status::OK();
}

// Cuts x ([outer, sum inner_i]) into outs (each [outer, inner_i]).
Status CutRows(const Tensor& x, int64_t outer, const std::vector<int64_t>& inner_elems,
               const std::vector<Tensor*>& outs) {
  const DataType t = x.dtype();
  if (x.numel() > 0 && !x.raw_data()) return FailedPrecondition("input X has no data");
  const size_t es = DataTypeSize(t);
  const char* src = static_cast<const char*>(x.raw_data());
  int64_t row = 0;
  for (int64_t e : inner_elems) row += e;
  int64_t offset = 0;
  for (size_t i = 0; i < outs.size(); ++i) {
    char* dst = static_cast<char*>(outs[i]->mutable_data(t));
    const size_t bytes = static_cast<size_t>(inner_elems[i]) * es;
    if (bytes > 0) {
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(dst + o * bytes, src + (o * row + offset) * es, bytes);
      }
    }
    offset += inner_elems[i];
  }
  return Status::OK();
}

}  // namespace

// Nearest upscale of NCHW float `x` by `f` in H and W into `out`.
static void Upscale(const Tensor& x, int f, Tensor* out) {
  const DDim& d = x.dims();
  out->Resize({d[0], d[1], d[2] * f, d[3] * f});
  const float* src = x.data<float>();
  float* dst = out->mutable_data<float>();
  const int64_t h = d[2], w = d[3], ow = w * f;
  for (int64_t plane = 0; plane < d[0] * d[1]; ++plane) {
    for (int64_t y = 0; y < h * f; ++y) {
      const float* row = src + (plane * h + y / f) * w;
      float* o = dst + (plane * h * f + y) * ow;
      for (int64_t x2 = 0; x2 < ow; ++x2) o[x2] = row[x2 / f];
    }
  }
}

class ConcatCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::ConcatParam>();
    int axis = 0;
    ASSIGN_OR_RETURN(DDim dims, operators::ComputeConcatDims(p, &axis));
    p.out->Resize(dims);
    std::vector<const Tensor*> xs = p.xs;
    scaled_.resize(p.input_scales.size());
    for (size_t i = 0; i < p.input_scales.size(); ++i) {  // (fusion of SE multiplies)
      const DDim& d = p.xs[i]->dims();
      scaled_[i].Resize(d);
      const float* x = p.xs[i]->data<float>();
      const float* sc = p.input_scales[i]->data<float>();
      float* o = scaled_[i].mutable_data<float>();
      const int64_t plane = d[2] * d[3];
      for (int64_t n = 0; n < d[0]; ++n)
        for (int64_t c = 0; c < d[1]; ++c) {
          const float s = sc[operators::ConcatScaleOffset(p, i, n) + c];
          const int64_t base = (n * d[1] + c) * plane;
          for (int64_t k = 0; k < plane; ++k) o[base + k] = x[base + k] * s;
        }
      xs[i] = &scaled_[i];
    }
    upscaled_.resize(p.upscale.size());
    for (size_t i = 0; i < p.upscale.size(); ++i) {  // (fusion of nearest upsamplings)
      if (p.upscale[i] == 1) continue;
      Upscale(*xs[i], p.upscale[i], &upscaled_[i]);
      xs[i] = &upscaled_[i];
    }
    std::vector<int64_t> inner;
    for (const Tensor* x : xs) inner.push_back(ProductFrom(x->dims(), axis));
    return JoinRows(xs, ProductTo(dims, axis), inner, p.out);
  }

 private:
  std::vector<Tensor> scaled_, upscaled_;
};

class SplitCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::SplitParam>();
    int axis = 0;
    ASSIGN_OR_RETURN(std::vector<DDim> dims, operators::ComputeSplitDims(p, &axis));
    std::vector<int64_t> inner;
    for (size_t i = 0; i < dims.size(); ++i) {
      p.outs[i]->Resize(dims[i]);
      inner.push_back(ProductFrom(dims[i], axis));
    }
    return CutRows(*p.x, ProductTo(p.x->dims(), axis), inner, p.outs);
  }
};

// stack: Y[pre, j, post] = X_j[pre, post]; the axis is already validated by
// InferShape, which also sized Y.
class StackCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::StackParam>();
    const DDim& d0 = p.xs[0]->dims();
    int axis = p.axis < 0 ? p.axis + static_cast<int>(d0.size()) + 1 : p.axis;
    std::vector<int64_t> inner(p.xs.size(), ProductFrom(d0, axis));
    return JoinRows(p.xs, ProductTo(d0, axis), inner, p.y);
  }
};

class UnstackCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::StackParam>();
    const DDim& in = p.x->dims();
    int axis = p.axis < 0 ? p.axis + static_cast<int>(in.size()) : p.axis;
    std::vector<int64_t> inner(p.ys.size(), ProductFrom(in, axis + 1));
    return CutRows(*p.x, ProductTo(in, axis), inner, p.ys);
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(concat, kHost, kAny, kNCHW, lite::kernels::host::ConcatCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(split, kHost, kAny, kNCHW, lite::kernels::host::SplitCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(stack, kHost, kAny, kNCHW, lite::kernels::host::StackCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(unstack, kHost, kAny, kNCHW, lite::kernels::host::UnstackCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(unbind, kHost, kAny, kNCHW, lite::kernels::host::UnstackCompute, def)
    .Finalize();
