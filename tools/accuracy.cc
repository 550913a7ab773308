// accuracy: runs a model on the inputs of a reference folder and checks
// every output against the reference with its tolerance.
//
//   accuracy --reference=../shared/models/ppocr_cls_mobile_v2.0/reference
//   accuracy --reference=... --valid_targets=npu --threads=2
//   accuracy --reference=... --optimized_model=out/cls.nb     (light predictor)
//
// Model paths come from meta.json (relative to the folder's parent) unless
// --optimized_model is given. Prints one line per output (name, shape, max
// abs/rel error, PASS/FAIL); exit 1 when any output fails, or with one line
// "accuracy: error: <reason>" when the model cannot run.
#include <gflags/gflags.h>

#include <iostream>

#include "tools/reference.h"
#include "tools/npu_flags.h"
#include "tools/tool_util.h"

DEFINE_string(reference, "", "reference folder holding meta.json (required)");
DEFINE_string(valid_targets, "host", "full predictor: host, x86, npu, arm (comma list)");
DEFINE_int32(threads, 1, "threads");
DEFINE_string(optimized_model, "", "check this .nb with the light predictor instead");
DEFINE_bool(enable_fp16, false,
            "full predictor: conv2d / depthwise_conv2d on arm in fp16 (a .nb keeps opt's choice)");

namespace {

using lite::Status;

Status Check(bool* all_passed) {
  if (FLAGS_reference.empty()) return lite::InvalidArgument("--reference=DIR is required");
  ASSIGN_OR_RETURN(lite::tools::Reference ref, lite::tools::LoadReference(FLAGS_reference));
  lite::tools::ModelFlags flags;
  flags.threads = FLAGS_threads;
  ASSIGN_OR_RETURN(flags.valid_places, lite::tools::ParseValidTargets(FLAGS_valid_targets));
  ASSIGN_OR_RETURN(flags.npu, lite::tools::NpuOptionsFromFlags(
                                  flags.valid_places, !FLAGS_optimized_model.empty()));
  flags.optimized_model = FLAGS_optimized_model;
  flags.enable_fp16 = FLAGS_enable_fp16;
  if (!flags.light()) {
    if (!ref.model_file.empty()) {
      flags.model_file = ref.model_file;
      flags.param_file = ref.params_file;
    } else {
      flags.model_dir = ref.model_dir;
    }
  }
  ASSIGN_OR_RETURN(auto predictor, lite::tools::CreatePredictor(flags));
  std::cout << "model " << ref.model << " ("
            << (flags.light() ? "light predictor on " + flags.optimized_model
                              : "full predictor, targets " +
                                    lite::tools::TargetsText(flags.valid_places))
            << ", " << flags.threads << " thread(s)), tolerance max_abs=" << ref.max_abs
            << " max_rel=" << ref.max_rel << "\n";
  RETURN_IF_ERROR(lite::tools::FeedInputs(ref, predictor.get()));
  RETURN_IF_ERROR(predictor->Run());
  ASSIGN_OR_RETURN(auto checks, lite::tools::CompareOutputs(ref, *predictor));
  *all_passed = !checks.empty();
  for (const auto& c : checks) {
    std::cout << lite::tools::FormatCheck(c) << "\n";
    *all_passed = *all_passed && c.passed;
  }
  const auto placement = predictor->GetPlacementReport();
  if (!placement.subgraphs.empty()) std::cout << "placement: " << placement.ToString();
  std::cout << (*all_passed ? "PASS" : "FAIL") << "\n";
  return Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "accuracy --reference=DIR [--valid_targets=host,npu] [--threads=N] "
      "[--optimized_model=FILE.nb]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    return lite::tools::Fail("accuracy", lite::InvalidArgument(
        std::string("unexpected argument '") + argv[1] + "'"));
  }
  bool passed = false;
  Status s = Check(&passed);
  if (!s.ok()) return lite::tools::Fail("accuracy", s);
  return passed ? 0 : 1;
}
