// WeightCache (bridge.h): a weight read again through the cache (the
// subgraph kernel's next input size) shares the first read's bytes; another
// tensor under the same var name (another predictor's weights) or the same
// tensor reallocated at another size is read anew, never served stale.
#include <cstring>

#include <gtest/gtest.h>

#include "lite/kernels/npu/bridges/bridge.h"

namespace lite {
namespace npu {
namespace {

void Fill(Tensor* t, const DDim& dims, float first) {
  t->Resize(dims);
  float* p = t->mutable_data<float>();
  for (int64_t i = 0; i < t->numel(); ++i) p[i] = first + static_cast<float>(i);
}

bool Holds(const SharedBytes& b, const Tensor& t) {
  return b.size() == t.memory_size() && std::memcmp(b.data(), t.raw_data(), b.size()) == 0;
}

TEST(WeightCache, SameTensorSharedOtherTensorReadAnew) {
  Tensor a, b;
  Fill(&a, {4, 3}, 1.f);
  Fill(&b, {4, 3}, 100.f);
  WeightCache cache;
  const SharedBytes first = cache.Get("w", a);
  EXPECT_TRUE(Holds(first, a));
  EXPECT_TRUE(cache.Get("w", a).SameBuffer(first));
  const SharedBytes other = cache.Get("w", b);
  EXPECT_TRUE(Holds(other, b));
  EXPECT_FALSE(other.SameBuffer(first));
  Fill(&a, {5, 3}, 7.f);  // another size: another buffer and byte count
  EXPECT_TRUE(Holds(cache.Get("w", a), a));
  // The first read's bytes are its own copy: still a's first values.
  EXPECT_EQ(reinterpret_cast<const float*>(first.data())[11], 12.f);
}

}  // namespace
}  // namespace npu
}  // namespace lite
