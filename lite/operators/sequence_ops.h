// Ops of LoD sequence models (Paddle fluid semantics):
//   lookup_table / lookup_table_v2: Out = W[Ids] (rows of the table); Ids of
//     lookup_table end in a dim of 1 that Out replaces by the row width;
//     rows equal to padding_idx (-1: none) are zeros; an id outside the
//     table is an error, never an out-of-bounds read. Out keeps Ids' LoD.
//   sequence_conv: per sequence of X [T, D] (LoD level 1), rows of context
//     [t + contextStart, t + contextStart + contextLength) concatenated
//     (zeros outside the sequence) times Filter [contextLength * D, M];
//     contextStride must be 1. Out [T, M] keeps X's LoD.
//   sequence_pool: pools each sequence of X [T, ...] to one row: SUM,
//     AVERAGE, SQRT (sum / sqrt(len)), MAX, LAST, FIRST; an empty sequence
//     gives pad_value. Out drops X's last LoD level.
// The LoD is checked (offsets from 0, non-decreasing, ending at T).
#pragma once

#include <string>

#include "lite/core/op_lite.h"
#include "lite/operators/lod_util.h"

namespace lite {
namespace operators {

struct LookupTableParam : OpParam {
  const Tensor* w = nullptr;
  const Tensor* ids = nullptr;
  Tensor* out = nullptr;
  int64_t padding_idx = -1;
  bool v2 = false;
};

struct SequenceConvParam : OpParam {
  const Tensor* x = nullptr;
  const Tensor* filter = nullptr;
  Tensor* out = nullptr;
  int context_start = 0;
  int context_length = 1;
  int context_stride = 1;
};

struct SequencePoolParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  Tensor* max_index = nullptr;  // optional
  std::string pooltype = "AVERAGE";
  float pad_value = 0.f;
};

}  // namespace operators
}  // namespace lite
