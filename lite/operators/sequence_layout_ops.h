// LoD sequence ops that move whole rows (Paddle fluid semantics), plus
// sequence_softmax:
//   sequence_softmax: X [T] or [T, 1]; softmax over each sequence of the
//     last LoD level. Out keeps X's dims and LoD.
//   sequence_expand: Y's LoD level ref_level (-1: the last) gives a repeat
//     count per sequence of X (X's one LoD level, or each row when X has no
//     LoD): sequence i of X is written repeat_i times. Out has one LoD level
//     (the repeated sequences) when X has a LoD, none otherwise. A Y level
//     with no sequences leaves Out a copy of X.
//   sequence_expand_as: row i of X is repeated as many times as sequence i
//     of Y has rows (Y has one level); Out takes Y's LoD.
//   sequence_reshape: X [T, D] (one level) becomes [T * D / new_dim,
//     new_dim] with the data unchanged; every sequence's length * D must
//     divide by new_dim, and the offsets scale by D / new_dim.
//   sequence_concat: inputs with one LoD level and the same number of
//     sequences; sequence i of Out is sequence i of every input in order.
//     Trailing dims must match.
// InferShape validates the LoDs (lod_util.h) and records which input row
// every output row copies (RowGatherParam::rows), so the kernels are plain
// dtype-agnostic row copies; a LoD change re-runs InferShape.
#pragma once

#include <utility>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct SequenceSoftmaxParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
};

struct RowGatherParam : OpParam {
  std::vector<const Tensor*> xs;  // sequence_expand(_as): X then Y
  size_t data_inputs = 1;         // xs whose rows are copied (concat: all)
  Tensor* out = nullptr;
  int ref_level = -1;  // sequence_expand
  int64_t new_dim = 0;  // sequence_reshape
  // Output row r copies row rows[r].second of xs[rows[r].first]; rows are
  // rows of X's [dim 0, product of the rest] view.
  std::vector<std::pair<int32_t, int64_t>> rows;
};

}  // namespace operators
}  // namespace lite
