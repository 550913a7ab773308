// arm matmul / matmul_v2 (the portable GEMM, one call per batch) against
// the host kernel (which folds contiguous batches into one GEMM): the
// two attention products of PP-OCRv4 rec (q k^T with a transposed Y, then
// the weights times v), a shared operand broadcast over batches, a
// transposed X, 1-D X, both loop orders (N >= K and K > N), matmul's
// alpha, a fused relu; and what the kernel declines at kernel pick (the
// int8 form).
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

using arm_test::ExpectArmMatchesHost;

void ExpectMatMul(const std::string& op, const DDim& xd, const DDim& yd, bool tx, bool ty,
                  float alpha = 1.f, const std::string& act = "") {
  const bool v1 = op == "matmul";
  auto setup = [=](OpTester* t) {
    t->SetInput<float>("X", "x", xd, RandomFloats(Product(xd), 21));
    t->SetInput<float>("Y", "y", yd, RandomFloats(Product(yd), 22));
    t->SetOutput("Out", "out");
    t->SetAttr(v1 ? "transpose_X" : "trans_x", tx);
    t->SetAttr(v1 ? "transpose_Y" : "trans_y", ty);
    if (v1) t->SetAttr("alpha", alpha);
    if (!act.empty()) t->SetAttr("fuse_activation", act);
  };
  ExpectArmMatchesHost(op, setup, {"out"},
                       op + " " + DimsToString(xd) + " x " + DimsToString(yd) +
                           (tx ? " tx" : "") + (ty ? " ty" : "") + " " + act,
                       1e-4f, 1, 2);
}

TEST(ArmMatMul, AttentionProductsMatchHost) {
  ExpectMatMul("matmul_v2", {1, 8, 19, 15}, {1, 8, 19, 15}, false, true);  // q k^T
  ExpectMatMul("matmul_v2", {1, 8, 19, 19}, {1, 8, 19, 15}, false, false);  // attn v
}

TEST(ArmMatMul, BroadcastTransposeAndVectorMatchHost) {
  ExpectMatMul("matmul_v2", {2, 3, 5, 4}, {4, 6}, false, false);
  ExpectMatMul("matmul_v2", {3, 4}, {2, 2, 5, 4}, false, true);
  ExpectMatMul("matmul_v2", {2, 4, 3}, {4, 5}, true, false);
  ExpectMatMul("matmul_v2", {4}, {4, 5}, false, false);
  // K > N (dot products over K) with both operands stored transposed.
  ExpectMatMul("matmul_v2", {2, 9, 3}, {2, 4, 9}, true, true);
}

TEST(ArmMatMul, AlphaAndFusedReluMatchHost) {
  ExpectMatMul("matmul", {2, 4, 3}, {2, 5, 4}, true, true, -1.5f);
  ExpectMatMul("matmul", {2, 3, 4}, {2, 4, 5}, false, false, 0.5f, "relu");
}

TEST(ArmMatMul, DeclinesInt8Form) {
  const KernelDef* def = arm_test::ArmKernelDef("matmul_v2");
  ASSERT_NE(def, nullptr);
  cpp::OpDesc desc("matmul_v2");
  desc.SetInput("X", {"x"});
  desc.SetInput("Y", {"y"});
  auto none = [](const std::string&) { return std::vector<int64_t>(); };
  EXPECT_TRUE(def->Accepts(desc, none));
  desc.SetAttr("enable_int8", true);
  EXPECT_FALSE(def->Accepts(desc, none));
}

}  // namespace
}  // namespace lite
