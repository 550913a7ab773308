// One pooling window along one dim, by Paddle's Pool2dFunctor /
// Pool3dFunctor rules, shared by the host pool2d and pool3d kernels:
//   non-adaptive: start = o*stride - pad, end = min(start + k, in + pad)
//     (Paddle bounds by the begin padding), `full` = end - start, then
//     start / end clipped to [0, in);
//   adaptive: [floor(o*in/out), ceil((o+1)*in/out)).
// Header only.
#pragma once

#include <algorithm>
#include <cstdint>

namespace lite {
namespace kernels {
namespace host {

struct Window {
  int start, end;  // clipped to the input
  int full;        // extent before clipping (non-adaptive divisor)
};

inline Window MakeWindow(int o, int in, int out, int k, int stride, int pad, bool adaptive) {
  Window w;
  if (adaptive) {
    w.start = static_cast<int>(static_cast<int64_t>(o) * in / out);
    w.end = static_cast<int>((static_cast<int64_t>(o + 1) * in + out - 1) / out);
    w.full = w.end - w.start;
    return w;
  }
  int s = o * stride - pad;
  int e = std::min(s + k, in + pad);
  w.full = e - s;
  w.start = std::max(s, 0);
  w.end = std::min(e, in);
  return w;
}

}  // namespace host
}  // namespace kernels
}  // namespace lite
