// Fusion passes on the five shared vision models: with every fusion on, and
// once per fusion pass with that pass disabled, the full predictor must still
// match the ONNX Runtime reference; PP-OCRv3 det must lose every batch_norm.
// Also prints, for docs/passes.md, op counts before/after the pipeline and each
// fusion pass's match count per model. Needs ../shared/models (skips
// without it).
#include <iomanip>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "lite/api/optimizer.h"
#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;

const std::vector<std::string> kModels = {
    "ppocr_cls_mobile_v2.0", "mobilenetv3_small_x0_35_3cls", "ppocr_det_en_PP-OCRv3",
    "squeezenet_v1.1_caffe2fluid", "mnist_mlp_fluid2018"};

// The fusion passes, in DefaultPipeline() order.
std::vector<std::string> FusionPasses() {
  std::vector<std::string> out;
  for (const auto& p : lite::mir::DefaultPipeline()) {
    if (p.find("_fuse_pass") != std::string::npos ||
        p.find("_eliminate_pass") != std::string::npos || p == "constant_folding_pass") {
      out.push_back(p);
    }
  }
  return out;
}

lite::StatusOr<lite::tools::Reference> Ref(const std::string& model) {
  return lite::tools::LoadReference(lite::SharedModelsDir() + "/" + model + "/reference");
}

// Runs the full predictor with `disabled` passes off; "" when every output
// matches the reference, else what failed.
std::string CheckAgainstReference(const lite::tools::Reference& ref,
                                  const std::vector<std::string>& disabled) {
  CxxConfig config;
  lite::tools::ConfigureModel(ref, &config);
  config.set_disabled_passes(disabled);
  auto predictor = CreatePaddlePredictor<CxxConfig>(config);
  if (!predictor.ok()) return predictor.status().ToString();
  auto fed = lite::tools::FeedInputs(ref, predictor->get());
  if (!fed.ok()) return fed.ToString();
  auto run = (*predictor)->Run();
  if (!run.ok()) return run.ToString();
  auto checks = lite::tools::CompareOutputs(ref, **predictor);
  if (!checks.ok()) return checks.status().ToString();
  std::string failed;
  for (const auto& c : *checks) {
    if (!c.passed) failed += lite::tools::FormatCheck(c) + "\n";
  }
  return failed;
}

struct Optimized {
  std::map<std::string, int> before, after;  // op type -> count (block 0)
  int ops_before = 0, ops_after = 0;
  std::map<std::string, int64_t> matched;  // fusion pass -> "matched"
  std::string log;
};

lite::StatusOr<Optimized> Optimize(const lite::tools::Reference& ref,
                                   const std::vector<std::string>& disabled) {
  lite::ModelSource source;
  if (!ref.model_file.empty()) {
    source.model_file = ref.model_file;
    source.params_file = ref.params_file;
    if (!ref.combined) source.model_dir = ref.model_dir;
  } else {
    source.model_dir = ref.model_dir;
  }
  lite::cpp::ProgramDesc program;
  lite::Scope scope;
  RETURN_IF_ERROR(lite::LoadModel(source, &program, &scope));
  lite::OptimizeOptions options;
  options.disabled_passes = disabled;
  ASSIGN_OR_RETURN(auto result, lite::OptimizeProgram(program, &scope, options));
  Optimized o;
  for (const auto& op : program.blocks[0].ops) ++o.before[op.Type()];
  for (const auto& op : result.program.blocks[0].ops) ++o.after[op.Type()];
  o.ops_before = static_cast<int>(program.blocks[0].ops.size());
  o.ops_after = static_cast<int>(result.program.blocks[0].ops.size());
  for (const auto& rec : result.report.passes) {
    auto it = rec.counters.find("matched");
    o.matched[rec.name] = it == rec.counters.end() ? 0 : it->second;
  }
  o.log = result.report.ToString();
  return o;
}

#define SKIP_WITHOUT_MODELS() \
  if (lite::SharedModelsDir().empty()) GTEST_SKIP() << lite::kSharedModelsMissing

TEST(FusionModels, AllFusionsMatchReference) {
  SKIP_WITHOUT_MODELS();
  for (const auto& model : kModels) {
    SCOPED_TRACE(model);
    auto ref = Ref(model);
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    EXPECT_EQ(CheckAgainstReference(*ref, {}), "");
  }
}

// Disabling a pass that matched nothing gives the all-on graph again, so
// only passes that changed the model are re-run.
TEST(FusionModels, EachFusionDisabledMatchesReference) {
  SKIP_WITHOUT_MODELS();
  for (const auto& model : kModels) {
    auto ref = Ref(model);
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    auto all_on = Optimize(*ref, {});
    ASSERT_TRUE(all_on.ok()) << all_on.status().ToString();
    for (const auto& pass : FusionPasses()) {
      SCOPED_TRACE(model + " without " + pass);
      if (all_on->matched[pass] == 0) continue;
      EXPECT_EQ(CheckAgainstReference(*ref, {pass}), "");
    }
  }
}

TEST(FusionModels, DetHasNoBatchNormAfterPipeline) {
  SKIP_WITHOUT_MODELS();
  auto ref = Ref("ppocr_det_en_PP-OCRv3");
  ASSERT_TRUE(ref.ok()) << ref.status().ToString();
  auto o = Optimize(*ref, {});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->before["batch_norm"], 49);
  EXPECT_EQ(o->after["batch_norm"], 0) << o->log;
  EXPECT_EQ(o->matched["conv_bn_fuse_pass"], 49);
}

// With the two activation fusions off, the hard_sigmoid gates of the
// MobileNetV3 SE blocks reach se_gate_fuse_pass (all on, the conv or add
// before them absorbs them first).
TEST(FusionModels, SeGateOnMobileNetV3Blocks) {
  SKIP_WITHOUT_MODELS();
  const std::vector<std::string> off = {"conv_activation_fuse_pass",
                                        "elementwise_activation_fuse_pass"};
  for (const auto& model : {"ppocr_cls_mobile_v2.0", "mobilenetv3_small_x0_35_3cls",
                            "ppocr_det_en_PP-OCRv3"}) {
    SCOPED_TRACE(model);
    auto ref = Ref(model);
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    auto o = Optimize(*ref, off);
    ASSERT_TRUE(o.ok()) << o.status().ToString();
    EXPECT_EQ(o->matched["se_gate_fuse_pass"], o->before["hard_sigmoid"]) << o->log;
    EXPECT_EQ(o->after["hard_sigmoid"], 0);
    EXPECT_EQ(CheckAgainstReference(*ref, off), "");
  }
}

// Not a check: the tables for docs/passes.md.
TEST(FusionModels, PrintOpCountTables) {
  SKIP_WITHOUT_MODELS();
  std::ostringstream counts, passes;
  counts << "| model | ops before | ops after | changed op types (before -> after) |\n"
         << "|---|---|---|---|\n";
  passes << "| model |";
  for (const auto& p : FusionPasses()) passes << " " << p << " |";
  passes << "\n|---|";
  for (size_t i = 0; i < FusionPasses().size(); ++i) passes << "---|";
  passes << "\n";
  for (const auto& model : kModels) {
    auto ref = Ref(model);
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    auto o = Optimize(*ref, {});
    ASSERT_TRUE(o.ok()) << o.status().ToString();
    std::map<std::string, int> types = o->before;
    types.insert(o->after.begin(), o->after.end());
    std::string diff;
    for (const auto& kv : types) {
      int b = o->before[kv.first], a = o->after[kv.first];
      if (a != b) diff += (diff.empty() ? "" : ", ") + kv.first + " " + std::to_string(b) +
                          " -> " + std::to_string(a);
    }
    counts << "| " << model << " | " << o->ops_before << " | " << o->ops_after << " | " << diff
           << " |\n";
    passes << "| " << model << " |";
    for (const auto& p : FusionPasses()) passes << " " << o->matched[p] << " |";
    passes << "\n";
  }
  std::cout << "\n" << counts.str() << "\n" << passes.str() << "\n";
}

}  // namespace
