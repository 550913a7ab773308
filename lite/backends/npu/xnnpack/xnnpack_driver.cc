#include "lite/backends/npu/xnnpack/xnnpack_driver.h"

#include <pthreadpool.h>
#include <xnnpack.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "lite/backends/npu/xnnpack/kept_blocks.h"
#include "lite/backends/npu/xnnpack/xnnpack_builder.h"
#include "lite/backends/npu/xnnpack/xnnpack_kernels.h"
#include "lite/backends/npu/xnnpack/xnnpack_op_path.h"

namespace lite {
namespace npu {

namespace {

// XNNPACK's memory comes from KeptBlocks (its large blocks stay mapped for
// the next executable); the first xnn_initialize in the process sets it.
void* XnnAllocate(void*, size_t size) { return KeptBlocks::Global().Allocate(size, 16); }
void* XnnReallocate(void*, void* pointer, size_t size) {
  return KeptBlocks::Global().Reallocate(pointer, size);
}
void XnnDeallocate(void*, void* pointer) { KeptBlocks::Global().Free(pointer); }
void* XnnAlignedAllocate(void*, size_t alignment, size_t size) {
  return KeptBlocks::Global().Allocate(size, alignment);
}

Status Initialize() {
  static const xnn_allocator allocator = {nullptr, XnnAllocate, XnnReallocate, XnnDeallocate,
                                          XnnAlignedAllocate, XnnDeallocate};
  static xnn_status status = [] { return xnn_initialize(&allocator); }();
  if (status != xnn_status_success) {
    return Unimplemented("xnnpack: xnn_initialize failed (xnn_status " +
                         std::to_string(static_cast<int>(status)) + ")");
  }
  return Status::OK();
}

// Segments run in order: XNNPACK runtimes, and the driver's own NHWC
// kernels between them. Every operand crossing a segment (and every model
// input and output) has a buffer here, NHWC for 4-D operands.
struct Segment {
  std::vector<size_t> ops;
  bool kernel = false;  // else an XNNPACK runtime
  xnn_subgraph_t subgraph = nullptr;
  xnn_runtime_t runtime = nullptr;
};

class XnnpackExecutable : public Executable {
 public:
  ~XnnpackExecutable() override {
    for (Segment& s : segments) {
      if (s.runtime) xnn_delete_runtime(s.runtime);
      if (s.subgraph) xnn_delete_subgraph(s.subgraph);
    }
    if (pool) pthreadpool_destroy(pool);
  }
  std::string Describe() const override { return "xnnpack subgraph runtime (" + why + ")"; }
  std::string why;  // why the operator path declined
  Model model;  // constant data kept: kernel segments may read constants
  std::vector<Segment> segments;
  pthreadpool_t pool = nullptr;
  ConstantStore constants;  // transformed, owned for XNNPACK
  // Boundary operand -> NHWC data, from KeptBlocks: a compile takes the
  // pages an evicted executable left, already resident.
  std::map<int, KeptFloats> buffers;
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
  for (const Operation& op : model.operations) RETURN_IF_ERROR(XnnpackSupports(model, op));
  // The paths in order, the first that takes the model wins: operators
  // (created once, set up per size), then one subgraph runtime per size,
  // which records why the operators declined.
  auto exe = operators_.Compile(model, options.threads);
  if (exe.ok()) return exe;
  return CompileRuntime(model, options, exe.status().message());
}

StatusOr<std::unique_ptr<Executable>> XnnpackDriver::CompileRuntime(const Model& model,
                                                                    const CompileOptions& options,
                                                                    const std::string& why) {
  auto exe = std::make_unique<XnnpackExecutable>();
  exe->why = "operators declined: " + why;
  exe->model = model;
  // Segments: runs of XNNPACK operations, each own-kernel operation alone.
  std::vector<int> segment_of(model.operations.size());
  for (size_t i = 0; i < model.operations.size(); ++i) {
    const bool kernel = IsNhwcKernel(model, model.operations[i]);
    if (exe->segments.empty() || kernel || exe->segments.back().kernel) {
      exe->segments.emplace_back();
      exe->segments.back().kernel = kernel;
    }
    exe->segments.back().ops.push_back(i);
    segment_of[i] = static_cast<int>(exe->segments.size()) - 1;
  }
  // Boundary operands: model inputs/outputs, operands read in another
  // segment than the one writing them, and every operand a kernel touches.
  std::vector<int> producer(model.operands.size(), -1);
  for (size_t i = 0; i < model.operations.size(); ++i) {
    for (int o : model.operations[i].outputs) producer[o] = segment_of[i];
  }
  std::set<int> boundary(model.inputs.begin(), model.inputs.end());
  boundary.insert(model.outputs.begin(), model.outputs.end());
  for (size_t i = 0; i < model.operations.size(); ++i) {
    const Operation& op = model.operations[i];
    const bool kernel = exe->segments[segment_of[i]].kernel;
    for (int in : op.inputs) {
      if (kernel || (producer[in] >= 0 && producer[in] != segment_of[i])) boundary.insert(in);
    }
    if (kernel) boundary.insert(op.outputs.begin(), op.outputs.end());
  }
  for (int idx : boundary) {
    const Operand& o = model.operands[idx];
    if (o.type == ElementType::kInt8 &&
        (o.lifetime == Lifetime::kModelInput || o.lifetime == Lifetime::kModelOutput)) {
      return Unimplemented("xnnpack: int8 model input or output " + o.name);
    }
    KeptFloats& buffer = exe->buffers[idx] = AllocateKeptFloats(o.numel());
    if (o.lifetime == Lifetime::kConstant) {
      const std::vector<float> nhwc = NhwcData(o.f32(), o.dims);
      std::copy(nhwc.begin(), nhwc.end(), buffer.get());
    }
  }
  if (options.threads > 1) exe->pool = pthreadpool_create(static_cast<size_t>(options.threads));
  for (Segment& seg : exe->segments) {
    if (seg.kernel) continue;
    std::map<int, uint32_t> externals;
    std::set<int> inputs, written;
    for (size_t i : seg.ops) {
      for (int o : model.operations[i].outputs) written.insert(o);
    }
    for (size_t i : seg.ops) {
      const Operation& op = model.operations[i];
      for (int in : op.inputs) {
        if (boundary.count(in) && !written.count(in) && !externals.count(in)) {
          inputs.insert(in);
          externals.emplace(in, static_cast<uint32_t>(externals.size()));
        }
      }
      for (int out : op.outputs) {
        if (boundary.count(out) && !externals.count(out)) {
          externals.emplace(out, static_cast<uint32_t>(externals.size()));
        }
      }
    }
    xnn_status s = xnn_create_subgraph(static_cast<uint32_t>(externals.size()), 0, &seg.subgraph);
    if (s != xnn_status_success) return Internal("xnnpack: xnn_create_subgraph failed");
    XnnpackBuilder builder(model, seg.subgraph, &exe->constants, externals, inputs);
    RETURN_IF_ERROR(builder.Build(seg.ops));
    s = xnn_create_runtime_v2(seg.subgraph, exe->pool, 0, &seg.runtime);
    if (s != xnn_status_success) {
      return Internal("xnnpack: xnn_create_runtime_v2 failed (xnn_status " +
                      std::to_string(static_cast<int>(s)) + ")");
    }
    // Buffers never move: set the runtime up once.
    std::vector<xnn_external_value> values;
    for (const auto& kv : externals) values.push_back({kv.second, exe->buffers[kv.first].get()});
    s = xnn_setup_runtime(seg.runtime, values.size(), values.data());
    if (s != xnn_status_success) {
      return Internal("xnnpack: xnn_setup_runtime failed (xnn_status " +
                      std::to_string(static_cast<int>(s)) + ")");
    }
  }
  return std::unique_ptr<Executable>(std::move(exe));
}

Status XnnpackDriver::Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                              const std::vector<HostTensor>& outputs) {
  if (OperatorPath::Owns(executable)) return OperatorPath::Execute(executable, inputs, outputs);
  auto* exe = dynamic_cast<XnnpackExecutable*>(executable);
  if (!exe) return InvalidArgument("not an executable of the xnnpack driver");
  const Model& m = exe->model;
  RETURN_IF_ERROR(CheckHostTensors(m, inputs, outputs));
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    ToStored(static_cast<const float*>(inputs[i].data), exe->buffers[m.inputs[i]].get(),
             m.operands[m.inputs[i]].dims);
  }
  for (Segment& seg : exe->segments) {
    if (!seg.kernel) {
      xnn_status s = xnn_invoke_runtime(seg.runtime);
      if (s != xnn_status_success) {
        return Internal("xnnpack: xnn_invoke_runtime failed (xnn_status " +
                        std::to_string(static_cast<int>(s)) + ")");
      }
      continue;
    }
    const Operation& op = m.operations[seg.ops.front()];
    std::vector<const float*> in;
    std::vector<float*> out;
    for (int idx : op.inputs) in.push_back(exe->buffers[idx].get());
    for (int idx : op.outputs) out.push_back(exe->buffers[idx].get());
    RunNhwcKernel(m, op, in, out);
  }
  for (size_t i = 0; i < m.outputs.size(); ++i) {
    FromStored(exe->buffers[m.outputs[i]].get(), static_cast<float*>(outputs[i].data),
               m.operands[m.outputs[i]].dims);
  }
  return Status::OK();
}

}  // namespace npu
}  // namespace lite

REGISTER_NPU_DRIVER(xnnpack, lite::npu::XnnpackDriver);
