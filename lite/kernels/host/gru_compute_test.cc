// gru and gru_unit against a straightforward per-sequence loop written here
// (double precision, Paddle's {u, r, c~} gate order, the W_ur / W_c weight
// blocks, origin_mode), plus batch == each sequence alone, empty sequences,
// H0 by sequence id and clear errors.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

using Level = std::vector<uint64_t>;

double Act(const std::string& name, double x) {
  if (name == "sigmoid") return 1.0 / (1.0 + std::exp(-x));
  if (name == "tanh") return std::tanh(x);
  if (name == "relu") return x > 0 ? x : 0;
  return x;
}

struct GruCase {
  int64_t d = 4;
  Level level;
  std::vector<float> input, weight, bias, h0;
  bool reverse = false, origin = false, with_bias = true;
  std::string gate = "sigmoid", cand = "tanh";

  static GruCase Random(int64_t d, Level level, uint32_t seed) {
    GruCase c;
    c.d = d;
    c.level = level;
    c.input = RandomFloats(static_cast<int64_t>(level.back()) * 3 * d, seed, -2.f, 2.f);
    c.weight = RandomFloats(d * 3 * d, seed + 1, -0.5f, 0.5f);
    c.bias = RandomFloats(3 * d, seed + 2, -0.5f, 0.5f);
    return c;
  }
  int64_t rows() const { return static_cast<int64_t>(level.back()); }
};

// One GRU step of the reference on row x (3D) from h.
std::vector<double> RefStep(const GruCase& c, const float* x, const std::vector<double>& h) {
  const int64_t d = c.d;
  std::vector<double> z(3 * d), rh(d), out(d);
  for (int64_t j = 0; j < 3 * d; ++j) z[j] = x[j] + (c.with_bias ? c.bias[j] : 0);
  for (int64_t j = 0; j < 2 * d; ++j) {
    for (int64_t k = 0; k < d; ++k) z[j] += h[k] * c.weight[k * 2 * d + j];
  }
  for (int64_t k = 0; k < d; ++k) rh[k] = Act(c.gate, z[d + k]) * h[k];
  for (int64_t j = 0; j < d; ++j) {
    double zc = z[2 * d + j];
    for (int64_t k = 0; k < d; ++k) zc += rh[k] * c.weight[2 * d * d + k * d + j];
    const double u = Act(c.gate, z[j]), cand = Act(c.cand, zc);
    out[j] = c.origin ? u * h[j] + (1 - u) * cand : u * cand + (1 - u) * h[j];
  }
  return out;
}

std::vector<double> ReferenceGru(const GruCase& c) {
  const int64_t d = c.d;
  std::vector<double> hidden(c.rows() * d);
  for (size_t s = 0; s + 1 < c.level.size(); ++s) {
    std::vector<double> h(d, 0);
    if (!c.h0.empty()) h.assign(c.h0.begin() + s * d, c.h0.begin() + (s + 1) * d);
    const int64_t b = c.level[s], len = c.level[s + 1] - c.level[s];
    for (int64_t step = 0; step < len; ++step) {
      const int64_t r = c.reverse ? b + len - 1 - step : b + step;
      h = RefStep(c, &c.input[r * 3 * d], h);
      for (int64_t k = 0; k < d; ++k) hidden[r * d + k] = h[k];
    }
  }
  return hidden;
}

Status RunGru(const GruCase& c, std::vector<float>* hidden, LoD lod = {}) {
  OpTester t("gru");
  t.SetInput<float>("Input", "in", {c.rows(), 3 * c.d}, c.input)
      ->set_lod(lod.empty() ? LoD{c.level} : lod);
  t.SetInput<float>("Weight", "w", {c.d, 3 * c.d}, c.weight);
  if (c.with_bias) t.SetInput<float>("Bias", "b", {1, 3 * c.d}, c.bias);
  if (!c.h0.empty()) {
    t.SetInput<float>("H0", "h0", {static_cast<int64_t>(c.level.size()) - 1, c.d}, c.h0);
  }
  t.SetOutput("Hidden", "hidden");
  t.SetOutput("BatchGate", "bg");
  t.SetOutput("BatchResetHiddenPrev", "brh");
  t.SetOutput("BatchHidden", "bh");
  t.SetAttr("is_reverse", c.reverse);
  t.SetAttr("origin_mode", c.origin);
  t.SetAttr("gate_activation", c.gate);
  t.SetAttr("activation", c.cand);
  RETURN_IF_ERROR(t.Run());
  *hidden = t.GetData<float>("hidden");
  EXPECT_EQ(t.Get("hidden").lod(), t.Get("in").lod());
  return Status::OK();
}

void ExpectMatchesReference(const GruCase& c) {
  std::vector<float> hidden;
  Status s = RunGru(c, &hidden);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const auto want = ReferenceGru(c);
  ASSERT_EQ(hidden.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(hidden[i], want[i], 2e-5) << i;
}

const Level kLevel{0, 3, 3, 8, 10, 11};  // lengths 3, 0, 5, 2, 1

TEST(Gru, MatchesPerSequenceReference) {
  for (bool reverse : {false, true}) {
    for (bool origin : {false, true}) {
      SCOPED_TRACE(std::string(reverse ? "reverse" : "forward") + (origin ? " origin" : ""));
      GruCase c = GruCase::Random(5, kLevel, 11);
      c.reverse = reverse;
      c.origin = origin;
      ExpectMatchesReference(c);
    }
  }
  GruCase c = GruCase::Random(3, kLevel, 12);
  c.with_bias = false;
  c.gate = "relu";
  c.cand = "identity";
  ExpectMatchesReference(c);
}

TEST(Gru, InitialStateAndEmptySequences) {
  GruCase c = GruCase::Random(4, kLevel, 21);
  c.h0 = RandomFloats(5 * 4, 22);
  ExpectMatchesReference(c);
  c.reverse = true;
  ExpectMatchesReference(c);
  ExpectMatchesReference(GruCase::Random(3, {0, 0, 0}, 23));
}

TEST(Gru, BatchEqualsEachSequenceAlone) {
  GruCase all = GruCase::Random(6, kLevel, 31);
  all.h0 = RandomFloats(5 * 6, 32);
  std::vector<float> hidden;
  ASSERT_TRUE(RunGru(all, &hidden).ok());
  for (size_t s = 0; s + 1 < kLevel.size(); ++s) {
    const int64_t b = kLevel[s], e = kLevel[s + 1], d = all.d;
    GruCase one = all;
    one.level = {0, static_cast<uint64_t>(e - b)};
    one.input.assign(all.input.begin() + b * 3 * d, all.input.begin() + e * 3 * d);
    one.h0.assign(all.h0.begin() + s * d, all.h0.begin() + (s + 1) * d);
    std::vector<float> h1;
    ASSERT_TRUE(RunGru(one, &h1).ok());
    for (int64_t i = 0; i < (e - b) * d; ++i) {
      EXPECT_NEAR(h1[i], hidden[b * d + i], 1e-6) << "sequence " << s;
    }
  }
}

TEST(Gru, MalformedLodAndShapesAreClearErrors) {
  GruCase c = GruCase::Random(3, {0, 2, 5}, 41);
  std::vector<float> h;
  Status s = RunGru(c, &h, {{0, 4, 2, 5}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("LoD offsets decrease"), std::string::npos) << s.message();
  GruCase bad_h0 = c;
  bad_h0.h0 = RandomFloats(3, 42);
  bad_h0.level = {0, 5};
  s = RunGru(bad_h0, &h, {{0, 2, 5}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("H0 must be [2, 3]"), std::string::npos) << s.message();
  GruCase bad_act = c;
  bad_act.cand = "gelu";
  s = RunGru(bad_act, &h);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("activation 'gelu'"), std::string::npos) << s.message();
}

TEST(GruUnit, OneStepMatchesReference) {
  const int64_t n = 5, d = 4;
  for (bool origin : {false, true}) {
    GruCase c = GruCase::Random(d, {0, static_cast<uint64_t>(n)}, 51);
    c.origin = origin;
    const std::vector<float> prev = RandomFloats(n * d, 52);
    OpTester t("gru_unit");
    t.SetInput<float>("Input", "in", {n, 3 * d}, c.input);
    t.SetInput<float>("HiddenPrev", "prev", {n, d}, prev);
    t.SetInput<float>("Weight", "w", {d, 3 * d}, c.weight);
    t.SetInput<float>("Bias", "b", {1, 3 * d}, c.bias);
    t.SetOutput("Gate", "gate");
    t.SetOutput("ResetHiddenPrev", "rh");
    t.SetOutput("Hidden", "hidden");
    t.SetAttr("origin_mode", origin);
    ASSERT_TRUE(t.Run().ok());
    const auto hidden = t.GetData<float>("hidden");
    const auto rh = t.GetData<float>("rh");
    for (int64_t i = 0; i < n; ++i) {
      std::vector<double> h(prev.begin() + i * d, prev.begin() + (i + 1) * d);
      const auto want = RefStep(c, &c.input[i * 3 * d], h);
      for (int64_t k = 0; k < d; ++k) {
        EXPECT_NEAR(hidden[i * d + k], want[k], 2e-5) << "row " << i;
        double z = c.input[i * 3 * d + d + k] + c.bias[d + k];
        for (int64_t j = 0; j < d; ++j) z += h[j] * c.weight[j * 2 * d + d + k];
        EXPECT_NEAR(rh[i * d + k], Act("sigmoid", z) * h[k], 2e-5) << "row " << i;
      }
    }
  }
}

TEST(GruUnit, IntegerActivationsAndErrors) {
  const int64_t n = 2, d = 3;
  GruCase c = GruCase::Random(d, {0, 2}, 61);
  c.gate = "relu";  // 3
  c.cand = "identity";  // 0
  auto make = [&](OpTester* t, int64_t prev_rows) {
    t->SetInput<float>("Input", "in", {n, 3 * d}, c.input);
    t->SetInput<float>("HiddenPrev", "prev", {prev_rows, d}, RandomFloats(prev_rows * d, 62));
    t->SetInput<float>("Weight", "w", {d, 3 * d}, c.weight);
    t->SetInput<float>("Bias", "b", {1, 3 * d}, c.bias);
    t->SetOutput("Hidden", "hidden");
  };
  OpTester t("gru_unit");
  make(&t, n);
  t.SetAttr("gate_activation", int32_t(3));
  t.SetAttr("activation", int32_t(0));
  ASSERT_TRUE(t.Run().ok());
  const auto prev = t.GetData<float>("prev");
  const auto hidden = t.GetData<float>("hidden");
  for (int64_t i = 0; i < n; ++i) {
    std::vector<double> h(prev.begin() + i * d, prev.begin() + (i + 1) * d);
    const auto want = RefStep(c, &c.input[i * 3 * d], h);
    for (int64_t k = 0; k < d; ++k) EXPECT_NEAR(hidden[i * d + k], want[k], 2e-5);
  }
  OpTester bad("gru_unit");
  make(&bad, n);
  bad.SetAttr("activation", int32_t(7));
  Status s = bad.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("activation 7 is not one of"), std::string::npos) << s.message();
  OpTester rows("gru_unit");
  make(&rows, n + 1);
  s = rows.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("HiddenPrev must be [2, 3]"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
