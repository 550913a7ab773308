// The LoD <-> tensor array ops of Paddle's dynamic RNN programs:
//   lod_rank_table: the sequences of X's LoD level `level` ranked by length,
//     longest first (ties in sequence order). Held in the Out var's tensor:
//     int64 [n, 2] rows (sequence index, length), the length counted in
//     units of the next level (rows for the last level), and the tensor's
//     LoD holding the levels above `level` (so its size is the level).
//   max_sequence_len: Out = the longest length of RankTable (int64 [1]).
//   lod_tensor_to_array: Out[t] = the t-th step (unit of the level below the
//     ranked one) of every ranked sequence longer than t, in rank order,
//     with the LoD of the levels below it (none when the rank level is
//     the last).
//   array_to_lod_tensor: the inverse: the steps of each sequence
//     concatenated back in sequence order, under the rank table's coarse
//     levels and a level of the sequences' lengths.
// The row copies are the kernels' (lite/kernels/host/lod_array_compute.cc).
// Owned by the control-flow work (issue 29).
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct LodArrayParam : OpParam {
  const Tensor* x = nullptr;           // lod_rank_table, lod_tensor_to_array
  const Variable* x_array = nullptr;   // array_to_lod_tensor
  const Tensor* rank_table = nullptr;  // all but lod_rank_table
  Tensor* out = nullptr;               // all but lod_tensor_to_array
  Variable* out_array = nullptr;       // lod_tensor_to_array
  int level = 0;                       // lod_rank_table
};

// The rank table's level (its number of coarse LoD levels) and its rows,
// after checking its form; the error names `what`.
struct RankItem {
  int64_t index = 0, length = 0;
};
StatusOr<std::vector<RankItem>> RankItems(const Tensor& table, const std::string& what);

}  // namespace operators
}  // namespace lite
