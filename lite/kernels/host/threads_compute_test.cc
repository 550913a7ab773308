// Multi-threaded host kernels: conv2d (im2col, 1x1, groups), depthwise,
// conv2d_transpose, pool2d, elementwise and interpolate run at threads 1 and
// 2 on shapes large enough to be split, and the outputs must be bitwise equal.
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

int64_t Numel(const DDim& d) {
  int64_t n = 1;
  for (int64_t v : d) n *= v;
  return n;
}

// Builds the op with `setup`, runs it twice at `threads`, returns the output.
template <typename T = float>
std::vector<T> RunAt(const std::string& op, int threads,
                     const std::function<void(OpTester*)>& setup,
                     const std::string& out = "out") {
  OpTester t(op);
  t.set_threads(threads);
  setup(&t);
  Status s = t.Run();
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = t.Run();  // reuses the kernel's per-thread scratch
  EXPECT_TRUE(s.ok()) << s.ToString();
  return t.GetData<T>(out);
}

template <typename T = float>
void ExpectSameAcrossThreads(const std::string& op,
                             const std::function<void(OpTester*)>& setup,
                             const std::string& what) {
  SCOPED_TRACE(op + " " + what);
  const std::vector<T> one = RunAt<T>(op, 1, setup);
  const std::vector<T> two = RunAt<T>(op, 2, setup);
  ASSERT_EQ(one.size(), two.size());
  ASSERT_FALSE(one.empty());
  EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(T)), 0);
}

struct Conv {
  int n, c, h, w, cout, k, stride, pad, groups;
  bool bias_act;
};

std::function<void(OpTester*)> ConvSetup(const Conv& k, bool transpose) {
  return [k, transpose](OpTester* t) {
    t->SetInput<float>("Input", "x", {k.n, k.c, k.h, k.w},
                       RandomFloats(int64_t{k.n} * k.c * k.h * k.w, 1));
    const DDim fd = transpose ? DDim{k.c, k.cout / k.groups, k.k, k.k}
                              : DDim{k.cout, k.c / k.groups, k.k, k.k};
    t->SetInput<float>("Filter", "f", fd, RandomFloats(Numel(fd), 2));
    if (k.bias_act) {
      t->SetInput<float>("Bias", "b", {k.cout}, RandomFloats(k.cout, 3));
      t->SetAttr("fuse_activation", std::string("relu"));
    }
    t->SetOutput("Output", "out");
    t->SetAttr("strides", std::vector<int>{k.stride, k.stride});
    t->SetAttr("paddings", std::vector<int>{k.pad, k.pad});
    t->SetAttr("dilations", std::vector<int>{1, 1});
    t->SetAttr("groups", k.groups);
  };
}

TEST(Threads, Conv2dIsBitwiseEqual) {
  const Conv cases[] = {
      {1, 16, 64, 64, 24, 3, 1, 1, 1, true},   // im2col, several row blocks
      {2, 16, 33, 31, 20, 3, 2, 1, 2, false},  // batch 2, groups 2, stride 2
      {1, 32, 96, 96, 40, 1, 1, 0, 1, true},   // direct 1x1, 3 pixel blocks
      {1, 8, 20, 20, 8, 5, 1, 2, 1, false},    // one block per image
  };
  for (const Conv& k : cases) {
    ExpectSameAcrossThreads("conv2d", ConvSetup(k, false),
                            "c=" + std::to_string(k.c) + " k=" + std::to_string(k.k));
  }
}

TEST(Threads, DepthwiseIsBitwiseEqual) {
  const Conv cases[] = {
      {1, 32, 48, 48, 32, 3, 1, 1, 32, true},
      {2, 24, 40, 40, 24, 5, 2, 2, 24, false},
      {1, 33, 30, 30, 33, 7, 2, 3, 33, true},  // generic (non-specialised) taps
  };
  for (const Conv& k : cases) {
    ExpectSameAcrossThreads("depthwise_conv2d", ConvSetup(k, false),
                            "c=" + std::to_string(k.c) + " k=" + std::to_string(k.k));
  }
}

TEST(Threads, Conv2dTransposeIsBitwiseEqual) {
  const Conv cases[] = {
      {1, 64, 40, 40, 32, 2, 2, 0, 1, true},   // tiled (stride == kernel)
      {2, 16, 20, 20, 12, 3, 2, 1, 2, false},  // col2im, groups 2
  };
  for (const Conv& k : cases) {
    ExpectSameAcrossThreads("conv2d_transpose", ConvSetup(k, true),
                            "c=" + std::to_string(k.c) + " k=" + std::to_string(k.k));
  }
}

TEST(Threads, Pool2dIsBitwiseEqual) {
  for (const char* type : {"max", "avg"}) {
    ExpectSameAcrossThreads("pool2d", [type](OpTester* t) {
      t->SetInput<float>("X", "x", {2, 16, 41, 40}, RandomFloats(2 * 16 * 41 * 40, 4));
      t->SetOutput("Out", "out");
      t->SetAttr("pooling_type", std::string(type));
      t->SetAttr("ksize", std::vector<int>{3, 3});
      t->SetAttr("strides", std::vector<int>{2, 2});
      t->SetAttr("paddings", std::vector<int>{1, 1});
      t->SetAttr("exclusive", false);
    }, type);
  }
  ExpectSameAcrossThreads("pool2d", [](OpTester* t) {
    t->SetInput<float>("X", "x", {1, 96, 28, 28}, RandomFloats(96 * 28 * 28, 5));
    t->SetOutput("Out", "out");
    t->SetAttr("pooling_type", std::string("avg"));
    t->SetAttr("ksize", std::vector<int>{1, 1});
    t->SetAttr("global_pooling", true);
  }, "global avg");
}

TEST(Threads, ElementwiseIsBitwiseEqual) {
  struct Case {
    DDim x, y;
    int axis;
  };
  const Case cases[] = {
      {{1, 16, 80, 80}, {1, 16, 80, 80}, -1},  // same shape
      {{1, 16, 80, 80}, {1, 16, 1, 1}, -1},    // per channel
      {{2, 16, 60, 60}, {60, 60}, -1},         // repeats along the outer dims
      {{1, 1, 300, 300}, {300, 1}, -1},        // split along H, y sliced
      {{1, 16, 1, 80}, {1, 16, 80, 1}, -1},    // both broadcast (general case)
  };
  for (const char* op : {"elementwise_add", "elementwise_mul", "elementwise_div"}) {
    for (const Case& c : cases) {
      ExpectSameAcrossThreads(op, [&c](OpTester* t) {
        t->SetInput<float>("X", "x", c.x, RandomFloats(Numel(c.x), 6));
        t->SetInput<float>("Y", "y", c.y, RandomFloats(Numel(c.y), 7));
        t->SetOutput("Out", "out");
        t->SetAttr("axis", c.axis);
        t->SetAttr("fuse_activation", std::string("relu"));
      }, std::to_string(Numel(c.x)) + " x " + std::to_string(Numel(c.y)));
    }
  }
  ExpectSameAcrossThreads<int32_t>("elementwise_sub", [](OpTester* t) {
    std::vector<int32_t> x(1 * 8 * 120 * 120), y(8);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int32_t>(i * 7 % 1000);
    for (size_t i = 0; i < y.size(); ++i) y[i] = static_cast<int32_t>(i);
    t->SetInput<int32_t>("X", "x", {1, 8, 120, 120}, x);
    t->SetInput<int32_t>("Y", "y", {8}, y);
    t->SetOutput("Out", "out");
    t->SetAttr("axis", 1);
  }, "int32 per channel");
}

TEST(Threads, InterpolateIsBitwiseEqual) {
  for (const char* op : {"bilinear_interp_v2", "nearest_interp_v2"}) {
    ExpectSameAcrossThreads(op, [op](OpTester* t) {
      t->SetInput<float>("X", "x", {1, 16, 40, 40}, RandomFloats(16 * 40 * 40, 8));
      t->SetOutput("Out", "out");
      t->SetAttr("interp_method",
                 std::string(op) == "nearest_interp_v2" ? "nearest" : "bilinear");
      t->SetAttr("align_corners", false);
      t->SetAttr("out_h", 80);
      t->SetAttr("out_w", 80);
    }, op);
  }
}

}  // namespace
}  // namespace lite
