// AbiModel: an NN IR Model (nn_ir.h) seen through the plugin ABI
// (lite_npu_driver_abi.h) as flat C structs.
//
// The structs point into the Model's own vectors (dims, constant data,
// attribute lists) and into arrays this object owns (operand indices as
// int32_t, attribute records), so the AbiModel must not outlive the Model,
// and the Model must not change while it is in use. Built per driver call;
// copying is disabled because the structs point into members.
#pragma once

#include <vector>

#include "lite/backends/npu/nn_ir.h"
#include "lite/backends/npu/plugin/lite_npu_driver_abi.h"

namespace lite {
namespace npu {

class AbiModel {
 public:
  explicit AbiModel(const Model& model);
  AbiModel(const AbiModel&) = delete;
  AbiModel& operator=(const AbiModel&) = delete;

  const lite_npu_model* get() const { return &abi_; }

 private:
  std::vector<lite_npu_operand> operands_;
  std::vector<lite_npu_quantization> quantizations_;  // by operand
  std::vector<lite_npu_operation> operations_;
  std::vector<std::vector<int32_t>> indices_;     // inputs/outputs of each operation
  std::vector<std::vector<lite_npu_attr>> attrs_;  // attributes of each operation
  std::vector<int32_t> inputs_, outputs_;
  lite_npu_model abi_{};
};

}  // namespace npu
}  // namespace lite
