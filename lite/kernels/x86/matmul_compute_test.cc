// x86 float matmul / matmul_v2 (oneDNN's matmul) against the host kernel:
// batched products whose operands step evenly (one batched primitive, a
// broadcast operand included), uneven batch offsets (one primitive per
// batch), transposes, alpha and 1-D operands.
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

using x86_test::ExpectX86MatchesHost;

struct Case {
  std::string op;
  std::vector<int64_t> x, y;
  bool tx, ty;
  float alpha;
};

TEST(X86MatMul, MatchesHost) {
  const std::vector<Case> cases = {
      // PP-OCRv4 rec's attention: q k^T and the weights times v, 8 heads
      {"matmul_v2", {1, 8, 25, 32}, {1, 8, 25, 32}, false, true, 1.f},
      {"matmul_v2", {1, 8, 25, 25}, {1, 8, 25, 32}, false, false, 1.f},
      {"matmul_v2", {2, 3, 5, 4}, {4, 6}, false, false, 1.f},       // Y shared
      {"matmul_v2", {3, 4}, {2, 2, 5, 4}, false, true, 1.f},        // X shared
      {"matmul_v2", {2, 4, 3}, {4, 5}, true, false, 1.f},
      {"matmul_v2", {2, 1, 4, 3}, {1, 3, 5, 4}, true, true, 1.f},   // uneven offsets
      {"matmul_v2", {7, 9}, {9, 5}, false, false, 1.f},
      {"matmul_v2", {4}, {4, 5}, false, false, 1.f},
      {"matmul", {2, 3, 4}, {2, 4, 5}, false, false, 0.5f},
      {"matmul", {2, 4, 3}, {2, 5, 4}, true, true, -1.5f},
  };
  for (const Case& c : cases) {
    auto setup = [&c](OpTester* t) {
      t->SetInput<float>("X", "x", c.x, RandomFloats(Product(DDim(c.x)), 3));
      t->SetInput<float>("Y", "y", c.y, RandomFloats(Product(DDim(c.y)), 4));
      t->SetOutput("Out", "out");
      t->SetAttr(c.op == "matmul" ? "transpose_X" : "trans_x", c.tx);
      t->SetAttr(c.op == "matmul" ? "transpose_Y" : "trans_y", c.ty);
      if (c.op == "matmul") t->SetAttr("alpha", c.alpha);
    };
    const std::string what = c.op + " x=" + DimsToString(DDim(c.x)) + " y=" +
                             DimsToString(DDim(c.y)) + " tx=" + std::to_string(c.tx) +
                             " ty=" + std::to_string(c.ty);
    for (int threads : {1, 2}) {
      ExpectX86MatchesHost(c.op, setup, {"out"}, what, 1e-4f, threads, 2, [&](OpTester* t) {
        EXPECT_EQ(t->kernel()->def().place.target, TargetType::kX86) << what;
      });
    }
  }
}

}  // namespace
}  // namespace lite
