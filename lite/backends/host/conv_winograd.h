// Winograd F(2x2, 3x3) for 3x3, stride-1, dilation-1, ungrouped conv2d.
//
// Each 2x2 block of output pixels (a "tile") comes from a 4x4 input patch:
// V = B^T d B per input channel, M[t] = U[t] * V[t] for the 16 positions t
// (16 GEMMs of [c_out x c_in] x [c_in x tiles]), Y = A^T M A. That is 16
// multiply-adds per tile and channel pair instead of 36 (2.25x fewer), for a
// few extra additions in the transforms. The filter transform U = G g G^T
// is done once per filter (WinogradFilterCache, owned by the conv kernel,
// like the one scratch buffer per thread). Results differ from
// direct convolution by rounding only (a few ulps of the inputs' scale).
#pragma once

#include <cstdint>
#include <vector>

#include "lite/backends/host/im2col.h"
#include "lite/base/fused_activation.h"

namespace lite {
namespace kernels {
namespace host {

// Whether conv2d of this shape runs as Winograd: 3x3 stride 1 dilation 1,
// one group, at least 32 input and 8 output channels and 1024 output pixels
// (below that, im2col + GEMM measured faster).
bool UseWinograd(const ConvWindow& win, int groups, int c_in, int c_out,
                 int out_h, int out_w);

// filter [c_out, c_in, 3, 3] -> u [16][c_out][c_in].
std::vector<float> WinogradFilter(const float* filter, int c_out, int c_in);

// The transformed filter of the last filter seen. Weights are static in a
// predictor, so this transforms once; comparing with a copy (cheap next to
// the conv) keeps it right if the filter's values change.
class WinogradFilterCache {
 public:
  const float* Get(const float* filter, int c_out, int c_in);

 private:
  std::vector<float> source_;       // the filter last transformed
  std::vector<float> transformed_;  // WinogradFilter(source_)
};

// Output tiles of one image, tiles_h x tiles_w = ceil(out/2) each way.
inline int64_t WinogradTiles(int out_h, int out_w) {
  return static_cast<int64_t>((out_h + 1) / 2) * ((out_w + 1) / 2);
}
// Tiles per block (the parallel work item) for an image of `tiles` tiles:
// the 16 transformed input and output blocks stay in L2, and small maps
// still split into a few blocks.
int64_t WinogradBlockTiles(int c_in, int c_out, int64_t tiles);

// Computes output tiles [tile_begin, tile_end) (row-major over the tile
// grid) of one image: in [c_in, h, w] -> out [c_out, out_h, out_w], adding
// bias (may be null) and applying act. `scratch` is grown as needed.
struct WinogradArgs {
  const float* in = nullptr;
  int c_in = 0, h = 0, w = 0;
  int pad_top = 0, pad_left = 0;
  const float* u = nullptr;  // WinogradFilter output
  int c_out = 0, out_h = 0, out_w = 0;
  const float* bias = nullptr;
  const operators::FusedActivation* act = nullptr;
  float* out = nullptr;
};
void WinogradConv3x3(const WinogradArgs& a, int64_t tile_begin, int64_t tile_end,
                     std::vector<float>* scratch);

}  // namespace host
}  // namespace kernels
}  // namespace lite
