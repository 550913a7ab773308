#include "lite/kernels/npu/npu_context.h"

namespace lite {
namespace kernels {
namespace npu {

std::unique_ptr<TargetContext> MakeNpuContext(const NpuOptions& options) {
  return std::make_unique<NpuContext>(options);
}

NpuContext* NpuContextOf(KernelContext* ctx) {
  NpuContext* npu = ctx->target_context<NpuContext>(TargetType::kNPU);
  if (npu) return npu;
  ctx->set_target_context(std::make_unique<NpuContext>());
  return ctx->target_context<NpuContext>(TargetType::kNPU);
}

std::vector<const SubgraphRecord*> SubgraphRecordsOf(const KernelContext& ctx) {
  const NpuContext* npu = ctx.target_context<NpuContext>(TargetType::kNPU);
  return npu ? npu->subgraphs : std::vector<const SubgraphRecord*>();
}

int NpuCachedShapes(const KernelContext& ctx) {
  const NpuContext* npu = ctx.target_context<NpuContext>(TargetType::kNPU);
  int n = 0;
  if (npu) {
    for (const auto& count : npu->cached) n += count();
  }
  return n;
}

int ReleaseNpuCaches(KernelContext* ctx) {
  NpuContext* npu = ctx->target_context<NpuContext>(TargetType::kNPU);
  int n = 0;
  if (npu) {
    for (const auto& release : npu->releasers) n += release();
    npu->evictions += n;
  }
  return n;
}

}  // namespace npu
}  // namespace kernels
}  // namespace lite
