#include "lite/model_parser/proto_convert.h"

#include <deque>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/unknown_field_set.h>

#include "lite/model_parser/attr_convert.h"
#include "lite/model_parser/paddle_types.h"

namespace lite {

namespace proto = paddle::framework::proto;
using ArgMap = std::map<std::string, std::vector<std::string>>;
using ArgList = google::protobuf::RepeatedPtrField<proto::OpDesc::Var>;

std::string SerializeDeterministic(const google::protobuf::MessageLite& msg) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    msg.SerializePartialToCodedStream(&coded);
  }  // the coded stream trims `out` when it goes away
  return out;
}

namespace {

// ---------------------------------------------------------------- proto->cpp

ArgMap ArgsFromProto(const ArgList& args) {
  ArgMap out;
  for (const auto& v : args) {
    auto& dst = out[v.parameter()];
    dst.insert(dst.end(), v.arguments().begin(), v.arguments().end());
  }
  return out;
}

void TensorDescFromProto(const proto::VarType::TensorDesc& td,
                         cpp::VarDesc* out) {
  out->dtype = td.has_data_type() ? DataTypeFromPaddle(td.data_type())
                                  : DataType::kUnknown;
  out->dims.assign(td.dims().begin(), td.dims().end());
}

void VarFromProto(const proto::VarDesc& in, cpp::VarDesc* out) {
  out->name = in.name();
  out->persistable = in.persistable();
  out->need_check_feed = in.need_check_feed();
  out->dtype = DataType::kUnknown;
  const proto::VarType& t = in.type();
  switch (t.type()) {
    case proto::VarType::LOD_TENSOR:
      out->kind = cpp::VarKind::kLoDTensor;
      TensorDescFromProto(t.lod_tensor().tensor(), out);
      out->lod_level = t.lod_tensor().lod_level();
      break;
    case proto::VarType::LOD_TENSOR_ARRAY:
      out->kind = cpp::VarKind::kTensorArray;
      TensorDescFromProto(t.tensor_array().tensor(), out);
      out->lod_level = t.tensor_array().lod_level();
      break;
    case proto::VarType::FEED_MINIBATCH: out->kind = cpp::VarKind::kFeedList; break;
    case proto::VarType::FETCH_LIST: out->kind = cpp::VarKind::kFetchList; break;
    default:
      out->kind = cpp::VarKind::kOther;
      out->raw_type = t.type();
      break;
  }
}

Status OpFromProto(const proto::OpDesc& in, cpp::OpDesc* out) {
  out->SetType(in.type());
  *out->mutable_inputs() = ArgsFromProto(in.inputs());
  *out->mutable_outputs() = ArgsFromProto(in.outputs());
  for (const auto& a : in.attrs()) {
    cpp::Attribute attr;
    RETURN_IF_ERROR(AttrFromProto(a, &attr));
    out->SetRawAttr(a.name(), std::move(attr));
  }
  return Status::OK();
}

// ---------------------------------------------------------------- cpp->proto
// Each Apply* writes the modelled fields of a cpp element over a proto
// message that may already hold the element's stored original: values that
// still match are left untouched (order, presence and encoding survive),
// changed ones are rewritten. Applied to an empty message it builds a fresh
// element.

int VarTypeCode(const cpp::VarDesc& v) {
  switch (v.kind) {
    case cpp::VarKind::kLoDTensor: return proto::VarType::LOD_TENSOR;
    case cpp::VarKind::kFeedList: return proto::VarType::FEED_MINIBATCH;
    case cpp::VarKind::kFetchList: return proto::VarType::FETCH_LIST;
    case cpp::VarKind::kTensorArray: return proto::VarType::LOD_TENSOR_ARRAY;
    case cpp::VarKind::kOther: break;
  }
  return proto::VarType::Type_IsValid(v.raw_type) ? v.raw_type
                                                  : proto::VarType::RAW;
}

void ApplyTensorDesc(const cpp::VarDesc& v, proto::VarType::TensorDesc* td) {
  DataType stored = td->has_data_type() ? DataTypeFromPaddle(td->data_type())
                                        : DataType::kUnknown;
  if (stored != v.dtype) {
    int code = 0;
    if (DataTypeToPaddle(v.dtype, &code)) {
      td->mutable_unknown_fields()->DeleteByNumber(
          proto::VarType::TensorDesc::kDataTypeFieldNumber);
      td->set_data_type(static_cast<proto::VarType::Type>(code));
    } else {
      td->clear_data_type();
    }
  }
  bool same = td->dims_size() == static_cast<int>(v.dims.size());
  for (int i = 0; same && i < td->dims_size(); ++i) same = td->dims(i) == v.dims[i];
  if (!same) {
    td->clear_dims();
    for (int64_t d : v.dims) td->add_dims(d);
  }
}

template <typename LoDDesc>  // LoDTensorDesc or LoDTensorArrayDesc
void ApplyLoDDesc(const cpp::VarDesc& v, LoDDesc* d) {
  ApplyTensorDesc(v, d->mutable_tensor());
  if (d->has_lod_level() || v.lod_level != 0) d->set_lod_level(v.lod_level);
}

void ApplyVar(const cpp::VarDesc& v, proto::VarDesc* p) {
  p->set_name(v.name);
  proto::VarType* t = p->mutable_type();
  int code = VarTypeCode(v);
  if (t->has_type() && t->type() != code) t->Clear();  // kind changed
  t->set_type(static_cast<proto::VarType::Type>(code));
  if (v.kind == cpp::VarKind::kLoDTensor) ApplyLoDDesc(v, t->mutable_lod_tensor());
  if (v.kind == cpp::VarKind::kTensorArray) ApplyLoDDesc(v, t->mutable_tensor_array());
  if (p->has_persistable() || v.persistable) p->set_persistable(v.persistable);
  if (p->has_need_check_feed() || v.need_check_feed) {
    p->set_need_check_feed(v.need_check_feed);
  }
}

void ApplyArgs(const ArgMap& m, ArgList* args) {
  if (ArgsFromProto(*args) == m) return;
  args->Clear();
  for (const auto& kv : m) {
    proto::OpDesc::Var* v = args->Add();
    v->set_parameter(kv.first);
    for (const auto& a : kv.second) v->add_arguments(a);
  }
}

bool SameAttr(const proto::OpDesc::Attr& stored, const std::string& name,
              const cpp::Attribute& want) {
  cpp::Attribute have;
  if (!AttrFromProto(stored, &have).ok() || have.type != want.type) return false;
  proto::OpDesc::Attr a, b;
  AttrToProto(name, have, &a);
  AttrToProto(name, want, &b);
  return SerializeDeterministic(a) == SerializeDeterministic(b);
}

void ApplyOp(const cpp::OpDesc& op, proto::OpDesc* p) {
  p->set_type(op.Type());
  ApplyArgs(op.inputs(), p->mutable_inputs());
  ApplyArgs(op.outputs(), p->mutable_outputs());
  auto* attrs = p->mutable_attrs();
  std::map<std::string, bool> written;
  int kept = 0;
  for (int i = 0; i < attrs->size(); ++i) {
    proto::OpDesc::Attr* a = attrs->Mutable(i);
    const std::string name = a->name();  // AttrToProto clears *a first
    const cpp::Attribute* want = op.FindAttr(name);
    if (want == nullptr) continue;  // removed from the op: drop it
    if (!SameAttr(*a, name, *want)) AttrToProto(name, *want, a);
    written[name] = true;
    if (kept != i) attrs->SwapElements(kept, i);
    ++kept;
  }
  while (attrs->size() > kept) attrs->RemoveLast();
  for (const auto& kv : op.attrs()) {
    if (!written.count(kv.first)) AttrToProto(kv.first, kv.second, attrs->Add());
  }
}

// Key that finds an op's stored original again after passes reorder,
// insert or delete other ops.
std::string OpKey(const std::string& type, const ArgMap& in, const ArgMap& out) {
  std::string key = type;
  for (const ArgMap* m : {&in, &out}) {
    key += '\x1e';
    for (const auto& kv : *m) {
      key += kv.first;
      for (const auto& a : kv.second) key += '\x1f' + a;
      key += '\x1d';
    }
  }
  return key;
}

template <typename Msg, typename Apply, typename Elem>
bool NeedsExtras(const Msg& original, const Elem& elem, Apply apply) {
  Msg fresh;
  apply(elem, &fresh);
  return SerializeDeterministic(fresh) != SerializeDeterministic(original);
}

// Copies the block-level fields and unknown fields (not vars, not ops).
void CopyBlockHeader(const proto::BlockDesc& in, proto::BlockDesc* out) {
  out->set_idx(in.idx());
  out->set_parent_idx(in.parent_idx());
  if (in.has_forward_block_idx()) out->set_forward_block_idx(in.forward_block_idx());
  out->mutable_unknown_fields()->MergeFrom(in.unknown_fields());
}

void ApplyBlock(const cpp::BlockDesc& b, const proto::BlockDesc* stored,
                proto::BlockDesc* p) {
  if (stored) CopyBlockHeader(*stored, p);
  p->set_idx(b.idx);
  p->set_parent_idx(b.parent_idx);
  if (p->has_forward_block_idx() || b.forward_block_idx != -1) {
    p->set_forward_block_idx(b.forward_block_idx);
  }
  std::unordered_map<std::string, std::deque<const proto::VarDesc*>> vars;
  std::unordered_map<std::string, std::deque<const proto::OpDesc*>> ops;
  if (stored) {
    for (const auto& v : stored->vars()) vars[v.name()].push_back(&v);
    for (const auto& o : stored->ops()) {
      ops[OpKey(o.type(), ArgsFromProto(o.inputs()), ArgsFromProto(o.outputs()))]
          .push_back(&o);
    }
  }
  for (const auto& v : b.vars) {
    proto::VarDesc* pv = p->add_vars();
    auto it = vars.find(v.name);
    if (it != vars.end() && !it->second.empty()) {
      *pv = *it->second.front();
      it->second.pop_front();
    }
    ApplyVar(v, pv);
  }
  for (const auto& op : b.ops) {
    proto::OpDesc* po = p->add_ops();
    auto it = ops.find(OpKey(op.Type(), op.inputs(), op.outputs()));
    if (it != ops.end() && !it->second.empty()) {
      *po = *it->second.front();
      it->second.pop_front();
    }
    ApplyOp(op, po);
  }
}

std::vector<std::string> UnexpectedMissingFields(const proto::ProgramDesc& in) {
  std::vector<std::string> missing, out;
  in.FindInitializationErrors(&missing);
  const std::string kDataType = "data_type";
  for (const auto& path : missing) {
    bool is_data_type = path.size() >= kDataType.size() &&
                        path.compare(path.size() - kDataType.size(),
                                     kDataType.size(), kDataType) == 0;
    if (!is_data_type) out.push_back(path);
  }
  return out;
}

}  // namespace

Status ProgramFromProto(const proto::ProgramDesc& in, cpp::ProgramDesc* out) {
  std::vector<std::string> missing = UnexpectedMissingFields(in);
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size() && i < 5; ++i) {
      list += (i ? ", " : "") + missing[i];
    }
    if (missing.size() > 5) list += ", ...";
    return InvalidArgument("not a Paddle ProgramDesc: required field(s) missing: " +
                           list);
  }
  if (in.blocks_size() == 0) {
    return InvalidArgument("not a Paddle ProgramDesc: it has no blocks");
  }
  if (in.blocks(0).idx() != 0) {
    return InvalidArgument(
        "not a Paddle ProgramDesc: block 0 missing (first block has idx " +
        std::to_string(in.blocks(0).idx()) + ")");
  }

  cpp::ProgramDesc prog;
  proto::ProgramDesc extras;
  prog.has_version = in.has_version();
  prog.version = in.version().version();
  for (const auto& pair : in.op_version_map().pair()) {
    prog.op_versions[pair.op_name()] = pair.op_version().version();
  }
  if (in.has_op_compatible_map()) {
    *extras.mutable_op_compatible_map() = in.op_compatible_map();
  }
  if (in.has_version()) *extras.mutable_version() = in.version();
  if (in.has_op_version_map()) *extras.mutable_op_version_map() = in.op_version_map();
  extras.mutable_unknown_fields()->MergeFrom(in.unknown_fields());

  prog.blocks.resize(in.blocks_size());
  for (int bi = 0; bi < in.blocks_size(); ++bi) {
    const proto::BlockDesc& pb = in.blocks(bi);
    cpp::BlockDesc& b = prog.blocks[bi];
    proto::BlockDesc* eb = extras.add_blocks();
    CopyBlockHeader(pb, eb);
    b.idx = pb.idx();
    b.parent_idx = pb.parent_idx();
    b.forward_block_idx = pb.forward_block_idx();
    b.vars.resize(pb.vars_size());
    for (int i = 0; i < pb.vars_size(); ++i) {
      VarFromProto(pb.vars(i), &b.vars[i]);
      if (NeedsExtras(pb.vars(i), b.vars[i], ApplyVar)) *eb->add_vars() = pb.vars(i);
    }
    b.ops.resize(pb.ops_size());
    for (int i = 0; i < pb.ops_size(); ++i) {
      Status s = OpFromProto(pb.ops(i), &b.ops[i]);
      if (!s.ok()) {
        return s.WithContext("block " + std::to_string(bi) + " op " +
                             std::to_string(i) + " (" + pb.ops(i).type() + ")");
      }
      if (NeedsExtras(pb.ops(i), b.ops[i], ApplyOp)) *eb->add_ops() = pb.ops(i);
    }
  }
  prog.opaque_extras = SerializeDeterministic(extras);
  *out = std::move(prog);
  return Status::OK();
}

void ProgramToProto(const cpp::ProgramDesc& in, proto::ProgramDesc* out) {
  out->Clear();
  proto::ProgramDesc extras;
  if (!in.opaque_extras.empty() && !extras.ParsePartialFromString(in.opaque_extras)) {
    extras.Clear();  // unreadable extras: write the modelled fields only
  }
  if (extras.has_op_compatible_map()) {
    out->mutable_op_compatible_map()->Swap(extras.mutable_op_compatible_map());
  }
  out->mutable_unknown_fields()->MergeFrom(extras.unknown_fields());

  if (in.has_version) {
    proto::Version* v = out->mutable_version();
    if (extras.has_version()) v->Swap(extras.mutable_version());
    if (v->has_version() || in.version != 0) v->set_version(in.version);
  }

  std::map<std::string, int32_t> stored_versions;
  for (const auto& pair : extras.op_version_map().pair()) {
    stored_versions[pair.op_name()] = pair.op_version().version();
  }
  if (extras.has_op_version_map() && stored_versions == in.op_versions) {
    out->mutable_op_version_map()->Swap(extras.mutable_op_version_map());
  } else if (!in.op_versions.empty()) {
    auto* m = out->mutable_op_version_map();
    for (const auto& kv : in.op_versions) {
      auto* pair = m->add_pair();
      pair->set_op_name(kv.first);
      pair->mutable_op_version()->set_version(kv.second);
    }
  }

  for (size_t i = 0; i < in.blocks.size(); ++i) {
    const proto::BlockDesc* stored =
        static_cast<int>(i) < extras.blocks_size() ? &extras.blocks(i) : nullptr;
    ApplyBlock(in.blocks[i], stored, out->add_blocks());
  }
}

}  // namespace lite
