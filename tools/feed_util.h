// Generated inputs for the tools that run a model without a reference
// folder (run_model, benchmark): deterministic LCG data (seed 1, in
// [-1, 1]; integer inputs get small non-negative values) of the shapes
// given as "1,3,224,224[:1,10]" or, without shapes, of the model's feed var
// dims with -1 read as 1. Names, dims and dtypes come from the public API
// (PaddlePredictor::GetInputInfos). Owned by tools/.
#pragma once

#include <ostream>
#include <string>

#include "lite/api/paddle_api.h"
#include "tools/tool_util.h"

namespace lite {
namespace tools {

// Feeds every input of `predictor`; one line per input goes to `log`.
// InvalidArgument naming the bad shape or count otherwise.
Status FeedGenerated(const std::string& input_shape,
                     paddle::lite_api::PaddlePredictor* predictor, std::ostream* log);

}  // namespace tools
}  // namespace lite
