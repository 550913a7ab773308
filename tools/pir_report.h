// For the tools that take a model (opt, model_info): whether the model is a
// Paddle 3 PIR program, and a table of its PIR ops with counts and the
// engine ops each became (what `opt --print_model_ops` and model_info show
// for such models). Pure functions returning text; deterministic.
#pragma once

#include <string>

#include "lite/model_parser/model_loader.h"
#include "lite/utils/status.h"

namespace lite {
namespace tools {

struct PirSummary {
  bool is_pir = false;
  std::string model_file;   // the inference.json
  int64_t version = 0;      // base_code.version
  std::string table;        // "pd_op.conv2d  18  conv2d" rows
};

// Reads the program file `source` names (through FindModelFiles for a
// directory). is_pir false for a legacy program; an error when the file
// cannot be read or is a PIR program that does not translate.
StatusOr<PirSummary> DescribePir(const ModelSource& source);

}  // namespace tools
}  // namespace lite
