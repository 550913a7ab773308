// LoD checks shared by the op definitions (lite/operators owns them; the
// tensors' LoD belongs to the tensors).
//
// CheckLastLevel validates the level sequence ops read; AgreedLoD is how
// the row-wise multi-input ops (sum, concat off axis 0, elementwise with
// row-aligned inputs) propagate LoD: the inputs that carry one must carry
// the same one, else a clear error naming the op and both LoDs.
#pragma once

#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

// "[[0,2,5]]".
std::string LodToString(const LoD& lod);

// OK when `lod` has a last level whose offsets start at 0, never decrease
// and end at `rows`; the error names the op.
Status CheckLastLevel(const OpLite& op, const LoD& lod, int64_t rows);

// The LoD of the first input that has one (empty when none has); an input
// with a different non-empty LoD is an error naming the op.
StatusOr<LoD> AgreedLoD(const OpLite& op, const std::vector<const Tensor*>& inputs);

}  // namespace operators
}  // namespace lite
