// The error of an op Paddle defines in both NCHW and NHWC form (conv2d,
// depthwise_conv2d, conv2d_transpose, pool2d, batch_norm, the interpolation
// ops, group_norm, pixel_shuffle) when its channel-last form reaches the op
// definition. The definitions compute channel-first only; the optimizer's
// nhwc_to_nchw_pass rewrites each channel-last op into transposes around its
// NCHW form before ops are built, so this error means that pass did not run
// (disabled, or a pipeline without it). One wording for every such op.
#pragma once

#include <string>

#include "lite/utils/status.h"

namespace lite {
namespace operators {

// `op`: the op's DebugName(); `attr`: data_format or data_layout.
inline Status ChannelLastUnsupported(const std::string& op, const std::string& attr,
                                     const std::string& value, const std::string& only = "NCHW") {
  return Unimplemented("op " + op + ": " + attr + " '" + value + "' is not supported (" + only +
                       " only); nhwc_to_nchw_pass runs the NHWC form as transposes around the " +
                       only + " op");
}

}  // namespace operators
}  // namespace lite
