// Test helpers for model I/O tests: a sample program using every attribute
// type and var kind, a scope with weights of several dtypes (one with LoD),
// comparisons that explain their failures, hand-built LoDTensor records for
// corrupt-input tests, and a per-test temporary directory.
//
// Everything returned is a fresh value owned by the caller (the Scope by a
// unique_ptr).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "lite/base/scope.h"
#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {
namespace testing_util {

// Block 0: feed/fetch lists, a LoD input, persistable weights "p_*" of
// dtypes bool, int8, uint8, int16, int32, int64, float16, float32 (one with
// LoD), float64, a tensor array, a SELECTED_ROWS var, a persistable READER
// var (not a param), ops using all 18 AttrTypes. Block 1: a sub-block.
cpp::ProgramDesc MakeSampleProgram();

// Tensors for every param of MakeSampleProgram, filled with a pattern.
std::unique_ptr<Scope> MakeSampleScope(const cpp::ProgramDesc& program);

// Names of the params of `program` in file order (sorted).
std::vector<std::string> ParamNames(const cpp::ProgramDesc& program);

// A small program: feed/fetch lists, params "w" f32 [2, 3], "b" f32 [3],
// "ids" int64 [-1], activation "x" f32 [-1, 2], one mul op.
cpp::ProgramDesc SmallProgram();
// Its three param records in file order ("b", "ids" with LoD [[0,1,4]] and
// dims [4], "w"), each as its own string; concatenated they are a valid
// combined params file.
std::vector<std::string> SmallProgramRecords();
// A LoDTensor VarDesc.
cpp::VarDesc TensorVarDesc(const std::string& name, DataType t,
                           std::vector<int64_t> dims, bool persistable = true);
// A tensor of `dims` whose bytes are 1, 2, 3, ...
Tensor FilledTensor(DataType t, const DDim& dims);
// The serialized program (ProgramToProto, deterministic).
std::string ModelBytes(const cpp::ProgramDesc& p);
std::string Join(const std::vector<std::string>& parts);

// Field-by-field equality of the modelled parts (opaque_extras ignored).
::testing::AssertionResult ProgramsEqual(const cpp::ProgramDesc& a,
                                         const cpp::ProgramDesc& b);
// dims, dtype, LoD and data bytes.
::testing::AssertionResult TensorsEqual(const Tensor& a, const Tensor& b);

// Success when `s` has `code` and its message contains every needle (file
// names, var names, ...); the failure message shows the actual status.
::testing::AssertionResult Fails(const Status& s, StatusCode code,
                                 const std::vector<std::string>& needles);

// One LoDTensor record with every field chosen by the test.
struct RawRecord {
  uint32_t version = 0;
  std::vector<std::vector<uint64_t>> lod;
  uint32_t tensor_version = 0;
  std::string desc;       // serialized TensorDesc (as the test wants it)
  bool override_desc_size = false;
  int32_t desc_size = 0;  // used when override_desc_size
  std::string data;
  std::string Bytes() const;
};
// Serialized TensorDesc {data_type: code, dims}.
std::string TensorDescBytes(int code, const std::vector<int64_t>& dims);

// A fresh empty directory under $TEST_TMPDIR (or /tmp) named after `name`.
std::string MakeTempDir(const std::string& name);
void WriteFileOrDie(const std::string& path, const std::string& bytes);

}  // namespace testing_util
}  // namespace lite
