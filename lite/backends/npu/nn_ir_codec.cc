#include "lite/backends/npu/nn_ir_codec.h"

#include <nettle/sha2.h>

#include <cstring>

namespace lite {
namespace npu {

namespace {

constexpr char kMagic[4] = {'N', 'N', 'I', 'R'};
constexpr uint32_t kCodecVersion = 2;  // 2: operand quantization

class Writer {
 public:
  explicit Writer(std::vector<uint8_t>* out) : out_(out) {}
  template <typename T>
  void Pod(T v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    out_->insert(out_->end(), p, p + sizeof(T));
  }
  void Bytes(const void* data, size_t n) {
    const auto* p = static_cast<const uint8_t*>(data);
    out_->insert(out_->end(), p, p + n);
  }
  void Str(const std::string& s) {
    Pod<uint32_t>(static_cast<uint32_t>(s.size()));
    Bytes(s.data(), s.size());
  }
  template <typename T, typename Stored = T>
  void List(const std::vector<T>& v) {
    Pod<uint32_t>(static_cast<uint32_t>(v.size()));
    for (const T& x : v) Pod<Stored>(static_cast<Stored>(x));
  }

 private:
  std::vector<uint8_t>* out_;
};

// Bounds-checked reads; the first failure sticks and names the field.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), left_(size) {}
  template <typename T>
  bool Pod(const char* what, T* v) {
    if (!Need(sizeof(T), what)) return false;
    std::memcpy(v, p_, sizeof(T));
    Skip(sizeof(T));
    return true;
  }
  bool Bytes(const char* what, uint64_t n, std::vector<uint8_t>* out) {
    if (!Need(n, what)) return false;
    out->assign(p_, p_ + n);
    Skip(static_cast<size_t>(n));
    return true;
  }
  bool Str(const char* what, std::string* s) {
    uint32_t n = 0;
    if (!Pod(what, &n) || !Need(n, what)) return false;
    s->assign(reinterpret_cast<const char*>(p_), n);
    Skip(n);
    return true;
  }
  // A count of items of at least `item_size` bytes each.
  bool Count(const char* what, size_t item_size, uint32_t* n) {
    if (!Pod(what, n)) return false;
    return Need(static_cast<uint64_t>(*n) * item_size, what);
  }
  template <typename T, typename Stored = T>
  bool List(const char* what, std::vector<T>* v) {
    uint32_t n = 0;
    if (!Count(what, sizeof(Stored), &n)) return false;
    v->resize(n);
    for (uint32_t i = 0; i < n; ++i) {
      Stored x{};
      Pod(what, &x);
      (*v)[i] = static_cast<T>(x);
    }
    return true;
  }
  bool ok() const { return error_.empty(); }
  size_t left() const { return left_; }
  const std::string& error() const { return error_; }

 private:
  bool Need(uint64_t n, const char* what) {
    if (!error_.empty()) return false;
    if (n > left_) {
      error_ = std::string(what) + " needs " + std::to_string(n) + " bytes, " +
               std::to_string(left_) + " left";
      return false;
    }
    return true;
  }
  void Skip(size_t n) {
    p_ += n;
    left_ -= n;
  }
  const uint8_t* p_;
  size_t left_;
  std::string error_;
};

enum AttrKind : uint8_t { kInt = 0, kFloat = 1, kInts = 2, kFloats = 3 };

void WriteAttr(const AttrValue& v, Writer* w) {
  w->Pod<uint8_t>(static_cast<uint8_t>(v.index()));
  switch (v.index()) {
    case kInt: w->Pod<int64_t>(std::get<int64_t>(v)); break;
    case kFloat: w->Pod<float>(std::get<float>(v)); break;
    case kInts: w->List<int64_t>(std::get<std::vector<int64_t>>(v)); break;
    default: w->List<float>(std::get<std::vector<float>>(v)); break;
  }
}

bool ReadAttr(Reader* r, AttrValue* v) {
  uint8_t kind = 0;
  if (!r->Pod("attribute kind", &kind)) return false;
  switch (kind) {
    case kInt: { int64_t x = 0; r->Pod("int attribute", &x); *v = x; break; }
    case kFloat: { float x = 0; r->Pod("float attribute", &x); *v = x; break; }
    case kInts: { std::vector<int64_t> x; r->List("ints attribute", &x); *v = x; break; }
    case kFloats: { std::vector<float> x; r->List("floats attribute", &x); *v = x; break; }
    default: return false;
  }
  return r->ok();
}

}  // namespace

std::string Sha256Hex(const void* data, size_t size) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, size, static_cast<const uint8_t*>(data));
  uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : digest) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return hex;
}

std::vector<uint8_t> EncodeModel(const Model& model, ConstantForm form) {
  std::vector<uint8_t> out;
  Writer w(&out);
  w.Bytes(kMagic, sizeof(kMagic));
  w.Pod<uint32_t>(kCodecVersion);
  w.Pod<uint32_t>(static_cast<uint32_t>(model.operands.size()));
  for (const Operand& o : model.operands) {
    w.Pod<uint32_t>(static_cast<uint32_t>(o.type));
    w.Pod<uint32_t>(static_cast<uint32_t>(o.lifetime));
    w.List<int64_t>(o.dims);
    w.Str(o.name);
    w.Pod<uint32_t>(static_cast<uint32_t>(o.quant.kind));
    w.List<float>(o.quant.scales);
    w.Pod<int32_t>(o.quant.zero_point);
    w.Pod<int32_t>(o.quant.axis);
    w.Pod<uint64_t>(o.data.size());
    if (form == ConstantForm::kFull) {
      w.Bytes(o.data.data(), o.data.size());
    } else {
      const std::string digest = Sha256Hex(o.data.data(), o.data.size());
      w.Bytes(digest.data(), digest.size());
    }
  }
  w.Pod<uint32_t>(static_cast<uint32_t>(model.operations.size()));
  for (const Operation& op : model.operations) {
    w.Pod<uint32_t>(static_cast<uint32_t>(op.type));
    w.List<int, int32_t>(op.inputs);
    w.List<int, int32_t>(op.outputs);
    w.Pod<uint32_t>(static_cast<uint32_t>(op.attrs.size()));
    for (const auto& kv : op.attrs) {  // std::map: name order
      w.Str(kv.first);
      WriteAttr(kv.second, &w);
    }
    w.Str(op.origin);
  }
  w.List<int, int32_t>(model.inputs);
  w.List<int, int32_t>(model.outputs);
  return out;
}

StatusOr<Model> DecodeModel(const uint8_t* data, size_t size) {
  Reader r(data, size);
  std::vector<uint8_t> magic;
  uint32_t version = 0;
  if (!r.Bytes("magic", sizeof(kMagic), &magic) ||
      std::memcmp(magic.data(), kMagic, sizeof(kMagic)) != 0) {
    return DataLoss("NN IR bytes: wrong magic");
  }
  if (!r.Pod("version", &version) || version != kCodecVersion) {
    return DataLoss("NN IR bytes: unknown encoding version " + std::to_string(version));
  }
  Model m;
  uint32_t n = 0;
  // An operand takes at least 24 bytes, an operation at least 20.
  if (r.Count("operand count", 24, &n)) {
    m.operands.resize(n);
    for (Operand& o : m.operands) {
      uint32_t type = 0, lifetime = 0;
      uint64_t bytes = 0;
      r.Pod("operand type", &type);
      r.Pod("operand lifetime", &lifetime);
      if (type > static_cast<uint32_t>(ElementType::kInt8) ||
          lifetime > static_cast<uint32_t>(Lifetime::kTemporary)) {
        return DataLoss("NN IR bytes: operand with unknown type or lifetime");
      }
      o.type = static_cast<ElementType>(type);
      o.lifetime = static_cast<Lifetime>(lifetime);
      r.List("operand dims", &o.dims);
      r.Str("operand name", &o.name);
      uint32_t quant_kind = 0;
      r.Pod("operand quantization kind", &quant_kind);
      if (quant_kind > static_cast<uint32_t>(Quantization::kPerChannel)) {
        return DataLoss("NN IR bytes: operand with unknown quantization kind");
      }
      o.quant.kind = static_cast<Quantization::Kind>(quant_kind);
      r.List("operand quantization scales", &o.quant.scales);
      r.Pod("operand quantization zero point", &o.quant.zero_point);
      r.Pod("operand quantization axis", &o.quant.axis);
      std::vector<uint8_t> data;
      if (r.Pod("operand data size", &bytes) && r.Bytes("operand data", bytes, &data)) {
        o.data = std::move(data);
      }
      if (!r.ok()) break;
    }
  }
  if (r.ok() && r.Count("operation count", 20, &n)) {
    m.operations.resize(n);
    for (Operation& op : m.operations) {
      uint32_t type = 0, attrs = 0;
      r.Pod("operation type", &type);
      if (type >= static_cast<uint32_t>(kNumOperationTypes)) {
        return DataLoss("NN IR bytes: unknown operation type " + std::to_string(type));
      }
      op.type = static_cast<OperationType>(type);
      r.List<int, int32_t>("operation inputs", &op.inputs);
      r.List<int, int32_t>("operation outputs", &op.outputs);
      if (r.Count("attribute count", 5, &attrs)) {
        for (uint32_t i = 0; i < attrs && r.ok(); ++i) {
          std::string name;
          AttrValue v;
          if (!r.Str("attribute name", &name) || !ReadAttr(&r, &v)) {
            return DataLoss("NN IR bytes: bad attribute" + (r.ok() ? "" : ": " + r.error()));
          }
          op.attrs[name] = v;
        }
      }
      r.Str("operation origin", &op.origin);
      if (!r.ok()) break;
    }
  }
  r.List<int, int32_t>("model inputs", &m.inputs);
  r.List<int, int32_t>("model outputs", &m.outputs);
  if (!r.ok()) return DataLoss("NN IR bytes truncated or corrupt: " + r.error());
  if (r.left() != 0) {
    return DataLoss("NN IR bytes: " + std::to_string(r.left()) + " trailing bytes");
  }
  std::string invalid = m.Validate(/*check_mode=*/false);
  if (!invalid.empty()) return DataLoss("NN IR bytes decode to an invalid model: " + invalid);
  return m;
}

}  // namespace npu
}  // namespace lite
