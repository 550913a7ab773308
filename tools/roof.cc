// roof: measures this machine's fp32 FMA roof, the yardstick the GFLOP/s of
// docs/performance.md are stated against. Each thread runs a loop of independent
// vfmadd231ps chains (12 accumulators hide the FMA latency on one or two
// FMA ports) on 512-bit (AVX-512) and 256-bit (AVX2) vectors, and prints
// GFLOP/s per width for 1 and `--threads` threads (best of 5 rounds).
// With AVX512-VNNI a third loop of vpdpbusd chains (u8 x s8 products summed
// into int32, 64 multiply-adds per instruction) gives the int8 roof in GOP/s,
// a multiply-add counted as 2 operations like a FLOP of an FMA: the yardstick
// for the int8 convs' GOP/s in `benchmark --profile`.
// Built with -march=native like everything else; a width the CPU lacks is
// skipped. Usage: bazel-bin/tools/roof [--threads=2]
#include <immintrin.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int64_t kIters = 50 * 1000 * 1000;

// 12 named accumulators so they stay in registers (an array would be
// loaded and stored each iteration at -O2).
template <typename V, V (*Fma)(V, V, V), V (*Set)(float)>
float Chains(int64_t iters) {
  V a0 = Set(0.f), a1 = Set(.1f), a2 = Set(.2f), a3 = Set(.3f), a4 = Set(.4f), a5 = Set(.5f);
  V a6 = Set(.6f), a7 = Set(.7f), a8 = Set(.8f), a9 = Set(.9f), a10 = Set(1.f), a11 = Set(1.1f);
  const V m = Set(0.999999f), c = Set(1e-7f);
  for (int64_t it = 0; it < iters; ++it) {
    a0 = Fma(a0, m, c); a1 = Fma(a1, m, c); a2 = Fma(a2, m, c); a3 = Fma(a3, m, c);
    a4 = Fma(a4, m, c); a5 = Fma(a5, m, c); a6 = Fma(a6, m, c); a7 = Fma(a7, m, c);
    a8 = Fma(a8, m, c); a9 = Fma(a9, m, c); a10 = Fma(a10, m, c); a11 = Fma(a11, m, c);
  }
  V sum = a0;
  for (V v : {a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11}) sum = Fma(sum, m, v);
  float lanes[16];
  std::memcpy(lanes, &sum, sizeof(V));
  return lanes[0];
}

#ifdef __AVX512F__
inline __m512 Fma512(__m512 a, __m512 b, __m512 c) { return _mm512_fmadd_ps(a, b, c); }
inline __m512 Set512(float v) { return _mm512_set1_ps(v); }
#endif
#ifdef __FMA__
inline __m256 Fma256(__m256 a, __m256 b, __m256 c) { return _mm256_fmadd_ps(a, b, c); }
inline __m256 Set256(float v) { return _mm256_set1_ps(v); }
#endif

#ifdef __AVX512VNNI__
inline __m512 Dot512(__m512 acc, __m512 a, __m512 b) {
  return _mm512_castsi512_ps(_mm512_dpbusd_epi32(
      _mm512_castps_si512(acc), _mm512_castps_si512(a), _mm512_castps_si512(b)));
}
inline __m512 SetBytes512(float v) {
  return _mm512_castsi512_ps(_mm512_set1_epi8(static_cast<char>(1 + v * 10)));
}
#endif

// GFLOP/s (or GOP/s) of `threads` threads each running fn(kIters) (best of
// 5): `lanes` multiply-adds per instruction.
double Measure(float (*fn)(int64_t), int lanes, int threads) {
  double best = 0;
  for (int round = 0; round < 5; ++round) {
    std::vector<std::thread> pool;
    std::vector<float> sink(threads);
    auto start = std::chrono::steady_clock::now();
    for (int t = 0; t < threads; ++t) pool.emplace_back([&, t] { sink[t] = fn(kIters); });
    for (auto& th : pool) th.join();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double gflops = 2.0 * lanes * 12 * kIters * threads / s / 1e9;
    if (gflops > best) best = gflops;
    if (sink[0] == 12345.f) std::printf(" ");  // keep the result alive
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--threads=", 0) == 0) {
      threads = std::stoi(a.substr(10));
    } else {
      std::fprintf(stderr, "usage: roof [--threads=N]\n");
      return 2;
    }
  }
  std::string json = "{";
#ifdef __AVX512VNNI__
  {
    // The accumulators are int32 lanes viewed as floats; the sink only keeps
    // the result alive.
    auto fn = &Chains<__m512, Dot512, SetBytes512>;
    double one = Measure(fn, 64, 1), many = Measure(fn, 64, threads);
    std::printf("avx512 int8 VNNI roof: %.1f GOP/s on 1 thread, %.1f on %d\n", one, many,
                threads);
    json += "\"vnni_int8_1t\":" + std::to_string(one) + ",\"vnni_int8_nt\":" +
            std::to_string(many) + ",";
  }
#endif
#ifdef __AVX512F__
  {
    auto fn = &Chains<__m512, Fma512, Set512>;
    double one = Measure(fn, 16, 1), many = Measure(fn, 16, threads);
    std::printf("avx512 fp32 FMA roof: %.1f GFLOP/s on 1 thread, %.1f on %d\n", one, many,
                threads);
    json += "\"avx512_1t\":" + std::to_string(one) + ",\"avx512_nt\":" + std::to_string(many);
  }
#endif
#ifdef __FMA__
  {
    auto fn = &Chains<__m256, Fma256, Set256>;
    double one = Measure(fn, 8, 1), many = Measure(fn, 8, threads);
    std::printf("avx2 fp32 FMA roof:   %.1f GFLOP/s on 1 thread, %.1f on %d\n", one, many,
                threads);
    json += std::string(json.size() > 1 ? "," : "") + "\"avx2_1t\":" + std::to_string(one) +
            ",\"avx2_nt\":" + std::to_string(many);
  }
#endif
  std::printf("%s,\"threads\":%d}\n", json.c_str(), threads);
  return 0;
}
