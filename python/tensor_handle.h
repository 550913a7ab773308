// TensorHandle: what a Python paddlelite.lite.Tensor is. It pairs a C++
// tensor handle with the predictor that owns the tensor (kept alive by the
// shared_ptr) and, for inputs, the model's declaration of that input, which
// from_numpy checks the array against.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "lite/api/paddle_api.h"

namespace lite {
namespace python {

struct TensorHandle {
  std::shared_ptr<paddle::lite_api::PaddlePredictor> owner;
  paddle::lite_api::Tensor tensor;
  std::string name;
  bool is_input = false;
  // Declared name/shape/dtype (inputs: checked by from_numpy).
  std::optional<paddle::lite_api::TensorInfo> declared;
};

}  // namespace python
}  // namespace lite
