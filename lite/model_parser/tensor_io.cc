#include "lite/model_parser/tensor_io.h"

#include <cstring>
#include <limits>
#include <utility>

#include <google/protobuf/unknown_field_set.h>

#include "lite/model_parser/framework.pb.h"
#include "lite/model_parser/paddle_types.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tensor_io reads and writes Paddle's little-endian records natively"
#endif

namespace lite {

namespace proto = paddle::framework::proto;

namespace {

std::string Where(const std::string& file, const std::string& var) {
  return file + ": var '" + var + "'";
}

Status Truncated(const std::string& file, const std::string& var,
                 const ByteReader& r, const std::string& what, uint64_t need) {
  return DataLoss(Where(file, var) + ": truncated while reading " + what +
                  " at offset " + std::to_string(r.offset()) + " (need " +
                  std::to_string(need) + " bytes, " +
                  std::to_string(r.remaining()) + " remain)");
}

// The raw data_type code when it was not a value of our enum (proto2 keeps
// unknown enum values as unknown varint fields), or -1.
int64_t UnknownDataTypeCode(const proto::VarType::TensorDesc& td) {
  const auto& unknown = td.unknown_fields();
  for (int i = 0; i < unknown.field_count(); ++i) {
    const auto& f = unknown.field(i);
    if (f.number() == proto::VarType::TensorDesc::kDataTypeFieldNumber &&
        f.type() == google::protobuf::UnknownField::TYPE_VARINT) {
      return static_cast<int64_t>(f.varint());
    }
  }
  return -1;
}

// The element count of `dims`, multiplied left to right as Product() does,
// so Tensor::numel() can never overflow on a tensor that passed this check.
Status CheckedNumel(const DDim& dims, const std::string& where, int64_t* numel) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      return InvalidArgument(where + ": negative dim in " + DimsToString(dims));
    }
    if (__builtin_mul_overflow(n, d, &n)) {
      return InvalidArgument(where + ": element count of " + DimsToString(dims) +
                             " overflows int64");
    }
  }
  *numel = n;
  return Status::OK();
}

}  // namespace

Status ReadTensorRecord(ByteReader* r, const std::string& file,
                        const std::string& var, Tensor* out) {
  uint32_t version = 0;
  if (!r->ReadPod(&version)) return Truncated(file, var, *r, "LoDTensor version", 4);
  if (version != 0) {
    return InvalidArgument(Where(file, var) + ": LoDTensor version " +
                           std::to_string(version) +
                           " (expected 0): not a Paddle params record");
  }

  uint64_t levels = 0;
  if (!r->ReadPod(&levels)) return Truncated(file, var, *r, "LoD level count", 8);
  // Levels are appended as they are read, so a huge count cannot cause a
  // huge allocation: it runs out of bytes first.
  LoD lod;
  for (uint64_t l = 0; l < levels; ++l) {
    std::string what = "LoD level " + std::to_string(l) + " of " + std::to_string(levels);
    uint64_t bytes = 0;
    if (!r->ReadPod(&bytes)) return Truncated(file, var, *r, "size of " + what, 8);
    if (bytes % 8 != 0) {
      return DataLoss(Where(file, var) + ": " + what + " has byte size " +
                      std::to_string(bytes) + ", not a multiple of 8");
    }
    if (bytes > r->remaining()) return Truncated(file, var, *r, "offsets of " + what, bytes);
    lod.emplace_back(bytes / 8);
    r->Read(lod.back().data(), bytes);
  }

  uint32_t tensor_version = 0;
  if (!r->ReadPod(&tensor_version)) return Truncated(file, var, *r, "tensor version", 4);
  if (tensor_version != 0) {
    return InvalidArgument(Where(file, var) + ": tensor version " +
                           std::to_string(tensor_version) + " (expected 0)");
  }

  int32_t desc_size = 0;
  if (!r->ReadPod(&desc_size)) return Truncated(file, var, *r, "TensorDesc size", 4);
  if (desc_size < 0) {
    return DataLoss(Where(file, var) + ": negative TensorDesc size " +
                    std::to_string(desc_size));
  }
  const uint8_t* desc_bytes = r->Take(static_cast<size_t>(desc_size));
  if (desc_bytes == nullptr) {
    return Truncated(file, var, *r, "TensorDesc", static_cast<uint64_t>(desc_size));
  }
  proto::VarType::TensorDesc desc;
  if (!desc.ParsePartialFromArray(desc_bytes, desc_size)) {
    return DataLoss(Where(file, var) + ": TensorDesc (" +
                    std::to_string(desc_size) + " bytes) does not parse");
  }
  if (!desc.has_data_type()) {
    int64_t code = UnknownDataTypeCode(desc);
    return InvalidArgument(
        Where(file, var) +
        (code < 0 ? std::string(": TensorDesc has no data_type")
                  : ": unknown data_type code " + std::to_string(code)));
  }
  DataType dtype = DataTypeFromPaddle(desc.data_type());
  if (dtype == DataType::kUnknown) {
    return Unimplemented(Where(file, var) + ": data_type " +
                         PaddleTypeCodeName(desc.data_type()) +
                         " is not supported");
  }

  DDim dims(desc.dims().begin(), desc.dims().end());
  int64_t numel = 0;
  RETURN_IF_ERROR(CheckedNumel(dims, Where(file, var), &numel));
  uint64_t data_bytes = 0;
  if (__builtin_mul_overflow(static_cast<uint64_t>(numel),
                             static_cast<uint64_t>(DataTypeSize(dtype)), &data_bytes) ||
      data_bytes > r->remaining()) {
    return DataLoss(Where(file, var) + ": tensor " + DimsToString(dims) + " " +
                    DataTypeName(dtype) + " needs " +
                    std::to_string(static_cast<uint64_t>(numel)) + " elements but only " +
                    std::to_string(r->remaining()) + " bytes remain (truncated data)");
  }

  Tensor t;
  t.Resize(dims);
  t.set_lod(lod);
  void* dst = t.mutable_data(dtype);
  const uint8_t* src = r->Take(static_cast<size_t>(data_bytes));
  if (data_bytes > 0) std::memcpy(dst, src, static_cast<size_t>(data_bytes));
  t.set_persistable(out->persistable());
  *out = std::move(t);
  return Status::OK();
}

Status CheckTensorWritable(const Tensor& t, const std::string& var) {
  int code = 0;
  if (!DataTypeToPaddle(t.dtype(), &code)) {
    return InvalidArgument("var '" + var + "': tensor of dtype " +
                           DataTypeName(t.dtype()) + " cannot be saved");
  }
  int64_t numel = 0;
  RETURN_IF_ERROR(CheckedNumel(t.dims(), "var '" + var + "': tensor", &numel));
  if (numel > 0 && t.raw_data() == nullptr) {
    return InvalidArgument("var '" + var + "': tensor " + DimsToString(t.dims()) +
                           " has no data");
  }
  return Status::OK();
}

void WriteTensorRecord(const Tensor& t, std::string* out) {
  if (!CheckTensorWritable(t, "").ok()) return;
  int code = 0;
  DataTypeToPaddle(t.dtype(), &code);
  auto put = [out](const void* p, size_t n) {
    if (n > 0) out->append(static_cast<const char*>(p), n);
  };
  const uint32_t version = 0;
  put(&version, 4);
  const uint64_t levels = t.lod().size();
  put(&levels, 8);
  for (const auto& level : t.lod()) {
    const uint64_t bytes = level.size() * sizeof(uint64_t);
    put(&bytes, 8);
    put(level.data(), bytes);
  }
  put(&version, 4);  // tensor version, also 0
  proto::VarType::TensorDesc desc;
  desc.set_data_type(static_cast<proto::VarType::Type>(code));
  for (int64_t d : t.dims()) desc.add_dims(d);
  const std::string desc_bytes = desc.SerializeAsString();
  const int32_t desc_size = static_cast<int32_t>(desc_bytes.size());
  put(&desc_size, 4);
  out->append(desc_bytes);
  put(t.raw_data(), t.memory_size());
}

}  // namespace lite
