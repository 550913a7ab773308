// The fused rnn op in a whole model built here (feeds x, h0 [, c0] and an
// int32 SequenceLength; two bidirectional layers; weights persistable),
// through the full predictor on host and on x86 (host fallback; not on the
// aarch64 build, which has no x86 target) and the
// light predictor on the saved .nb. Sequences are independent, so each
// batch row run alone over its own length (T' = len, no padding) must
// give the batch run's rows at t < len and its final states, and the
// padded steps must be zero: this checks SequenceLength end to end
// (kernel pick with an int32 input, shapes, memory planning).
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <memory>

#include "lite/api/build_targets.h"
#include "lite/api/paddle_api.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/test_util.h"

namespace {

using lite::DataType;
using lite::cpp::OpDesc;
using lite::cpp::ProgramDesc;
using lite::cpp::VarKind;
using lite::testing_util::TensorVarDesc;
using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;
using paddle::lite_api::ModelType;
using paddle::lite_api::PaddlePredictor;

constexpr int64_t kInput = 3, kHidden = 4, kLayers = 2, kDirs = 2, kStates = kLayers * kDirs;

int Gates(const std::string& mode) { return mode == "LSTM" ? 4 : mode == "GRU" ? 3 : 1; }

// Deterministic values in [-0.5, 0.5).
std::vector<float> Values(int64_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(seed >> 8) / static_cast<float>(1u << 24) - 0.5f;
  }
  return v;
}

OpDesc FeedFetch(const std::string& type, const std::string& var, int col) {
  OpDesc op(type);
  op.SetInput("X", {type == "feed" ? "feed" : var});
  op.SetOutput("Out", {type == "feed" ? var : "fetch"});
  op.SetAttr("col", col);
  return op;
}

// Builds the model into model/params buffers.
void BuildModel(const std::string& mode, std::string* model, std::string* params) {
  const bool lstm = mode == "LSTM";
  const int64_t gh = Gates(mode) * kHidden;
  ProgramDesc p;
  p.blocks.resize(1);
  auto& b = p.blocks[0];
  b.vars = {lite::cpp::FeedFetchListVar("feed", VarKind::kFeedList),
            lite::cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
            TensorVarDesc("x", DataType::kFloat32, {-1, -1, kInput}, false),
            TensorVarDesc("h0", DataType::kFloat32, {kStates, -1, kHidden}, false),
            TensorVarDesc("len", DataType::kInt32, {-1}, false),
            TensorVarDesc("out", DataType::kFloat32, {-1, -1, kDirs * kHidden}, false),
            TensorVarDesc("last_h", DataType::kFloat32, {kStates, -1, kHidden}, false),
            TensorVarDesc("reserve", DataType::kFloat32, {0}, false),
            TensorVarDesc("dropout_state", DataType::kUInt8, {0}, false)};
  if (lstm) {
    b.vars.push_back(TensorVarDesc("c0", DataType::kFloat32, {kStates, -1, kHidden}, false));
    b.vars.push_back(TensorVarDesc("last_c", DataType::kFloat32, {kStates, -1, kHidden}, false));
  }
  lite::Scope scope;
  std::vector<std::string> weights, biases;
  uint32_t seed = 1;
  for (int64_t l = 0; l < kLayers; ++l) {
    for (int64_t d = 0; d < kDirs; ++d) {
      const std::string tag = std::to_string(l) + "_" + std::to_string(d);
      const std::pair<std::string, lite::DDim> params[] = {
          {"w_ih_" + tag, {gh, l == 0 ? kInput : kDirs * kHidden}},
          {"w_hh_" + tag, {gh, kHidden}},
          {"b_ih_" + tag, {gh}},
          {"b_hh_" + tag, {gh}}};
      for (const auto& pr : params) {
        b.vars.push_back(TensorVarDesc(pr.first, DataType::kFloat32, pr.second, true));
        lite::Tensor* t = scope.Var(pr.first)->GetMutableTensor();
        t->Resize(pr.second);
        const std::vector<float> v = Values(t->numel(), seed++);
        std::memcpy(t->mutable_data<float>(), v.data(), v.size() * sizeof(float));
        (pr.second.size() == 2 ? weights : biases).push_back(pr.first);
      }
    }
  }
  weights.insert(weights.end(), biases.begin(), biases.end());
  b.ops.push_back(FeedFetch("feed", "x", 0));
  b.ops.push_back(FeedFetch("feed", "h0", 1));
  b.ops.push_back(FeedFetch("feed", "len", 2));
  if (lstm) b.ops.push_back(FeedFetch("feed", "c0", 3));
  OpDesc rnn("rnn");
  rnn.SetInput("Input", {"x"});
  rnn.SetInput("PreState",
               lstm ? std::vector<std::string>{"h0", "c0"} : std::vector<std::string>{"h0"});
  rnn.SetInput("WeightList", weights);
  rnn.SetInput("SequenceLength", {"len"});
  rnn.SetOutput("Out", {"out"});
  rnn.SetOutput("State", lstm ? std::vector<std::string>{"last_h", "last_c"}
                              : std::vector<std::string>{"last_h"});
  rnn.SetOutput("Reserve", {"reserve"});
  rnn.SetOutput("DropoutState", {"dropout_state"});
  rnn.SetAttr("mode", mode);
  rnn.SetAttr("is_bidirec", true);
  rnn.SetAttr("num_layers", static_cast<int32_t>(kLayers));
  rnn.SetAttr("input_size", static_cast<int32_t>(kInput));
  rnn.SetAttr("hidden_size", static_cast<int32_t>(kHidden));
  rnn.SetAttr("dropout_prob", 0.f);
  rnn.SetAttr("is_test", true);
  b.ops.push_back(rnn);
  b.ops.push_back(FeedFetch("fetch", "out", 0));
  b.ops.push_back(FeedFetch("fetch", "last_h", 1));
  if (lstm) b.ops.push_back(FeedFetch("fetch", "last_c", 2));
  ASSERT_TRUE(lite::SaveCombinedModelToBuffers(p, scope, model, params).ok());
}

struct Batch {
  int64_t steps = 0, n = 0;
  std::vector<float> x, h0, c0;
  std::vector<int32_t> len;
};

struct Result {
  std::vector<float> out, last_h, last_c;
};

std::vector<float> Fetch(PaddlePredictor* p, int i) {
  auto t = p->GetOutput(i);
  std::vector<float> v(t->numel());
  EXPECT_TRUE(t->CopyToCpu(v.data(), static_cast<int64_t>(v.size())).ok());
  return v;
}

Result Run(PaddlePredictor* p, const Batch& b, bool lstm) {
  auto feed = [p](int i, const std::vector<int64_t>& shape, const auto& data) {
    auto t = p->GetInput(i);
    t->Resize(shape);
    EXPECT_TRUE(t->CopyFromCpu(data.data(), static_cast<int64_t>(data.size())).ok());
  };
  feed(0, {b.steps, b.n, kInput}, b.x);
  feed(1, {kStates, b.n, kHidden}, b.h0);
  feed(2, {b.n}, b.len);
  if (lstm) feed(3, {kStates, b.n, kHidden}, b.c0);
  lite::Status s = p->Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  Result r;
  r.out = Fetch(p, 0);
  r.last_h = Fetch(p, 1);
  if (lstm) r.last_c = Fetch(p, 2);
  return r;
}

// Row n of a [rows, N, width] tensor as a [rows, 1, width] one, first
// `rows` rows only.
std::vector<float> Row(const std::vector<float>& v, int64_t rows, int64_t batch, int64_t n,
                       int64_t width) {
  std::vector<float> r;
  for (int64_t t = 0; t < rows; ++t) {
    r.insert(r.end(), v.begin() + (t * batch + n) * width, v.begin() + (t * batch + n + 1) * width);
  }
  return r;
}

void CheckSequencesAlone(PaddlePredictor* p, bool lstm) {
  Batch all;
  all.steps = 6;
  all.n = 4;
  all.x = Values(all.steps * all.n * kInput, 100);
  all.h0 = Values(kStates * all.n * kHidden, 101);
  if (lstm) all.c0 = Values(kStates * all.n * kHidden, 102);
  all.len = {6, 2, 4, 1};
  const Result batch = Run(p, all, lstm);
  const int64_t width = kDirs * kHidden;
  ASSERT_EQ(batch.out.size(), static_cast<size_t>(all.steps * all.n * width));
  for (int64_t n = 0; n < all.n; ++n) {
    SCOPED_TRACE("row " + std::to_string(n));
    Batch one;
    one.steps = all.len[n];
    one.n = 1;
    one.x = Row(all.x, one.steps, all.n, n, kInput);
    one.len = {all.len[n]};
    for (int64_t s = 0; s < kStates; ++s) {
      const std::vector<float> h = Row(all.h0, 1, all.n, s * all.n + n, kHidden);
      one.h0.insert(one.h0.end(), h.begin(), h.end());
      if (lstm) {
        const std::vector<float> c = Row(all.c0, 1, all.n, s * all.n + n, kHidden);
        one.c0.insert(one.c0.end(), c.begin(), c.end());
      }
    }
    const Result alone = Run(p, one, lstm);
    const std::vector<float> rows = Row(batch.out, all.steps, all.n, n, width);
    for (int64_t i = 0; i < one.steps * width; ++i) {
      ASSERT_NEAR(rows[i], alone.out[i], 1e-6) << "Out element " << i;
    }
    for (int64_t i = one.steps * width; i < all.steps * width; ++i) {
      ASSERT_EQ(rows[i], 0.f) << "padded Out element " << i;
    }
    for (int64_t s = 0; s < kStates; ++s) {
      for (int64_t k = 0; k < kHidden; ++k) {
        ASSERT_NEAR(batch.last_h[(s * all.n + n) * kHidden + k], alone.last_h[s * kHidden + k],
                    1e-6);
        if (lstm) {
          ASSERT_NEAR(batch.last_c[(s * all.n + n) * kHidden + k], alone.last_c[s * kHidden + k],
                      1e-6);
        }
      }
    }
  }
}

const std::vector<lite::Place> kHost = {lite::Place(lite::TargetType::kHost)};
const std::vector<lite::Place> kX86 = {lite::Place(lite::TargetType::kX86),
                                       lite::Place(lite::TargetType::kHost)};

TEST(FusedRnnModel, SequencesRunAloneEqualTheBatchOnEveryPath) {
  for (const std::string mode : {"LSTM", "GRU"}) {
    for (const auto& places : {kHost, kX86}) {
      if (!lite::CheckPlacesInBuild(places).ok()) continue;  // x86 on the aarch64 build
      SCOPED_TRACE(mode + (places.size() > 1 ? " x86" : " host"));
      std::string model, params;
      BuildModel(mode, &model, &params);
      CxxConfig config;
      config.set_model_buffer(model.data(), model.size(), params.data(), params.size());
      config.set_valid_places(places);
      auto full = CreatePaddlePredictor<CxxConfig>(config);
      ASSERT_TRUE(full.ok()) << full.status().ToString();
      CheckSequencesAlone(full->get(), mode == "LSTM");
      const std::string dir = lite::testing_util::MakeTempDir("fused_rnn_" + mode);
      ASSERT_TRUE((*full)->SaveOptimizedModel(dir + "/m", ModelType::kNaiveBuffer).ok());
      MobileConfig mobile;
      mobile.set_model_from_file(dir + "/m.nb");
      auto light = CreatePaddlePredictor<MobileConfig>(mobile);
      ASSERT_TRUE(light.ok()) << light.status().ToString();
      SCOPED_TRACE("light predictor");
      CheckSequencesAlone(light->get(), mode == "LSTM");
    }
  }
}

}  // namespace
