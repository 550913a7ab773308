// conv2d_max_pool: a conv2d (with its fused activation) and the max pool2d
// that alone reads its output, as one op (conv_max_pool_fuse_pass). A
// kernel can then pool conv rows while they are in cache instead of writing
// the whole conv output and reading it back (squeezenet's first conv writes
// 3.3 MB that its pool reads again).
//
// Inputs Input, Filter, Bias (optional); output Out, the pooled map.
// Attributes: conv2d's, and the pool's under "pool_" names: pool_ksize,
// pool_strides, pool_paddings, pool_ceil_mode, pool_padding_algorithm. The
// op holds a conv2d and a max pool2d op (lite/operators/conv_op.h,
// pool_op.h) and delegates to them, so shape rules and checks are theirs:
// the conv writes "<Out>@conv", a var of the scope that only this op knows
// (the host kernel runs both host kernels through it; the x86 one never
// allocates it).
#pragma once

#include <memory>
#include <string>

#include "lite/core/op_lite.h"
#include "lite/operators/conv_op.h"
#include "lite/operators/pool_op.h"

namespace lite {
namespace operators {

struct ConvMaxPoolParam : OpParam {
  ConvParam* conv = nullptr;  // Output: the op's own "<Out>@conv"
  PoolParam* pool = nullptr;  // x: that var; out: Out
};

// The attributes a pool2d's settings are stored under on conv2d_max_pool.
constexpr const char* kPoolAttrs[][2] = {{"ksize", "pool_ksize"},
                                         {"strides", "pool_strides"},
                                         {"paddings", "pool_paddings"},
                                         {"ceil_mode", "pool_ceil_mode"},
                                         {"padding_algorithm", "pool_padding_algorithm"}};

}  // namespace operators
}  // namespace lite
