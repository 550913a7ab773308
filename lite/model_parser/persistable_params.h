// Which variables a Paddle params file holds, and whether a loaded tensor
// agrees with its VarDesc. Shared by model_loader and model_saver so both
// sides use the same list in the same order.
//
// Returns pointers into the caller's ProgramDesc; they stay valid while the
// program is alive and unmodified.
#pragma once

#include <string>
#include <vector>

#include "lite/base/tensor.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {

// The persistable vars of block 0 that have a tensor record: all persistable
// vars except the feed/fetch lists and READER vars (which Paddle never
// saves), sorted by name byte-wise (std::sort of std::string), duplicates
// removed - the order of records in a combined params file. A persistable
// var of another kind (tensor array, selected rows, ...) is Unimplemented,
// naming `file` and the var. InvalidArgument when the program has no blocks.
Status ListParamVars(const cpp::ProgramDesc& program, const std::string& file,
                     std::vector<const cpp::VarDesc*>* out);

// InvalidArgument naming `file`, the var and both shapes (or dtypes) when
// `t` disagrees with `var`: rank differs, a VarDesc dim other than -1
// differs, or the VarDesc dtype is known and differs.
Status CheckTensorMatchesVar(const Tensor& t, const cpp::VarDesc& var,
                             const std::string& file);

}  // namespace lite
