// Host kernels of gru (batched over the Input's LoD sequences) and gru_unit
// (one step over its rows); lite/kernels/host/gru_impl.h does the work and
// the weight is packed once in Prepare().
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/gru_impl.h"
#include "lite/operators/rnn_ops.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

class GruCompute : public KernelBase {
 public:
  Status Prepare() override {
    auto& p = Param<operators::GruParam>();
    if (p.weight->dtype() != DataType::kFloat32) return Status::OK();  // Run refuses it
    w_.Pack(p.weight->data<float>(), p.weight->dims()[0]);
    w_.gate_act = p.gate_act;
    w_.cand_act = p.cand_act;
    w_.origin_mode = p.origin_mode;
    w_.clamps = !p.unit;
    return Status::OK();
  }

  Status Run() override {
    auto& p = Param<operators::GruParam>();
    for (const Tensor* t : {p.input, p.weight, p.bias, p.h0}) {
      if (t && t->dtype() != DataType::kFloat32) {
        return Unimplemented(std::string("gru takes float32 tensors, got ") +
                             DataTypeName(t->dtype()));
      }
    }
    const int64_t rows = p.input->dims()[0], d = w_.d;
    float* gates = Buffer(p.batch_gate, &gates_, rows * 3 * d);
    float* reset = Buffer(p.batch_reset_hidden, &reset_, rows * d);
    float* hidden = p.hidden->mutable_data<float>();
    const float* bias = p.bias ? p.bias->data<float>() : nullptr;
    if (p.unit) {
      const float* x = p.input->data<float>();
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < 3 * d; ++k) {
          gates[r * 3 * d + k] = x[r * 3 * d + k] + (bias ? bias[k] : 0.f);
        }
      }
      GruStep(w_, rows, gates, p.h0->data<float>(), reset, hidden, ctx());
      return Status::OK();
    }
    GruBuffers b;
    b.input = p.input->data<float>();
    b.bias = bias;
    b.h0 = p.h0 ? p.h0->data<float>() : nullptr;
    b.hidden = hidden;
    b.batch_gate = gates;
    b.batch_reset_hidden = reset;
    b.batch_hidden = Buffer(p.batch_hidden, &batch_hidden_, rows * d);
    b.h0_scratch = &h0_;
    GruForward(w_, b, MakeBatchPlan(p.input->lod().back(), p.is_reverse), ctx());
    return Status::OK();
  }

 private:
  // The bound output's buffer, or `own` sized to n.
  static float* Buffer(Tensor* out, std::vector<float>* own, int64_t n) {
    if (out) return out->mutable_data<float>();
    own->resize(n);
    return own->data();
  }

  GruWeights w_;
  std::vector<float> gates_, reset_, batch_hidden_, h0_;
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(gru, kHost, kFloat, kNCHW, lite::kernels::host::GruCompute, def).Finalize();
REGISTER_LITE_KERNEL(gru_unit, kHost, kFloat, kNCHW, lite::kernels::host::GruCompute, def)
    .Finalize();
