// Beam search decoding in a while loop, with Paddle's semantics:
//   beam_search: one step. The prefixes of each source are the rows of
//     `scores` in one source's range of LoD level `level` (absolute
//     offsets); each prefix row lists candidates (`ids`, or the column index
//     when ids is absent) with `scores` (accumulated when is_accumulated,
//     else probabilities: pre_score + log(p)). A prefix whose pre_id is
//     end_id has one candidate, (end_id, pre_score). The beam_size best
//     candidates of each source are kept, then ordered by prefix row;
//     a source whose kept candidates are all end_id after an end_id prefix
//     is finished and drops out (no rows). Outputs: selected_ids [M, 1]
//     int64, selected_scores [M, 1] float, parent_idx [M] int32 (the prefix
//     row of each), with LoD {source -> prefix rows, prefix -> selected}.
//   beam_search_decode: backtracks the per-step arrays Ids and Scores
//     (beam_search outputs written to tensor arrays) into whole sentences:
//     SentenceIds / SentenceScores with LoD {source -> sentences, sentence ->
//     tokens}, each source's sentences best final score first, repeated
//     trailing end_id tokens dropped.
// Exact score ties between candidates of one prefix keep the one met first.
// Outputs are sized by the kernels each run. Owned by the control-flow work
// (issue 29).
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct BeamSearchParam : OpParam {
  const Tensor* pre_ids = nullptr;
  const Tensor* pre_scores = nullptr;
  const Tensor* ids = nullptr;  // optional
  const Tensor* scores = nullptr;
  Tensor* selected_ids = nullptr;
  Tensor* selected_scores = nullptr;
  Tensor* parent_idx = nullptr;  // optional
  int level = 0;
  int beam_size = 1;
  int64_t end_id = 0;
  bool is_accumulated = true;
};

struct BeamSearchDecodeParam : OpParam {
  const Variable* ids = nullptr;     // tensor array, one element per step
  const Variable* scores = nullptr;  // tensor array, one element per step
  Tensor* sentence_ids = nullptr;
  Tensor* sentence_scores = nullptr;
  int beam_size = 1;
  int64_t end_id = 0;
};

}  // namespace operators
}  // namespace lite
