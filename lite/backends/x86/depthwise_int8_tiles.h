// The tiles of the int8 depthwise kernel (depthwise_int8_nhwc.h), internal
// to it: TileArgs describes one channel block of one output row, and the
// tables hold the register-blocked tile routines by vector count and pixel
// count (Tile<R, V, SW, Quads>, HalfTile<R, SW, Quads> in
// depthwise_int8_tiles.cc), which compute a tile's window sums from the
// converted rows (float form) or quad rows (quad form, AVX512-VNNI) and run
// the int8 epilogue on them. The kernel picks a routine per block and tile.
#pragma once

#include <immintrin.h>

#include <array>
#include <cstdint>

#include "lite/backends/x86/depthwise_int8_nhwc.h"
#include "lite/backends/x86/int8_epilogue.h"


// The quad form needs AVX512-VNNI (vpdpbusd) and AVX512-VBMI (vpermb).
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VL__) && \
    defined(__AVX512VNNI__) && defined(__AVX512VBMI__)
#define LITE_DW_QUADS 1
#endif

namespace lite {
namespace x86 {
namespace dw_int8 {

// Lanes of the vectors the sums use: 8 (ymm) for c <= 8, else 16 (zmm). On
// AMD Zen 4 a 512-bit FMA is two 256-bit ones, so 8 channels cost half in a
// ymm of what they cost in half the lanes of a zmm.
inline int64_t Lanes(int64_t c) { return c <= 8 ? 8 : 16; }

#ifdef LITE_X86_INT8_EPILOGUE_AVX512  // AVX-512 F / BW / VL / DQ

using Act = operators::FusedActivation;

// Tile pixels for V vectors of 16 channels (R x V accumulators + V filter
// vectors in the 32 registers).
constexpr int kRows[5] = {0, 12, 12, 8, 6};
// Tile pixels of the 8-lane (ymm) form for c <= 8.
constexpr int kHalfRows = 16;
// The quad form's: about 16 int32 sums. Bigger tiles made GCC keep the
// sums on the stack (a load and a store around each vpdpbusd); with the
// sums tied to their registers (DotAdd) no tile spills, and 24 sums as
// above (16, 12, 8, 6 rows) are still slower on det's depthwise convs.
constexpr int kQuadRows[5] = {0, 16, 8, 5, 5};
constexpr int kQuadHalfRows = 16;

// One channel block of one output row.
struct TileArgs {
  const float* const* rows;   // the block's converted input rows of the valid taps
  const float* const* wrows;  // the block's filter at (ky, kx = 0) of those taps
  int nrows;
  int kw;
  int64_t xstep;  // stride_w * block width: next output pixel's first column
  int64_t kstep;  // dilation_w * block width: next tap's column
  const float* scale;
  const float* bias;
  __mmask16 tail;  // valid lanes of the last vector
  Act act;
  DepthwiseInt8Nhwc::Out out;
  float factor, lo, hi;
  int64_t ldo;  // output values per pixel (c)
  // The quad form: rows and wrows as quads (bytes), quad groups per kernel
  // row, bytes from one group's quads to the next, the sums' start values.
  const uint8_t* const* qrows = nullptr;
  const int8_t* const* qwrows = nullptr;
  int groups = 0;
  int64_t gstep = 0;
  const int32_t* start = nullptr;
};

using TileFn = void (*)(const TileArgs&, int64_t, void*);
using TileRowFns = std::array<TileFn, 16>;  // [R - 1]

// kTiles[SW][V][R - 1]: the float form's tiles of R pixels and V vectors at
// column stride SW (0: any); kQuadTiles[V][R - 1] the quad form's;
// kHalfTiles[SW][R - 1] and kQuadHalfTiles the 8-lane forms for c <= 8.
extern const std::array<TileRowFns, 5> kTiles[3];
extern const std::array<TileRowFns, 5> kQuadTiles;
extern const TileRowFns kHalfTiles[3];
extern const TileRowFns kQuadHalfTiles;

#endif  // LITE_X86_INT8_EPILOGUE_AVX512

}  // namespace dw_int8
}  // namespace x86
}  // namespace lite
