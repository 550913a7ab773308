// x86 transpose2 (an NHWC X read in place, Out written row-major) against
// the host kernel on random data: a detection head's [0, 2, 3, 1], every
// other kind of rank-4 perm, and rank 3 and 5 tensors (row-major in and out).
#include <string>
#include <vector>

#include "lite/kernels/x86/x86_test_util.h"

namespace lite {
namespace {

TEST(X86Transpose, PermsMatchHost) {
  const std::vector<std::pair<DDim, std::vector<int>>> cases = {
      {{2, 12, 5, 7}, {0, 2, 3, 1}}, {{2, 5, 3, 4}, {0, 3, 1, 2}}, {{3, 5, 2, 4}, {1, 0, 2, 3}},
      {{2, 3, 5, 7}, {3, 2, 1, 0}},  {{3, 4, 5}, {2, 0, 1}},       {{2, 3, 1, 4, 5}, {0, 3, 4, 1, 2}},
  };
  for (const char* op : {"transpose2", "transpose"}) {
    for (const auto& c : cases) {
      auto setup = [&c, op](OpTester* t) {
        t->SetInput<float>("X", "x", c.first, RandomFloats(Product(c.first), 16, -3.f, 3.f));
        t->SetOutput("Out", "out");
        if (std::string(op) == "transpose2") t->SetOutput("XShape", "xshape");
        t->SetAttr("axis", c.second);
      };
      x86_test::ExpectX86MatchesHost(op, setup, {"out"},
                                     std::string(op) + " " + DimsToString(c.first) + " perm " +
                                         std::to_string(c.second[0]) + std::to_string(c.second[1]),
                                     0.f);
    }
  }
}

}  // namespace
}  // namespace lite
