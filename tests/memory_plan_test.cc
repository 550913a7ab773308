// memory_optimize_pass + the run-time buffer pool keep outputs bit-identical
// to runs without the pass: on the generated default model (batch and size
// changes) and on every shared vision model, across repeated runs (the
// second run is served from reused buffers). Needs ../shared/models for the
// real models and skips them with the standard message without it.
#include <cstring>
#include <set>

#include <gtest/gtest.h>

#include "lite/api/optimizer.h"
#include "lite/api/paddle_api.h"
#include "lite/api/predictor_runtime.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/test_models.h"
#include "tools/default_model.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::PaddlePredictor;

std::vector<std::vector<float>> Outputs(PaddlePredictor* p) {
  std::vector<std::vector<float>> out;
  for (size_t i = 0; i < p->GetOutputNames().size(); ++i) {
    auto t = p->GetOutput(static_cast<int>(i));
    out.emplace_back(t->numel());
    t->CopyToCpu(out.back().data());
  }
  return out;
}

bool BitEqual(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].size() != b[i].size() ||
        std::memcmp(a[i].data(), b[i].data(), a[i].size() * sizeof(float)) != 0) {
      return false;
    }
  }
  return true;
}

TEST(MemoryPlan, DefaultModelIsBitIdenticalAcrossRunsAndShapes) {
  auto m = lite::tools::MakeDefaultModel();
  m.program.blocks[0].FindVar(lite::tools::kDefaultModelInput)->dims = {-1, 3, -1, -1};
  std::string model, params;
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  auto make = [&](bool plan) {
    CxxConfig c;
    c.set_model_buffer(model.data(), model.size(), params.data(), params.size());
    if (!plan) c.set_disabled_passes({"memory_optimize_pass"});
    auto p = CreatePaddlePredictor<CxxConfig>(c);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    return *p;
  };
  auto planned = make(true), plain = make(false);
  for (auto shape : std::vector<std::vector<int64_t>>{{1, 3, 32, 32}, {2, 3, 48, 40}, {1, 3, 32, 32}}) {
    for (int run = 0; run < 2; ++run) {
      std::vector<float> x = lite::tools::LcgUniform(shape[0] * 3 * shape[2] * shape[3], 3 + run, -1, 1);
      for (auto* p : {planned.get(), plain.get()}) {
        auto in = p->GetInput(0);
        in->Resize(shape);
        in->CopyFromCpu(x.data());
        ASSERT_TRUE(p->Run().ok());
      }
      EXPECT_TRUE(BitEqual(Outputs(planned.get()), Outputs(plain.get())))
          << "shape " << shape[2] << " run " << run;
    }
  }
  // The plan is recorded in the program: planned runs release buffers.
  EXPECT_NE(planned->GetPassLog().find("memory_optimize_pass"), std::string::npos);
  EXPECT_NE(planned->GetPassLog().find("vars_planned="), std::string::npos);
}

TEST(MemoryPlan, SharedModelsAreBitIdenticalWithAndWithoutThePass) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  for (const auto& model : lite::tools::ListReferenceModels(root)) {
    if (model == "rna_bilstm_lod" || model == "textcnn_seqconv_lod") continue;
    SCOPED_TRACE(model);
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    std::vector<std::vector<float>> outs[2];
    for (int plan = 0; plan < 2; ++plan) {
      CxxConfig c;
      lite::tools::ConfigureModel(*ref, &c);
      if (!plan) c.set_disabled_passes({"memory_optimize_pass"});
      auto p = CreatePaddlePredictor<CxxConfig>(c);
      ASSERT_TRUE(p.ok()) << p.status().ToString();
      for (int run = 0; run < 2; ++run) {  // the second run reuses buffers
        ASSERT_TRUE(lite::tools::FeedInputs(*ref, p->get()).ok());
        auto run_status = (*p)->Run();
        ASSERT_TRUE(run_status.ok()) << "plan " << plan << " run " << run << ": "
                                     << run_status.ToString();
      }
      outs[plan] = Outputs(p->get());
    }
    EXPECT_TRUE(BitEqual(outs[0], outs[1]));
  }
}

// The default model with any batch, height and width.
lite::tools::DefaultModel VariableSizeDefaultModel() {
  auto m = lite::tools::MakeDefaultModel();
  m.program.blocks[0].FindVar(lite::tools::kDefaultModelInput)->dims = {-1, 3, -1, -1};
  return m;
}

// A root scope holding `m`'s weights (persistable), for PredictorRuntime.
std::shared_ptr<lite::Scope> WeightsScope(const lite::tools::DefaultModel& m) {
  auto root = std::make_shared<lite::Scope>();
  for (const auto& name : m.scope->LocalVarNames()) {
    lite::Tensor* t = root->Var(name)->GetMutableTensor();
    t->CopyDataFrom(m.scope->FindVar(name)->GetTensor());
    t->set_persistable(true);
  }
  return root;
}

// From the second run of an input shape the activations live in one arena
// laid out from the first run: it is smaller than their sum, and a shape
// change plans again.
TEST(MemoryPlan, SecondRunOfAShapeRunsInThePlannedArena) {
  auto m = VariableSizeDefaultModel();
  auto root = WeightsScope(m);
  auto opt = lite::OptimizeProgram(m.program, root.get(), lite::OptimizeOptions());
  ASSERT_TRUE(opt.ok()) << opt.status().ToString();
  auto rt = lite::PredictorRuntime::Create(opt->program, root, 1);
  ASSERT_TRUE(rt.ok()) << rt.status().ToString();
  size_t first_arena = 0;
  for (int64_t hw : {32, 32, 48}) {
    auto in = (*rt)->GetInput(0);
    in->Resize({1, 3, hw, hw});
    auto x = lite::tools::LcgUniform(3 * hw * hw, 5, -1, 1);
    std::copy(x.begin(), x.end(), in->mutable_data<float>());
    ASSERT_TRUE((*rt)->Run().ok());
    const lite::ArenaPlan* plan = (*rt)->runtime_program().arena_plan();
    ASSERT_NE(plan, nullptr) << "a plan after every run of a signature";
    EXPECT_GT(plan->slots().size(), 2u);
    EXPECT_LT(plan->arena_bytes(), plan->planned_bytes()) << "reuse";
    if (!first_arena) first_arena = plan->arena_bytes();
  }
  EXPECT_GT((*rt)->runtime_program().arena_plan()->arena_bytes(), first_arena) << "48x48 re-planned";
}

// The first run of a new shape binds the previous plan, scaled, into the
// warm arena: it draws little from the pool (without that every activation
// was a new pool allocation), and every result equals a run without the
// memory plan.
TEST(MemoryPlan, FirstRunOfANewShapeRunsInTheWarmArena) {
  auto m = VariableSizeDefaultModel();
  auto root = WeightsScope(m);
  std::string model, params;
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(m.program, *m.scope, &model, &params).ok());
  CxxConfig c;
  c.set_model_buffer(model.data(), model.size(), params.data(), params.size());
  c.set_disabled_passes({"memory_optimize_pass"});
  auto plain = CreatePaddlePredictor<CxxConfig>(c);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  auto opt = lite::OptimizeProgram(m.program, root.get(), lite::OptimizeOptions());
  ASSERT_TRUE(opt.ok()) << opt.status().ToString();
  auto rt = lite::PredictorRuntime::Create(opt->program, root, 1);
  ASSERT_TRUE(rt.ok()) << rt.status().ToString();
  const lite::BufferPool& pool = (*rt)->runtime_program().context()->buffers;
  std::set<int64_t> seen;
  for (int64_t hw : {48, 48, 40, 40, 56, 32}) {
    SCOPED_TRACE(hw);
    auto x = lite::tools::LcgUniform(3 * hw * hw, 7, -1, 1);
    auto in = (*rt)->GetInput(0);
    in->Resize({1, 3, hw, hw});
    std::copy(x.begin(), x.end(), in->mutable_data<float>());
    const size_t allocated = pool.allocated_bytes();
    const bool repeat = seen.count(hw) > 0;
    const bool guessed = (*rt)->runtime_program().arena_plan() && !repeat;
    seen.insert(hw);
    ASSERT_TRUE((*rt)->Run().ok());
    const lite::ArenaPlan* plan = (*rt)->runtime_program().arena_plan();
    ASSERT_NE(plan, nullptr);
    if (guessed) {
      EXPECT_LT(pool.allocated_bytes() - allocated, plan->planned_bytes() / 8)
          << "most activations of a new shape's first run came from the warm arena";
    } else if (repeat) {
      EXPECT_GE((*rt)->runtime_program().warm_arena_bytes(), plan->arena_bytes())
          << "a repeat runs in the warm arena";
    }
    auto pin = (*plain)->GetInput(0);
    pin->Resize({1, 3, hw, hw});
    pin->CopyFromCpu(x.data());
    ASSERT_TRUE((*plain)->Run().ok());
    auto a = (*rt)->GetOutput(0);
    auto b = (*plain)->GetOutput(0);
    ASSERT_EQ(a->numel(), b->numel());
    std::vector<float> va(a->numel()), vb(b->numel());
    a->CopyToCpu(va.data());
    b->CopyToCpu(vb.data());
    EXPECT_EQ(0, std::memcmp(va.data(), vb.data(), va.size() * sizeof(float)));
  }
}

}  // namespace
