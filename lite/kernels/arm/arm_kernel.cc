#include "lite/kernels/arm/arm_kernel.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace lite {
namespace kernels {
namespace arm {

void ArmKernel::NoteOperator(const char* call) const {
  // Only creations name operators; the setup and run calls of every
  // inference return here without building a string.
  static constexpr char kCreate[] = "xnn_create_";
  constexpr size_t kLen = sizeof(kCreate) - 1;
  if (std::strncmp(call, kCreate, kLen) != 0) return;
  const std::string name(call + kLen);
  if (impl_.empty()) {
    impl_ = "xnnpack:" + name;
  } else if (("+" + impl_.substr(8) + "+").find("+" + name + "+") == std::string::npos) {
    impl_ += "+" + name;
  }
}

const Tensor* ArmKernel::NchwInput(const Tensor& t, Tensor* buffer) const {
  if (!Nhwc(t)) return &t;
  const DDim& d = t.dims();
  buffer->Resize(d);
  PermuteNchw(t.data<float>(), buffer->mutable_data<float>(), d[0], d[1], d[2] * d[3], false);
  return buffer;
}

Status ArmKernel::CreateResidualAdd(const lite::arm::Clamp& clamp,
                                    lite::arm::XnnOperator* add) const {
  if (*add) return Status::OK();
  xnn_operator_t op = nullptr;
  RETURN_IF_ERROR(
      Check(xnn_create_add_nd_f32(clamp.lo, clamp.hi, 0, &op), "xnn_create_add_nd_f32"));
  add->reset(op);
  return Status::OK();
}

Status ArmKernel::RunResidualAdd(xnn_operator_t add, const Tensor& residual, const DDim& out,
                                 float* y) {
  if (residual.dims() != out) {
    return InvalidArgument(What() + ": ResidualData dims " + DimsToString(residual.dims()) +
                           " differ from the output's " + DimsToString(out));
  }
  const float* r = residual.data<float>();
  ResidualSetup& last = residual_setup_;
  if (add != last.add || r != last.residual || y != last.y || out != last.dims ||
      threads() != last.threads) {
    const size_t shape[4] = {static_cast<size_t>(out[0]), static_cast<size_t>(out[2]),
                             static_cast<size_t>(out[3]), static_cast<size_t>(out[1])};
    RETURN_IF_ERROR(Check(xnn_setup_add_nd_f32(add, 4, shape, 4, shape, y, r, y, pool()),
                          "xnn_setup_add_nd_f32"));
    last = {add, r, y, out, threads()};
  }
  return Check(xnn_run_operator(add, pool()), "xnn_run_operator (residual add)");
}

Status ArmKernel::CheckConstantWeights(const Tensor* w, const Tensor* bias) const {
  if (w->IsInitialized() && (!bias || bias->IsInitialized())) return Status::OK();
  return Unimplemented(What() + " needs constant weights and bias, but this model computes them "
                       "at run time; keep constant_folding_pass enabled or run this op on host");
}

void ArmKernel::StoreNchwOutput(const Tensor& nchw, Tensor* t) const {
  if (&nchw == t) return;
  const DDim& d = nchw.dims();
  t->Resize(d);
  PermuteNchw(nchw.data<float>(), t->mutable_data<float>(), d[0], d[1], d[2] * d[3], true);
}

namespace {

// dst[j * rows + i] = src[i * cols + j] for a rows x cols matrix of 4-byte
// elements, in kTile x kTile blocks so that both sides touch a few cache
// lines at a time (the plain channel-outer loop wrote with a stride of the
// channel count across the whole image).
// Three rows (an RGB image into NHWC, the usual input cast) take one pass
// that reads the three planes side by side and writes each pixel's channels
// together, about twice the tiles' speed on that shape.
void Transpose(const uint32_t* __restrict src, uint32_t* __restrict dst, int64_t rows,
               int64_t cols) {
  if (rows == 3) {
    const uint32_t* r0 = src;
    const uint32_t* r1 = src + cols;
    const uint32_t* r2 = src + 2 * cols;
    for (int64_t j = 0; j < cols; ++j) {
      dst[3 * j] = r0[j];
      dst[3 * j + 1] = r1[j];
      dst[3 * j + 2] = r2[j];
    }
    return;
  }
  constexpr int64_t kTile = 16;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile) {
    const int64_t i1 = std::min(rows, i0 + kTile);
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      const int64_t j1 = std::min(cols, j0 + kTile);
      for (int64_t j = j0; j < j1; ++j) {
        for (int64_t i = i0; i < i1; ++i) dst[j * rows + i] = src[i * cols + j];
      }
    }
  }
}

}  // namespace

void PermuteNchw(const void* src, void* dst, int64_t n, int64_t c, int64_t hw, bool to_nhwc) {
  const uint32_t* s = static_cast<const uint32_t*>(src);
  uint32_t* d = static_cast<uint32_t*>(dst);
  for (int64_t i = 0; i < n; ++i) {
    // Per sample NCHW is a [c, hw] matrix and NHWC its transpose [hw, c].
    if (to_nhwc) {
      Transpose(s + i * c * hw, d + i * c * hw, c, hw);
    } else {
      Transpose(s + i * c * hw, d + i * c * hw, hw, c);
    }
  }
}

}  // namespace arm
}  // namespace kernels
}  // namespace lite
