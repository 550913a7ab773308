// Helpers for the robustness suite: build the quickstart's default model,
// break it in one specific way, and hand it to a predictor as protobuf
// buffers, a params buffer or a .nb buffer. Each helper returns the Status
// the public API gave back; the suite asserts the message names what is
// wrong. Nothing here is shared state: every call builds fresh values.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "lite/api/paddle_api.h"
#include "tools/default_model.h"

namespace lite {
namespace robustness {

using paddle::lite_api::PaddlePredictor;

// The default model's program and params as protobuf buffers.
struct ModelBytes {
  std::string program;
  std::string params;
};
ModelBytes DefaultModelBytes();
// Only the program bytes (no weights needed), as a Paddle __model__ file.
std::string ProgramBytes(const cpp::ProgramDesc& program);

// Mutates the default model, saves it and creates a full predictor from the
// buffers. Returns the creation status (OK when the predictor was built).
using ModelMutation = std::function<void(tools::DefaultModel*)>;
StatusOr<std::shared_ptr<PaddlePredictor>> CreateFromMutated(const ModelMutation& mutate);
StatusOr<std::shared_ptr<PaddlePredictor>> CreateFromBytes(const ModelBytes& bytes);

// The default model optimized for host and saved as .nb bytes.
std::string DefaultModelNb();
StatusOr<std::shared_ptr<PaddlePredictor>> CreateFromNb(const std::string& nb);

// True when the status message contains `text`.
bool Has(const Status& s, const std::string& text);

// Sets input 0 to `shape` filled with 0.5 and runs.
Status RunDefaultInput(PaddlePredictor* p, const std::vector<int64_t>& shape);

// The op at `index` of block 0 (0 = feed, 1 = conv1, 2 = batch_norm,
// 3 = relu, 4 = max pool, 5 = conv2, 6 = bias add, 7 = hard_swish,
// 8 = global avg pool, 9 = flatten, 10 = matmul_v2, 11 = bias add,
// 12 = softmax, 13 = fetch).
cpp::OpDesc& OpAt(tools::DefaultModel* m, int index);

}  // namespace robustness
}  // namespace lite
