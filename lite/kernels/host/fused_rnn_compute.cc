// Host kernel of the fused `rnn` op (lite/operators/fused_rnn_op.h): layer
// by layer, each direction through RunRnnDirection (fused_rnn_impl.h) with
// its weights prepared once in Prepare(). Intermediate layers' outputs
// alternate between two kernel-owned buffers; the last layer writes Out.
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
    const int64_t steps = p.input->dims()[0], n = p.input->dims()[1], hs = p.hidden_size;
    const int dirs = p.directions();
    const std::vector<int64_t>* lengths = nullptr;
    if (p.sequence_length) {
      RETURN_IF_ERROR(ReadLengths(*p.sequence_length, steps));
      lengths = &lengths_;
    }
    float* out = p.out->mutable_data<float>();
    float* last_h = p.state[0]->mutable_data<float>();
    float* last_c = p.state.size() > 1 ? p.state[1]->mutable_data<float>() : nullptr;
    if (p.reserve) p.reserve->mutable_data<float>();
    if (p.dropout_state) p.dropout_state->mutable_data<uint8_t>();
    if (n == 0) return Status::OK();  // no rows (T = 0 still copies PreState to State)
    const float* h0 = p.pre_state[0]->data<float>();
    const float* c0 = p.pre_state.size() > 1 ? p.pre_state[1]->data<float>() : nullptr;
    const int64_t out_numel = p.out->numel();
    const float* x = p.input->data<float>();
    for (int l = 0; l < p.num_layers; ++l) {
      float* y = out;
      if (l + 1 < p.num_layers) {
        std::vector<float>& buf = layer_out_[l % 2];
        buf.resize(out_numel);
        y = buf.data();
      }
      for (int d = 0; d < dirs; ++d) {
        const int64_t state = (static_cast<int64_t>(l) * dirs + d) * n * hs;
        RnnDirectionArgs a;
        a.steps = steps;
        a.batch = n;
        a.x = x;
        a.lengths = lengths;
        a.reverse = d == 1;
        a.h0 = h0 + state;
        a.c0 = c0 ? c0 + state : nullptr;
        a.out = y + d * hs;
        a.out_stride = dirs * hs;
        a.last_h = last_h + state;
        a.last_c = last_c ? last_c + state : nullptr;
        RunRnnDirection(directions_[l * dirs + d], a, &scratch_, ctx());
      }
      x = y;
    }
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
  std::vector<float> layer_out_[2];
  std::vector<int64_t> lengths_;
  RnnScratch scratch_;
};

}  // namespace
}  // namespace host
}  // namespace kernels
}  // namespace lite

// SequenceLength is int32 or int64.
REGISTER_LITE_KERNEL(rnn, kHost, kFloat, kNCHW, lite::kernels::host::FusedRnnCompute, def)
    .BindInput("SequenceLength", lite::Place(TARGET(kHost), PRECISION(kAny)))
    .Finalize();
