#include "lite/backends/npu/xnnpack/xnnpack_driver.h"

#include <pthreadpool.h>
#include <xnnpack.h>

#include <cstring>
#include <mutex>

#include "lite/backends/npu/reference/reference_driver.h"
#include "lite/backends/npu/xnnpack/xnnpack_builder.h"

namespace lite {
namespace npu {

namespace {

Status Initialize() {
  static xnn_status status = [] { return xnn_initialize(nullptr); }();
  if (status != xnn_status_success) {
    return Unimplemented("xnnpack: xnn_initialize failed (xnn_status " +
                         std::to_string(static_cast<int>(status)) + ")");
  }
  return Status::OK();
}

// NCHW <-> NHWC copies of one 4-D tensor.
void NchwToNhwc(const float* src, float* dst, const std::vector<int64_t>& d) {
  const int64_t N = d[0], C = d[1], HW = d[2] * d[3];
  for (int64_t n = 0; n < N; ++n) {
    const float* s = src + n * C * HW;
    float* t = dst + n * C * HW;
    for (int64_t c = 0; c < C; ++c)
      for (int64_t i = 0; i < HW; ++i) t[i * C + c] = s[c * HW + i];
  }
}

void NhwcToNchw(const float* src, float* dst, const std::vector<int64_t>& d) {
  const int64_t N = d[0], C = d[1], HW = d[2] * d[3];
  for (int64_t n = 0; n < N; ++n) {
    const float* s = src + n * C * HW;
    float* t = dst + n * C * HW;
    for (int64_t i = 0; i < HW; ++i)
      for (int64_t c = 0; c < C; ++c) t[c * HW + i] = s[i * C + c];
  }
}

bool NeedsLayout(const std::vector<int64_t>& d) {
  return d.size() == 4 && d[1] != 1 && d[2] * d[3] != 1;
}

class XnnpackExecutable : public Executable {
 public:
  ~XnnpackExecutable() override {
    if (runtime) xnn_delete_runtime(runtime);
    if (subgraph) xnn_delete_subgraph(subgraph);
    if (pool) pthreadpool_destroy(pool);
  }
  Model model;  // operands' dims and names (constant data dropped)
  xnn_subgraph_t subgraph = nullptr;
  xnn_runtime_t runtime = nullptr;
  pthreadpool_t pool = nullptr;
  std::vector<std::vector<float>> constants;
  std::vector<std::vector<float>> staging;  // per input, then per output
};

}  // namespace

Status XnnpackDriver::Supports(const Model& model, const Operation& operation) const {
  return XnnpackSupports(model, operation);
}

StatusOr<std::unique_ptr<Executable>> XnnpackDriver::Compile(const Model& model,
                                                             const CompileOptions& options) {
  RETURN_IF_ERROR(Initialize());
  std::string invalid = model.Validate(/*check_mode=*/false);
  if (!invalid.empty()) return InvalidArgument("invalid model: " + invalid);
  auto exe = std::make_unique<XnnpackExecutable>();
  const uint32_t externals = static_cast<uint32_t>(model.inputs.size() + model.outputs.size());
  xnn_status s = xnn_create_subgraph(externals, 0, &exe->subgraph);
  if (s != xnn_status_success) return Internal("xnnpack: xnn_create_subgraph failed");
  XnnpackBuilder builder(model, exe->subgraph, &exe->constants);
  RETURN_IF_ERROR(builder.Build());
  if (options.threads > 1) exe->pool = pthreadpool_create(static_cast<size_t>(options.threads));
  s = xnn_create_runtime_v2(exe->subgraph, exe->pool, 0, &exe->runtime);
  if (s != xnn_status_success) {
    return Internal("xnnpack: xnn_create_runtime_v2 failed (xnn_status " +
                    std::to_string(static_cast<int>(s)) + ")");
  }
  exe->model.inputs = model.inputs;
  exe->model.outputs = model.outputs;
  exe->model.operands = model.operands;
  for (auto& o : exe->model.operands) o.data.clear();
  for (int idx : model.inputs) exe->staging.emplace_back(model.operands[idx].numel());
  for (int idx : model.outputs) exe->staging.emplace_back(model.operands[idx].numel());
  return std::unique_ptr<Executable>(std::move(exe));
}

Status XnnpackDriver::Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                              const std::vector<HostTensor>& outputs) {
  auto* exe = dynamic_cast<XnnpackExecutable*>(executable);
  if (!exe) return InvalidArgument("not an executable of the xnnpack driver");
  const Model& m = exe->model;
  RETURN_IF_ERROR(CheckHostTensors(m, inputs, outputs));
  std::vector<xnn_external_value> values;
  const size_t n_in = m.inputs.size();
  for (size_t i = 0; i < n_in; ++i) {
    const auto& d = m.operands[m.inputs[i]].dims;
    void* data = inputs[i].data;
    if (NeedsLayout(d)) {
      NchwToNhwc(static_cast<const float*>(data), exe->staging[i].data(), d);
      data = exe->staging[i].data();
    }
    values.push_back({static_cast<uint32_t>(i), data});
  }
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    const auto& d = m.operands[m.outputs[i]].dims;
    void* data = NeedsLayout(d) ? exe->staging[n_in + i].data() : outputs[i].data;
    values.push_back({static_cast<uint32_t>(n_in + i), data});
  }
  xnn_status s = xnn_setup_runtime(exe->runtime, values.size(), values.data());
  if (s == xnn_status_success) s = xnn_invoke_runtime(exe->runtime);
  if (s != xnn_status_success) {
    return Internal("xnnpack: running the runtime failed (xnn_status " +
                    std::to_string(static_cast<int>(s)) + ")");
  }
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    const auto& d = m.operands[m.outputs[i]].dims;
    if (NeedsLayout(d)) {
      NhwcToNchw(exe->staging[n_in + i].data(), static_cast<float*>(outputs[i].data), d);
    }
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite

REGISTER_NPU_DRIVER(xnnpack, lite::npu::XnnpackDriver);
