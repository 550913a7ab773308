// concat, split, stack and unstack: joining and cutting tensors along an axis.
//
// All are dtype-agnostic (raw element copies). concat/split take an optional
// AxisTensor that overrides attr `axis`; split's SectionsTensorList overrides
// attr `sections`. Negative axes count from the end. Because those tensors can
// change value without changing dims, the Compute*Dims functions are shared
// by InferShape and the kernels, which re-evaluate them every run. LoD:
// concat along axis 0 appends the inputs' one-level LoDs (all inputs with one
// or none); on another axis the inputs that carry a LoD must agree and Out
// keeps it (lod_util.h AgreedLoD). A fusion may give concat per-input
// nearest upscale factors (ConcatParam::upscale) and per-channel input
// scales (ConcatParam::input_scales), and int8_requantize_pass
// int8 levels as its output (ConcatParam::levels, see levels_output.h).
#pragma once

#include <vector>

#include "lite/core/op_lite.h"
#include "lite/operators/levels_output.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

struct ConcatParam : OpParam {
  std::vector<const Tensor*> xs;
  Tensor* out = nullptr;
  int axis = 0;
  const Tensor* axis_tensor = nullptr;  // optional, overrides axis
  // Attr input_upscale (set by concat_upscale_fuse_pass): one integer per
  // input; input i enters the concat nearest-upscaled by that factor in H
  // and W (each pixel repeated f x f times). Empty: none. Only for rank-4
  // float inputs joined on axis 1.
  std::vector<int> upscale;
  // Optional InputScale list (set by concat_scale_fuse_pass): one float32
  // tensor per input, [C_i] or [1 or N, C_i, 1, 1]; input i enters the concat
  // multiplied per sample and channel by it (an SE gate's multiply folded
  // in). Empty: none. Only for rank-4 float inputs joined on axis 1.
  std::vector<const Tensor*> input_scales;
  // Out as int8 levels of float inputs (levels_output.h; x86 kernel).
  LevelsOutput levels;
};

// Input i's dims as the concat sees them (after its upscale).
DDim ConcatInputDims(const ConcatParam& p, size_t i);
// Offset into input i's InputScale of sample n's channels (0 for a
// [1, C, 1, 1] scale).
inline int64_t ConcatScaleOffset(const ConcatParam& p, size_t i, int64_t n) {
  const Tensor* s = p.input_scales[i];
  const int64_t c = p.xs[i]->dims()[1];
  return s->numel() == c ? 0 : n * c;
}

struct SplitParam : OpParam {
  const Tensor* x = nullptr;
  std::vector<Tensor*> outs;
  int axis = 0;
  int num = 0;
  std::vector<int64_t> sections;  // may hold one -1
  const Tensor* axis_tensor = nullptr;                   // optional
  std::vector<const Tensor*> sections_tensor_list;       // optional
};

// stack: Y = the X list stacked on a new axis. unstack: the reverse, into Y;
// unbind: the same as unstack with the outputs named Out.
struct StackParam : OpParam {
  std::vector<const Tensor*> xs;  // stack inputs
  const Tensor* x = nullptr;      // unstack input
  std::vector<Tensor*> ys;        // unstack outputs
  Tensor* y = nullptr;            // stack output
  int axis = 0;
  int num = 0;  // unstack
};

// Output dims of concat; *axis receives the normalized axis.
StatusOr<DDim> ComputeConcatDims(const ConcatParam& p, int* axis);
// Output dims of each split output; *axis receives the normalized axis.
StatusOr<std::vector<DDim>> ComputeSplitDims(const SplitParam& p, int* axis);

class ConcatOp : public OpWithParam<ConcatParam> {
 public:
  using OpWithParam::OpWithParam;
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;
};

}  // namespace operators
}  // namespace lite
