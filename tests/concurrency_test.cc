// Clones of one predictor run concurrently, one per thread, on the shared
// models: every clone's outputs equal the single-threaded run bit for bit,
// in every round. Run for the host target with 1 and 2 threads per predictor
// (the kernels' ThreadPool), the x86 target (oneDNN) and the npu target
// (XNNPACK driver). This is the test the TSan config runs
// (docs/robustness.md: Sanitizers); without TSan it still checks that clones do not disturb each
// other. Skips when ../shared/models is absent.
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "lite/api/paddle_api.h"
#include "lite/model_parser/test_models.h"
#include "tools/reference.h"

namespace {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::PaddlePredictor;

// Raw bytes of every float output after feeding the reference inputs and
// running once; "" entries mark a failure (reported by the caller).
std::vector<std::string> RunOnce(const lite::tools::Reference& ref, PaddlePredictor* p,
                                 std::string* error) {
  auto fed = lite::tools::FeedInputs(ref, p);
  if (!fed.ok()) {
    *error = fed.ToString();
    return {};
  }
  auto run = p->Run();
  if (!run.ok()) {
    *error = run.ToString();
    return {};
  }
  std::vector<std::string> outs;
  for (size_t i = 0; i < p->GetOutputNames().size(); ++i) {
    auto t = p->GetOutput(static_cast<int>(i));
    const float* data = t->data<float>();
    if (!data) {
      *error = "output " + std::to_string(i) + " is not float32";
      return {};
    }
    outs.emplace_back(reinterpret_cast<const char*>(data), t->numel() * sizeof(float));
  }
  return outs;
}

// Source and kThreads clones made from `config` run kRounds times at once,
// each on its own thread; every run must equal the source's first run.
void ExpectClonesMatch(const lite::tools::Reference& ref, const CxxConfig& config) {
  constexpr int kThreads = 4;
  constexpr int kRounds = 3;
  auto source = CreatePaddlePredictor<CxxConfig>(config);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  std::string error;
  const auto expected = RunOnce(ref, source->get(), &error);
  ASSERT_FALSE(expected.empty()) << error;

  std::vector<std::shared_ptr<PaddlePredictor>> clones;
  for (int t = 0; t < kThreads; ++t) {
    auto c = (*source)->Clone();
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    clones.push_back(*c);
  }
  std::vector<std::string> errors(kThreads);
  std::vector<int> matched(kThreads, 0);
  std::vector<std::thread> workers;
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      for (int r = 0; r < kRounds; ++r) {
        auto got = RunOnce(ref, clones[t].get(), &errors[t]);
        if (got == expected) ++matched[t];
      }
    });
  }
  // The source keeps running on this thread at the same time.
  int source_matched = 0;
  for (int r = 0; r < kRounds; ++r) {
    if (RunOnce(ref, source->get(), &error) == expected) ++source_matched;
  }
  for (auto& w : workers) w.join();
  EXPECT_EQ(source_matched, kRounds) << error;
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(matched[t], kRounds) << "clone " << t << ": " << errors[t];
  }
}

struct Variant {
  const char* name;
  std::vector<lite::Place> places;  // empty: the default (host)
  int threads;
  const char* placed;  // profile text every variant's predictor must show
};

// ThreadSanitizer cannot see through Debian's uninstrumented libgomp (the
// fork and barriers of oneDNN's and the x86 kernels' OpenMP regions), so
// under TSan the x86 predictors run one OpenMP thread each: the predictors
// still run concurrently, the intra-op OpenMP threading is not checked.
#if defined(__SANITIZE_THREAD__)
constexpr int kX86Threads = 1;
#else
constexpr int kX86Threads = 2;
#endif

TEST(Concurrency, ClonesOnThreadsMatchTheSingleThreadedRun) {
  const std::string root = lite::SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << lite::kSharedModelsMissing;
  const lite::Place host(lite::TargetType::kHost);
  const std::vector<Variant> variants = {
      {"host, 1 thread", {}, 1, "host/float/"},
      {"host, 2 threads", {}, 2, "host/float/"},
  // The x86 target exists in x86-64 builds only (not in --config=aarch64).
#if defined(__x86_64__)
      {"x86 (oneDNN)", {lite::Place(lite::TargetType::kX86), host}, kX86Threads, "x86/float/"},
#endif
      {"npu (xnnpack), 2 threads", {lite::Place(lite::TargetType::kNPU), host}, 2, "npu/float/"},
  };
  for (const char* model :
       {"mnist_mlp_fluid2018", "mobilenetv3_small_x0_35_3cls", "ppocr_cls_mobile_v2.0"}) {
    auto ref = lite::tools::LoadReference(root + "/" + model + "/reference");
    ASSERT_TRUE(ref.ok()) << ref.status().ToString();
    for (const Variant& v : variants) {
      SCOPED_TRACE(std::string(model) + ", " + v.name);
      CxxConfig config;
      lite::tools::ConfigureModel(*ref, &config);
      if (!v.places.empty()) config.set_valid_places(v.places);
      config.set_threads(v.threads);
      // Bit equality holds at one thread count: five predictors on two CPUs
      // would make adaptive threads switch some runs to one thread, and
      // oneDNN splits its sums by thread count (last bits differ).
      config.set_adaptive_threads(false);
      config.set_npu_strict(true);  // an npu subgraph that cannot compile fails
      ExpectClonesMatch(*ref, config);
      // The variant really ran where it says (not all on the host fallback).
      CxxConfig profiled = config;
      profiled.set_profiling(true);
      auto probe = CreatePaddlePredictor<CxxConfig>(profiled);
      ASSERT_TRUE(probe.ok()) << probe.status().ToString();
      std::string error;
      ASSERT_FALSE(RunOnce(*ref, probe->get(), &error).empty()) << error;
      EXPECT_NE((*probe)->GetProfileSummary().find(v.placed), std::string::npos)
          << (*probe)->GetProfileSummary();
    }
  }
}

}  // namespace
