// lstm against a straightforward per-sequence loop written here (double
// precision, Paddle's gate order {c~, i, f, o} and equations), plus the
// batching properties: a batch equals each sequence run alone, reverse
// equals forward on the reversed sequences, empty sequences, H0/C0 by
// sequence id, the activation attributes, thread-count independence and
// clear errors for malformed LoD and shapes.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

using Level = std::vector<uint64_t>;

double Act(const std::string& name, double x) {
  if (name == "sigmoid") return 1.0 / (1.0 + std::exp(-std::min(std::max(x, -40.0), 13.0)));
  if (name == "tanh") return std::tanh(x);
  if (name == "relu") return x > 0 ? x : 0;
  return x;
}

struct LstmCase {
  int64_t d = 4;
  Level level;
  std::vector<float> input, weight, bias, h0, c0;
  bool peepholes = true, reverse = false;
  std::string gate = "sigmoid", cell = "tanh", cand = "tanh";

  static LstmCase Random(int64_t d, Level level, uint32_t seed) {
    LstmCase c;
    c.d = d;
    c.level = level;
    const int64_t t = static_cast<int64_t>(level.back());
    c.input = RandomFloats(t * 4 * d, seed, -2.f, 2.f);
    c.weight = RandomFloats(d * 4 * d, seed + 1, -0.5f, 0.5f);
    c.bias = RandomFloats(7 * d, seed + 2, -0.5f, 0.5f);
    return c;
  }
  int64_t rows() const { return static_cast<int64_t>(level.back()); }
};

// Runs the op; returns Hidden and Cell concatenated (rows * d each).
Status RunLstm(const LstmCase& c, std::vector<float>* hidden, std::vector<float>* cell,
               int threads = 1, LoD lod = {}) {
  OpTester t("lstm");
  t.set_threads(threads);
  t.SetInput<float>("Input", "in", {c.rows(), 4 * c.d}, c.input)
      ->set_lod(lod.empty() ? LoD{c.level} : lod);
  t.SetInput<float>("Weight", "w", {c.d, 4 * c.d}, c.weight);
  const int64_t bias_width = (c.peepholes ? 7 : 4) * c.d;
  t.SetInput<float>("Bias", "b", {1, bias_width},
                    std::vector<float>(c.bias.begin(), c.bias.begin() + bias_width));
  const int64_t seqs = static_cast<int64_t>(c.level.size()) - 1;
  if (!c.h0.empty()) t.SetInput<float>("H0", "h0", {seqs, c.d}, c.h0);
  if (!c.c0.empty()) t.SetInput<float>("C0", "c0", {seqs, c.d}, c.c0);
  t.SetOutput("Hidden", "hidden");
  t.SetOutput("Cell", "cell");
  t.SetOutput("BatchGate", "batch_gate");
  t.SetOutput("BatchCellPreAct", "batch_cell");
  t.SetAttr("use_peepholes", c.peepholes);
  t.SetAttr("is_reverse", c.reverse);
  t.SetAttr("gate_activation", c.gate);
  t.SetAttr("cell_activation", c.cell);
  t.SetAttr("candidate_activation", c.cand);
  RETURN_IF_ERROR(t.Run());
  *hidden = t.GetData<float>("hidden");
  *cell = t.GetData<float>("cell");
  EXPECT_EQ(t.Get("hidden").lod(), t.Get("in").lod());
  EXPECT_EQ(t.Get("cell").lod(), t.Get("in").lod());
  return Status::OK();
}

// The reference: each sequence on its own, one row at a time.
void ReferenceLstm(const LstmCase& c, std::vector<double>* hidden, std::vector<double>* cell) {
  const int64_t d = c.d;
  hidden->assign(c.rows() * d, 0);
  cell->assign(c.rows() * d, 0);
  for (size_t s = 0; s + 1 < c.level.size(); ++s) {
    std::vector<double> h(d, 0), cs(d, 0);
    if (!c.h0.empty()) h.assign(c.h0.begin() + s * d, c.h0.begin() + (s + 1) * d);
    if (!c.c0.empty()) cs.assign(c.c0.begin() + s * d, c.c0.begin() + (s + 1) * d);
    const int64_t b = c.level[s], len = c.level[s + 1] - c.level[s];
    for (int64_t step = 0; step < len; ++step) {
      const int64_t r = c.reverse ? b + len - 1 - step : b + step;
      std::vector<double> z(4 * d);
      for (int64_t j = 0; j < 4 * d; ++j) {
        z[j] = c.input[r * 4 * d + j] + c.bias[j];
        for (int64_t k = 0; k < d; ++k) z[j] += h[k] * c.weight[k * 4 * d + j];
      }
      for (int64_t k = 0; k < d; ++k) {
        const double wic = c.peepholes ? c.bias[4 * d + k] : 0;
        const double wfc = c.peepholes ? c.bias[5 * d + k] : 0;
        const double woc = c.peepholes ? c.bias[6 * d + k] : 0;
        const double cand = Act(c.cand, z[k]);
        const double ig = Act(c.gate, z[d + k] + cs[k] * wic);
        const double fg = Act(c.gate, z[2 * d + k] + cs[k] * wfc);
        const double cn = cand * ig + cs[k] * fg;
        const double og = Act(c.gate, z[3 * d + k] + cn * woc);
        cs[k] = cn;
        h[k] = og * Act(c.cell, cn);
      }
      for (int64_t k = 0; k < d; ++k) {
        (*hidden)[r * d + k] = h[k];
        (*cell)[r * d + k] = cs[k];
      }
    }
  }
}

void ExpectMatchesReference(const LstmCase& c) {
  std::vector<float> hidden, cell;
  Status s = RunLstm(c, &hidden, &cell);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::vector<double> rh, rc;
  ReferenceLstm(c, &rh, &rc);
  ASSERT_EQ(hidden.size(), rh.size());
  for (size_t i = 0; i < rh.size(); ++i) {
    ASSERT_NEAR(hidden[i], rh[i], 2e-5) << "hidden element " << i;
    ASSERT_NEAR(cell[i], rc[i], 2e-5) << "cell element " << i;
  }
}

// Lengths 3, 0, 5, 2, 1: unsorted, with an empty sequence, so the batch
// order differs from the LoD order.
const Level kLevel{0, 3, 3, 8, 10, 11};

TEST(Lstm, MatchesPerSequenceReferenceForwardAndReverse) {
  for (bool reverse : {false, true}) {
    for (bool peepholes : {true, false}) {
      SCOPED_TRACE(std::string(reverse ? "reverse" : "forward") + (peepholes ? " peep" : ""));
      LstmCase c = LstmCase::Random(5, kLevel, 11);
      c.reverse = reverse;
      c.peepholes = peepholes;
      ExpectMatchesReference(c);
    }
  }
}

TEST(Lstm, InitialStatesFollowSequenceIds) {
  for (bool reverse : {false, true}) {
    LstmCase c = LstmCase::Random(4, kLevel, 21);
    c.reverse = reverse;
    c.h0 = RandomFloats(5 * 4, 22);
    c.c0 = RandomFloats(5 * 4, 23);
    ExpectMatchesReference(c);
    c.h0.clear();  // C0 alone is allowed: h starts at zero
    ExpectMatchesReference(c);
  }
}

TEST(Lstm, ActivationAttributesAreHonoured) {
  LstmCase c = LstmCase::Random(3, kLevel, 31);
  c.gate = "relu";
  c.cell = "identity";
  c.cand = "sigmoid";
  ExpectMatchesReference(c);
  c.gate = "tanh";
  c.cell = "sigmoid";
  c.cand = "relu";
  ExpectMatchesReference(c);
}

TEST(Lstm, BatchEqualsEachSequenceAlone) {
  for (bool reverse : {false, true}) {
    LstmCase all = LstmCase::Random(6, kLevel, 41);
    all.reverse = reverse;
    all.h0 = RandomFloats(5 * 6, 42);
    all.c0 = RandomFloats(5 * 6, 43);
    std::vector<float> hidden, cell;
    ASSERT_TRUE(RunLstm(all, &hidden, &cell).ok());
    for (size_t s = 0; s + 1 < kLevel.size(); ++s) {
      const int64_t b = kLevel[s], e = kLevel[s + 1], d = all.d;
      LstmCase one = all;
      one.level = {0, static_cast<uint64_t>(e - b)};
      one.input.assign(all.input.begin() + b * 4 * d, all.input.begin() + e * 4 * d);
      one.h0.assign(all.h0.begin() + s * d, all.h0.begin() + (s + 1) * d);
      one.c0.assign(all.c0.begin() + s * d, all.c0.begin() + (s + 1) * d);
      std::vector<float> h1, c1;
      ASSERT_TRUE(RunLstm(one, &h1, &c1).ok());
      for (int64_t i = 0; i < (e - b) * d; ++i) {
        EXPECT_NEAR(h1[i], hidden[b * d + i], 1e-6) << "sequence " << s;
        EXPECT_NEAR(c1[i], cell[b * d + i], 1e-6) << "sequence " << s;
      }
    }
  }
}

TEST(Lstm, ReverseEqualsForwardOnReversedSequences) {
  LstmCase rev = LstmCase::Random(4, kLevel, 51);
  rev.reverse = true;
  LstmCase fwd = rev;
  fwd.reverse = false;
  const int64_t g = 4 * rev.d, d = rev.d;
  auto flip = [&](int64_t r) {  // row r's mirror within its sequence
    size_t s = 0;
    while (kLevel[s + 1] <= static_cast<uint64_t>(r)) ++s;
    return static_cast<int64_t>(kLevel[s] + kLevel[s + 1] - 1) - r;
  };
  for (int64_t r = 0; r < rev.rows(); ++r) {
    std::copy(rev.input.begin() + flip(r) * g, rev.input.begin() + (flip(r) + 1) * g,
              fwd.input.begin() + r * g);
  }
  std::vector<float> hr, cr, hf, cf;
  ASSERT_TRUE(RunLstm(rev, &hr, &cr).ok());
  ASSERT_TRUE(RunLstm(fwd, &hf, &cf).ok());
  for (int64_t r = 0; r < rev.rows(); ++r) {
    for (int64_t k = 0; k < d; ++k) {
      EXPECT_EQ(hr[r * d + k], hf[flip(r) * d + k]) << "row " << r;
      EXPECT_EQ(cr[r * d + k], cf[flip(r) * d + k]) << "row " << r;
    }
  }
}

TEST(Lstm, EmptySequencesAndEmptyBatch) {
  ExpectMatchesReference(LstmCase::Random(3, {0, 0, 4, 4, 4, 6, 6}, 61));
  ExpectMatchesReference(LstmCase::Random(3, {0, 0, 0}, 62));
}

TEST(Lstm, ThreadCountDoesNotChangeResults) {
  // 130 sequences of D = 128: the first steps are big enough (8M+
  // multiply-adds) to be split over the pool.
  Level level{0};
  for (int s = 0; s < 130; ++s) level.push_back(level.back() + 1 + s % 3);
  LstmCase c = LstmCase::Random(128, level, 71);
  std::vector<float> h1, c1, h2, c2;
  ASSERT_TRUE(RunLstm(c, &h1, &c1, 1).ok());
  ASSERT_TRUE(RunLstm(c, &h2, &c2, 2).ok());
  EXPECT_EQ(h1, h2);
  EXPECT_EQ(c1, c2);
  ExpectMatchesReference(c);  // steps with more than 16 rows take Eigen's GEMM
}

TEST(Lstm, MalformedLodAndShapesAreClearErrors) {
  LstmCase c = LstmCase::Random(3, {0, 2, 5}, 81);
  std::vector<float> h, cl;
  const std::vector<std::pair<LoD, std::string>> bad_lods = {
      {{{1, 5}}, "LoD must start at 0"},
      {{{0, 4, 2, 5}}, "LoD offsets decrease at 2"},
      {{{0, 3}}, "LoD ends at 3 but the input has 5 rows"},
      {{{0, 1}, {0, 2, 5}}, "2 LoD levels; only one level is supported"},
  };
  for (const auto& [lod, want] : bad_lods) {
    Status s = RunLstm(c, &h, &cl, 1, lod);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find(want), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("lstm"), std::string::npos) << s.message();
  }
  OpTester t("lstm");  // no LoD at all
  t.SetInput<float>("Input", "in", {5, 12}, c.input);
  t.SetInput<float>("Weight", "w", {3, 12}, c.weight);
  t.SetInput<float>("Bias", "b", {1, 21}, c.bias);
  t.SetOutput("Hidden", "h");
  t.SetOutput("Cell", "c");
  Status s = t.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("input has no LoD"), std::string::npos) << s.message();

  LstmCase wrong_h0 = c;
  wrong_h0.h0 = RandomFloats(3 * 3, 82);  // 3 rows for 2 sequences
  wrong_h0.c0 = wrong_h0.h0;
  wrong_h0.level = {0, 1, 2, 5};
  s = RunLstm(wrong_h0, &h, &cl, 1, {{0, 2, 5}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("H0 must be [2, 3]"), std::string::npos) << s.message();

  LstmCase no_c0 = c;
  no_c0.h0 = RandomFloats(2 * 3, 83);
  s = RunLstm(no_c0, &h, &cl);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("H0 is given without C0"), std::string::npos) << s.message();

  LstmCase bad_act = c;
  bad_act.gate = "softplus";
  s = RunLstm(bad_act, &h, &cl);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("gate_activation 'softplus'"), std::string::npos) << s.message();
}

TEST(Lstm, BiasWidthMustMatchPeepholes) {
  LstmCase c = LstmCase::Random(3, {0, 2, 5}, 91);
  OpTester t("lstm");
  t.SetInput<float>("Input", "in", {5, 12}, c.input)->set_lod({c.level});
  t.SetInput<float>("Weight", "w", {3, 12}, c.weight);
  t.SetInput<float>("Bias", "b", {1, 12}, std::vector<float>(c.bias.begin(), c.bias.begin() + 12));
  t.SetOutput("Hidden", "h");
  t.SetOutput("Cell", "c");
  Status s = t.Run();  // use_peepholes defaults to true
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Bias must be [1, 21]"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace lite
