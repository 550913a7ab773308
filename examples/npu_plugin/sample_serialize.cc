// The sample plugin's serialized executables: its ExecutableData as bytes
// (little-endian, "SREF" + version 1, then operands, operations, inputs,
// outputs; constants carry their floats, temporaries only their dims). A
// reader with bounds checks; bytes are accepted only for the very model the
// engine passes to deserialize, so stale or foreign bytes are refused.
#include <cstring>
#include <string>

#include "examples/npu_plugin/sample_model.h"

namespace sample {

namespace {

constexpr char kTag[4] = {'S', 'R', 'E', 'F'};
constexpr uint32_t kFormat = 1;

struct Out {
  std::vector<uint8_t> b;
  template <typename T>
  void Put(T v) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof(T));
  }
  template <typename T>
  void Seq(const std::vector<T>& v) {
    Put<uint64_t>(v.size());
    for (const T& x : v) Put<T>(x);
  }
  void Text(const std::string& s) {
    Put<uint64_t>(s.size());
    b.insert(b.end(), s.begin(), s.end());
  }
};

struct In {
  const uint8_t* p;
  size_t left;
  bool ok = true;
  template <typename T>
  T Get() {
    T v{};
    if (!ok || left < sizeof(T)) return ok = false, v;
    std::memcpy(&v, p, sizeof(T));
    p += sizeof(T);
    left -= sizeof(T);
    return v;
  }
  template <typename T>
  std::vector<T> Seq() {
    const uint64_t n = Get<uint64_t>();
    if (!ok || n > left / sizeof(T)) return ok = false, std::vector<T>();
    std::vector<T> v(n);
    for (T& x : v) x = Get<T>();
    return v;
  }
  std::string Text() {
    std::vector<char> c = Seq<char>();
    return std::string(c.begin(), c.end());
  }
};

bool SameIndices(const std::vector<int32_t>& mine, const int32_t* theirs, size_t count) {
  return mine.size() == count && (count == 0 || std::memcmp(mine.data(), theirs,
                                                            count * sizeof(int32_t)) == 0);
}

// Whether the attribute the engine passes has the value the bytes hold
// (only the field its kind uses matters).
bool SameAttr(const std::map<std::string, Attr>& mine, const lite_npu_attr& theirs) {
  auto it = mine.find(theirs.name);
  if (it == mine.end() || it->second.kind != theirs.kind) return false;
  const Attr& a = it->second;
  switch (theirs.kind) {
    case LITE_NPU_ATTR_INT: return a.i == theirs.int_value;
    case LITE_NPU_ATTR_FLOAT: return std::memcmp(&a.f, &theirs.float_value, sizeof(float)) == 0;
    case LITE_NPU_ATTR_INTS:
      return a.ints.size() == theirs.count &&
             (theirs.count == 0 ||
              std::memcmp(a.ints.data(), theirs.ints, theirs.count * sizeof(int64_t)) == 0);
    default:
      return a.floats.size() == theirs.count &&
             (theirs.count == 0 ||
              std::memcmp(a.floats.data(), theirs.floats, theirs.count * sizeof(float)) == 0);
  }
}

// "" when `exe` holds exactly `m`.
std::string SameModel(const ExecutableData& exe, const lite_npu_model* m) {
  if (exe.dims.size() != m->operand_count || exe.ops.size() != m->operation_count) {
    return "the bytes hold a model with other operand or operation counts";
  }
  for (size_t i = 0; i < m->operand_count; ++i) {
    const lite_npu_operand& o = m->operands[i];
    if (exe.types[i] != o.type || exe.lifetimes[i] != o.lifetime ||
        exe.dims[i] != std::vector<int64_t>(o.dims, o.dims + o.rank)) {
      return std::string("operand ") + o.name + " differs from the bytes";
    }
    if (o.lifetime == LITE_NPU_CONSTANT &&
        (o.data_bytes != exe.storage[i].size() * sizeof(float) ||
         std::memcmp(o.data, exe.storage[i].data(), o.data_bytes) != 0)) {
      return std::string("constant ") + o.name + " differs from the bytes";
    }
  }
  for (size_t k = 0; k < m->operation_count; ++k) {
    const lite_npu_operation& op = m->operations[k];
    if (exe.ops[k].type != op.type || !SameIndices(exe.ops[k].in, op.inputs, op.input_count) ||
        !SameIndices(exe.ops[k].out, op.outputs, op.output_count) ||
        exe.ops[k].attrs.size() != op.attr_count) {
      return "operation " + std::to_string(k) + " differs from the bytes";
    }
    for (size_t a = 0; a < op.attr_count; ++a) {
      if (!SameAttr(exe.ops[k].attrs, op.attrs[a])) {
        return "operation " + std::to_string(k) + " attribute " + op.attrs[a].name +
               " differs from the bytes";
      }
    }
  }
  if (!SameIndices(exe.inputs, m->inputs, m->input_count) ||
      !SameIndices(exe.outputs, m->outputs, m->output_count)) {
    return "model inputs or outputs differ from the bytes";
  }
  return "";
}

}  // namespace

std::vector<uint8_t> SerializeExecutable(const ExecutableData& exe) {
  Out out;
  out.b.assign(kTag, kTag + sizeof(kTag));
  out.Put<uint32_t>(kFormat);
  out.Put<uint64_t>(exe.dims.size());
  for (size_t i = 0; i < exe.dims.size(); ++i) {
    out.Put<int32_t>(exe.types[i]);
    out.Put<int32_t>(exe.lifetimes[i]);
    out.Seq(exe.dims[i]);
    out.Seq(exe.lifetimes[i] == LITE_NPU_CONSTANT ? exe.storage[i] : std::vector<float>());
  }
  out.Put<uint64_t>(exe.ops.size());
  for (const Op& op : exe.ops) {
    out.Put<int32_t>(op.type);
    out.Seq(op.in);
    out.Seq(op.out);
    out.Put<uint64_t>(op.attrs.size());
    for (const auto& kv : op.attrs) {
      out.Text(kv.first);
      out.Put<int32_t>(kv.second.kind);
      out.Put<int64_t>(kv.second.i);
      out.Put<float>(kv.second.f);
      out.Seq(kv.second.ints);
      out.Seq(kv.second.floats);
    }
    out.Text(op.origin);
  }
  out.Seq(exe.inputs);
  out.Seq(exe.outputs);
  return out.b;
}

std::string DeserializeExecutable(const uint8_t* bytes, size_t size, const lite_npu_model* model,
                                  ExecutableData* exe) {
  In in{bytes, size};
  if (size < sizeof(kTag) || std::memcmp(bytes, kTag, sizeof(kTag)) != 0) {
    return "not a sample_ref executable";
  }
  in.p += sizeof(kTag);
  in.left -= sizeof(kTag);
  if (in.Get<uint32_t>() != kFormat) return "unknown sample_ref executable format";
  const uint64_t operands = in.Get<uint64_t>();
  if (!in.ok || operands != model->operand_count) return "operand count differs";
  for (uint64_t i = 0; i < operands && in.ok; ++i) {
    exe->types.push_back(in.Get<int32_t>());
    exe->lifetimes.push_back(in.Get<int32_t>());
    exe->dims.push_back(in.Seq<int64_t>());
    exe->storage.push_back(in.Seq<float>());
  }
  const uint64_t ops = in.Get<uint64_t>();
  if (!in.ok || ops != model->operation_count) return "truncated, or operation count differs";
  for (uint64_t k = 0; k < ops && in.ok; ++k) {
    Op op;
    op.type = in.Get<int32_t>();
    op.in = in.Seq<int32_t>();
    op.out = in.Seq<int32_t>();
    const uint64_t attrs = in.Get<uint64_t>();
    for (uint64_t a = 0; a < attrs && in.ok; ++a) {
      std::string name = in.Text();
      Attr& at = op.attrs[name];
      at.kind = in.Get<int32_t>();
      at.i = in.Get<int64_t>();
      at.f = in.Get<float>();
      at.ints = in.Seq<int64_t>();
      at.floats = in.Seq<float>();
    }
    op.origin = in.Text();
    exe->ops.push_back(std::move(op));
  }
  exe->inputs = in.Seq<int32_t>();
  exe->outputs = in.Seq<int32_t>();
  if (!in.ok || in.left != 0) return "truncated or corrupt sample_ref executable";
  std::string why = SameModel(*exe, model);
  if (!why.empty()) return why;
  for (size_t i = 0; i < exe->dims.size(); ++i) {
    if (exe->lifetimes[i] == LITE_NPU_TEMPORARY) {
      int64_t numel = 1;
      for (int64_t d : exe->dims[i]) numel *= d;
      exe->storage[i].assign(numel, 0.f);
    }
  }
  return "";
}

}  // namespace sample
