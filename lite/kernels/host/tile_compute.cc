// Host kernel for tile / expand / expand_v2 / expand_as(_v2) (tile_ops.h), any
// dtype: writes X's innermost rows once per output row, then replicates each
// finished block along its dim by memcpy. expand_v2 with a run-time shape
// resolves it again each run (its tensors' values change, their dims do not).
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/tile_ops.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

// Writes the tiling of `src` (dims[level..], one element = `elem` bytes) at
// `dst`; returns the bytes written.
size_t TileLevel(const char* src, char* dst, const DDim& dims, const std::vector<int64_t>& reps,
                 size_t level, size_t elem) {
  const int64_t n = dims[level];
  size_t in_block = elem;  // bytes of X below `level`
  for (size_t i = level + 1; i < dims.size(); ++i) in_block *= dims[i];
  size_t written = 0;
  if (level + 1 == dims.size()) {
    std::memcpy(dst, src, n * elem);
    written = n * elem;
  } else {
    for (int64_t i = 0; i < n; ++i) {
      written += TileLevel(src + i * in_block, dst + written, dims, reps, level + 1, elem);
    }
  }
  for (int64_t r = 1; r < reps[level]; ++r) std::memcpy(dst + r * written, dst, written);
  return written * reps[level];
}

}  // namespace

class TileCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::TileParam>();
    if (p.shape_tensor || !p.shape_tensor_list.empty()) RETURN_IF_ERROR(operators::TileShape(&p));
    const size_t elem = DataTypeSize(p.x->dtype());
    char* out = static_cast<char*>(p.out->mutable_data(p.x->dtype()));
    if (p.out->numel() == 0) return Status::OK();
    const char* x = static_cast<const char*>(p.x->raw_data());
    if (!x) return FailedPrecondition("tile: X has no data");
    if (p.x_dims.empty()) {
      std::memcpy(out, x, elem);  // a scalar stays a scalar
    } else {
      TileLevel(x, out, p.x_dims, p.repeats, 0, elem);
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_TILE(op)                                                          \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW, lite::kernels::host::TileCompute, def) \
      .Finalize()

LITE_REGISTER_TILE(tile);
LITE_REGISTER_TILE(expand);
LITE_REGISTER_TILE(expand_v2);
LITE_REGISTER_TILE(expand_as_v2);
LITE_REGISTER_TILE(expand_as);
