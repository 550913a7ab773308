#include "lite/model_parser/test_util.h"

#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "lite/utils/file_util.h"
#include "lite/model_parser/persistable_params.h"
#include "lite/model_parser/proto_convert.h"
#include "lite/model_parser/tensor_io.h"

namespace lite {
namespace testing_util {

namespace {

cpp::VarDesc TensorVar(const std::string& name, DataType t, std::vector<int64_t> dims,
                       bool persistable, int lod_level = 0) {
  cpp::VarDesc v;
  v.name = name;
  v.kind = cpp::VarKind::kLoDTensor;
  v.dtype = t;
  v.dims = std::move(dims);
  v.persistable = persistable;
  v.lod_level = lod_level;
  return v;
}

cpp::VarDesc ListVar(const std::string& name, cpp::VarKind kind) {
  cpp::VarDesc v;
  v.name = name;
  v.kind = kind;
  v.dtype = DataType::kUnknown;
  v.persistable = true;
  return v;
}

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

template <typename T>
void Put(const T& v, std::string* out) {
  out->append(reinterpret_cast<const char*>(&v), sizeof(T));
}

}  // namespace

cpp::ProgramDesc MakeSampleProgram() {
  cpp::ProgramDesc prog;
  prog.has_version = true;
  prog.version = 2006002;
  prog.op_versions = {{"conv2d", 1}, {"fill_constant", 2}};
  prog.blocks.resize(2);
  cpp::BlockDesc& b0 = prog.blocks[0];
  b0.idx = 0;
  b0.parent_idx = -1;
  b0.vars.push_back(ListVar("feed", cpp::VarKind::kFeedList));
  b0.vars.push_back(ListVar("fetch", cpp::VarKind::kFetchList));
  cpp::VarDesc x = TensorVar("x", DataType::kFloat32, {-1, 3, 4, 4}, false, 1);
  x.need_check_feed = true;
  b0.vars.push_back(x);
  b0.vars.push_back(TensorVar("p_f32", DataType::kFloat32, {2, 3, 3, 3}, true));
  b0.vars.push_back(TensorVar("p_lod", DataType::kFloat32, {5, 2}, true, 1));
  b0.vars.push_back(TensorVar("p_f64", DataType::kFloat64, {2}, true));
  b0.vars.push_back(TensorVar("p_bool", DataType::kBool, {3}, true));
  b0.vars.push_back(TensorVar("p_i8", DataType::kInt8, {2, 2}, true));
  b0.vars.push_back(TensorVar("p_u8", DataType::kUInt8, {7}, true));
  b0.vars.push_back(TensorVar("p_i16", DataType::kInt16, {3, 1}, true));
  b0.vars.push_back(TensorVar("p_i32", DataType::kInt32, {4}, true));
  b0.vars.push_back(TensorVar("p_i64", DataType::kInt64, {-1, 2}, true));
  b0.vars.push_back(TensorVar("p_f16", DataType::kFloat16, {6}, true));
  b0.vars.push_back(TensorVar("p_empty", DataType::kFloat32, {0, 4}, true));
  b0.vars.push_back(TensorVar("A_upper", DataType::kFloat32, {1}, true));  // sorts first
  cpp::VarDesc arr = TensorVar("arr", DataType::kInt64, {-1}, false, 2);
  arr.kind = cpp::VarKind::kTensorArray;
  b0.vars.push_back(arr);
  cpp::VarDesc rows;
  rows.name = "rows";
  rows.kind = cpp::VarKind::kOther;
  rows.raw_type = 8;  // SELECTED_ROWS
  rows.dtype = DataType::kUnknown;
  b0.vars.push_back(rows);
  cpp::VarDesc reader = rows;
  reader.name = "reader";
  reader.raw_type = 15;  // READER: persistable but never in a params file
  reader.persistable = true;
  b0.vars.push_back(reader);
  b0.vars.push_back(TensorVar("y", DataType::kFloat32, {-1, 2, 2, 2}, false));

  cpp::OpDesc feed("feed");
  feed.SetInput("X", {"feed"});
  feed.SetOutput("Out", {"x"});
  feed.SetAttr("col", 0);
  b0.ops.push_back(feed);

  cpp::OpDesc conv("conv2d");
  conv.SetInput("Input", {"x"});
  conv.SetInput("Filter", {"p_f32"});
  conv.SetInput("Bias", {});
  conv.SetOutput("Output", {"y"});
  conv.SetAttr("a_int", -3);
  conv.SetAttr("a_float", 1.5f);
  conv.SetAttr("a_string", std::string("NCHW"));
  conv.SetAttr("a_ints", std::vector<int32_t>{1, -2, 3});
  conv.SetAttr("a_floats", std::vector<float>{0.5f, -1.0f});
  conv.SetAttr("a_strings", std::vector<std::string>{"a", "", "b"});
  conv.SetAttr("a_bool", true);
  conv.SetAttr("a_bools", std::vector<bool>{true, false, true});
  conv.SetRawAttr("a_block", {cpp::AttrType::BLOCK, int32_t{1}});
  conv.SetAttr("a_long", int64_t{1} << 40);
  conv.SetRawAttr("a_blocks", {cpp::AttrType::BLOCKS, std::vector<int32_t>{1, 0}});
  conv.SetAttr("a_longs", std::vector<int64_t>{-(int64_t{1} << 40), 7});
  conv.SetRawAttr("a_float64s", {cpp::AttrType::FLOAT64S, std::vector<double>{1e300, -2.5}});
  conv.SetRawAttr("a_var", {cpp::AttrType::VAR, std::string("x")});
  conv.SetRawAttr("a_vars", {cpp::AttrType::VARS, std::vector<std::string>{"x", "p_f32"}});
  conv.SetAttr("a_float64", 3.141592653589793);
  conv.SetRawAttr("a_scalar", {cpp::AttrType::SCALAR, 2.5});
  conv.SetRawAttr("a_scalars", {cpp::AttrType::SCALARS, std::vector<double>{1.0, -4.0}});
  b0.ops.push_back(conv);

  cpp::OpDesc fetch("fetch");
  fetch.SetInput("X", {"y"});
  fetch.SetOutput("Out", {"fetch"});
  fetch.SetAttr("col", 0);
  b0.ops.push_back(fetch);

  cpp::BlockDesc& b1 = prog.blocks[1];
  b1.idx = 1;
  b1.parent_idx = 0;
  b1.forward_block_idx = 0;
  b1.vars.push_back(TensorVar("inner", DataType::kInt32, {1}, false));
  cpp::OpDesc inc("increment");
  inc.SetInput("X", {"inner"});
  inc.SetOutput("Out", {"inner"});
  inc.SetAttr("step", 1.0f);
  b1.ops.push_back(inc);
  return prog;
}

cpp::VarDesc TensorVarDesc(const std::string& name, DataType t,
                           std::vector<int64_t> dims, bool persistable) {
  return TensorVar(name, t, std::move(dims), persistable);
}

cpp::ProgramDesc SmallProgram() {
  cpp::ProgramDesc p;
  p.blocks.resize(1);
  p.blocks[0].vars = {ListVar("feed", cpp::VarKind::kFeedList),
                      ListVar("fetch", cpp::VarKind::kFetchList),
                      TensorVar("w", DataType::kFloat32, {2, 3}, true),
                      TensorVar("b", DataType::kFloat32, {3}, true),
                      TensorVar("ids", DataType::kInt64, {-1}, true),
                      TensorVar("x", DataType::kFloat32, {-1, 2}, false)};
  cpp::OpDesc op("mul");
  op.SetInput("X", {"x"});
  op.SetInput("Y", {"w"});
  op.SetOutput("Out", {"y"});
  p.blocks[0].ops.push_back(op);
  return p;
}

Tensor FilledTensor(DataType t, const DDim& dims) {
  Tensor x;
  x.Resize(dims);
  auto* b = static_cast<uint8_t*>(x.mutable_data(t));
  for (size_t i = 0; i < x.memory_size(); ++i) b[i] = static_cast<uint8_t>(i + 1);
  return x;
}

std::vector<std::string> SmallProgramRecords() {
  std::vector<std::string> r(3);
  WriteTensorRecord(FilledTensor(DataType::kFloat32, {3}), &r[0]);
  Tensor ids = FilledTensor(DataType::kInt64, {4});
  ids.set_lod({{0, 1, 4}});
  WriteTensorRecord(ids, &r[1]);
  WriteTensorRecord(FilledTensor(DataType::kFloat32, {2, 3}), &r[2]);
  return r;
}

std::string ModelBytes(const cpp::ProgramDesc& p) {
  paddle::framework::proto::ProgramDesc pb;
  ProgramToProto(p, &pb);
  return SerializeDeterministic(pb);
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += p;
  return out;
}

std::unique_ptr<Scope> MakeSampleScope(const cpp::ProgramDesc& program) {
  auto scope = std::make_unique<Scope>();
  std::vector<const cpp::VarDesc*> vars;
  EXPECT_TRUE(ListParamVars(program, "sample", &vars).ok());
  int seed = 1;
  for (const cpp::VarDesc* v : vars) {
    Tensor* t = scope->Var(v->name)->GetMutableTensor();
    DDim dims = v->dims;
    for (auto& d : dims) {
      if (d < 0) d = 3;
    }
    t->Resize(dims);
    if (v->lod_level > 0) t->set_lod({{0, 2, 5}});
    auto* bytes = static_cast<uint8_t*>(t->mutable_data(v->dtype));
    for (size_t i = 0; i < t->memory_size(); ++i) {
      bytes[i] = static_cast<uint8_t>((i * 31 + seed * 7) & 0xff);
    }
    if (v->dtype == DataType::kBool) {
      for (size_t i = 0; i < t->memory_size(); ++i) bytes[i] &= 1;
    }
    ++seed;
  }
  return scope;
}

std::vector<std::string> ParamNames(const cpp::ProgramDesc& program) {
  std::vector<const cpp::VarDesc*> vars;
  std::vector<std::string> names;
  if (!ListParamVars(program, "program", &vars).ok()) return names;
  for (const auto* v : vars) names.push_back(v->name);
  return names;
}

::testing::AssertionResult ProgramsEqual(const cpp::ProgramDesc& a,
                                         const cpp::ProgramDesc& b) {
  auto fail = [](const std::string& what) {
    return ::testing::AssertionFailure() << what;
  };
  if (a.has_version != b.has_version || a.version != b.version) return fail("version");
  if (a.op_versions != b.op_versions) return fail("op_versions");
  if (a.blocks.size() != b.blocks.size()) return fail("block count");
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    const auto& x = a.blocks[i];
    const auto& y = b.blocks[i];
    std::string at = "block " + std::to_string(i) + ": ";
    if (x.idx != y.idx || x.parent_idx != y.parent_idx ||
        x.forward_block_idx != y.forward_block_idx) {
      return fail(at + "idx/parent/forward");
    }
    if (x.vars.size() != y.vars.size()) return fail(at + "var count");
    for (size_t j = 0; j < x.vars.size(); ++j) {
      const auto& u = x.vars[j];
      const auto& v = y.vars[j];
      if (u.name != v.name || u.kind != v.kind || u.dtype != v.dtype ||
          u.dims != v.dims || u.lod_level != v.lod_level ||
          u.persistable != v.persistable || u.need_check_feed != v.need_check_feed ||
          (u.kind == cpp::VarKind::kOther && u.raw_type != v.raw_type)) {
        return fail(at + "var " + u.name + " vs " + v.name);
      }
    }
    if (x.ops.size() != y.ops.size()) return fail(at + "op count");
    for (size_t j = 0; j < x.ops.size(); ++j) {
      const auto& p = x.ops[j];
      const auto& q = y.ops[j];
      std::string op = at + "op " + std::to_string(j) + " " + p.Type() + ": ";
      if (p.Type() != q.Type()) return fail(op + "type " + q.Type());
      if (p.inputs() != q.inputs()) return fail(op + "inputs");
      if (p.outputs() != q.outputs()) return fail(op + "outputs");
      if (p.attrs().size() != q.attrs().size()) return fail(op + "attr count");
      for (const auto& kv : p.attrs()) {
        const cpp::Attribute* other = q.FindAttr(kv.first);
        if (!other) return fail(op + "missing attr " + kv.first);
        if (other->type != kv.second.type) return fail(op + "attr type " + kv.first);
        if (!(other->value == kv.second.value)) return fail(op + "attr value " + kv.first);
      }
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult TensorsEqual(const Tensor& a, const Tensor& b) {
  if (a.dims() != b.dims()) {
    return ::testing::AssertionFailure()
           << "dims " << DimsToString(a.dims()) << " vs " << DimsToString(b.dims());
  }
  if (a.dtype() != b.dtype()) {
    return ::testing::AssertionFailure()
           << "dtype " << DataTypeName(a.dtype()) << " vs " << DataTypeName(b.dtype());
  }
  if (a.lod() != b.lod()) return ::testing::AssertionFailure() << "lod differs";
  if (a.memory_size() > 0 &&
      std::memcmp(a.raw_data(), b.raw_data(), a.memory_size()) != 0) {
    return ::testing::AssertionFailure() << "data differs";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult Fails(const Status& s, StatusCode code,
                                 const std::vector<std::string>& needles) {
  if (s.code() != code) {
    return ::testing::AssertionFailure() << StatusCodeName(s.code()) << " != "
                                         << StatusCodeName(code) << ": " << s.message();
  }
  for (const auto& n : needles) {
    if (s.message().find(n) == std::string::npos) {
      return ::testing::AssertionFailure() << "'" << n << "' not in: " << s.message();
    }
  }
  return ::testing::AssertionSuccess() << s.message();
}

std::string RawRecord::Bytes() const {
  std::string out;
  Put(version, &out);
  Put(static_cast<uint64_t>(lod.size()), &out);
  for (const auto& level : lod) {
    Put(static_cast<uint64_t>(level.size() * 8), &out);
    for (uint64_t x : level) Put(x, &out);
  }
  Put(tensor_version, &out);
  Put(override_desc_size ? desc_size : static_cast<int32_t>(desc.size()), &out);
  out += desc;
  out += data;
  return out;
}

std::string TensorDescBytes(int code, const std::vector<int64_t>& dims) {
  std::string out;
  out.push_back(0x08);  // field 1, varint
  PutVarint(static_cast<uint64_t>(static_cast<int64_t>(code)), &out);
  for (int64_t d : dims) {
    out.push_back(0x10);  // field 2, varint
    PutVarint(static_cast<uint64_t>(d), &out);
  }
  return out;
}

std::string MakeTempDir(const std::string& name) {
  const char* base = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(base ? base : "/tmp") + "/" + name;
  std::string cmd = "rm -rf '" + dir + "'";
  if (std::system(cmd.c_str()) != 0) ADD_FAILURE() << "cannot clear " << dir;
  if (::mkdir(dir.c_str(), 0755) != 0) ADD_FAILURE() << "cannot create " << dir;
  return dir;
}

void WriteFileOrDie(const std::string& path, const std::string& bytes) {
  Status s = WriteStringToFile(path, bytes);
  ASSERT_TRUE(s.ok()) << s.ToString();
}

}  // namespace testing_util
}  // namespace lite
