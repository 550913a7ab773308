// Host kernel of the fused `rnn` op (lite/operators/fused_rnn_op.h):
// FusedRnnForward (fused_rnn_impl.h) with every layer's and direction's
// weights prepared once in Prepare().
#include <string>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/fused_rnn_impl.h"
#include "lite/operators/fused_rnn_op.h"

namespace lite {
namespace kernels {
namespace host {
namespace {

class FusedRnnCompute : public KernelBase {
 public:
  Status Prepare() override {
    auto& p = Param<operators::FusedRnnParam>();
    for (const Tensor* t : p.weights) {
      if (t->dtype() != DataType::kFloat32) return Status::OK();  // Run refuses it
    }
    const int dirs = p.directions();
    directions_.assign(static_cast<size_t>(p.num_layers) * dirs, RnnDirectionWeights());
    for (int l = 0; l < p.num_layers; ++l) {
      const int64_t in = l == 0 ? p.input_size : int64_t{dirs} * p.hidden_size;
      for (int d = 0; d < dirs; ++d) {
        directions_[l * dirs + d].Prepare(p.mode, p.hidden_size, in, p.w_ih(l, d)->data<float>(),
                                          p.w_hh(l, d)->data<float>(), p.b_ih(l, d)->data<float>(),
                                          p.b_hh(l, d)->data<float>());
      }
    }
    return Status::OK();
  }

  Status Run() override {
    auto& p = Param<operators::FusedRnnParam>();
    std::vector<const Tensor*> floats = p.weights;
    floats.push_back(p.input);
    floats.insert(floats.end(), p.pre_state.begin(), p.pre_state.end());
    for (const Tensor* t : floats) {
      if (t->dtype() != DataType::kFloat32) {
        return Unimplemented(std::string("rnn takes float32 Input, PreState and WeightList, got ") +
                             DataTypeName(t->dtype()));
      }
    }
    const int64_t steps = p.input->dims()[0], n = p.input->dims()[1];
    const std::vector<int64_t>* lengths = nullptr;
    if (p.sequence_length) {
      RETURN_IF_ERROR(ReadLengths(*p.sequence_length, steps));
      lengths = &lengths_;
    }
    // w_ih is read in place: its pointer is taken per run, never kept.
    for (int l = 0; l < p.num_layers; ++l) {
      for (int d = 0; d < p.directions(); ++d) {
        directions_[l * p.directions() + d].w_ih = p.w_ih(l, d)->data<float>();
      }
    }
    FusedRnnArgs a;
    a.out = p.out->mutable_data<float>();
    a.last_h = p.state[0]->mutable_data<float>();
    a.last_c = p.state.size() > 1 ? p.state[1]->mutable_data<float>() : nullptr;
    if (p.reserve) p.reserve->mutable_data<float>();
    if (p.dropout_state) p.dropout_state->mutable_data<uint8_t>();
    if (n == 0) return Status::OK();  // no rows (T = 0 still copies PreState to State)
    a.steps = steps;
    a.batch = n;
    a.layers = p.num_layers;
    a.directions = p.directions();
    a.x = p.input->data<float>();
    a.lengths = lengths;
    a.h0 = p.pre_state[0]->data<float>();
    a.c0 = p.pre_state.size() > 1 ? p.pre_state[1]->data<float>() : nullptr;
    FusedRnnForward(directions_, a, &scratch_, ctx());
    return Status::OK();
  }

 private:
  // SequenceLength into lengths_, each checked to lie in [0, steps].
  Status ReadLengths(const Tensor& t, int64_t steps) {
    lengths_.resize(t.numel());
    for (int64_t i = 0; i < t.numel(); ++i) {
      lengths_[i] = t.dtype() == DataType::kInt32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
      if (lengths_[i] < 0 || lengths_[i] > steps) {
        return InvalidArgument("rnn: SequenceLength[" + std::to_string(i) +
                               "] = " + std::to_string(lengths_[i]) + " is outside [0, " +
                               std::to_string(steps) + "] (the Input's time steps)");
      }
    }
    return Status::OK();
  }

  std::vector<RnnDirectionWeights> directions_;
  std::vector<int64_t> lengths_;
  FusedRnnScratch scratch_;
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

// SequenceLength is int32 or int64.
REGISTER_LITE_KERNEL(rnn, kHost, kFloat, kNCHW, lite::kernels::host::FusedRnnCompute, def)
    .BindInput("SequenceLength", lite::Place(TARGET(kHost), PRECISION(kAny)))
    .Finalize();
