// argsort: X (float32, int32, int64) sorted along `axis` (default -1,
// negative counts from the end), ascending unless `descending`. Out holds the
// sorted values, Indices (int64) their positions along the axis; equal values
// keep their input order (a stable sort, so `stable` needs nothing more).
// Owned by lite/operators.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct ArgsortParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
  Tensor* indices = nullptr;
  int64_t axis = -1;  // normalized by InferShape
  bool descending = false;
};

}  // namespace operators
}  // namespace lite
