// The NPU device-support checker (npu_support.cc) on the int8 form of fc /
// mul / matmul_v2, asked as quant_dequant_fuse_pass asks it: an OpDesc with
// enable_int8 and its scales, declared vars, and the weights scope holding
// the int8 levels. Both drivers take the form; a float weight with
// enable_int8 is refused with the bridge's reason.
#include <gtest/gtest.h>

#include <map>

#include "lite/core/device_support.h"

namespace lite {
namespace {

struct Query {
  cpp::OpDesc desc;
  std::map<std::string, cpp::VarDesc> vars;
  Scope weights;

  void Var(const std::string& name, const std::vector<int64_t>& dims, DataType dtype) {
    cpp::VarDesc v;
    v.name = name;
    v.dims = dims;
    v.dtype = dtype;
    vars[name] = v;
  }
  Status CheckOn(const std::string& driver) {
    auto checker = DeviceSupportRegistry::Global().Create(TargetType::kNPU, driver);
    if (!checker.ok()) return checker.status();
    auto find = [this](const std::string& n) -> const cpp::VarDesc* {
      auto it = vars.find(n);
      return it == vars.end() ? nullptr : &it->second;
    };
    return (*checker)->Check({desc, find, &weights});
  }
};

// `type` reading X [2, 6] and a [6, 3] weight `w_param` of `dtype`, in its
// int8 form, into the empty query `q`.
void Int8Form(const std::string& type, const std::string& x_param, const std::string& w_param,
              DataType dtype, Query* out) {
  Query& q = *out;
  q.desc.SetType(type);
  q.desc.SetInput(x_param, {"x"});
  q.desc.SetInput(w_param, {"w"});
  q.desc.SetOutput("Out", {"out"});
  q.desc.SetAttr("enable_int8", true);
  q.desc.SetAttr("Input_scale", 2.f);
  q.desc.SetAttr("Filter_scales", std::vector<float>{0.5f, 1.f, 0.25f});
  q.desc.SetAttr("quant_round_type", 1);
  if (type == "fc") q.desc.SetAttr("in_num_col_dims", 1);
  q.Var("x", {2, 6}, DataType::kFloat32);
  q.Var("w", {6, 3}, dtype);
  q.Var("out", {2, 3}, DataType::kFloat32);
  Tensor* w = q.weights.Var("w")->GetMutableTensor();
  w->Resize({6, 3});
  w->set_persistable(true);
  if (dtype == DataType::kInt8) {
    int8_t* levels = w->mutable_data<int8_t>();
    for (int i = 0; i < 18; ++i) levels[i] = static_cast<int8_t>(i * 13 % 255 - 127);
  } else {
    float* values = w->mutable_data<float>();
    for (int i = 0; i < 18; ++i) values[i] = 0.1f * i;
  }
}

TEST(NpuSupport, Int8FormsOfFcMulMatmulAreTaken) {
  for (const char* driver : {"reference", "xnnpack"}) {
    SCOPED_TRACE(driver);
    for (const char* type : {"fc", "mul", "matmul_v2"}) {
      SCOPED_TRACE(type);
      const bool fc = std::string(type) == "fc";
      Query q;
      Int8Form(type, fc ? "Input" : "X", fc ? "W" : "Y", DataType::kInt8, &q);
      Status s = q.CheckOn(driver);
      EXPECT_TRUE(s.ok()) << s.ToString();
    }
  }
}

TEST(NpuSupport, Int8FormWithAFloatWeightIsRefused) {
  Query q;
  Int8Form("fc", "Input", "W", DataType::kFloat32, &q);
  Status s = q.CheckOn("reference");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("int8 form needs a 2-D int8 weight"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
