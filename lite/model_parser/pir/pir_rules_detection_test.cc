// The PIR rules of pir_rules_detection.cc on small hand-written programs:
// each PIR op becomes the engine op with its operands in Paddle's order,
// its attributes, and its optional results bound only when present.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lite/model_parser/pir/pir_loader.h"
#include "lite/model_parser/pir/pir_test_util.h"

namespace lite {
namespace {

using namespace pir_test;  // NOLINT

std::string Data(int id, const std::string& name, const std::string& dtype,
                 const std::string& dims) {
  return OpJson("1.data",
                {StrAttr("name", name), Attr("shape", "1.a_intarray", dims),
                 Attr("dtype", "1.a_dtype", "\"" + std::string(dtype == "f32" ? "float32" : "int32") + "\"")},
                {}, {{id, Dense(dtype, dims)}});
}

std::string Fetch(int in, int id, const std::string& name, int col) {
  return OpJson("1.fetch", {StrAttr("name", name), Attr("col", "0.a_i32", std::to_string(col))},
                {in}, {{id, Dense("f32", "[-1]")}});
}

const cpp::OpDesc* Find(const cpp::ProgramDesc& p, const std::string& type) {
  for (const auto& op : p.blocks[0].ops) {
    if (op.Type() == type) return &op;
  }
  return nullptr;
}

TEST(PirDetectionRules, RoiAlign) {
  const std::string json = ProgramJson({
      Data(1, "x", "f32", "[2,3,8,8]"),
      Data(2, "boxes", "f32", "[-1,4]"),
      Data(3, "boxes_num", "i32", "[2]"),
      OpJson("1.roi_align",
             {Attr("pooled_height", "0.a_i32", "7"), Attr("pooled_width", "0.a_i32", "5"),
              Attr("spatial_scale", "0.a_f32", "0.25"), Attr("sampling_ratio", "0.a_i32", "-1"),
              Attr("aligned", "0.a_bool", "true")},
             {1, 2, 3}, {{4, Dense("f32", "[-1,3,7,5]")}}),
      Fetch(4, 5, "out", 0),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::OpDesc* d = Find(model->program, "roi_align");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->Input("X"), std::vector<std::string>{"x"});
  EXPECT_EQ(d->Input("ROIs"), std::vector<std::string>{"boxes"});
  EXPECT_EQ(d->Input("RoisNum"), std::vector<std::string>{"boxes_num"});
  EXPECT_EQ(d->GetAttr<int32_t>("pooled_height"), 7);
  EXPECT_EQ(d->GetAttr<int32_t>("pooled_width"), 5);
  EXPECT_FLOAT_EQ(d->GetAttr<float>("spatial_scale"), 0.25f);
  EXPECT_EQ(d->GetAttr<int32_t>("sampling_ratio"), -1);
  EXPECT_TRUE(d->GetAttr<bool>("aligned"));
}

TEST(PirDetectionRules, MatrixNmsBindsIndexAndRoisNum) {
  const std::string json = ProgramJson({
      Data(1, "bboxes", "f32", "[1,10,4]"),
      Data(2, "scores", "f32", "[1,3,10]"),
      OpJson("1.matrix_nms",
             {Attr("score_threshold", "0.a_f32", "0.05"), Attr("nms_top_k", "0.a_i32", "100"),
              Attr("keep_top_k", "0.a_i32", "20"), Attr("post_threshold", "0.a_f32", "0.1"),
              Attr("use_gaussian", "0.a_bool", "true"), Attr("gaussian_sigma", "0.a_f32", "3.0"),
              Attr("background_label", "0.a_i32", "-1"), Attr("normalized", "0.a_bool", "false")},
             {1, 2},
             {{3, Dense("f32", "[-1,6]")}, {4, Dense("i32", "[-1,1]")}, {5, Dense("i32", "[-1]")}}),
      Fetch(3, 6, "out", 0),
      Fetch(4, 7, "index", 1),
      Fetch(5, 8, "num", 2),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::OpDesc* d = Find(model->program, "matrix_nms");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->Input("BBoxes"), std::vector<std::string>{"bboxes"});
  EXPECT_EQ(d->Input("Scores"), std::vector<std::string>{"scores"});
  EXPECT_EQ(d->Output("Index").size(), 1u);
  EXPECT_EQ(d->Output("RoisNum").size(), 1u);
  EXPECT_FLOAT_EQ(d->GetAttr<float>("score_threshold"), 0.05f);
  EXPECT_EQ(d->GetAttr<int32_t>("nms_top_k"), 100);
  EXPECT_EQ(d->GetAttr<int32_t>("keep_top_k"), 20);
  EXPECT_FLOAT_EQ(d->GetAttr<float>("post_threshold"), 0.1f);
  EXPECT_TRUE(d->GetAttr<bool>("use_gaussian"));
  EXPECT_FLOAT_EQ(d->GetAttr<float>("gaussian_sigma"), 3.f);
  EXPECT_EQ(d->GetAttr<int32_t>("background_label"), -1);
  EXPECT_FALSE(d->GetAttr<bool>("normalized"));
}

TEST(PirDetectionRules, GenerateProposalsBecomesV2) {
  const std::string json = ProgramJson({
      Data(1, "scores", "f32", "[1,3,4,5]"),
      Data(2, "deltas", "f32", "[1,12,4,5]"),
      Data(3, "im_shape", "f32", "[1,2]"),
      Data(4, "anchors", "f32", "[4,5,3,4]"),
      Data(5, "variances", "f32", "[4,5,3,4]"),
      OpJson("1.generate_proposals",
             {Attr("pre_nms_top_n", "0.a_i32", "600"), Attr("post_nms_top_n", "0.a_i32", "100"),
              Attr("nms_thresh", "0.a_f32", "0.7"), Attr("min_size", "0.a_f32", "0.0"),
              Attr("eta", "0.a_f32", "1.0"), Attr("pixel_offset", "0.a_bool", "false")},
             {1, 2, 3, 4, 5},
             {{6, Dense("f32", "[-1,4]")}, {7, Dense("f32", "[-1,1]")}, {8, Dense("i32", "[-1]")}}),
      Fetch(6, 9, "rois", 0),
      Fetch(7, 10, "probs", 1),
      Fetch(8, 11, "num", 2),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::OpDesc* d = Find(model->program, "generate_proposals_v2");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->Input("Scores"), std::vector<std::string>{"scores"});
  EXPECT_EQ(d->Input("BboxDeltas"), std::vector<std::string>{"deltas"});
  EXPECT_EQ(d->Input("ImShape"), std::vector<std::string>{"im_shape"});
  EXPECT_EQ(d->Input("Anchors"), std::vector<std::string>{"anchors"});
  EXPECT_EQ(d->Input("Variances"), std::vector<std::string>{"variances"});
  EXPECT_EQ(d->Output("RpnRois").size(), 1u);
  EXPECT_EQ(d->Output("RpnRoiProbs").size(), 1u);
  EXPECT_EQ(d->Output("RpnRoisNum").size(), 1u);
  EXPECT_EQ(d->GetAttr<int32_t>("pre_nms_topN"), 600);
  EXPECT_EQ(d->GetAttr<int32_t>("post_nms_topN"), 100);
  EXPECT_FLOAT_EQ(d->GetAttr<float>("nms_thresh"), 0.7f);
  EXPECT_FALSE(d->GetAttr<bool>("pixel_offset"));
}

TEST(PirDetectionRules, DistributeFpnProposalsListsOneOutputPerLevel) {
  const std::string lvl = Dense("f32", "[-1,4]"), num = Dense("i32", "[-1]");
  const std::string rois_list = R"({"#":"0.t_vec","D":[)" + lvl + "," + lvl + "," + lvl + "]}";
  const std::string num_list = R"({"#":"0.t_vec","D":[)" + num + "," + num + "," + num + "]}";
  const std::string json = ProgramJson({
      Data(1, "rois", "f32", "[-1,4]"),
      Data(2, "rois_num", "i32", "[2]"),
      OpJson("1.distribute_fpn_proposals",
             {Attr("min_level", "0.a_i32", "2"), Attr("max_level", "0.a_i32", "4"),
              Attr("refer_level", "0.a_i32", "4"), Attr("refer_scale", "0.a_i32", "224"),
              Attr("pixel_offset", "0.a_bool", "false")},
             {1, 2}, {{3, rois_list}, {4, num_list}, {5, Dense("i32", "[-1,1]")}}),
      Fetch(5, 6, "restore", 0),
  });
  auto model = pir::ReadPirModel(json, "inference.json");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  const cpp::OpDesc* d = Find(model->program, "distribute_fpn_proposals");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->Input("FpnRois"), std::vector<std::string>{"rois"});
  EXPECT_EQ(d->Input("RoisNum"), std::vector<std::string>{"rois_num"});
  EXPECT_EQ(d->Output("MultiFpnRois").size(), 3u);
  EXPECT_EQ(d->Output("MultiLevelRoIsNum").size(), 3u);
  EXPECT_EQ(d->Output("RestoreIndex").size(), 1u);
  EXPECT_EQ(d->GetAttr<int32_t>("min_level"), 2);
  EXPECT_EQ(d->GetAttr<int32_t>("max_level"), 4);
  EXPECT_EQ(d->GetAttr<int32_t>("refer_scale"), 224);
  EXPECT_FALSE(d->GetAttr<bool>("pixel_offset"));
}

}  // namespace
}  // namespace lite
