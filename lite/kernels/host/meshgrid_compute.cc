// Host kernel for meshgrid (meshgrid_op.h): each output repeats its input
// along its own axis, as byte copies.
#include <cstring>

#include "lite/core/kernel.h"
#include "lite/operators/meshgrid_op.h"

namespace lite {
namespace kernels {
namespace host {

class MeshgridCompute : public KernelBase {
 public:
  Status Run() override {
    const auto& p = Param<operators::MeshgridParam>();
    const size_t k = p.xs.size();
    for (size_t i = 0; i < k; ++i) {
      const Tensor* x = p.xs[i];
      const DDim& grid = p.outs[i]->dims();
      int64_t inner = 1, outer = 1;
      for (size_t j = i + 1; j < k; ++j) inner *= grid[j];
      for (size_t j = 0; j < i; ++j) outer *= grid[j];
      const int64_t n = grid[i];
      const size_t es = DataTypeSize(x->dtype());
      char* out = static_cast<char*>(p.outs[i]->mutable_data(x->dtype()));
      if (n * inner * outer == 0) continue;
      const char* src = static_cast<const char*>(x->raw_data());
      if (!src) return FailedPrecondition("meshgrid: input " + std::to_string(i) + " has no data");
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t a = 0; a < n; ++a) {
          char* dst = out + ((o * n + a) * inner) * es;
          for (int64_t in = 0; in < inner; ++in) std::memcpy(dst + in * es, src + a * es, es);
        }
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(meshgrid, kHost, kAny, kNCHW, lite::kernels::host::MeshgridCompute, def)
    .Finalize();
