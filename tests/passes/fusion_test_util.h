// Test helpers for the fusion passes: build a small program with feed/fetch
// ops and weights, then optimize and run it through the host kernels with
// chosen fusion passes enabled, to compare op lists and outputs with and
// without a fusion. A TestModel owns its program and weight tensors; each run
// gets a fresh root scope (fusions add weights to it).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/base/tensor.h"
#include "lite/base/program_desc.h"
#include "lite/base/scope.h"
#include "lite/utils/status.h"

namespace lite {
namespace mir {
namespace fusion {
namespace testing {

// Every fusion pass of the default pipeline.
const std::vector<std::string>& AllFusionPasses();

class TestModel {
 public:
  // A feed op writing `name` (float32 with `dims`) at the next column.
  void Input(const std::string& name, const DDim& dims);
  // A fetch op reading `name` at the next column.
  void Output(const std::string& name);
  // A persistable float32 weight: given values, or pseudo-random in [lo, hi).
  void Weight(const std::string& name, const DDim& dims, std::vector<float> values);
  void RandomWeight(const std::string& name, const DDim& dims, float lo = -1.f,
                    float hi = 1.f);
  // A persistable int8 weight (e.g. quantization levels stored by an export).
  void Int8Weight(const std::string& name, const DDim& dims, const std::vector<int8_t>& values);
  // Appends an op (creating float32 var descs for new vars).
  cpp::OpDesc& Op(const std::string& type,
                  const std::map<std::string, std::vector<std::string>>& in,
                  const std::map<std::string, std::vector<std::string>>& out);
  // Pseudo-random inputs in [-1, 1) matching the Input() dims.
  std::vector<Tensor> RandomInputs(uint32_t seed = 7) const;

  cpp::ProgramDesc program;
  std::map<std::string, Tensor> weights;
  std::vector<DDim> input_dims;

 private:
  cpp::VarDesc* Var(const std::string& name);
  int feeds_ = 0;
  int fetches_ = 0;
  uint32_t state_ = 1;
};

// Float x86 kernels in NHWC with host as the fallback: the places of the
// x86 fusion tests.
inline const std::vector<Place> kX86Float = {
    Place(TargetType::kX86, PrecisionType::kFloat, DataLayoutType::kNHWC),
    Place(TargetType::kHost)};

struct FusionRun {
  std::vector<std::string> op_types;  // optimized program (feed/fetch included)
  std::map<std::string, int64_t> counters;  // summed over the enabled fusions
  std::string pass_log;
  cpp::ProgramDesc program;
  std::vector<std::vector<float>> outputs;  // by fetch column
  std::vector<DDim> output_dims;
};

// Optimizes `model` for `places` with only `fusions` enabled among
// AllFusionPasses() (the kernel passes always run) and runs it on `inputs`
// (not run when empty).
StatusOr<FusionRun> RunWith(const TestModel& model, const std::vector<std::string>& fusions,
                            const std::vector<Tensor>& inputs,
                            const std::vector<Place>& places = {Place(TargetType::kHost)});

// Runs `model` on RandomInputs() without fusions on host and with `fusions`
// for `places`; returns the fused run and sets *max_diff to the largest
// output difference.
StatusOr<FusionRun> RunAndCompare(const TestModel& model,
                                  const std::vector<std::string>& fusions, double* max_diff,
                                  const std::vector<Place>& places = {Place(TargetType::kHost)});

// RunAndCompare with `pass` for `places`, expecting success and outputs
// within `tol` of the unfused host program's; returns the fused run (empty
// on failure).
FusionRun ExpectFusedMatches(const TestModel& model, const std::string& pass, double tol = 1e-6,
                             const std::vector<Place>& places = {Place(TargetType::kHost)});

// RunWith on model.RandomInputs(), expecting success (empty run on failure).
FusionRun RunOrFail(const TestModel& model, const std::vector<std::string>& fusions,
                    const std::vector<Place>& places);
// An int8 run against the float32 simulation of its fake quant ops: exact
// int32 sums leave only float rounding, so every output is within 1e-5 of
// its largest magnitude (which must exceed 0.1: a real signal).
void ExpectNearSimulation(const FusionRun& sim, const FusionRun& int8);
// Appends the slim form of a quantized conv: an activation quant-dequant of
// `in` (scale `s`), a per-channel weight quant-dequant of a random
// [out_channels, in_channels / groups, k, k] filter (values in
// [-0.4, 0.4]) and a `type` conv (stride 1, padding k / 2, `groups`)
// writing `out`.
void AddQuantConv(TestModel* m, const std::string& in, float s, const std::string& type, int k,
                  const std::string& out, int64_t in_channels, int64_t out_channels,
                  int groups = 1);
// Appends batch_norm of `in` (NCHW, `channels`) writing `out`: gamma in
// [-1.5, 1.5) (negative scales too), beta and mean in [-1, 1), var in
// [0.5, 2); weights "gamma", "beta", "mean", "var".
void AddBatchNorm(TestModel* m, const std::string& in, const std::string& out, int64_t channels);
// A root scope holding copies of the model's weights (persistable).
std::shared_ptr<Scope> ScopeWithWeights(const TestModel& model);
// Creating `model` with every fusion for `places` fails with a message
// naming `op` (e.g. "quantize_linear (output: x.q)") and containing `what`.
void ExpectCreationFailsNaming(const TestModel& model, const std::vector<Place>& places,
                               const std::string& op, const std::string& what);
// Number of ops of `type` in `types`.
int CountOps(const std::vector<std::string>& types, const std::string& type);
// The first op of `type` in the optimized program of `r` (nullptr if none).
const cpp::OpDesc* FindOp(const FusionRun& r, const std::string& type);
// The dtype name the optimized program of `r` declares for var `name`
// ("missing" when it declares none).
std::string VarType(const FusionRun& r, const std::string& name);
// Largest |a - b| over two output lists of the same shape (inf on mismatch).
double MaxAbsDiff(const std::vector<std::vector<float>>& a,
                  const std::vector<std::vector<float>>& b);

}  // namespace testing
}  // namespace fusion
}  // namespace mir
}  // namespace lite
