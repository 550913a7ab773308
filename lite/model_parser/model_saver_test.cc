// Error tests of combined-model saving: missing or inconsistent tensors,
// unsupported var kinds, unwritable paths. Each checks the code and that the
// message names the file (or "<params buffer>") and the var, and that nothing
// is written on a program or scope error.
#include "lite/model_parser/model_saver.h"

#include <gtest/gtest.h>

#include "lite/utils/file_util.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/test_util.h"

namespace lite {
namespace {

using namespace testing_util;  // NOLINT

TEST(SaverErrors, PersistableTensorArrayIsUnimplemented) {
  cpp::ProgramDesc prog = SmallProgram();
  cpp::VarDesc arr = TensorVarDesc("arr", DataType::kFloat32, {-1});
  arr.kind = cpp::VarKind::kTensorArray;
  prog.blocks[0].vars.push_back(arr);
  Scope scope;
  std::string m, pa;
  EXPECT_TRUE(Fails(SaveCombinedModelToBuffers(prog, scope, &m, &pa),
                    StatusCode::kUnimplemented, {"'arr'"}));
}

TEST(SaverErrors, SaveWithMissingOrBadTensor) {
  cpp::ProgramDesc prog = SmallProgram();
  cpp::ProgramDesc loaded;
  Scope scope;
  ASSERT_TRUE(LoadCombinedModelFromBuffers(ModelBytes(prog), Join(SmallProgramRecords()),
                                           &loaded, &scope)
                  .ok());
  const std::string dir = MakeTempDir("save_bad");
  const std::string model = JoinPath(dir, "inference.pdmodel");
  const std::string params = JoinPath(dir, "inference.pdiparams");

  prog.blocks[0].vars.push_back(TensorVarDesc("extra_w", DataType::kFloat32, {2}));
  std::string m = "unchanged", pa = "unchanged";
  EXPECT_TRUE(Fails(SaveCombinedModelToBuffers(prog, scope, &m, &pa),
                    StatusCode::kNotFound, {"<params buffer>", "'extra_w'"}));
  EXPECT_EQ(m, "unchanged");
  EXPECT_TRUE(Fails(SaveCombinedModel(prog, scope, model, params), StatusCode::kNotFound,
                    {params, "'extra_w'"}));
  EXPECT_FALSE(IsRegularFile(model));
  EXPECT_FALSE(IsRegularFile(params));

  scope.Var("extra_w")->GetMutableTensor()->Resize({5});
  scope.Var("extra_w")->GetMutableTensor()->mutable_data<float>();
  EXPECT_TRUE(Fails(SaveCombinedModelToBuffers(prog, scope, &m, &pa),
                    StatusCode::kInvalidArgument, {"'extra_w'", "[5]", "[2]"}));
  Tensor* t = scope.Var("extra_w")->GetMutableTensor();
  t->Resize({2});
  t->set_dtype(DataType::kUnknown);
  EXPECT_TRUE(Fails(SaveCombinedModelToBuffers(prog, scope, &m, &pa),
                    StatusCode::kInvalidArgument, {"'extra_w'", "unknown"}));
  t->mutable_data<float>();
  EXPECT_TRUE(SaveCombinedModel(prog, scope, model, params).ok());
  EXPECT_TRUE(Fails(SaveCombinedModel(prog, scope, JoinPath(dir, "no/such/m"), params),
                    StatusCode::kNotFound, {JoinPath(dir, "no/such/m")}));
}

}  // namespace
}  // namespace lite
