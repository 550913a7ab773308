// PointwiseInt8 against a plain scalar reference computed here: int32 sums
// over the input channels, then the documented epilogue (int8_epilogue.h:
// fma(sum, scale, bias), FusedActivation::Apply, and for levels output
// x * factor, clip, round to nearest even). Shapes: det's 8 -> 8 (pair
// mode, as 4 -> 3, 24 -> 5 and 32 -> 8 with odd pixel counts), 8 -> 32,
// 16 -> 40 and 16 -> 96, ic 1 / 5 / 13 / 24 / 96 (partial last quads), ic
// 37 / 88 / 96 (the input broadcast inside the vpdpbusd from 32 on, 37 with
// a partial quad), oc 1 / 3 / 16 / 17 / 20 / 40 / 70 / 130 (every tile width,
// channel tails, several panels), pixel counts leaving partial tiles; s8 /
// u8 input (the whole byte range); float / s8 /
// u8 output; every supported activation; both rounding types; with and
// without bias; with and without a residual (added before the activation),
// one per output pixel or one per 3 (residual_repeat);
// 1 and 2 threads (bit-identical); nothing written past the output and
// nothing read past the input or the residual (each ends where an
// inaccessible page begins). Levels must be equal; floats within 1e-5 of the largest |output|.
#include "lite/backends/x86/pointwise_int8.h"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "lite/backends/x86/int8_kernel_test_util.h"

namespace lite {
namespace x86 {
namespace {

using PW = PointwiseInt8;
using Act = operators::FusedActivation;
using int8_test::Next;

struct Case {
  int64_t pixels, ic, oc;
};

// A copy of `bytes` that ends where a PROT_NONE page begins: a read past
// its end faults. Unmapped when destroyed.
class GuardedCopy {
 public:
  template <typename T>
  explicit GuardedCopy(const std::vector<T>& values) {
    const size_t bytes = values.size() * sizeof(T);
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    data_pages_ = (bytes + page - 1) / page;
    size_ = (data_pages_ + 1) * page;
    void* m = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    EXPECT_NE(m, MAP_FAILED);
    base_ = static_cast<char*>(m);
    EXPECT_EQ(0, mprotect(base_ + data_pages_ * page, page, PROT_NONE));
    data_ = base_ + data_pages_ * page - bytes;
    std::memcpy(data_, values.data(), bytes);
  }
  ~GuardedCopy() { munmap(base_, size_); }
  const void* data() const { return data_; }

 private:
  char *base_ = nullptr, *data_ = nullptr;
  size_t data_pages_ = 0, size_ = 0;
};

void Check(const Case& k, PW::Levels in_type, PW::Out out_type, const Act& act, bool bias,
           int round_type, int repeat, uint32_t seed) {
  const bool residual = repeat > 0;
  SCOPED_TRACE(std::to_string(k.pixels) + " pixels " + std::to_string(k.ic) + "->" +
               std::to_string(k.oc) + " in " + (in_type == PW::Levels::kU8 ? "u8" : "s8") +
               " out " + std::to_string(static_cast<int>(out_type)) + " act " + act.name() +
               " bias " + std::to_string(bias) + " round " + std::to_string(round_type) +
               " residual repeat " + std::to_string(repeat));
  const bool u8 = in_type == PW::Levels::kU8;
  std::vector<int8_t> in(k.pixels * k.ic), filter(k.oc * k.ic);
  for (auto& x : in) x = static_cast<int8_t>(Next(&seed) % 256);
  for (auto& x : filter) x = static_cast<int8_t>(Next(&seed) % 256);
  // Output scales ~ 4e-4 / ic keep most levels inside the clip range.
  const int8_test::RandomEpilogue ep(&seed, k.oc, 4e-4f / k.ic, out_type == PW::Out::kU8,
                                     round_type);
  const int64_t total = k.pixels * k.oc;
  // Pixel p reads residual pixel p / repeat: the rows end with the last one
  // read (a guard page follows).
  std::vector<float> res(residual ? (k.pixels + repeat - 1) / repeat * k.oc : 0);
  for (auto& r : res) r = static_cast<float>(Next(&seed) % 4000) / 1000.f - 2.f;
  int8_test::Reference ref(total);
  for (int64_t p = 0; p < k.pixels; ++p)
    for (int64_t o = 0; o < k.oc; ++o) {
      int32_t sum = 0;
      for (int64_t c = 0; c < k.ic; ++c) {
        const int8_t l = in[p * k.ic + c];
        sum += (u8 ? static_cast<int32_t>(static_cast<uint8_t>(l)) : l) * filter[o * k.ic + c];
      }
      const float v = ep.Value(sum, o, bias, act, residual ? res[p / repeat * k.oc + o] : 0.f);
      ref.Set(p * k.oc + o, v, ep);
    }
  PW pw;
  pw.SetFilter(filter.data(), k.oc, k.ic);
  pw.SetEpilogue(ep.scale.data(), bias ? ep.bias.data() : nullptr, act, out_type, ep.factor,
                 round_type);
  const GuardedCopy guarded(in);
  const GuardedCopy guarded_res(res);
  const float* r = residual ? static_cast<const float*>(guarded_res.data()) : nullptr;
  int8_test::RunAndExpectMatches(
      [&](char* out, int threads) {
        pw.Run(k.pixels, guarded.data(), in_type, out, threads, r, std::max(repeat, 1));
      },
      total, out_type == PW::Out::kFloat, out_type == PW::Out::kU8, ref);
}

TEST(PointwiseInt8, Supports) {
  Act sigmoid;
  sigmoid.kind = Act::kSigmoid;
  EXPECT_FALSE(PW::Supports(sigmoid));
  Act hs;
  hs.kind = Act::kHardSwish;
  EXPECT_TRUE(PW::Supports(hs));
}

TEST(PointwiseInt8, MatchesScalarReference) {
  if (!PW::Available()) GTEST_SKIP() << "no AVX512-VNNI in this build or CPU";
  const std::vector<Case> shapes = {
      {100, 8, 8},    // det's first 1x1 (fewer pixels)
      {61, 8, 32},    // 8 -> 32
      {53, 16, 40},   // 16 -> 40, tile tail
      {97, 16, 96},   // 16 -> 96
      {13, 24, 70},   // two panels (64 + 6)
      {50, 96, 130},  // three panels, the last one vector
      // From 32 input channels the input is broadcast inside the vpdpbusd
      // (InDot): one vector (cls's 88 -> 16), a partial last quad.
      {31, 88, 16},
      {29, 37, 20},
      {7, 5, 17},     // partial quad, one full and a 1-channel vector
      {19, 13, 3},    // partial quad, 3 channels
      {5, 1, 1},      // one channel in and out
      // Pair mode (oc <= 8, ic a multiple of 4 up to 32): an odd pixel
      // count (a last single pixel), oc below 8, a pair filling 64 bytes.
      {37, 4, 3},
      {50, 24, 5},
      {21, 32, 8},
  };
  uint32_t seed = 1;
  for (const Case& k : shapes) {
    for (int repeat : {0, 1, 3}) {  // no residual; one per pixel; per 3 pixels
      int8_test::ForEachForm<PW::Out>(
          [&](bool in_u8, PW::Out out, const Act& act, bool bias, int round_type) {
            Check(k, in_u8 ? PW::Levels::kU8 : PW::Levels::kS8, out, act, bias, round_type,
                  repeat, ++seed);
          });
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace x86
}  // namespace lite
