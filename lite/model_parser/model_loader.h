// Loading Paddle inference models: the program (framework.proto
// ProgramDesc) and its weights (LoDTensor records, see tensor_io.h), from a
// directory, from a pair of files, or from two in-memory buffers.
//
// Ownership: the caller owns the ProgramDesc and the Scope. A load either
// succeeds completely - *program replaced, every weight placed in
// scope->Var(name)->GetMutableTensor() and marked persistable - or fails
// leaving both untouched. Files are read whole with one read and each weight
// is copied once from that buffer into its tensor. Every error is a Status
// whose message names the file (or "<model buffer>"/"<params buffer>") and,
// for weights, the variable.
#pragma once

#include <string>

#include "lite/base/scope.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {

// Program only. InvalidArgument "not a Paddle ProgramDesc" when the bytes do
// not parse as one, or parse but have no blocks / no block 0; NotFound when
// the file is missing.
StatusOr<cpp::ProgramDesc> LoadProgramFromFile(const std::string& path);
StatusOr<cpp::ProgramDesc> LoadProgramFromBuffer(const std::string& bytes,
                                                 const std::string& name_for_errors);

// Non-combined model: the program from the first of `__model__`, `model`,
// `model.pdmodel` found in `dir`, then one file `dir/<var name>` per
// persistable var of block 0 (see ListParamVars), each holding exactly one
// record. Other files in `dir` are ignored. A missing weight file is
// NotFound naming file and var; bytes after the record are DataLoss.
Status LoadNonCombinedModel(const std::string& dir, cpp::ProgramDesc* program,
                            Scope* scope);

// Combined model: records for the persistable vars of block 0 back to back,
// in byte-wise name order. Trailing bytes after the last record are DataLoss
// naming the params file; a tensor whose dims or dtype disagree with its
// VarDesc (-1 matches anything) is InvalidArgument naming the var and both.
Status LoadCombinedModel(const std::string& model_file,
                         const std::string& params_file,
                         cpp::ProgramDesc* program, Scope* scope);
Status LoadCombinedModelFromBuffers(const std::string& model_bytes,
                                    const std::string& params_bytes,
                                    cpp::ProgramDesc* program, Scope* scope);

// What a model directory holds.
struct ModelFiles {
  bool combined = false;
  std::string model_file;   // full path of the program file
  std::string params_file;  // combined: full path of the params file
  std::string params_dir;   // non-combined: directory of per-var files
};

// Recognises, in this order: `__model__` + `__params__`, `model` + `params`,
// `<stem>.pdmodel` + `<stem>.pdiparams` (with several such pairs, the
// `inference` one; otherwise InvalidArgument listing them) as combined; then
// `__model__`, `model`, `model.pdmodel` alone as non-combined. NotFound when
// `dir` is missing or holds none of these; InvalidArgument when it is not a
// directory.
StatusOr<ModelFiles> FindModelFiles(const std::string& dir);

// Where to load a model from. Set exactly one of:
//   model_buffer (+ params_buffer)       combined, in memory
//   model_file + params_file             combined files
//   model_file + model_dir               program file + per-var files in dir
//   model_dir alone                      combined or not (FindModelFiles)
struct ModelSource {
  std::string model_dir;
  std::string model_file;
  std::string params_file;
  std::string model_buffer;
  std::string params_buffer;
};

Status LoadModel(const ModelSource& source, cpp::ProgramDesc* program, Scope* scope);

}  // namespace lite
