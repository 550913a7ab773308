// Host kernel of the fluid lstm op (lite/operators/rnn_ops.h): the batched
// forward pass of lstm_impl.h over the Input's one LoD level, with the
// weight packed once in Prepare().
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/lstm_impl.h"
#include "lite/operators/rnn_ops.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

class LstmCompute : public KernelBase {
 public:
  // The weight is constant: packed once for the recurrent GEMM.
  Status Prepare() override {
    auto& p = Param<operators::LstmParam>();
    if (p.weight->dtype() != DataType::kFloat32) return Status::OK();  // Run refuses it
    const int64_t d = p.weight->dims()[0];
    PackPanels(p.weight->data<float>(), d, 4 * d, 4 * d, &packed_);
    return Status::OK();
  }

  Status Run() override {
    auto& p = Param<operators::LstmParam>();
    for (const Tensor* t : {p.input, p.weight, p.bias, p.h0, p.c0}) {
      if (t && t->dtype() != DataType::kFloat32) {
        return Unimplemented(std::string("lstm takes float32 tensors, got ") +
                             DataTypeName(t->dtype()));
      }
    }
    const int64_t rows = p.input->dims()[0], d = p.weight->dims()[0];
    LstmArgs a;
    a.input = p.input->data<float>();
    a.weight = p.weight->data<float>();
    a.packed_weight = &packed_;
    a.bias = p.bias->data<float>();
    a.peephole = p.use_peepholes ? a.bias + 4 * d : nullptr;
    a.h0 = p.h0 ? p.h0->data<float>() : nullptr;
    a.c0 = p.c0 ? p.c0->data<float>() : nullptr;
    a.d = d;
    a.gate_act = p.gate_act;
    a.cell_act = p.cell_act;
    a.cand_act = p.cand_act;
    a.hidden = p.hidden->mutable_data<float>();
    a.cell = p.cell->mutable_data<float>();
    if (p.batch_gate) {
      a.batch_gate = p.batch_gate->mutable_data<float>();
    } else {
      gates_.resize(rows * 4 * d);
      a.batch_gate = gates_.data();
    }
    if (p.batch_cell_pre_act) {
      a.batch_cell_act = p.batch_cell_pre_act->mutable_data<float>();
    } else {
      cell_act_.resize(rows * d);
      a.batch_cell_act = cell_act_.data();
    }
    const BatchPlan plan = MakeBatchPlan(p.input->lod().back(), p.is_reverse);
    LstmForward(a, plan, &scratch_, ctx());
    return Status::OK();
  }

 private:
  std::vector<float> gates_, cell_act_;
  LstmScratch scratch_;
  PackedPanels packed_;
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(lstm, kHost, kFloat, kNCHW, lite::kernels::host::LstmCompute, def).Finalize();
