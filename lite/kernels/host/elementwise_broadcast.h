// Broadcast loop for binary elementwise kernels: out = op(x, y) where x and y
// have dims already aligned to the output rank (1 where broadcast). The
// output type may differ from the inputs' (comparisons write bool).
//
// Dims of extent 1 in the output are dropped and neighbouring dims with the
// same broadcast pattern merged, so every shape reduces to a few "runs".
// Same-shape inputs and the per-channel patterns ([pre, n, post] with one
// operand of n elements: Y [C] or [N,C,1,1] against [N,C,H,W]) run as plain
// nested loops; anything else walks the outer runs with an odometer and runs
// the innermost one as a tight loop. ParallelBroadcast splits the output
// over a kernel's threads. Pure functions; callers own the buffers.
#pragma once

#include <cstdint>
#include <vector>

#include "lite/base/tensor.h"
#include "lite/core/kernel.h"

namespace lite {
namespace kernels {
namespace host {

namespace broadcast_detail {

struct Run {
  int64_t size;
  bool x_full;  // x varies along this run (else broadcast)
  bool y_full;
};

// Drops extent-1 output dims and merges neighbours with the same pattern.
inline std::vector<Run> Compress(const DDim& xd, const DDim& yd, const DDim& od) {
  std::vector<Run> runs;
  for (size_t i = 0; i < od.size(); ++i) {
    if (od[i] == 1) continue;
    const bool xf = xd[i] != 1;
    const bool yf = yd[i] != 1;
    if (!runs.empty() && runs.back().x_full == xf && runs.back().y_full == yf) {
      runs.back().size *= od[i];
    } else {
      runs.push_back({od[i], xf, yf});
    }
  }
  return runs;
}

// out[p][c][s] = op(a[p][c][s], b[c]) : `a` full, `b` one value per c.
template <typename T, typename O, typename Op>
void PerChannel(const T* a, const T* b, O* out, int64_t pre, int64_t n,
                int64_t post, Op op) {
  for (int64_t p = 0; p < pre; ++p) {
    for (int64_t c = 0; c < n; ++c) {
      const T bv = b[c];
      const T* ap = a + (p * n + c) * post;
      O* op_ = out + (p * n + c) * post;
      for (int64_t s = 0; s < post; ++s) op_[s] = op(ap[s], bv);
    }
  }
}

// out[p][j] = op(a[p][j], b[j]) : `b` repeats along the outer run.
template <typename T, typename O, typename Op>
void RepeatInner(const T* a, const T* b, O* out, int64_t pre, int64_t n, Op op) {
  for (int64_t p = 0; p < pre; ++p) {
    const T* ap = a + p * n;
    O* op_ = out + p * n;
    for (int64_t j = 0; j < n; ++j) op_[j] = op(ap[j], b[j]);
  }
}

// Fast paths where `a` is full everywhere and `b` follows one of the simple
// patterns. Returns false when the runs do not match one.
template <typename T, typename O, typename Op>
bool FastPath(const std::vector<Run>& r, const T* a, const T* b, O* out,
              bool a_is_x, Op op) {
  auto a_full = [&](const Run& run) { return a_is_x ? run.x_full : run.y_full; };
  auto b_full = [&](const Run& run) { return a_is_x ? run.y_full : run.x_full; };
  for (const Run& run : r) {
    if (!a_full(run)) return false;
  }
  const size_t k = r.size();
  if (k == 1 && !b_full(r[0])) {  // b is a scalar
    PerChannel(a, b, out, 1, 1, r[0].size, op);
    return true;
  }
  if (k == 2 && b_full(r[0]) && !b_full(r[1])) {  // [n][post]
    PerChannel(a, b, out, 1, r[0].size, r[1].size, op);
    return true;
  }
  if (k == 2 && !b_full(r[0]) && b_full(r[1])) {  // [pre][n]
    RepeatInner(a, b, out, r[0].size, r[1].size, op);
    return true;
  }
  if (k == 3 && !b_full(r[0]) && b_full(r[1]) && !b_full(r[2])) {  // [pre][n][post]
    PerChannel(a, b, out, r[0].size, r[1].size, r[2].size, op);
    return true;
  }
  return false;
}

}  // namespace broadcast_detail

// out = op(x, y) elementwise with broadcasting; xd/yd/od have equal rank.
template <typename T, typename O, typename Op>
void BroadcastBinary(const T* x, const T* y, O* out, const DDim& xd,
                     const DDim& yd, const DDim& od, Op op) {
  using broadcast_detail::Run;
  const int64_t total = Product(od);
  if (total <= 0) return;
  if (xd == yd) {
    for (int64_t i = 0; i < total; ++i) out[i] = op(x[i], y[i]);
    return;
  }
  const std::vector<Run> runs = broadcast_detail::Compress(xd, yd, od);
  if (runs.empty()) {  // everything has extent 1
    out[0] = op(x[0], y[0]);
    return;
  }
  if (broadcast_detail::FastPath(runs, x, y, out, true, op)) return;
  auto swapped = [&op](T a, T b) { return op(b, a); };
  if (broadcast_detail::FastPath(runs, y, x, out, false, swapped)) return;

  // General case: odometer over the outer runs, tight inner loop.
  const size_t k = runs.size();
  std::vector<int64_t> xs(k, 0), ys(k, 0);
  int64_t xn = 1, yn = 1;
  for (size_t i = k; i-- > 0;) {
    if (runs[i].x_full) {
      xs[i] = xn;
      xn *= runs[i].size;
    }
    if (runs[i].y_full) {
      ys[i] = yn;
      yn *= runs[i].size;
    }
  }
  const int64_t inner = runs[k - 1].size;
  const int64_t xi = xs[k - 1], yi = ys[k - 1];
  const int64_t outer = total / inner;
  std::vector<int64_t> idx(k, 0);
  int64_t xo = 0, yo = 0;
  for (int64_t o = 0; o < outer; ++o) {
    O* dst = out + o * inner;
    const T* xp = x + xo;
    const T* yp = y + yo;
    if (xi && yi) {
      for (int64_t j = 0; j < inner; ++j) dst[j] = op(xp[j], yp[j]);
    } else if (xi) {
      const T yv = *yp;
      for (int64_t j = 0; j < inner; ++j) dst[j] = op(xp[j], yv);
    } else {
      const T xv = *xp;
      for (int64_t j = 0; j < inner; ++j) dst[j] = op(xv, yp[j]);
    }
    for (size_t d = k - 1; d-- > 0;) {  // advance the outer odometer
      ++idx[d];
      xo += xs[d];
      yo += ys[d];
      if (idx[d] < runs[d].size) break;
      xo -= xs[d] * runs[d].size;
      yo -= ys[d] * runs[d].size;
      idx[d] = 0;
    }
  }
}

// BroadcastBinary with the output sliced along its first non-1 dim d across
// ctx's pool (ParallelFor keeps small outputs on the calling thread); x and
// y are sliced along d where they are not broadcast.
template <typename T, typename O, typename Op>
void ParallelBroadcast(const KernelContext* ctx, const T* x, const T* y, O* out,
                       const DDim& xd, const DDim& yd, const DDim& od, Op op) {
  const int64_t total = Product(od);
  size_t d = 0;
  while (d < od.size() && od[d] == 1) ++d;
  if (d == od.size()) {
    BroadcastBinary(x, y, out, xd, yd, od, op);
    return;
  }
  const int64_t inner = total / od[d];  // output elements per index of d
  const int64_t x_inner = xd[d] == 1 ? 0 : Product(xd) / xd[d];
  const int64_t y_inner = yd[d] == 1 ? 0 : Product(yd) / yd[d];
  ParallelFor(ctx, od[d], total, [&](int64_t b, int64_t e) {
    DDim xs = xd, ys = yd, os = od;
    if (x_inner) xs[d] = e - b;
    if (y_inner) ys[d] = e - b;
    os[d] = e - b;
    BroadcastBinary(x + b * x_inner, y + b * y_inner, out + b * inner, xs, ys, os, op);
  });
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
