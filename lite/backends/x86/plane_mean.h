// The mean of each channel's plane of an NHWC float image: what a global
// average pool2d (global_pooling, or adaptive avg to 1 x 1, as in
// squeeze-excitation blocks) computes. The x86 pool2d used oneDNN's pooling
// primitive with the whole plane as its window, so every new input size
// created (and JIT-compiled) a primitive for each such pool: about 1 ms
// apiece, 8 per run of PP-OCRv3 det, a part of what a first sight of a size
// costs over a repeat (docs/memory.md). This loop has no per-shape state.
#pragma once

#include <cstdint>

namespace lite {
namespace x86 {

// `x`: n images of `pixels` pixels of `c` channels (NHWC order); `out`: n x c
// means (NCHW [n, c, 1, 1] and NHWC are the same order). Each channel is
// summed in pixel order (float over runs of 256 pixels, those in double),
// so the result does not depend on `threads` (which split the channels).
void PlaneMeanNhwc(const float* x, int64_t n, int64_t pixels, int64_t c, float* out, int threads);

}  // namespace x86
}  // namespace lite
