// distribute_fpn_proposals against a reference that assigns each region its
// level from the FPN formula (double), over pixel_offset, level ranges that
// clamp, and the per-image split by RoisNum or LoD; RestoreIndex must undo
// the shuffle.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct FpnCfg {
  int min_level = 2, max_level = 5, refer_level = 4, refer_scale = 224;
  bool pixel_offset = true, use_rois_num = true;
};

// Regions of sizes 10 .. 700 (none on a level boundary), 4 in image 0 and 5
// in image 1.
std::vector<float> MakeRois() {
  const float sizes[9] = {700, 20, 130, 60, 10, 300, 45, 90, 500};
  std::vector<float> v;
  for (int i = 0; i < 9; ++i) {
    const float x = 3.f * i, y = 2.f * i, w = sizes[i], h = sizes[i] * (i % 2 ? 0.8f : 1.2f);
    for (float q : {x, y, x + w, y + h}) v.push_back(q);
  }
  return v;
}

void RunAndCheck(const FpnCfg& c, const std::string& name) {
  const std::vector<float> rois = MakeRois();
  const std::vector<int> image_of = {0, 0, 0, 0, 1, 1, 1, 1, 1};
  const int levels = c.max_level - c.min_level + 1;
  OpTester t("distribute_fpn_proposals");
  Tensor* in = t.SetInput<float>("FpnRois", "rois", {9, 4}, rois);
  if (c.use_rois_num) {
    t.SetInput<int32_t>("RoisNum", "rn", {2}, {4, 5});
  } else {
    in->set_lod({{0, 4, 9}});
  }
  for (int l = 0; l < levels; ++l) {
    t.SetOutput("MultiFpnRois", "lvl" + std::to_string(l));
    t.SetOutput("MultiLevelRoIsNum", "num" + std::to_string(l));
  }
  t.SetOutput("RestoreIndex", "restore");
  t.SetAttr("min_level", c.min_level);
  t.SetAttr("max_level", c.max_level);
  t.SetAttr("refer_level", c.refer_level);
  t.SetAttr("refer_scale", c.refer_scale);
  t.SetAttr("pixel_offset", c.pixel_offset);
  ASSERT_TRUE(t.Run().ok()) << name;

  // Reference: level of each region, then each level's regions in order.
  std::vector<std::vector<int>> members(levels);
  for (int r = 0; r < 9; ++r) {
    const float* b = &rois[r * 4];
    const double e = c.pixel_offset ? 1 : 0;
    const double s = std::sqrt((b[2] - b[0] + e) * (b[3] - b[1] + e));
    int lvl = static_cast<int>(std::floor(std::log2(s / c.refer_scale) + c.refer_level));
    lvl = std::min(c.max_level, std::max(c.min_level, lvl));
    members[lvl - c.min_level].push_back(r);
  }
  std::vector<float> concat;
  int used_levels = 0;
  for (int l = 0; l < levels; ++l) {
    const std::string lvl = "lvl" + std::to_string(l);
    const int n = members[l].size();
    used_levels += n > 0;
    ASSERT_EQ(t.Get(lvl).dims(), (DDim{n, 4})) << name << " level " << l;
    const std::vector<float> got = t.GetData<float>(lvl);
    int per_image[2] = {0, 0};
    for (int k = 0; k < n; ++k) {
      const int r = members[l][k];
      ++per_image[image_of[r]];
      for (int q = 0; q < 4; ++q) EXPECT_EQ(got[k * 4 + q], rois[r * 4 + q]) << name;
    }
    concat.insert(concat.end(), got.begin(), got.end());
    EXPECT_EQ(t.Get(lvl).lod(),
              (LoD{{0, static_cast<uint64_t>(per_image[0]), static_cast<uint64_t>(n)}}))
        << name << " level " << l;
    EXPECT_EQ(t.GetData<int32_t>("num" + std::to_string(l)),
              (std::vector<int32_t>{per_image[0], per_image[1]}))
        << name << " level " << l;
  }
  EXPECT_GE(used_levels, 2) << name << ": the case should spread over levels";
  const std::vector<int32_t> restore = t.GetData<int32_t>("restore");
  ASSERT_EQ(restore.size(), 9u);
  for (int r = 0; r < 9; ++r) {
    for (int q = 0; q < 4; ++q) EXPECT_EQ(concat[restore[r] * 4 + q], rois[r * 4 + q]) << name;
  }
}

TEST(DistributeFpnProposals, MatchesReference) {
  FpnCfg c;
  RunAndCheck(c, "levels 2..5, RoisNum");
  c.pixel_offset = false;
  c.use_rois_num = false;
  RunAndCheck(c, "no pixel offset, LoD");
  c = FpnCfg();
  c.min_level = 3;
  c.max_level = 4;
  RunAndCheck(c, "clamped to 3..4");
  c = FpnCfg();
  c.refer_level = 3;
  c.refer_scale = 64;
  RunAndCheck(c, "refer 3 at 64");
}

TEST(DistributeFpnProposals, OutputCountMustMatchLevels) {
  OpTester t("distribute_fpn_proposals");
  Tensor* in = t.SetInput<float>("FpnRois", "rois", {1, 4}, {0, 0, 10, 10});
  in->set_lod({{0, 1}});
  t.SetOutput("MultiFpnRois", "l0");
  t.SetOutput("MultiFpnRois", "l1");
  t.SetOutput("RestoreIndex", "restore");
  t.SetAttr("min_level", 2);
  t.SetAttr("max_level", 4);
  t.SetAttr("refer_level", 4);
  t.SetAttr("refer_scale", 224);
  const Status s = t.Run();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("MultiFpnRois has 2 outputs but levels 2..4 need 3"),
            std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace lite
