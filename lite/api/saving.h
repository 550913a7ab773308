// Writing an optimized program and its weights in the formats of
// PaddlePredictor::SaveOptimizedModel: protobuf (a Paddle-readable combined
// model, "__model__" + "__params__" in a directory, ops carrying their
// picked kernel) or naive_buffer (the ".nb" file the light predictor loads).
#pragma once

#include <string>

#include "lite/api/paddle_api.h"
#include "lite/core/scope.h"
#include "lite/model_parser/program_desc.h"

namespace lite {

Status SaveOptimized(const cpp::ProgramDesc& program, const Scope& scope,
                     const std::string& path, paddle::lite_api::ModelType type);

}  // namespace lite
