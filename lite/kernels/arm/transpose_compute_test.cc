// arm transpose / transpose2 (strided copy) against the host kernel, bit
// for bit: SVTR's attention perms (rank 5 qkv split [2, 0, 3, 1, 4], the
// heads merged back with [0, 2, 1, 3], the conv output flattened to tokens
// with [0, 2, 1]), a full reversal, and an identity perm (one memcpy).
#include <string>
#include <vector>

#include "lite/kernels/arm/arm_test_util.h"

namespace lite {
namespace {

void ExpectTranspose(const char* op, const DDim& d, const std::vector<int>& perm) {
  auto setup = [=](OpTester* t) {
    t->SetInput<float>("X", "x", d, RandomFloats(Product(d), 31, -4.f, 4.f));
    t->SetOutput("Out", "out");
    if (std::string(op) == "transpose2") t->SetOutput("XShape", "xshape");
    t->SetAttr("axis", perm);
  };
  std::string p;
  for (int a : perm) p += std::to_string(a);
  arm_test::ExpectArmMatchesHost(op, setup, {"out"},
                                 std::string(op) + " " + DimsToString(d) + " perm " + p, 0.f);
}

TEST(ArmTranspose, AttentionPermsMatchHost) {
  ExpectTranspose("transpose2", {1, 7, 3, 4, 6}, {2, 0, 3, 1, 4});
  ExpectTranspose("transpose2", {1, 4, 7, 6}, {0, 2, 1, 3});
  ExpectTranspose("transpose2", {1, 24, 7}, {0, 2, 1});
}

TEST(ArmTranspose, ReversalAndIdentityMatchHost) {
  ExpectTranspose("transpose", {2, 3, 5, 7}, {3, 2, 1, 0});
  ExpectTranspose("transpose", {3, 9}, {0, 1});
}

}  // namespace
}  // namespace lite
