// x86 pow / square / rsqrt, reduce_{sum,mean,max,min}, pixel_shuffle /
// pixel_unshuffle, split and simple_gate (the NHWC kernels a NAFNet-style restoration
// model needs) against the host kernels, rank-4 activations in NHWC.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

TEST(X86Pow, FactorsMatchHost) {
  for (float factor : {2.f, 0.5f, -0.5f, 1.f, 3.f, -1.f, 1.7f}) {
    auto setup = [factor](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 19, 5, 7}, RandomFloats(2 * 19 * 35, 3, 0.1f, 4.f));
      t->SetOutput("Out", "out");
      t->SetAttr("factor", factor);
    };
    ExpectX86MatchesHost("pow", setup, {"out"}, "factor " + std::to_string(factor), 1e-6f);
  }
  for (const char* op : {"square", "rsqrt"}) {
    auto setup = [](OpTester* t) {
      t->SetInput<float>("X", "x", {1, 16, 6, 9}, RandomFloats(16 * 54, 4, 0.1f, 4.f));
      t->SetOutput("Out", "out");
    };
    ExpectX86MatchesHost(op, setup, {"out"}, op, 1e-6f);
  }
}

TEST(X86Reduce, DimListsMatchHost) {
  const std::vector<std::vector<int32_t>> dim_lists = {{1}, {-3}, {2, 3}, {0}, {1, 3}, {3}, {}};
  for (const char* op : {"reduce_mean", "reduce_sum", "reduce_max", "reduce_min"}) {
    for (const auto& dims : dim_lists) {
      for (bool keep : {true, false}) {
        auto setup = [&](OpTester* t) {
          t->SetInput<float>("X", "x", {2, 37, 5, 6}, RandomFloats(2 * 37 * 30, 5, -3.f, 3.f));
          t->SetOutput("Out", "out");
          t->SetAttr("dim", dims);
          t->SetAttr("keep_dim", keep);
          t->SetAttr("reduce_all", dims.empty());
        };
        std::string what = std::string(op) + " dims";
        for (int d : dims) what += " " + std::to_string(d);
        ExpectX86MatchesHost(op, setup, {"out"}, what + (keep ? " keep" : ""), 1e-5f);
      }
    }
  }
  // Rank 3 (row-major on both targets).
  auto rank3 = [](OpTester* t) {
    t->SetInput<float>("X", "x", {4, 33, 10}, RandomFloats(4 * 330, 6));
    t->SetOutput("Out", "out");
    t->SetAttr("dim", std::vector<int32_t>{1});
    t->SetAttr("keep_dim", false);
  };
  ExpectX86MatchesHost("reduce_mean", rank3, {"out"}, "rank 3 dim 1", 1e-5f);
}

TEST(X86PixelShuffle, ShuffleAndUnshuffleMatchHost) {
  for (int r : {2, 3}) {
    auto shuffle = [r](OpTester* t) {
      const int64_t c = 5 * r * r;
      t->SetInput<float>("X", "x", {2, c, 4, 3}, RandomFloats(2 * c * 12, 7));
      t->SetOutput("Out", "out");
      t->SetAttr("upscale_factor", r);
    };
    ExpectX86MatchesHost("pixel_shuffle", shuffle, {"out"}, "r " + std::to_string(r), 0.f);
    auto unshuffle = [r](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 5, 4 * r, 3 * r}, RandomFloats(2 * 5 * 12 * r * r, 8));
      t->SetOutput("Out", "out");
      t->SetAttr("downscale_factor", r);
    };
    ExpectX86MatchesHost("pixel_unshuffle", unshuffle, {"out"}, "r " + std::to_string(r), 0.f);
  }
}

TEST(X86Split, AxesAndSectionsMatchHost) {
  for (int axis : {1, 0, 2, 3, -3}) {
    auto halves = [axis](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 6, 4, 8}, RandomFloats(2 * 6 * 32, 9));
      for (const char* o : {"a", "b"}) t->SetOutput("Out", o);
      t->SetAttr("axis", axis);
      t->SetAttr("num", 2);
    };
    ExpectX86MatchesHost("split", halves, {"a", "b"}, "num 2 axis " + std::to_string(axis), 0.f);
  }
  auto sections = [](OpTester* t) {
    t->SetInput<float>("X", "x", {1, 9, 3, 5}, RandomFloats(9 * 15, 10));
    for (const char* o : {"a", "b", "c"}) t->SetOutput("Out", o);
    t->SetAttr("axis", 1);
    t->SetAttr("sections", std::vector<int32_t>{2, -1, 4});
  };
  ExpectX86MatchesHost("split", sections, {"a", "b", "c"}, "sections 2,-1,4", 0.f);
}

TEST(X86SimpleGate, AxesMatchHost) {
  for (int axis : {1, -3, 0, 2, 3}) {
    auto gate = [axis](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 10, 4, 6}, RandomFloats(2 * 10 * 24, 11, -2.f, 2.f));
      t->SetOutput("Out", "out");
      t->SetAttr("axis", axis);
    };
    ExpectX86MatchesHost("simple_gate", gate, {"out"}, "axis " + std::to_string(axis), 0.f);
  }
  auto rank3 = [](OpTester* t) {
    t->SetInput<float>("X", "x", {3, 8, 5}, RandomFloats(120, 12, -2.f, 2.f));
    t->SetOutput("Out", "out");
    t->SetAttr("axis", 1);
  };
  ExpectX86MatchesHost("simple_gate", rank3, {"out"}, "rank 3 axis 1", 0.f);
}

}  // namespace
}  // namespace lite
