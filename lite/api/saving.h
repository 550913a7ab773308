// Writing an optimized program and its weights in the formats of
// PaddlePredictor::SaveOptimizedModel: protobuf (a Paddle-readable combined
// model, "__model__" + "__params__" in a directory, ops carrying their
// picked kernel in attr "__kernel__", every block kept) or naive_buffer (the
// single ".nb" file the light predictor loads, see
// lite/model_parser/naive_buffer/naive_buffer.h).
//
// The program and scope are the caller's and only read. Errors name the
// path. Owned by the opt/light-predictor side of lite/api.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "lite/base/device_record.h"
#include "lite/base/scope.h"
#include "lite/base/program_desc.h"

namespace lite {

// kNaiveBuffer: `path` is a file; ".nb" is appended when it does not end
// with it. kProtobuf: `path` is a directory (created when missing, parent
// must exist). Returns where the model was written in *written (may be null).
// FailedPrecondition when a block-0 op (feed/fetch included) carries no
// picked kernel, i.e. the program was not optimized. Written as
// SaveOptimizedVerified without a check: all or nothing.
Status SaveOptimized(const cpp::ProgramDesc& program, const Scope& scope,
                     const std::string& path, paddle::lite_api::ModelType type,
                     std::string* written = nullptr);

// Checks a model written under a temporary name (the .nb file, or the
// protobuf directory) before it takes the final name.
using VerifyWritten = std::function<Status(const std::string& temporary_path)>;

// SaveOptimized that never leaves a model it could not finish or verify:
// writes under a temporary name in the output's own directory, runs `verify`
// (may be empty) on it, and only then renames it to the final name (one
// rename per file: the .nb, or __model__ and __params__). On any error the
// temporary files are removed and the final name keeps what it held before
// (nothing, or an earlier model). *written gets the final name.
// `compiled` (kNaiveBuffer only) goes into the .nb's compiled-subgraph
// section.
Status SaveOptimizedVerified(const cpp::ProgramDesc& program, const Scope& scope,
                             const std::string& path, paddle::lite_api::ModelType type,
                             const VerifyWritten& verify, std::string* written = nullptr,
                             const std::vector<DeviceRecord>& compiled = {});

// `path` with ".nb" appended unless it already ends with ".nb".
std::string NaiveBufferPath(const std::string& path);

}  // namespace lite
