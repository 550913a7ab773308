// Tests of proto <-> cpp program conversion: every AttrType, var kinds,
// dtype codes, preservation of unmodelled fields, and rejection of
// malformed programs.
#include "lite/model_parser/proto_convert.h"

#include <gtest/gtest.h>

#include "lite/model_parser/paddle_types.h"
#include "lite/model_parser/test_util.h"

namespace lite {
namespace {

namespace proto = paddle::framework::proto;
using testing_util::MakeSampleProgram;
using testing_util::ProgramsEqual;

proto::ProgramDesc ToProto(const cpp::ProgramDesc& p) {
  proto::ProgramDesc pb;
  ProgramToProto(p, &pb);
  return pb;
}

const proto::OpDesc::Attr* FindAttr(const proto::OpDesc& op, const std::string& n) {
  for (const auto& a : op.attrs()) {
    if (a.name() == n) return &a;
  }
  return nullptr;
}

TEST(ProtoConvert, EveryAttrTypeIsWrittenToItsField) {
  proto::ProgramDesc pb = ToProto(MakeSampleProgram());
  const proto::OpDesc& conv = pb.blocks(0).ops(1);
  ASSERT_EQ(conv.type(), "conv2d");
  ASSERT_EQ(conv.attrs_size(), 18);
  // Sorted by name, as the cpp map iterates.
  for (int i = 1; i < conv.attrs_size(); ++i) {
    EXPECT_LT(conv.attrs(i - 1).name(), conv.attrs(i).name());
  }
  auto attr = [&](const char* n) {
    const proto::OpDesc::Attr* a = FindAttr(conv, n);
    EXPECT_NE(a, nullptr) << n;
    return a ? *a : proto::OpDesc::Attr();
  };
  EXPECT_EQ(attr("a_int").type(), proto::INT);
  EXPECT_EQ(attr("a_int").i(), -3);
  EXPECT_EQ(attr("a_float").f(), 1.5f);
  EXPECT_EQ(attr("a_string").s(), "NCHW");
  EXPECT_EQ(attr("a_ints").ints_size(), 3);
  EXPECT_EQ(attr("a_ints").ints(1), -2);
  EXPECT_EQ(attr("a_floats").floats(1), -1.0f);
  EXPECT_EQ(attr("a_strings").strings(1), "");
  EXPECT_TRUE(attr("a_bool").b());
  EXPECT_EQ(attr("a_bools").bools_size(), 3);
  EXPECT_FALSE(attr("a_bools").bools(1));
  EXPECT_EQ(attr("a_block").type(), proto::BLOCK);
  EXPECT_EQ(attr("a_block").block_idx(), 1);
  EXPECT_FALSE(attr("a_block").has_i());
  EXPECT_EQ(attr("a_long").type(), proto::LONG);
  EXPECT_EQ(attr("a_long").l(), int64_t{1} << 40);
  EXPECT_EQ(attr("a_blocks").type(), proto::BLOCKS);
  EXPECT_EQ(attr("a_blocks").blocks_idx_size(), 2);
  EXPECT_EQ(attr("a_longs").longs(0), -(int64_t{1} << 40));
  EXPECT_EQ(attr("a_float64s").float64s(0), 1e300);
  EXPECT_EQ(attr("a_var").type(), proto::VAR);
  EXPECT_EQ(attr("a_var").var_name(), "x");
  EXPECT_EQ(attr("a_vars").vars_name(1), "p_f32");
  EXPECT_EQ(attr("a_float64").float64(), 3.141592653589793);
  EXPECT_EQ(attr("a_scalar").scalar().type(), proto::Scalar::FLOAT64);
  EXPECT_EQ(attr("a_scalar").scalar().r(), 2.5);
  EXPECT_EQ(attr("a_scalars").scalars_size(), 2);
  EXPECT_EQ(attr("a_scalars").scalars(1).r(), -4.0);
}

TEST(ProtoConvert, RoundTripKeepsEverything) {
  cpp::ProgramDesc prog = MakeSampleProgram();
  proto::ProgramDesc pb = ToProto(prog);
  cpp::ProgramDesc back;
  Status s = ProgramFromProto(pb, &back);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(ProgramsEqual(prog, back));
  // Stored types of BLOCK / VAR / SCALAR values.
  const cpp::OpDesc& conv = back.blocks[0].ops[1];
  EXPECT_EQ(std::get<int32_t>(conv.FindAttr("a_block")->value), 1);
  EXPECT_EQ(std::get<std::string>(conv.FindAttr("a_var")->value), "x");
  EXPECT_EQ(std::get<double>(conv.FindAttr("a_scalar")->value), 2.5);
  EXPECT_EQ(std::get<std::vector<double>>(conv.FindAttr("a_scalars")->value).size(), 2u);
  EXPECT_EQ(conv.Input("Bias").size(), 0u);
  EXPECT_EQ(conv.inputs().count("Bias"), 1u);
  // And once more to proto: identical bytes.
  EXPECT_EQ(SerializeDeterministic(ToProto(back)), SerializeDeterministic(pb));
}

TEST(ProtoConvert, VarKindsAndDtypes) {
  proto::ProgramDesc pb = ToProto(MakeSampleProgram());
  const proto::BlockDesc& b = pb.blocks(0);
  auto var = [&](const std::string& n) {
    for (const auto& v : b.vars()) {
      if (v.name() == n) return v;
    }
    ADD_FAILURE() << "no var " << n;
    return proto::VarDesc();
  };
  EXPECT_EQ(var("feed").type().type(), proto::VarType::FEED_MINIBATCH);
  EXPECT_EQ(var("fetch").type().type(), proto::VarType::FETCH_LIST);
  EXPECT_EQ(var("arr").type().type(), proto::VarType::LOD_TENSOR_ARRAY);
  EXPECT_EQ(var("arr").type().tensor_array().lod_level(), 2);
  EXPECT_EQ(var("arr").type().tensor_array().tensor().data_type(), proto::VarType::INT64);
  EXPECT_EQ(var("rows").type().type(), proto::VarType::SELECTED_ROWS);
  EXPECT_EQ(var("x").type().lod_tensor().lod_level(), 1);
  EXPECT_TRUE(var("x").need_check_feed());
  EXPECT_EQ(var("x").type().lod_tensor().tensor().dims(0), -1);
  const std::pair<const char*, proto::VarType::Type> codes[] = {
      {"p_bool", proto::VarType::BOOL},  {"p_i16", proto::VarType::INT16},
      {"p_i32", proto::VarType::INT32},  {"p_i64", proto::VarType::INT64},
      {"p_f16", proto::VarType::FP16},   {"p_f32", proto::VarType::FP32},
      {"p_f64", proto::VarType::FP64},   {"p_u8", proto::VarType::UINT8},
      {"p_i8", proto::VarType::INT8},
  };
  for (const auto& c : codes) {
    EXPECT_EQ(var(c.first).type().lod_tensor().tensor().data_type(), c.second) << c.first;
    EXPECT_EQ(static_cast<int>(c.second),
              [&] { int x = -1; DataTypeToPaddle(DataTypeFromPaddle(c.second), &x); return x; }());
  }
  EXPECT_EQ(DataTypeFromPaddle(proto::VarType::BF16), DataType::kUnknown);
  EXPECT_EQ(DataTypeFromPaddle(proto::VarType::COMPLEX64), DataType::kUnknown);
  EXPECT_EQ(DataTypeFromPaddle(proto::VarType::LOD_TENSOR), DataType::kUnknown);
}

TEST(ProtoConvert, ScalarKindsBecomeDouble) {
  proto::ProgramDesc pb = ToProto(MakeSampleProgram());
  proto::OpDesc* conv = pb.mutable_blocks(0)->mutable_ops(1);
  for (auto& a : *conv->mutable_attrs()) {
    if (a.name() == "a_scalar") {
      a.mutable_scalar()->Clear();
      a.mutable_scalar()->set_type(proto::Scalar::LONG);
      a.mutable_scalar()->set_i(-7);
    }
    if (a.name() == "a_scalars") {
      a.mutable_scalars(0)->Clear();
      a.mutable_scalars(0)->set_type(proto::Scalar::BOOLEAN);
      a.mutable_scalars(0)->set_b(true);
      a.mutable_scalars(1)->Clear();
      a.mutable_scalars(1)->set_type(proto::Scalar::COMPLEX128);
      a.mutable_scalars(1)->mutable_c()->set_r(0.25);
      a.mutable_scalars(1)->mutable_c()->set_i(9);
    }
  }
  cpp::ProgramDesc prog;
  ASSERT_TRUE(ProgramFromProto(pb, &prog).ok());
  const cpp::OpDesc& op = prog.blocks[0].ops[1];
  EXPECT_EQ(std::get<double>(op.FindAttr("a_scalar")->value), -7.0);
  EXPECT_EQ(std::get<std::vector<double>>(op.FindAttr("a_scalars")->value),
            (std::vector<double>{1.0, 0.25}));
  // The original LONG / BOOLEAN / COMPLEX encodings come back unchanged.
  EXPECT_EQ(SerializeDeterministic(ToProto(prog)), SerializeDeterministic(pb));
}

// A program with what cpp::ProgramDesc does not model: op_compatible_map,
// is_target, stop_gradient, var attrs, unknown fields, unsorted attrs,
// explicit defaults.
proto::ProgramDesc ProgramWithExtras() {
  proto::ProgramDesc pb = ToProto(MakeSampleProgram());
  auto* pair = pb.mutable_op_compatible_map()->add_pair();
  pair->set_op_name("conv2d");
  pair->mutable_compatible_info()->set_version("1.5.0");
  pair->mutable_compatible_info()->set_type(proto::CompatibleInfo::POSSIBLE);
  pb.mutable_op_compatible_map()->set_default_required_version("1.5.0");
  pb.mutable_unknown_fields()->AddVarint(99, 12345);
  proto::BlockDesc* b = pb.mutable_blocks(0);
  b->set_forward_block_idx(-1);  // explicit default
  b->mutable_unknown_fields()->AddLengthDelimited(77, "block extra");
  proto::VarDesc* v = b->mutable_vars(3);
  v->set_stop_gradient(true);
  v->set_is_parameter(true);
  auto* va = v->add_attrs();
  va->set_name("var_attr");
  va->set_type(proto::INT);
  va->set_i(4);
  v->mutable_type()->mutable_lod_tensor()->set_lod_level(0);  // explicit default
  b->mutable_vars(4)->mutable_unknown_fields()->AddFixed32(50, 7);
  b->mutable_vars(5)->set_persistable(true);
  proto::OpDesc* conv = b->mutable_ops(1);
  conv->set_is_target(true);
  conv->mutable_attrs()->SwapElements(0, 5);  // unsorted attrs
  conv->mutable_attrs(2)->set_i(11);          // stray field on a non-INT attr
  b->mutable_ops(2)->mutable_unknown_fields()->AddVarint(40, 1);
  auto* rows = b->mutable_vars(16);
  rows->mutable_type()->mutable_selected_rows()->set_data_type(proto::VarType::FP32);
  rows->mutable_type()->mutable_selected_rows()->add_dims(-1);
  return pb;
}

TEST(ProtoConvert, UnmodelledFieldsSurviveByteExact) {
  proto::ProgramDesc pb = ProgramWithExtras();
  ASSERT_EQ(pb.blocks(0).vars(16).name(), "rows");
  cpp::ProgramDesc prog;
  ASSERT_TRUE(ProgramFromProto(pb, &prog).ok());
  EXPECT_FALSE(prog.opaque_extras.empty());
  proto::ProgramDesc out = ToProto(prog);
  EXPECT_TRUE(out.has_op_compatible_map());
  EXPECT_TRUE(out.blocks(0).ops(1).is_target());
  EXPECT_TRUE(out.blocks(0).vars(3).stop_gradient());
  EXPECT_EQ(SerializeDeterministic(out), SerializeDeterministic(pb));
}

TEST(ProtoConvert, EditsAfterLoadWinAndOtherExtrasStay) {
  proto::ProgramDesc pb = ProgramWithExtras();
  cpp::ProgramDesc prog;
  ASSERT_TRUE(ProgramFromProto(pb, &prog).ok());
  cpp::BlockDesc& b = prog.blocks[0];
  b.ops.erase(b.ops.begin());                       // drop feed op
  b.ops[0].SetAttr("a_int", 42);                    // edit conv attr
  b.ops[0].RemoveAttr("a_string");
  b.vars[3].dims = {9, 9};                          // edit p_f32 dims
  b.vars.erase(b.vars.begin() + 2);                 // drop x
  proto::ProgramDesc out = ToProto(prog);
  const proto::OpDesc& conv = out.blocks(0).ops(0);
  EXPECT_EQ(conv.type(), "conv2d");
  EXPECT_TRUE(conv.is_target());  // found again by its inputs/outputs
  EXPECT_EQ(FindAttr(conv, "a_int")->i(), 42);
  EXPECT_EQ(FindAttr(conv, "a_string"), nullptr);
  const proto::VarDesc& w = out.blocks(0).vars(2);
  ASSERT_EQ(w.name(), "p_f32");
  EXPECT_TRUE(w.stop_gradient());
  EXPECT_EQ(w.type().lod_tensor().tensor().dims_size(), 2);
  EXPECT_EQ(w.type().lod_tensor().tensor().dims(0), 9);
  cpp::ProgramDesc again;
  ASSERT_TRUE(ProgramFromProto(out, &again).ok());
  EXPECT_TRUE(ProgramsEqual(prog, again));
}

TEST(ProtoConvert, UnknownElementTypeIsKUnknownAndKept) {
  proto::ProgramDesc pb = ToProto(MakeSampleProgram());
  auto* td = pb.mutable_blocks(0)->mutable_vars(3)->mutable_type()
                 ->mutable_lod_tensor()->mutable_tensor();
  td->set_data_type(proto::VarType::BF16);
  auto* td2 = pb.mutable_blocks(0)->mutable_vars(4)->mutable_type()
                  ->mutable_lod_tensor()->mutable_tensor();
  td2->clear_data_type();  // as if the code were unknown to this proto
  td2->mutable_unknown_fields()->AddVarint(1, 99);
  cpp::ProgramDesc prog;
  Status s = ProgramFromProto(pb, &prog);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(prog.blocks[0].vars[3].dtype, DataType::kUnknown);
  EXPECT_EQ(prog.blocks[0].vars[4].dtype, DataType::kUnknown);
  EXPECT_EQ(SerializeDeterministic(ToProto(prog)), SerializeDeterministic(pb));
  // Setting a known dtype replaces the unknown code instead of adding to it.
  prog.blocks[0].vars[4].dtype = DataType::kInt8;
  proto::ProgramDesc out = ToProto(prog);
  proto::ProgramDesc reparsed;
  ASSERT_TRUE(reparsed.ParsePartialFromString(SerializeDeterministic(out)));
  EXPECT_EQ(reparsed.blocks(0).vars(4).type().lod_tensor().tensor().data_type(),
            proto::VarType::INT8);
}

TEST(ProtoConvert, RejectsMalformedPrograms) {
  cpp::ProgramDesc untouched = MakeSampleProgram();
  cpp::ProgramDesc out = untouched;

  proto::ProgramDesc empty;
  Status s = ProgramFromProto(empty, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("not a Paddle ProgramDesc"), std::string::npos);
  EXPECT_NE(s.message().find("no blocks"), std::string::npos);

  proto::ProgramDesc no_block0 = ToProto(MakeSampleProgram());
  no_block0.mutable_blocks()->SwapElements(0, 1);
  s = ProgramFromProto(no_block0, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("block 0 missing"), std::string::npos);

  proto::ProgramDesc no_name = ToProto(MakeSampleProgram());
  no_name.mutable_blocks(0)->mutable_vars(2)->clear_name();
  s = ProgramFromProto(no_name, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("blocks[0].vars[2].name"), std::string::npos) << s.message();

  proto::ProgramDesc bad_scalar = ToProto(MakeSampleProgram());
  for (auto& a : *bad_scalar.mutable_blocks(0)->mutable_ops(1)->mutable_attrs()) {
    if (a.name() == "a_scalar") a.mutable_scalar()->clear_type();
  }
  s = ProgramFromProto(bad_scalar, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("type"), std::string::npos) << s.message();

  EXPECT_TRUE(ProgramsEqual(out, untouched));  // never written on failure
}

}  // namespace
}  // namespace lite
