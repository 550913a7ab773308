// distribute_fpn_proposals: sends each region of interest to the feature
// pyramid level that matches its size (FPN, Lin et al.). FpnRois [R, 4]
// hold (x1, y1, x2, y2) of all images, split per image by RoisNum (int [N],
// optional) or FpnRois' LoD.
//
// A region of area s (with pixel_offset, (w + 1) * (h + 1); else w * h)
// goes to level floor(log2(sqrt(s) / refer_scale + 1e-6) + refer_level),
// clamped to [min_level, max_level]. MultiFpnRois holds one output per
// level, min_level first: that level's regions, image by image in input
// order, with LoD {0, n0, n0 + n1, ...}; MultiLevelRoIsNum (optional, one
// int32 [N] per level) the same counts. RestoreIndex int32 [R, 1] gives,
// for each input region, its row in the concatenation of all levels, so
// gathering that concatenation by RestoreIndex restores the input order.
// Level sizes are known only after the kernel ran; InferShape sets [0, 4].
// Owned by lite/operators.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct DistributeFpnProposalsParam : OpParam {
  const Tensor* fpn_rois = nullptr;
  const Tensor* rois_num = nullptr;  // optional
  std::vector<Tensor*> multi_fpn_rois;
  std::vector<Tensor*> multi_level_rois_num;  // empty or one per level
  Tensor* restore_index = nullptr;
  int min_level = 2;
  int max_level = 5;
  int refer_level = 4;
  int refer_scale = 224;
  bool pixel_offset = true;
};

}  // namespace operators
}  // namespace lite
