// Reference folders: fixed inputs and expected outputs for a model, as in
// ../shared/models/*/reference/ (meta.json + raw .bin files; model paths in
// meta.json are relative to the folder's parent).
//
// Used by tools/accuracy and the accuracy tests: load a folder, feed its
// inputs to a predictor, and compare every output with the tolerance rule
// |engine - reference| <= max_abs + max_rel * |reference|. The Reference owns
// the loaded input and output data. A `functional` rule in meta.json
// (tools/functional_check.h) is applied too: such a model passes when both
// the tolerance and the rule pass.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "lite/api/paddle_api.h"
#include "tools/functional_check.h"

namespace lite {
namespace tools {

struct RefTensor {
  std::string name;
  int col = 0;
  std::vector<int64_t> shape;
  std::string dtype;  // "float32", "int64", "int32"
  std::vector<std::vector<uint64_t>> lod;
  std::string bytes;  // raw little-endian data
};

struct Reference {
  std::string dir;          // the reference folder
  std::string model;        // model name from meta.json
  bool combined = false;
  std::string model_dir;    // absolute paths resolved against dir/..
  std::string model_file;
  std::string params_file;
  std::vector<RefTensor> inputs;
  std::vector<RefTensor> outputs;
  double max_abs = 0;
  double max_rel = 0;
  FunctionalRule functional;  // Kind::kNone when meta.json has none
};

struct OutputCheck {
  std::string name;
  std::vector<int64_t> shape;  // the engine's
  double max_abs_err = 0;
  double max_rel_err = 0;
  int64_t mismatches = 0;      // elements outside the tolerance
  bool passed = false;         // tolerance and functional rule
  std::string note;            // why it failed (shape, dtype, ...)
  std::string functional;      // the functional rule's result, when any
};

// Parses dir/meta.json and reads every input and output file.
StatusOr<Reference> LoadReference(const std::string& dir);

// Names of the folders under `root` (e.g. ../shared/models) that hold a
// reference/meta.json, sorted; empty when `root` cannot be read.
std::vector<std::string> ListReferenceModels(const std::string& root);

// Sets the model location of `config` from the reference.
void ConfigureModel(const Reference& ref, paddle::lite_api::CxxConfig* config);

// Copies every reference input (shape, dtype, LoD, data) into the predictor
// input of the same name.
Status FeedInputs(const Reference& ref, paddle::lite_api::PaddlePredictor* predictor);

// Compares every reference output with the predictor output of the same name:
// shape, dtype and LoD exactly (an absent "lod" in meta.json means none),
// values within the tolerance.
StatusOr<std::vector<OutputCheck>> CompareOutputs(
    const Reference& ref, const paddle::lite_api::PaddlePredictor& predictor);

// "name [1, 10]  max_abs_err=1.2e-07  max_rel_err=3.4e-06  PASS"
std::string FormatCheck(const OutputCheck& check);

// Feeds the reference inputs, runs `predictor` and compares its outputs:
// "" when every output matches, else what failed (one line per failure, or
// the error). Writes each output's FormatCheck line, after `what`, to `log`.
std::string RunAndCheck(const Reference& ref, paddle::lite_api::PaddlePredictor* predictor,
                        const std::string& what, std::ostream* log);

}  // namespace tools
}  // namespace lite
