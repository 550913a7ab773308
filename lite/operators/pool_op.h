// pool2d / pool3d: max / avg pooling over NCHW / NCDHW input (the 3-D form
// takes 3-value ksize / strides and 3 or 6 paddings [front, back, top,
// bottom, left, right]), with Paddle's attributes:
// pooling_type, ksize, strides, paddings (2 or 4 values), global_pooling,
// adaptive, ceil_mode, exclusive (avg divisor skips padding; default true),
// padding_algorithm (EXPLICIT / SAME / VALID), data_format (NCHW /
// AnyLayout; NHWC returns Unimplemented).
//
// Output size per dim: adaptive -> ksize; otherwise
// (in - k + pad_begin + pad_end [+ stride - 1 when ceil_mode]) / stride + 1.
// global_pooling uses the whole input (ksize = input size, no padding);
// adaptive and global pooling ignore paddings. InferShape stores the
// effective ksize and 4-value paddings in the param for the kernel.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"
#include "lite/operators/op_with_param.h"

namespace lite {
namespace operators {

struct PoolParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  std::string pooling_type;  // "max" or "avg"
  std::vector<int> ksize;
  std::vector<int> strides{1, 1};
  std::vector<int> paddings{0, 0, 0, 0};  // attribute, expanded to begin/end pairs
  bool global_pooling = false;
  bool adaptive = false;
  bool ceil_mode = false;
  bool exclusive = true;
  std::string padding_algorithm = "EXPLICIT";
  std::string data_format = "NCHW";

  // Resolved by InferShape for the current input dims.
  std::vector<int> eff_ksize{1, 1};
  std::vector<int> eff_paddings{0, 0, 0, 0};  // [(front, back,) top, bottom, left, right]
};

// An avg pool2d described by `desc` averages each whole plane to one value
// whatever the input size: global_pooling, or adaptive to 1 x 1.
inline bool AveragesWholePlanes(const cpp::OpDesc& desc) {
  if (desc.GetAttr<std::string>("pooling_type", "") != "avg") return false;
  if (desc.GetAttr<bool>("global_pooling", false)) return true;
  return desc.GetAttr<bool>("adaptive", false) &&
         desc.GetAttr<std::vector<int>>("ksize", {}) == std::vector<int>{1, 1};
}

// The op types PoolOp serves.
enum class PoolOpKind { kPool2d, kPool3d };

class PoolOp : public OpWithParam<PoolParam> {
 public:
  PoolOp(std::string type, PoolOpKind kind)
      : OpWithParam<PoolParam>(std::move(type)), kind_(kind) {}
  Status CheckShape() const override;
  Status InferShape() override;

 protected:
  Status AttachImpl(const cpp::OpDesc& desc, Scope* scope) override;

 private:
  const PoolOpKind kind_;
};

}  // namespace operators
}  // namespace lite
