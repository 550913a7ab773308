#include "lite/kernels/npu/subgraph_compute.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "lite/kernels/npu/npu_context.h"
#include "lite/kernels/npu/subgraph_converter.h"
#include "lite/utils/logging.h"

namespace lite {
namespace kernels {
namespace npu {

using operators::SubgraphParam;

Status SubgraphCompute::Init() {
  auto& p = Param<SubgraphParam>();
  record_.id = p.subgraph_id;
  const NpuOptions& options = NpuContextOf(ctx())->options;
  record_.driver = options.driver.empty() ? p.driver : options.driver;
  ASSIGN_OR_RETURN(driver_, lite::npu::DriverRegistry::Global().Create(record_.driver));
  ASSIGN_OR_RETURN(origin_, BuildInstructions(*p.program, p.block_idx, p.scope, ctx()));
  for (const auto& inst : origin_) record_.ops.push_back(inst->op().DebugName());
  NpuContextOf(ctx())->subgraphs.push_back(&record_);
  if (!InputsKnown()) {
    record_.reason = "input shapes are known only at the first run";
    return Status::OK();
  }
  auto compiled = CompileCurrent();
  if (!compiled.ok()) return FallBack(compiled.status().message());
  record_.state = SubgraphRecord::State::kOnDevice;
  record_.reason.clear();
  return Status::OK();
}

std::vector<DDim> SubgraphCompute::InputSignature() const {
  std::vector<DDim> sig;
  for (const Tensor* t : Param<SubgraphParam>().inputs) sig.push_back(t->dims());
  return sig;
}

bool SubgraphCompute::InputsKnown() const {
  for (const Tensor* t : Param<SubgraphParam>().inputs) {
    if (t->dims().empty() || Product(t->dims()) < 0) return false;
  }
  return true;
}

Status SubgraphCompute::InferOriginShapes() {
  for (auto& inst : origin_) {
    RETURN_IF_ERROR(inst->InferShapeAhead().WithContext("shape inference"));
  }
  return Status::OK();
}

StatusOr<SubgraphCompute::Compiled*> SubgraphCompute::CompileCurrent() {
  std::vector<DDim> sig = InputSignature();
  auto it = compiled_.find(sig);
  if (it != compiled_.end()) return &it->second;
  auto& p = Param<SubgraphParam>();
  RETURN_IF_ERROR(InferOriginShapes());
  std::vector<OpLite*> ops;
  for (auto& inst : origin_) ops.push_back(inst->mutable_op());
  const Scope* weights = p.scope->parent() ? p.scope->parent() : p.scope;
  ASSIGN_OR_RETURN(lite::npu::Model model,
                   lite::npu::ConvertToModel(ops, p.scope, weights, p.input_names,
                                             p.output_names));
  lite::npu::CompileOptions options;
  options.threads = ctx()->threads;
  auto exe = driver_->Compile(model, options);
  if (!exe.ok()) return exe.status().WithContext("driver " + driver_->name() + " compile");
  Compiled compiled;
  compiled.executable = std::move(exe).value();
  for (int idx : model.outputs) compiled.output_dims.push_back(model.operands[idx].dims);
  ++record_.compiles;
  return &(compiled_[sig] = std::move(compiled));
}

Status SubgraphCompute::FallBack(const std::string& reason) {
  fell_back_ = true;
  compiled_.clear();
  record_.state = SubgraphRecord::State::kFellBack;
  record_.reason = reason;
  std::string first = record_.ops.empty() ? "" : record_.ops.front();
  LogMessage(LogSeverity::kWarning, "npu: subgraph " + std::to_string(record_.id) + " (" +
                                        std::to_string(record_.ops.size()) + " ops from " + first +
                                        ") runs on host: " + reason);
  if (NpuContextOf(ctx())->options.strict) {
    return FailedPrecondition("npu strict mode: subgraph " + std::to_string(record_.id) + " (" +
                              std::to_string(record_.ops.size()) + " ops from " + first +
                              ") cannot run on driver " + record_.driver + ": " + reason);
  }
  return Status::OK();
}

Status SubgraphCompute::RunOrigin() {
  for (auto& inst : origin_) RETURN_IF_ERROR(inst->Run());
  return Status::OK();
}

Status SubgraphCompute::RunOnDevice(Compiled* compiled) {
  auto& p = Param<SubgraphParam>();
  std::vector<lite::npu::HostTensor> ins, outs;
  for (Tensor* t : p.inputs) {
    if (t->dtype() != DataType::kFloat32 || !t->IsInitialized()) {
      return InvalidArgument("subgraph input is not float32 data");
    }
    ins.push_back({t->raw_mutable_data(), t->memory_size(), t->dims()});
  }
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    Tensor* t = p.outputs[i];
    t->Resize(compiled->output_dims[i]);
    void* data = t->mutable_data<float>();
    outs.push_back({data, t->memory_size(), t->dims()});
  }
  RETURN_IF_ERROR(driver_->Execute(compiled->executable.get(), ins, outs));
  ++record_.device_runs;
  return Status::OK();
}

Status SubgraphCompute::CrossCheck(Compiled* compiled) {
  auto& p = Param<SubgraphParam>();
  RETURN_IF_ERROR(RunOrigin());
  std::vector<std::vector<float>> host;
  for (const Tensor* t : p.outputs) {
    host.emplace_back(t->data<float>(), t->data<float>() + t->numel());
  }
  RETURN_IF_ERROR(RunOnDevice(compiled));
  for (size_t i = 0; i < p.outputs.size(); ++i) {
    const float* d = p.outputs[i]->data<float>();
    for (size_t k = 0; k < host[i].size(); ++k) {
      double diff = std::fabs(static_cast<double>(d[k]) - host[i][k]);
      double rel = diff / std::max(1e-6, std::fabs(static_cast<double>(host[i][k])));
      if (!(diff <= record_.max_abs_diff)) record_.max_abs_diff = diff;  // NaN sticks
      if (!(rel <= record_.max_rel_diff)) record_.max_rel_diff = rel;
    }
  }
  ++record_.cross_checked_runs;
  return Status::OK();
}

Status SubgraphCompute::Run() {
  if (fell_back_) return RunOrigin();
  auto compiled = CompileCurrent();
  if (!compiled.ok()) {
    RETURN_IF_ERROR(FallBack(compiled.status().message()));
    return RunOrigin();
  }
  record_.state = SubgraphRecord::State::kOnDevice;
  record_.reason.clear();
  Status s = NpuContextOf(ctx())->options.cross_check ? CrossCheck(*compiled) : RunOnDevice(*compiled);
  if (s.ok()) return s;
  RETURN_IF_ERROR(FallBack("driver " + driver_->name() + " execute: " + s.message()));
  return RunOrigin();
}

}  // namespace npu
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(subgraph, kNPU, kFloat, kNCHW, lite::kernels::npu::SubgraphCompute, def)
    .BindInput("Inputs", lite::Place(TARGET(kHost)))
    .BindOutput("Outputs", lite::Place(TARGET(kHost)))
    .Finalize();
