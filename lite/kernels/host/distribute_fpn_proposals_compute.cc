// Host fp32 kernel for distribute_fpn_proposals
// (distribute_fpn_proposals_op.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/kernels/host/detection_util.h"
#include "lite/operators/distribute_fpn_proposals_op.h"

namespace lite {
namespace kernels {
namespace host {

class DistributeFpnProposalsCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::DistributeFpnProposalsParam>();
    if (p.fpn_rois->dtype() != DataType::kFloat32) {
      return Unimplemented("distribute_fpn_proposals on non-float32 FpnRois");
    }
    const int64_t total = p.fpn_rois->dims()[0];
    ASSIGN_OR_RETURN(std::vector<int64_t> offsets,
                     BoxImageOffsets(p.rois_num, *p.fpn_rois, total, false,
                                     "distribute_fpn_proposals"));
    const size_t images = offsets.size() - 1;
    const int levels = p.max_level - p.min_level + 1;
    const float* rois = p.fpn_rois->data<float>();
    // Level (from 0) of every region, and per level the count per image.
    std::vector<int> level_of(total);
    std::vector<std::vector<uint64_t>> lod(levels, std::vector<uint64_t>(images + 1, 0));
    for (size_t img = 0; img < images; ++img) {
      for (int l = 0; l < levels; ++l) lod[l][img + 1] = lod[l][img];
      for (int64_t r = offsets[img]; r < offsets[img + 1]; ++r) {
        const float scale = std::sqrt(BoxArea(rois + r * 4, !p.pixel_offset));
        int level = static_cast<int>(
            std::floor(std::log2(scale / p.refer_scale + 1e-6f) + p.refer_level));
        level = std::min(p.max_level, std::max(level, p.min_level)) - p.min_level;
        level_of[r] = level;
        ++lod[level][img + 1];
      }
    }
    std::vector<float*> dst(levels);
    std::vector<int64_t> level_start(levels + 1, 0);
    for (int l = 0; l < levels; ++l) {
      const int64_t count = static_cast<int64_t>(lod[l].back());
      Tensor* out = p.multi_fpn_rois[l];
      out->Resize({count, 4});
      dst[l] = out->mutable_data<float>();
      out->set_lod({lod[l]});
      level_start[l + 1] = level_start[l] + count;
    }
    p.restore_index->Resize({total, 1});
    int32_t* restore = p.restore_index->mutable_data<int32_t>();
    std::vector<int64_t> next = level_start;  // next free row of each level
    for (int64_t r = 0; r < total; ++r) {
      const int l = level_of[r];
      std::memcpy(dst[l], rois + r * 4, 4 * sizeof(float));
      dst[l] += 4;
      restore[r] = static_cast<int32_t>(next[l]++);
    }
    for (size_t l = 0; l < p.multi_level_rois_num.size(); ++l) {
      Tensor* num = p.multi_level_rois_num[l];
      num->Resize({static_cast<int64_t>(images)});
      int32_t* n = num->mutable_data<int32_t>();
      for (size_t img = 0; img < images; ++img) {
        n[img] = static_cast<int32_t>(lod[l][img + 1] - lod[l][img]);
      }
    }
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(distribute_fpn_proposals, kHost, kFloat, kNCHW,
                     lite::kernels::host::DistributeFpnProposalsCompute, def)
    .BindInput("RoisNum", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindOutput("MultiLevelRoIsNum", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .BindOutput("RestoreIndex", lite::Place(TARGET(kHost), PRECISION(kInt32)))
    .Finalize();
