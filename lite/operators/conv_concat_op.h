// conv2d_concat: a channel concat (axis 1) of the outputs of several conv2d
// ops that nothing else reads, as one op (conv_concat_fuse_pass). A kernel
// can then have each conv write its channel slice of the concat's output in
// place, so the conv outputs are never written separately and copied again
// (squeezenet's eight fire modules concatenate their two expand convs).
//
// Inputs: Input, Filter and Bias (optional: every conv has one or none), one
// var per conv in concat order (Input may repeat a var); output Out. The
// attributes of conv i are stored under "conv<i>_<name>" (ConvConcatPart
// rebuilds its desc), plus conv_count. The op holds the conv2d ops and a
// concat op (lite/operators/conv_op.h, concat_split_ops.h) and delegates
// shape rules and checks to them: conv i writes "<Out>@<i>", a var of the
// scope only this op knows (the host kernel runs the host kernels through
// them; the x86 kernel never allocates them). Flops() sums its convs'.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/core/op_lite.h"
#include "lite/operators/concat_split_ops.h"
#include "lite/operators/conv_op.h"

namespace lite {
namespace operators {

struct ConvConcatParam : OpParam {
  std::vector<ConvParam*> convs;  // conv i's Output: "<Out>@<i>"
  ConcatParam* concat = nullptr;  // xs: those vars; out: Out
};

// The fused desc of `convs` (conv2d descs, their outputs concatenated in
// this order into `out` on axis 1).
cpp::OpDesc MakeConvConcat(const std::vector<const cpp::OpDesc*>& convs, const std::string& out);
// Number of convs of a conv2d_concat desc (0 when malformed).
int ConvConcatCount(const cpp::OpDesc& fused);
// Conv i of a conv2d_concat desc, writing "<Out>@<i>".
cpp::OpDesc ConvConcatPart(const cpp::OpDesc& fused, int i);
// The name of the var conv i writes.
std::string ConvConcatPartOutput(const std::string& out, int i);

}  // namespace operators
}  // namespace lite
