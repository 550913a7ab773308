// Saving a program and its weights as a Paddle combined model: the program
// as a serialized framework.proto ProgramDesc (deterministic bytes, merged
// with what the program kept from loading, see proto_convert.h) and one
// LoDTensor record per persistable var of block 0 (feed/fetch excluded) in
// byte-wise name order - the files Paddle's load_combine / Paddle-Lite read.
//
// The caller owns program, scope and output strings; the functions only read
// the program and the scope. Errors name the file (or "<params buffer>") and
// the var. A program or scope error is found before anything is written;
// on error the output strings are unchanged.
#pragma once

#include <string>

#include "lite/base/scope.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {

// NotFound when a param var has no variable in `scope` (naming the var);
// InvalidArgument when its tensor cannot be written (unknown dtype, no data)
// or disagrees with its VarDesc; Unimplemented for persistable vars that are
// not LoDTensors.
Status SaveCombinedModelToBuffers(const cpp::ProgramDesc& program, const Scope& scope,
                                  std::string* model, std::string* params);

// As above, then writes both files (each through a temporary + rename).
Status SaveCombinedModel(const cpp::ProgramDesc& program, const Scope& scope,
                         const std::string& model_file, const std::string& params_file);

}  // namespace lite
