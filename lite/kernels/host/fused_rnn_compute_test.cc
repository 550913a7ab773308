// The fused rnn op against a straightforward reference written here
// (double precision, one batch row, layer and direction at a time, Paddle's
// cell equations: LSTM {i, f, c~, o}, GRU {r, u, n} with r applied after
// the hidden product, RNN_TANH / RNN_RELU), over the four modes, one and
// two layers, both directions, with and without SequenceLength (which also
// pins Paddle's WeightList order: every weight pair, then every bias pair);
// plus int64 lengths, thread-count independence and clear errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

int Gates(const std::string& mode) {
  if (mode == "LSTM") return 4;
  if (mode == "GRU") return 3;
  return 1;
}

double Sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

struct RnnCase {
  std::string mode = "LSTM";
  int layers = 1;
  bool bidi = false;
  int64_t steps = 5, batch = 3, input = 4, hidden = 6;
  std::vector<float> x, h0, c0;
  std::vector<std::vector<float>> weights;  // Paddle's WeightList order
  std::vector<DDim> weight_dims;
  std::vector<int32_t> lengths;  // empty: no SequenceLength

  int dirs() const { return bidi ? 2 : 1; }
  int64_t layer_input(int l) const { return l == 0 ? input : dirs() * hidden; }
  DDim state_dims() const { return {int64_t{layers} * dirs(), batch, hidden}; }
  size_t pair(int l, int d) const { return 2 * static_cast<size_t>(l * dirs() + d); }
  size_t bias_base() const { return weights.size() / 2; }

  static RnnCase Random(const std::string& mode, int layers, bool bidi, uint32_t seed,
                        int64_t batch = 3, int64_t hidden = 6) {
    RnnCase c;
    c.batch = batch;
    c.hidden = hidden;
    c.mode = mode;
    c.layers = layers;
    c.bidi = bidi;
    const int64_t gh = Gates(mode) * c.hidden, states = int64_t{layers} * c.dirs();
    c.x = RandomFloats(c.steps * c.batch * c.input, seed);
    c.h0 = RandomFloats(states * c.batch * c.hidden, seed + 1);
    if (mode == "LSTM") c.c0 = RandomFloats(states * c.batch * c.hidden, seed + 2);
    std::vector<std::vector<float>> biases;
    uint32_t s = seed + 3;
    for (int l = 0; l < layers; ++l) {
      for (int d = 0; d < c.dirs(); ++d) {
        c.weights.push_back(RandomFloats(gh * c.layer_input(l), s++, -0.5f, 0.5f));
        c.weights.push_back(RandomFloats(gh * c.hidden, s++, -0.5f, 0.5f));
        c.weight_dims.push_back({gh, c.layer_input(l)});
        c.weight_dims.push_back({gh, c.hidden});
        biases.push_back(RandomFloats(gh, s++, -0.5f, 0.5f));
        biases.push_back(RandomFloats(gh, s++, -0.5f, 0.5f));
      }
    }
    c.weights.insert(c.weights.end(), biases.begin(), biases.end());
    c.weight_dims.resize(c.weights.size(), DDim{gh});
    return c;
  }
};

struct RnnResult {
  std::vector<float> out, last_h, last_c;
};

// Runs the op; `lengths64` binds SequenceLength as int64 instead.
Status RunRnn(const RnnCase& c, RnnResult* r, int threads = 1, bool lengths64 = false) {
  OpTester t("rnn");
  t.set_threads(threads);
  t.SetInput<float>("Input", "x", {c.steps, c.batch, c.input}, c.x);
  t.SetInput<float>("PreState", "h0", c.state_dims(), c.h0);
  if (!c.c0.empty()) t.SetInput<float>("PreState", "c0", c.state_dims(), c.c0);
  for (size_t i = 0; i < c.weights.size(); ++i) {
    t.SetInput<float>("WeightList", "w" + std::to_string(i), c.weight_dims[i], c.weights[i]);
  }
  if (!c.lengths.empty()) {
    if (lengths64) {
      t.SetInput<int64_t>("SequenceLength", "len", {c.batch},
                          std::vector<int64_t>(c.lengths.begin(), c.lengths.end()));
    } else {
      t.SetInput<int32_t>("SequenceLength", "len", {c.batch}, c.lengths);
    }
  }
  t.SetOutput("Out", "out");
  t.SetOutput("State", "last_h");
  if (!c.c0.empty()) t.SetOutput("State", "last_c");
  t.SetOutput("Reserve", "reserve");
  t.SetOutput("DropoutState", "dropout_state");
  t.SetAttr("mode", c.mode);
  t.SetAttr("num_layers", static_cast<int32_t>(c.layers));
  t.SetAttr("is_bidirec", c.bidi);
  t.SetAttr("hidden_size", static_cast<int32_t>(c.hidden));
  t.SetAttr("input_size", static_cast<int32_t>(c.input));
  t.SetAttr("dropout_prob", 0.5f);  // training only: not applied
  t.SetAttr("is_test", true);
  RETURN_IF_ERROR(t.Run());
  EXPECT_EQ(t.Get("out").dims(), DDim({c.steps, c.batch, c.dirs() * c.hidden}));
  EXPECT_EQ(t.Get("last_h").dims(), c.state_dims());
  EXPECT_EQ(t.Get("reserve").dims(), DDim({0}));
  EXPECT_EQ(t.Get("dropout_state").dims(), DDim({0}));
  r->out = t.GetData<float>("out");
  r->last_h = t.GetData<float>("last_h");
  if (!c.c0.empty()) r->last_c = t.GetData<float>("last_c");
  return Status::OK();
}

struct RefResult {
  std::vector<double> out, last_h, last_c;
};

// One batch row, one layer and direction at a time, from the equations.
RefResult Reference(const RnnCase& c) {
  const int64_t hs = c.hidden, n_rows = c.batch, steps = c.steps, g_count = Gates(c.mode);
  const int dirs = c.dirs();
  std::vector<double> layer_in(c.x.begin(), c.x.end());
  RefResult r;
  r.last_h.assign(c.h0.size(), 0);
  r.last_c.assign(c.c0.size(), 0);
  for (int l = 0; l < c.layers; ++l) {
    const int64_t in = c.layer_input(l);
    std::vector<double> y(steps * n_rows * dirs * hs, 0);
    for (int d = 0; d < dirs; ++d) {
      const std::vector<float>& w_ih = c.weights[c.pair(l, d)];
      const std::vector<float>& w_hh = c.weights[c.pair(l, d) + 1];
      const std::vector<float>& b_ih = c.weights[c.bias_base() + c.pair(l, d)];
      const std::vector<float>& b_hh = c.weights[c.bias_base() + c.pair(l, d) + 1];
      const int64_t state = (int64_t{l} * dirs + d) * n_rows * hs;
      for (int64_t n = 0; n < n_rows; ++n) {
        std::vector<double> h(c.h0.begin() + state + n * hs, c.h0.begin() + state + (n + 1) * hs);
        std::vector<double> cell(hs, 0);
        if (!c.c0.empty()) {
          cell.assign(c.c0.begin() + state + n * hs, c.c0.begin() + state + (n + 1) * hs);
        }
        const int64_t len = c.lengths.empty() ? steps : c.lengths[n];
        for (int64_t s = 0; s < steps; ++s) {
          const int64_t t = d == 1 ? steps - 1 - s : s;
          if (t >= len) continue;  // state kept, output stays zero
          // xg = x w_ih^T + b_ih and hg = h w_hh^T + b_hh, per gate row.
          std::vector<double> xg(g_count * hs), hg(g_count * hs);
          for (int64_t g = 0; g < g_count * hs; ++g) {
            xg[g] = b_ih[g];
            for (int64_t k = 0; k < in; ++k) {
              xg[g] += layer_in[(t * n_rows + n) * in + k] * w_ih[g * in + k];
            }
            hg[g] = b_hh[g];
            for (int64_t k = 0; k < hs; ++k) hg[g] += h[k] * w_hh[g * hs + k];
          }
          std::vector<double> next(hs);
          for (int64_t k = 0; k < hs; ++k) {
            auto z = [&](int gate) { return xg[gate * hs + k] + hg[gate * hs + k]; };
            if (c.mode == "LSTM") {
              const double i = Sigmoid(z(0)), f = Sigmoid(z(1)), cand = std::tanh(z(2));
              const double o = Sigmoid(z(3));
              cell[k] = f * cell[k] + i * cand;
              next[k] = o * std::tanh(cell[k]);
            } else if (c.mode == "GRU") {
              const double reset = Sigmoid(z(0)), update = Sigmoid(z(1));
              const double cand = std::tanh(xg[2 * hs + k] + reset * hg[2 * hs + k]);
              next[k] = (1 - update) * cand + update * h[k];
            } else if (c.mode == "RNN_TANH") {
              next[k] = std::tanh(z(0));
            } else {
              next[k] = std::max(0.0, z(0));
            }
          }
          h = next;
          for (int64_t k = 0; k < hs; ++k) y[((t * n_rows + n) * dirs + d) * hs + k] = h[k];
        }
        for (int64_t k = 0; k < hs; ++k) {
          r.last_h[state + n * hs + k] = h[k];
          if (!c.c0.empty()) r.last_c[state + n * hs + k] = cell[k];
        }
      }
    }
    layer_in = y;
  }
  r.out = layer_in;
  return r;
}

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], 2e-5 * std::max(1.0, std::fabs(want[i])))
        << what << " element " << i;
  }
}

void ExpectMatchesReference(const RnnCase& c) {
  RnnResult r;
  Status s = RunRnn(c, &r);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const RefResult ref = Reference(c);
  ExpectNear(r.out, ref.out, "Out");
  ExpectNear(r.last_h, ref.last_h, "State h");
  ExpectNear(r.last_c, ref.last_c, "State c");
}

// Random cases over every mode, one and two layers and both direction
// settings (each with its own seed from `seed`, `batch` rows), to `check`.
template <typename Check>
void ForEveryShape(uint32_t seed, int64_t batch, Check check) {
  for (const char* mode : {"LSTM", "GRU", "RNN_TANH", "RNN_RELU"}) {
    for (int layers : {1, 2}) {
      for (bool bidi : {false, true}) {
        SCOPED_TRACE(std::string(mode) + " layers " + std::to_string(layers) +
                     (bidi ? " bidirectional" : ""));
        check(RnnCase::Random(mode, layers, bidi, seed += 10, batch));
      }
    }
  }
}

TEST(FusedRnn, EveryModeLayerCountAndDirectionMatchesReference) {
  ForEveryShape(100, 3, [](const RnnCase& c) { ExpectMatchesReference(c); });
}

TEST(FusedRnn, SequenceLengthKeepsStateAndZeroesOutput) {
  ForEveryShape(300, 4, [](RnnCase c) {
    c.lengths = {5, 2, 0, 4};
    ExpectMatchesReference(c);
    // Masked rows are exactly zero, and a zero-length row keeps h0.
    RnnResult r;
    ASSERT_TRUE(RunRnn(c, &r).ok());
    const int64_t width = c.dirs() * c.hidden;
    for (int64_t t = 2; t < c.steps; ++t) {
      for (int64_t k = 0; k < width; ++k) {
        ASSERT_EQ(r.out[(t * c.batch + 1) * width + k], 0.f) << "t " << t;
      }
    }
    for (int64_t k = 0; k < c.hidden; ++k) {
      ASSERT_EQ(r.last_h[2 * c.hidden + k], c.h0[2 * c.hidden + k]);
    }
  });
}

TEST(FusedRnn, FullLengthsEqualNoSequenceLengthAndInt64Works) {
  RnnCase c = RnnCase::Random("GRU", 2, true, 500);
  RnnResult plain, full, full64;
  ASSERT_TRUE(RunRnn(c, &plain).ok());
  c.lengths.assign(c.batch, static_cast<int32_t>(c.steps));
  ASSERT_TRUE(RunRnn(c, &full).ok());
  EXPECT_EQ(plain.out, full.out);
  EXPECT_EQ(plain.last_h, full.last_h);
  c.lengths = {3, 5, 1};
  ASSERT_TRUE(RunRnn(c, &full).ok());
  ASSERT_TRUE(RunRnn(c, &full64, 1, true).ok());
  EXPECT_EQ(full.out, full64.out);
  EXPECT_NE(plain.out, full.out);
}

TEST(FusedRnn, NoTimeStepsLeaveTheInitialState) {
  RnnCase c = RnnCase::Random("LSTM", 2, true, 650);
  c.steps = 0;
  c.x.clear();
  RnnResult r;
  Status s = RunRnn(c, &r);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(r.last_h, c.h0);
  EXPECT_EQ(r.last_c, c.c0);
}

TEST(FusedRnn, ThreadCountDoesNotChangeResults) {
  RnnCase c = RnnCase::Random("LSTM", 2, true, 700, 20, 40);
  RnnResult one, four;
  ASSERT_TRUE(RunRnn(c, &one, 1).ok());
  ASSERT_TRUE(RunRnn(c, &four, 4).ok());
  EXPECT_EQ(one.out, four.out);
  EXPECT_EQ(one.last_h, four.last_h);
  EXPECT_EQ(one.last_c, four.last_c);
}

void ExpectError(const RnnCase& c, const std::string& needle) {
  RnnResult r;
  Status s = RunRnn(c, &r);
  ASSERT_FALSE(s.ok()) << needle;
  EXPECT_NE(s.ToString().find(needle), std::string::npos) << s.ToString();
}

TEST(FusedRnn, MalformedInputsAreClearErrors) {
  const RnnCase good = RnnCase::Random("LSTM", 2, false, 800);
  RnnCase c = good;
  c.weights.pop_back();
  c.weight_dims.pop_back();
  ExpectError(c, "= 8 tensors");
  c = good;
  c.c0.clear();  // LSTM needs h0 and c0
  ExpectError(c, "PreState must hold 2");
  c = good;
  c.mode = "GRU";  // weights are LSTM-sized
  c.c0.clear();
  ExpectError(c, "w_ih of layer 0 direction 0 must be [18, 4]");
  c = good;
  c.mode = "SRU";
  ExpectError(c, "attribute mode 'SRU'");
  c = good;
  c.lengths = {5, 6, 1};
  ExpectError(c, "SequenceLength[1] = 6 is outside [0, 5]");
  c = good;
  c.lengths = {5, -1, 1};
  ExpectError(c, "SequenceLength[1] = -1");
}

TEST(FusedRnn, AnOutputAliasingAnInputIsRefused) {
  RnnCase c = RnnCase::Random("GRU", 1, false, 900);
  OpTester t("rnn");
  t.SetInput<float>("Input", "x", {c.steps, c.batch, c.input}, c.x);
  t.SetInput<float>("PreState", "h0", c.state_dims(), c.h0);
  for (size_t i = 0; i < c.weights.size(); ++i) {
    t.SetInput<float>("WeightList", "w" + std::to_string(i), c.weight_dims[i], c.weights[i]);
  }
  t.SetOutput("Out", "x");
  t.SetOutput("State", "last_h");
  t.SetAttr("mode", c.mode);
  t.SetAttr("hidden_size", static_cast<int32_t>(c.hidden));
  t.SetAttr("input_size", static_cast<int32_t>(c.input));
  Status s = t.Run();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.ToString().find("var 'x' is both an input and an output"), std::string::npos)
      << s.ToString();
}

}  // namespace
}  // namespace lite
