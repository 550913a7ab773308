#include "lite/backends/npu/ccodegen/ccodegen_emit.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <map>
#include <sstream>

#include "lite/backends/npu/ccodegen/ccodegen_emit_util.h"

namespace lite {
namespace npu {

namespace {

using ccg_emit::AlignUp;
using ccg_emit::BinaryCode;
using ccg_emit::BroadcastStrides;
using ccg_emit::ConvBufferFloats;
using ccg_emit::FloatLiteral;
using ccg_emit::Ints;
using ccg_emit::kAlignFloats;
using ccg_emit::Product;
using ccg_emit::RowMajorStrides;
using ccg_emit::UnaryCode;

// Writes the entry function's body, one block per operation.
class Emitter {
 public:
  explicit Emitter(const Model& model) : m_(model), where_(model.operands.size()) {}

  Status Run(GeneratedModel* out) {
    int64_t weight_end = 0;
    for (size_t i = 0; i < m_.operands.size(); ++i) {
      const Operand& o = m_.operands[i];
      if (o.lifetime == Lifetime::kConstant) {
        where_[i] = "(w + " + std::to_string(weight_end) + ")";
        weight_end = AlignUp(weight_end + o.numel());
      }
    }
    int64_t scratch_end = PlanTemporaries();
    // One im2col buffer after the temporaries, as large as the largest conv needs.
    col_ = "(s + " + std::to_string(scratch_end) + ")";
    int64_t col_floats = 0;
    for (const Operation& op : m_.operations) {
      if (op.type != OperationType::kConv2D || op.inputs.size() < 2 || op.outputs.empty()) continue;
      const auto& x = Dims(op.inputs[0]);
      const auto& f = Dims(op.inputs[1]);
      const auto& y = Dims(op.outputs[0]);
      if (x.size() == 4 && f.size() == 4 && y.size() == 4) {
        col_floats = std::max(col_floats, ConvBufferFloats(op, x, f, y));
      }
    }
    scratch_end += AlignUp(col_floats);
    for (size_t i = 0; i < m_.inputs.size(); ++i) where_[m_.inputs[i]] = "in[" + std::to_string(i) + "]";
    for (size_t i = 0; i < m_.outputs.size(); ++i) where_[m_.outputs[i]] = "out[" + std::to_string(i) + "]";
    for (const Operation& op : m_.operations) {
      Status s = CcodegenSupports(m_, op);
      if (s.ok()) s = CheckRanks(op);
      if (s.ok()) s = EmitOperation(op);
      if (!s.ok()) return s.WithContext(op.origin);
    }
    out->scratch_floats = scratch_end;
    return Status::OK();
  }

  std::string body() const { return body_.str(); }

 private:
  // Places every temporary in the scratch arena for the span from its
  // producer to its last reader (first fit, in execution order; an
  // operation's outputs are placed before its inputs are released, so they
  // never overlap them). Returns the arena's size.
  int64_t PlanTemporaries() {
    std::vector<size_t> last_read(m_.operands.size(), 0);
    for (size_t k = 0; k < m_.operations.size(); ++k) {
      for (int idx : m_.operations[k].inputs) last_read[idx] = k;
    }
    std::map<int64_t, int64_t> free_ranges;  // offset -> floats, coalesced
    int64_t end = 0;
    auto take = [&](int64_t size) {
      for (auto it = free_ranges.begin(); it != free_ranges.end(); ++it) {
        if (it->second < size) continue;
        const int64_t at = it->first, left = it->second - size;
        free_ranges.erase(it);
        if (left > 0) free_ranges[at + size] = left;
        return at;
      }
      end += size;
      return end - size;
    };
    auto release = [&](int64_t at, int64_t size) {
      auto next = free_ranges.lower_bound(at);
      if (next != free_ranges.end() && next->first == at + size) {
        size += next->second;
        next = free_ranges.erase(next);
      }
      if (next != free_ranges.begin()) {
        auto prev = std::prev(next);
        if (prev->first + prev->second == at) {
          prev->second += size;
          return;
        }
      }
      free_ranges[at] = size;
    };
    std::vector<int64_t> offset(m_.operands.size(), -1);
    auto is_temporary = [&](int idx) { return m_.operands[idx].lifetime == Lifetime::kTemporary; };
    auto size_of = [&](int idx) { return AlignUp(std::max<int64_t>(m_.operands[idx].numel(), 1)); };
    for (size_t k = 0; k < m_.operations.size(); ++k) {
      const Operation& op = m_.operations[k];
      for (int idx : op.outputs) {
        if (is_temporary(idx) && offset[idx] < 0) {
          offset[idx] = take(size_of(idx));
          where_[idx] = "(s + " + std::to_string(offset[idx]) + ")";
        }
      }
      std::vector<int> done;  // released once, even when read twice
      for (const auto* list : {&op.inputs, &op.outputs}) {
        for (int idx : *list) {
          if (is_temporary(idx) && offset[idx] >= 0 && last_read[idx] <= k &&
              std::find(done.begin(), done.end(), idx) == done.end()) {
            done.push_back(idx);
          }
        }
      }
      for (int idx : done) release(offset[idx], size_of(idx));
    }
    return end;
  }

  const std::vector<int64_t>& Dims(int idx) const { return m_.operands[idx].dims; }
  const std::string& P(int idx) const { return where_[idx]; }

  // The ranks the kernels index with; generic kernels need rank >= 1.
  Status CheckRanks(const Operation& op) const {
    for (const auto* list : {&op.inputs, &op.outputs}) {
      for (int idx : *list) {
        if (Dims(idx).empty()) return Unimplemented("0-D operand " + m_.operands[idx].name);
      }
    }
    const size_t rank = Dims(op.inputs[0]).size();
    size_t want = 0;
    if (op.type == OperationType::kConv2D || op.type == OperationType::kPool2D ||
        op.type == OperationType::kConv2DTranspose || op.type == OperationType::kResizeNearest ||
        op.type == OperationType::kResizeBilinear) {
      want = 4;
    }
    if (op.type == OperationType::kFullyConnected) want = 2;
    if (op.type == OperationType::kBatchNorm && rank < 2) want = 2;
    if (want && rank != want) {
      return InvalidArgument("input " + m_.operands[op.inputs[0]].name + " is " + std::to_string(rank) +
                             "-D, " + std::to_string(want) + "-D expected");
    }
    return Status::OK();
  }

  Status EmitOperation(const Operation& op) {
    body_ << "  /* " << OperationTypeName(op.type) << ": " << op.origin << " */\n  {\n";
    Status s = EmitCall(op);
    body_ << "  }\n";
    return s;
  }

  Status EmitCall(const Operation& op) {
    const auto& x = Dims(op.inputs[0]);
    const auto& y = Dims(op.outputs[0]);
    const int unary = UnaryCode(op.type);
    if (unary >= 0) {
      const float p[9] = {op.Float("alpha"),         op.Float("beta", 1.f),  op.Float("min"),
                          op.Float("max"),           op.Float("threshold", 6.f),
                          op.Float("scale", 1.f),    op.Float("offset"),
                          op.Float("slope", 0.2f),   op.Float("bias")};
      body_ << "    static const float p[9] = {";
      for (int i = 0; i < 9; ++i) body_ << (i ? ", " : "") << FloatLiteral(p[i]);
      body_ << "};\n    ccg_unary(" << unary << ", " << P(op.inputs[0]) << ", " << P(op.outputs[0])
            << ", " << Product(x, 0, x.size()) << ", p);\n";
      return Status::OK();
    }
    switch (op.type) {
      case OperationType::kConv2D:
      case OperationType::kConv2DTranspose: return EmitConv(op);
      case OperationType::kResizeNearest:
      case OperationType::kResizeBilinear: {
        const bool nearest = op.type == OperationType::kResizeNearest;
        const bool align_corners = op.Int("align_corners") != 0;
        const bool half_pixel = !nearest && op.Int("align_mode", 1) == 0 && !align_corners;
        body_ << "    ccg_resize(" << P(op.inputs[0]) << ", " << P(op.outputs[0]) << ", " << x[0] * x[1]
              << ", " << x[2] << ", " << x[3] << ", " << y[2] << ", " << y[3] << ", " << nearest << ", "
              << align_corners << ", " << half_pixel << ", " << FloatLiteral(op.Float("ratio_h")) << ", "
              << FloatLiteral(op.Float("ratio_w")) << ");\n";
        return Status::OK();
      }
      case OperationType::kPool2D: return EmitPool(op);
      case OperationType::kFullyConnected:
        if (Dims(op.inputs[1]).size() != 2 || Dims(op.inputs[1])[0] != x[1] ||
            (op.inputs.size() > 2 && Dims(op.inputs[2]) != std::vector<int64_t>{Dims(op.inputs[1])[1]})) {
          return InvalidArgument("weights " + Ints(Dims(op.inputs[1])) + " do not fit input " + Ints(x));
        }
        body_ << "    ccg_fully_connected(" << P(op.inputs[0]) << ", " << P(op.inputs[1]) << ", "
              << (op.inputs.size() > 2 ? P(op.inputs[2]) : "0") << ", " << P(op.outputs[0]) << ", "
              << x[0] << ", " << x[1] << ", " << Dims(op.inputs[1])[1] << ");\n";
        return Status::OK();
      case OperationType::kAdd: case OperationType::kSub: case OperationType::kMul:
      case OperationType::kDiv: case OperationType::kMax: case OperationType::kMin:
      case OperationType::kPRelu: {
        const auto& yin = Dims(op.inputs[1]);
        if (x.size() > y.size() || yin.size() > y.size()) {
          return InvalidArgument("binary operand has a higher rank than its output");
        }
        body_ << "    static const int64_t dims[] = " << Ints(y) << ";\n"
              << "    static const int64_t sx[] = " << Ints(BroadcastStrides(x, y.size())) << ";\n"
              << "    static const int64_t sy[] = " << Ints(BroadcastStrides(yin, y.size())) << ";\n"
              << "    ccg_binary(" << BinaryCode(op.type) << ", " << P(op.inputs[0]) << ", "
              << P(op.inputs[1]) << ", " << P(op.outputs[0]) << ", " << y.size()
              << ", dims, sx, sy);\n";
        return Status::OK();
      }
      case OperationType::kSoftmax: {
        const int64_t axis = op.Int("axis", static_cast<int64_t>(x.size()) - 1);
        if (axis < 0 || axis >= static_cast<int64_t>(x.size())) return InvalidArgument("softmax axis out of range");
        body_ << "    ccg_softmax(" << P(op.inputs[0]) << ", " << P(op.outputs[0]) << ", "
              << Product(x, 0, axis) << ", " << x[axis] << ", " << Product(x, axis + 1, x.size())
              << ");\n";
        return Status::OK();
      }
      case OperationType::kReshape:
        body_ << "    memcpy(" << P(op.outputs[0]) << ", " << P(op.inputs[0]) << ", "
              << Product(x, 0, x.size()) << " * sizeof(float));\n";
        return Status::OK();
      case OperationType::kTranspose: {
        const auto perm = op.Ints("perm");
        if (perm.size() != x.size() || y.size() != x.size()) return InvalidArgument("perm rank mismatch");
        const auto xs = RowMajorStrides(x);
        std::vector<int64_t> sx;
        for (int64_t p : perm) {
          if (p < 0 || p >= static_cast<int64_t>(x.size())) return InvalidArgument("perm out of range");
          sx.push_back(xs[p]);
        }
        return EmitGather(op, sx, 0);
      }
      case OperationType::kSlice: {
        const auto begins = op.Ints("begins");
        if (begins.size() != x.size() || y.size() != x.size()) return InvalidArgument("begins rank mismatch");
        const auto xs = RowMajorStrides(x);
        int64_t base = 0;
        for (size_t r = 0; r < x.size(); ++r) {
          if (begins[r] < 0 || begins[r] + y[r] > x[r]) {
            return InvalidArgument("slice " + Ints(begins) + " + " + Ints(y) + " outside " + Ints(x));
          }
          base += begins[r] * xs[r];
        }
        return EmitGather(op, xs, base);
      }
      case OperationType::kConcat: return EmitBlocks(op, op.inputs, op.outputs[0], false);
      case OperationType::kSplit: return EmitBlocks(op, op.outputs, op.inputs[0], true);
      case OperationType::kPad: {
        const auto pads = op.Ints("paddings");
        if (pads.size() != 2 * x.size() || y.size() != x.size()) return InvalidArgument("paddings size");
        for (size_t r = 0; r < x.size(); ++r) {
          // Reflection mirrors once: it needs paddings below the dim.
          const int64_t limit = op.Int("mode") == 1 ? x[r] - 1 : INT64_MAX;
          if (std::min(pads[2 * r], pads[2 * r + 1]) < 0 ||
              std::max(pads[2 * r], pads[2 * r + 1]) > limit) {
            return InvalidArgument("paddings " + Ints(pads) + " do not fit " + Ints(x));
          }
        }
        body_ << "    static const int64_t xd[] = " << Ints(x) << ";\n"
              << "    static const int64_t yd[] = " << Ints(y) << ";\n"
              << "    static const int64_t pads[] = " << Ints(pads) << ";\n"
              << "    ccg_pad(" << P(op.inputs[0]) << ", " << P(op.outputs[0]) << ", " << x.size()
              << ", xd, yd, pads, " << op.Int("mode") << ", " << FloatLiteral(op.Float("value"))
              << ");\n";
        return Status::OK();
      }
      case OperationType::kBatchNorm:
        body_ << "    ccg_batch_norm(" << P(op.inputs[0]) << ", " << P(op.inputs[1]) << ", "
              << P(op.inputs[2]) << ", " << P(op.inputs[3]) << ", " << P(op.inputs[4]) << ", "
              << P(op.outputs[0]) << ", " << x[0] << ", " << x[1] << ", "
              << Product(x, 2, x.size()) << ", " << FloatLiteral(op.Float("epsilon", 1e-5f))
              << ");\n";
        return Status::OK();
      default:
        return Unimplemented("no emitter");
    }
  }

  Status EmitConv(const Operation& op) {
    auto strides = op.Ints("strides"), pads = op.Ints("paddings"), dil = op.Ints("dilations");
    if (dil.empty()) dil = {1, 1};
    if (strides.size() != 2 || pads.size() != 4 || dil.size() != 2) {
      return InvalidArgument("strides [2], paddings [4] and dilations [2] expected");
    }
    if (strides[0] < 1 || strides[1] < 1 || dil[0] < 1 || dil[1] < 1) {
      return InvalidArgument("strides " + Ints(strides) + " and dilations " + Ints(dil) +
                             " must be positive");
    }
    const int64_t groups = std::max<int64_t>(1, op.Int("groups", 1));
    const auto& x = Dims(op.inputs[0]);
    const auto& f = Dims(op.inputs[1]);
    const auto& y = Dims(op.outputs[0]);
    const bool transpose = op.type == OperationType::kConv2DTranspose;
    // conv: filter [O, C/groups, kh, kw]; transpose: [C, O/groups, kh, kw].
    const bool fits = f.size() == 4 && x[1] % groups == 0 && y[1] % groups == 0 &&
                      (transpose ? f[0] == x[1] && f[1] == y[1] / groups
                                 : f[0] == y[1] && f[1] == x[1] / groups);
    if (!fits) {
      return InvalidArgument("filter " + Ints(f) + " does not fit input " + Ints(x) + ", output " +
                             Ints(y) + " and groups " + std::to_string(groups));
    }
    body_ << "    ccg_conv2d" << (transpose ? "_transpose(" : "(") << P(op.inputs[0]) << ", "
          << P(op.inputs[1]) << ", " << (op.inputs.size() > 2 ? P(op.inputs[2]) : "0") << ", "
          << P(op.outputs[0]) << (transpose ? "" : ", " + col_);
    for (int64_t v : {x[0], x[1], x[2], x[3], y[1], y[2], y[3], f[2], f[3], strides[0], strides[1],
                      pads[0], pads[2], dil[0], dil[1], groups}) {
      body_ << ", " << v;
    }
    body_ << ");\n";
    return Status::OK();
  }

  Status EmitPool(const Operation& op) {
    auto ks = op.Ints("ksize"), strides = op.Ints("strides"), pads = op.Ints("paddings");
    if (ks.size() != 2 || strides.size() != 2 || pads.size() != 4) {
      return InvalidArgument("ksize [2], strides [2] and paddings [4] expected");
    }
    const auto& x = Dims(op.inputs[0]);
    const auto& y = Dims(op.outputs[0]);
    body_ << "    ccg_pool2d(" << P(op.inputs[0]) << ", " << P(op.outputs[0]);
    for (int64_t v : {x[0] * x[1], x[2], x[3], y[2], y[3], ks[0], ks[1], strides[0], strides[1],
                      pads[0], pads[2]}) {
      body_ << ", " << v;
    }
    body_ << ", " << (op.Int("pool_type", 0) == 0) << ", " << (op.Int("exclusive", 1) != 0) << ");\n";
    return Status::OK();
  }

  Status EmitGather(const Operation& op, const std::vector<int64_t>& sx, int64_t base) {
    const auto& y = Dims(op.outputs[0]);
    body_ << "    static const int64_t dims[] = " << Ints(y) << ";\n"
          << "    static const int64_t sx[] = " << Ints(sx) << ";\n"
          << "    ccg_gather(" << P(op.inputs[0]) << ", " << P(op.outputs[0]) << ", " << y.size()
          << ", dims, sx, " << base << ");\n";
    return Status::OK();
  }

  // Concat (parts = inputs, whole = output) or split (parts = outputs).
  Status EmitBlocks(const Operation& op, const std::vector<int>& parts, int whole, bool split) {
    const auto& w = Dims(whole);
    const int64_t axis = op.Int("axis");
    if (axis < 0 || axis >= static_cast<int64_t>(w.size())) return InvalidArgument("axis out of range");
    const int64_t outer = Product(w, 0, axis), inner = Product(w, axis + 1, w.size());
    int64_t offset = 0;
    for (int part : parts) {
      if (Dims(part).size() != w.size()) return InvalidArgument("parts of different ranks");
      const int64_t len = Dims(part)[axis];
      body_ << "    ccg_copy_block(" << (split ? P(whole) : P(part)) << ", "
            << (split ? P(part) : P(whole)) << ", " << outer << ", " << len << ", " << w[axis] << ", "
            << offset << ", " << inner << ", " << split << ");\n";
      offset += len;
    }
    if (offset != w[axis]) return InvalidArgument("parts do not add up along axis " + std::to_string(axis));
    return Status::OK();
  }

  const Model& m_;
  std::vector<std::string> where_;  // C expression of each operand's buffer
  std::string col_;                 // C expression of the im2col buffer
  std::ostringstream body_;
};

}  // namespace

uint64_t Fnv1a64(const void* data, size_t size, uint64_t hash) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < size; ++i) {
    hash ^= p[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

std::string ModelFingerprint(const Model& model) {
  std::ostringstream text;
  text << "ccodegen " << kCcodegenVersion << "\n";
  for (const Operand& o : model.operands) {
    text << static_cast<int>(o.type) << " " << static_cast<int>(o.lifetime) << " " << Ints(o.dims);
    if (o.lifetime == Lifetime::kConstant) {
      char digest[32];
      std::snprintf(digest, sizeof(digest), " %016llx",
                    static_cast<unsigned long long>(Fnv1a64(o.data.data(), o.data.size())));
      text << digest;
    }
    text << "\n";
  }
  for (const Operation& op : model.operations) {
    text << static_cast<int>(op.type) << " in";
    for (int i : op.inputs) text << " " << i;
    text << " out";
    for (int i : op.outputs) text << " " << i;
    for (const auto& [key, value] : op.attrs) {  // std::map: sorted by name
      text << " " << key << "=";
      if (const auto* i = std::get_if<int64_t>(&value)) text << *i;
      if (const auto* f = std::get_if<float>(&value)) text << FloatLiteral(*f);
      if (const auto* iv = std::get_if<std::vector<int64_t>>(&value)) text << Ints(*iv);
      if (const auto* fv = std::get_if<std::vector<float>>(&value)) {
        for (float f : *fv) text << FloatLiteral(f) << ",";
      }
    }
    text << "\n";
  }
  text << "inputs";
  for (int i : model.inputs) text << " " << i;
  text << " outputs";
  for (int i : model.outputs) text << " " << i;
  const std::string s = text.str();
  char hex[32];
  std::snprintf(hex, sizeof(hex), "%016llx", static_cast<unsigned long long>(Fnv1a64(s.data(), s.size())));
  return hex;
}

std::vector<float> PackWeights(const Model& model) {
  std::vector<float> blob;
  for (const Operand& o : model.operands) {
    if (o.lifetime != Lifetime::kConstant) continue;
    const size_t at = blob.size();
    blob.resize(AlignUp(static_cast<int64_t>(at) + o.numel()), 0.f);
    if (!o.data.empty()) std::memcpy(blob.data() + at, o.data.data(), o.data.size());
  }
  return blob;
}

StatusOr<GeneratedModel> GenerateC(const Model& model) {
  std::string invalid = model.Validate(/*check_mode=*/false);
  if (!invalid.empty()) return InvalidArgument("invalid model: " + invalid);
  GeneratedModel out;
  Emitter emitter(model);
  RETURN_IF_ERROR(emitter.Run(&out));
  out.fingerprint = ModelFingerprint(model);
  out.weights = PackWeights(model);
  std::ostringstream src;
  src << kCcodegenKernels << "\n/* Generated by the ccodegen driver " << kCcodegenVersion
      << ": " << model.operations.size() << " operations. */\n"
      << "const char " << kCcgFingerprintSymbol << "[] = \"" << out.fingerprint << "\";\n"
      << "const long long " << kCcgScratchSymbol << " = " << out.scratch_floats << "LL;\n\n"
      << "int " << kCcgRunSymbol
      << "(const float* const* in, float* const* out, const float* w, float* s) {\n"
      << "  (void)in; (void)out; (void)w; (void)s;\n"
      << emitter.body() << "  return 0;\n}\n";
  out.source = src.str();
  return out;
}

}  // namespace npu
}  // namespace lite
