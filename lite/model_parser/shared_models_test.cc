// Real-model tests over the 7 shared Paddle models (../shared/models): load
// each one, check its counts against SOURCE.txt and a fixed table, check
// every weight against its VarDesc, check proto -> cpp -> proto gives the
// same message (and bytes), and that a combined save reproduces Paddle's
// own params bytes and loads back identically. Skips when the models are
// absent.
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include <fstream>
#include <iostream>
#include <map>
#include <cctype>

#include "lite/utils/file_util.h"
#include "lite/model_parser/framework.pb.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/proto_convert.h"
#include "lite/model_parser/tensor_io.h"
#include "lite/model_parser/test_models.h"
#include "lite/model_parser/test_util.h"

namespace lite {
namespace {

using namespace testing_util;  // NOLINT
namespace proto = paddle::framework::proto;

struct Expected {
  const char* name;
  bool combined;
  int ops, vars, params;
  int64_t elements;
  int lod_vars;
  int64_t version;      // 0: no ProgramDesc.version
  int op_version_pairs;  // -1: no op_version_map
  bool op_compatible_map;
};

// From each model's SOURCE.txt.
const Expected kModels[] = {
    {"mnist_mlp_fluid2018", false, 11, 18, 6, 199210, 0, 0, -1, false},
    {"mobilenetv3_small_x0_35_3cls", true, 202, 542, 214, 393069, 0, 2006002, 67, false},
    {"ppocr_cls_mobile_v2.0", true, 184, 504, 213, 133628, 0, 2003002, 77, false},
    {"ppocr_det_en_PP-OCRv3", true, 238, 674, 288, 592625, 0, 2003000, 78, false},
    {"rna_bilstm_lod", false, 63, 154, 54, 5668866, 74, 1008003, -1, true},
    {"squeezenet_v1.1_caffe2fluid", false, 94, 121, 52, 1235496, 0, 0, -1, false},
    {"textcnn_seqconv_lod", false, 16, 27, 8, 707776, 8, 2004002, 79, false},
};

// The integer right after the first occurrence of `key` in `text`, or -1.
int64_t NumberAfter(const std::string& text, const std::string& key) {
  size_t pos = text.find(key);
  if (pos == std::string::npos) return -1;
  pos += key.size();
  size_t end = pos;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  return end == pos ? -1 : std::stoll(text.substr(pos, end - pos));
}

// The numbers SOURCE.txt states, parsed from its text.
std::map<std::string, int64_t> ParseSource(const std::string& text) {
  const std::string params_line = "persistable vars (excl. feed/fetch): ";
  size_t line = text.find(params_line);
  std::string rest = line == std::string::npos ? "" : text.substr(line);
  std::map<std::string, int64_t> out = {
      {"ops", NumberAfter(text, "\nops: ")},
      {"vars", NumberAfter(text, "\"num_vars\": ")},
      {"params", NumberAfter(rest, params_line)},
      {"elements", NumberAfter(rest.substr(0, rest.find('\n')), "elements ")},
      {"lod_vars", NumberAfter(text, "vars with lod_level>0: ")},
  };
  return out;
}

class SharedModel : public ::testing::TestWithParam<Expected> {
 protected:
  void SetUp() override {
    root_ = SharedModelsDir();
    if (root_.empty()) GTEST_SKIP() << kSharedModelsMissing;
    dir_ = JoinPath(root_, GetParam().name);
    ASSERT_TRUE(IsDirectory(dir_)) << dir_;
    ModelSource src;
    src.model_dir = dir_;
    Status s = LoadModel(src, &program_, &scope_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  std::string root_, dir_;
  cpp::ProgramDesc program_;
  Scope scope_;
};

TEST_P(SharedModel, CountsMatchSourceTxt) {
  const Expected& e = GetParam();
  auto files = FindModelFiles(dir_);
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(files->combined, e.combined);

  ASSERT_EQ(program_.blocks.size(), 1u);
  const cpp::BlockDesc& b = program_.blocks[0];
  int lod_vars = 0;
  for (const auto& v : b.vars) lod_vars += v.lod_level > 0;
  std::vector<std::string> params = ParamNames(program_);
  int64_t elements = 0;
  for (const auto& n : params) elements += scope_.FindVar(n)->GetTensor().numel();

  EXPECT_EQ(static_cast<int>(b.ops.size()), e.ops);
  EXPECT_EQ(static_cast<int>(b.vars.size()), e.vars);
  EXPECT_EQ(static_cast<int>(params.size()), e.params);
  EXPECT_EQ(elements, e.elements);
  EXPECT_EQ(lod_vars, e.lod_vars);
  EXPECT_EQ(program_.has_version, e.version != 0);
  EXPECT_EQ(program_.version, e.version);
  EXPECT_EQ(static_cast<int>(program_.op_versions.size()), std::max(e.op_version_pairs, 0));

  std::string source;
  ASSERT_TRUE(ReadFileToString(JoinPath(dir_, "SOURCE.txt"), &source).ok());
  std::map<std::string, int64_t> stated = ParseSource(source);
  for (const auto& kv : stated) ASSERT_GE(kv.second, 0) << "SOURCE.txt lacks " << kv.first;
  EXPECT_EQ(stated["ops"], e.ops);
  EXPECT_EQ(stated["vars"], e.vars);
  EXPECT_EQ(stated["params"], e.params);
  EXPECT_EQ(stated["elements"], e.elements);
  EXPECT_EQ(stated["lod_vars"], e.lod_vars);
}

TEST_P(SharedModel, EveryWeightMatchesItsVarDesc) {
  for (const auto& n : ParamNames(program_)) {
    const cpp::VarDesc* v = program_.blocks[0].FindVar(n);
    const Variable* var = scope_.FindVar(n);
    ASSERT_NE(var, nullptr) << n;
    const Tensor& t = var->GetTensor();
    EXPECT_TRUE(t.persistable()) << n;
    EXPECT_EQ(t.dims(), v->dims) << n << " " << DimsToString(t.dims());
    EXPECT_EQ(t.dtype(), DataType::kFloat32) << n;
    EXPECT_EQ(t.dtype(), v->dtype) << n;
    EXPECT_TRUE(t.lod().empty()) << n;
    EXPECT_NE(t.raw_data(), nullptr) << n;
  }
}

TEST_P(SharedModel, ProtoRoundTripIsExact) {
  const Expected& e = GetParam();
  auto files = FindModelFiles(dir_);
  ASSERT_TRUE(files.ok());
  std::string bytes;
  ASSERT_TRUE(ReadFileToString(files->model_file, &bytes).ok());
  proto::ProgramDesc original;
  ASSERT_TRUE(original.ParseFromString(bytes));
  EXPECT_EQ(original.has_op_compatible_map(), e.op_compatible_map);
  EXPECT_EQ(original.has_op_version_map(), e.op_version_pairs >= 0);

  cpp::ProgramDesc prog;
  ASSERT_TRUE(ProgramFromProto(original, &prog).ok());
  proto::ProgramDesc regenerated;
  ProgramToProto(prog, &regenerated);
  std::string diff;
  google::protobuf::util::MessageDifferencer differ;
  differ.ReportDifferencesToString(&diff);
  EXPECT_TRUE(differ.Compare(original, regenerated)) << diff.substr(0, 2000);
  EXPECT_EQ(SerializeDeterministic(regenerated), SerializeDeterministic(original));
  EXPECT_TRUE(regenerated.IsInitialized());

  // What the model looks like, for the record.
  std::map<std::string, int> attr_types;
  for (const auto& op : original.blocks(0).ops()) {
    for (const auto& a : op.attrs()) attr_types[proto::AttrType_Name(a.type())]++;
  }
  std::cout << e.name << ": file bytes == deterministic reserialization: "
            << (bytes == SerializeDeterministic(original) ? "yes" : "no")
            << "; opaque_extras " << prog.opaque_extras.size() << " of " << bytes.size()
            << " bytes; attr types:";
  for (const auto& kv : attr_types) std::cout << " " << kv.first << "=" << kv.second;
  std::cout << std::endl;
}

TEST_P(SharedModel, CombinedSaveIsPaddleCompatibleAndLoadsBack) {
  std::string model, params;
  Status s = SaveCombinedModelToBuffers(program_, scope_, &model, &params);
  ASSERT_TRUE(s.ok()) << s.ToString();

  // Same bytes Paddle wrote: the .pdiparams, or the per-var files in order.
  auto files = FindModelFiles(dir_);
  ASSERT_TRUE(files.ok());
  std::string paddle_params;
  if (files->combined) {
    ASSERT_TRUE(ReadFileToString(files->params_file, &paddle_params).ok());
  } else {
    for (const auto& n : ParamNames(program_)) {
      std::string one;
      ASSERT_TRUE(ReadFileToString(JoinPath(dir_, n), &one).ok());
      paddle_params += one;
    }
  }
  EXPECT_TRUE(params == paddle_params) << "params differ from Paddle's bytes";
  std::string original;
  ASSERT_TRUE(ReadFileToString(files->model_file, &original).ok());
  proto::ProgramDesc pb;
  ASSERT_TRUE(pb.ParseFromString(original));
  EXPECT_TRUE(model == SerializeDeterministic(pb));

  // Through files and back.
  const std::string out = MakeTempDir(std::string("shared_") + GetParam().name);
  s = SaveCombinedModel(program_, scope_, JoinPath(out, "inference.pdmodel"),
                        JoinPath(out, "inference.pdiparams"));
  ASSERT_TRUE(s.ok()) << s.ToString();
  ModelSource src;
  src.model_dir = out;
  cpp::ProgramDesc loaded;
  Scope scope;
  s = LoadModel(src, &loaded, &scope);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_TRUE(ProgramsEqual(program_, loaded));
  for (const auto& n : ParamNames(program_)) {
    EXPECT_TRUE(TensorsEqual(scope_.FindVar(n)->GetTensor(), scope.FindVar(n)->GetTensor()))
        << n;
  }
}

std::string TestName(const ::testing::TestParamInfo<Expected>& info) {
  std::string n = info.param.name;
  for (auto& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

INSTANTIATE_TEST_SUITE_P(AllSharedModels, SharedModel, ::testing::ValuesIn(kModels),
                         TestName);

TEST(SharedModels, AllSevenArePresent) {
  const std::string root = SharedModelsDir();
  if (root.empty()) GTEST_SKIP() << kSharedModelsMissing;
  for (const Expected& e : kModels) EXPECT_TRUE(IsDirectory(JoinPath(root, e.name))) << e.name;
}

}  // namespace
}  // namespace lite
