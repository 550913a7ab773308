// sample_ref: an out-of-tree NPU driver built only against
// lite_npu_driver_abi.h. It fills one lite_npu_driver struct per instance;
// compile() copies the engine's model into its own types (sample_model.h)
// and allocates the temporaries, execute() runs the loops of sample_ops.cc
// on the caller's buffers. No global mutable state: instances are
// independent, as the ABI asks.
#include <cstdio>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>

#include "examples/npu_plugin/sample_model.h"

struct lite_npu_executable : sample::ExecutableData {};

// The ABI minor this build declares (the tests also build it as an old,
// minor-0 plugin, which never reads the minor-2 quantization fields) and the
// name it registers.
#ifndef SAMPLE_ABI_MINOR
#define SAMPLE_ABI_MINOR LITE_NPU_DRIVER_ABI_MINOR
#endif
#ifndef SAMPLE_DRIVER_NAME
#define SAMPLE_DRIVER_NAME "sample_ref"
#endif

namespace sample {

int64_t Op::Int(const char* key, int64_t fallback) const {
  auto it = attrs.find(key);
  return it != attrs.end() && it->second.kind == LITE_NPU_ATTR_INT ? it->second.i : fallback;
}
float Op::Float(const char* key, float fallback) const {
  auto it = attrs.find(key);
  return it != attrs.end() && it->second.kind == LITE_NPU_ATTR_FLOAT ? it->second.f : fallback;
}
std::vector<int64_t> Op::Ints(const char* key) const {
  auto it = attrs.find(key);
  return it != attrs.end() && it->second.kind == LITE_NPU_ATTR_INTS ? it->second.ints
                                                                    : std::vector<int64_t>();
}

namespace {

int32_t Fail(int32_t code, const std::string& text, char* message, size_t size) {
  if (message && size > 0) std::snprintf(message, size, "%s", text.c_str());
  return code;
}

std::string Checked(const lite_npu_model* m, const lite_npu_operation& op) {
  std::string why = Unsupported(op.type);
  if (!why.empty()) return why;
  for (size_t k = 0; k < op.input_count + op.output_count; ++k) {
    const int32_t idx = k < op.input_count ? op.inputs[k] : op.outputs[k - op.input_count];
#if SAMPLE_ABI_MINOR >= 2
    // ABI 1.2 engines describe quantized operands; this sample computes in
    // float32 only and says so precisely.
    const lite_npu_quantization& q = m->quantizations[idx];
    if (q.kind != LITE_NPU_QUANT_NONE) {
      return std::string("operand ") + m->operands[idx].name + " is quantized " +
             (q.kind == LITE_NPU_QUANT_PER_CHANNEL ? "per channel" : "per tensor") + " (" +
             std::to_string(q.scale_count) + " scales); sample_ref runs float32 only";
    }
#endif
    if (m->operands[idx].type != LITE_NPU_FLOAT32) {
      return std::string("operand ") + m->operands[idx].name + " is not float32";
    }
  }
  return "";
}

int32_t Supports(lite_npu_driver*, const lite_npu_model* model, size_t operation, char* message,
                 size_t size) {
  if (!model || operation >= model->operation_count) {
    return Fail(LITE_NPU_STATUS_INVALID_ARGUMENT, "no such operation", message, size);
  }
  std::string why = Checked(model, model->operations[operation]);
  return why.empty() ? LITE_NPU_STATUS_OK : Fail(LITE_NPU_STATUS_UNSUPPORTED, why, message, size);
}

Op CopyOp(const lite_npu_operation& src) {
  Op op;
  op.type = src.type;
  op.in.assign(src.inputs, src.inputs + src.input_count);
  op.out.assign(src.outputs, src.outputs + src.output_count);
  op.origin = src.origin ? src.origin : "";
  for (size_t a = 0; a < src.attr_count; ++a) {
    const lite_npu_attr& s = src.attrs[a];
    Attr& d = op.attrs[s.name];
    d.kind = s.kind;
    d.i = s.int_value;
    d.f = s.float_value;
    if (s.ints) d.ints.assign(s.ints, s.ints + s.count);
    if (s.floats) d.floats.assign(s.floats, s.floats + s.count);
  }
  return op;
}

int32_t Compile(lite_npu_driver*, const lite_npu_model* m, const lite_npu_compile_options*,
                lite_npu_executable** out, char* message, size_t size) {
  std::unique_ptr<lite_npu_executable> exe(new (std::nothrow) lite_npu_executable);
  if (!exe) return Fail(LITE_NPU_STATUS_INTERNAL, "out of memory", message, size);
  for (size_t i = 0; i < m->operation_count; ++i) {
    std::string why = Checked(m, m->operations[i]);
    if (!why.empty()) return Fail(LITE_NPU_STATUS_UNSUPPORTED, why, message, size);
    exe->ops.push_back(CopyOp(m->operations[i]));
  }
  exe->storage.resize(m->operand_count);
  for (size_t i = 0; i < m->operand_count; ++i) {
    const lite_npu_operand& o = m->operands[i];
    exe->types.push_back(o.type);
    exe->lifetimes.push_back(o.lifetime);
    exe->dims.emplace_back(o.dims, o.dims + o.rank);
    int64_t numel = 1;
    for (size_t r = 0; r < o.rank; ++r) numel *= o.dims[r];
    if (o.lifetime == LITE_NPU_CONSTANT) {
      if (!o.data || o.data_bytes != numel * sizeof(float)) {
        return Fail(LITE_NPU_STATUS_INVALID_ARGUMENT, std::string("constant ") + o.name +
                    " has no data of the right size", message, size);
      }
      const float* f = static_cast<const float*>(o.data);
      exe->storage[i].assign(f, f + numel);
    } else if (o.lifetime == LITE_NPU_TEMPORARY) {
      exe->storage[i].resize(numel);
    }
  }
  exe->inputs.assign(m->inputs, m->inputs + m->input_count);
  exe->outputs.assign(m->outputs, m->outputs + m->output_count);
  *out = exe.release();
  return LITE_NPU_STATUS_OK;
}

int32_t Execute(lite_npu_driver*, lite_npu_executable* exe, const lite_npu_input* inputs,
                size_t input_count, lite_npu_output* outputs, size_t output_count, char* message,
                size_t size) {
  if (input_count != exe->inputs.size() || output_count != exe->outputs.size()) {
    return Fail(LITE_NPU_STATUS_INVALID_ARGUMENT, "wrong number of inputs or outputs", message,
                size);
  }
  std::vector<float*> data(exe->storage.size(), nullptr);
  for (size_t i = 0; i < data.size(); ++i) {
    if (!exe->storage[i].empty()) data[i] = exe->storage[i].data();
  }
  // Inputs are only read by the loops; Tensor has one (mutable) pointer type.
  for (size_t i = 0; i < input_count; ++i) {
    data[exe->inputs[i]] = static_cast<float*>(const_cast<void*>(inputs[i].data));
  }
  for (size_t i = 0; i < output_count; ++i) {
    const auto& dims = exe->dims[exe->outputs[i]];
    int64_t numel = 1;
    for (int64_t d : dims) numel *= d;
    if (outputs[i].capacity < numel * sizeof(float) || dims.size() > LITE_NPU_MAX_RANK) {
      return Fail(LITE_NPU_STATUS_INVALID_ARGUMENT, "output buffer too small", message, size);
    }
    data[exe->outputs[i]] = static_cast<float*>(outputs[i].data);
  }
  for (const Op& op : exe->ops) {
    std::vector<Tensor> in, out;
    for (int32_t idx : op.in) in.push_back({data[idx], exe->dims[idx]});
    for (int32_t idx : op.out) out.push_back({data[idx], exe->dims[idx]});
    std::string err = RunOp(op, in, out);
    if (!err.empty()) return Fail(LITE_NPU_STATUS_INTERNAL, op.origin + ": " + err, message, size);
  }
  for (size_t i = 0; i < output_count; ++i) {
    const auto& dims = exe->dims[exe->outputs[i]];
    outputs[i].rank = dims.size();
    std::copy(dims.begin(), dims.end(), outputs[i].dims);
    int64_t numel = 1;
    for (int64_t d : dims) numel *= d;
    outputs[i].bytes_written = numel * sizeof(float);
  }
  return LITE_NPU_STATUS_OK;
}

#if SAMPLE_ABI_MINOR >= 1  // serialize / deserialize came with ABI 1.1
int32_t Serialize(lite_npu_driver*, const lite_npu_executable* exe, uint8_t* buffer,
                  size_t capacity, size_t* size, char* message, size_t message_size) {
  const std::vector<uint8_t> bytes = SerializeExecutable(*exe);
  if (buffer && capacity < bytes.size()) {
    return Fail(LITE_NPU_STATUS_INVALID_ARGUMENT, "serialize buffer too small", message,
                message_size);
  }
  if (buffer) std::memcpy(buffer, bytes.data(), bytes.size());
  *size = bytes.size();
  return LITE_NPU_STATUS_OK;
}

int32_t Deserialize(lite_npu_driver*, const lite_npu_model* model, const uint8_t* bytes,
                    size_t size, const lite_npu_compile_options*, lite_npu_executable** out,
                    char* message, size_t message_size) {
  std::unique_ptr<lite_npu_executable> exe(new (std::nothrow) lite_npu_executable);
  if (!exe) return Fail(LITE_NPU_STATUS_INTERNAL, "out of memory", message, message_size);
  std::string why = DeserializeExecutable(bytes, size, model, exe.get());
  if (!why.empty()) return Fail(LITE_NPU_STATUS_INVALID_ARGUMENT, why, message, message_size);
  *out = exe.release();
  return LITE_NPU_STATUS_OK;
}
#endif

void DestroyExecutable(lite_npu_driver*, lite_npu_executable* exe) { delete exe; }

void Destroy(lite_npu_driver* self) { delete self; }

}  // namespace
}  // namespace sample

extern "C" {

LITE_NPU_DRIVER_EXPORT uint32_t lite_npu_driver_api_version(void) {
  return LITE_NPU_DRIVER_MAKE_VERSION(LITE_NPU_DRIVER_ABI_MAJOR, SAMPLE_ABI_MINOR);
}

LITE_NPU_DRIVER_EXPORT lite_npu_driver* lite_npu_driver_create(void) {
  lite_npu_driver* d = new (std::nothrow) lite_npu_driver;
  if (!d) return nullptr;
  std::memset(d, 0, sizeof(*d));
#if SAMPLE_ABI_MINOR >= 1
  d->struct_size = sizeof(lite_npu_driver);
#else  // an ABI 1.0 plugin's struct ends before the 1.1 fields
  d->struct_size = offsetof(lite_npu_driver, serialize);
#endif
  d->name = SAMPLE_DRIVER_NAME;
  d->version = "1.0.0";
  d->supports = sample::Supports;
  d->compile = sample::Compile;
  d->execute = sample::Execute;
  d->destroy_executable = sample::DestroyExecutable;
  d->destroy = sample::Destroy;
#if SAMPLE_ABI_MINOR >= 1
  d->serialize = sample::Serialize;
  d->deserialize = sample::Deserialize;
  d->cpu_features = "any";  // plain loops, no machine code in the bytes
#endif
  return d;
}

}  // extern "C"
