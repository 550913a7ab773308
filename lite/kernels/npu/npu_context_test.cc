#include "lite/kernels/npu/npu_context.h"

#include <gtest/gtest.h>

namespace lite {
namespace kernels {
namespace npu {
namespace {

// Another library's context type, for the type check of the slot.
struct OtherContext : public TargetContext {
  TargetType target() const override { return TargetType::kNPU; }
};

TEST(NpuContext, TheSlotHoldsTheSettingsAndRecordsOfItsTarget) {
  KernelContext ctx;
  EXPECT_EQ(ctx.target_context<NpuContext>(TargetType::kNPU), nullptr);
  EXPECT_TRUE(SubgraphRecordsOf(ctx).empty());

  NpuOptions options;
  options.driver = "reference";
  options.strict = true;
  ctx.set_target_context(MakeNpuContext(options));
  NpuContext* npu = NpuContextOf(&ctx);
  ASSERT_EQ(npu, ctx.target_context<NpuContext>(TargetType::kNPU));
  EXPECT_EQ(npu->options.driver, "reference");
  EXPECT_TRUE(npu->options.strict);
  SubgraphRecord record;
  record.id = 7;
  npu->subgraphs.push_back(&record);
  ASSERT_EQ(SubgraphRecordsOf(ctx).size(), 1u);
  EXPECT_EQ(SubgraphRecordsOf(ctx)[0]->id, 7);
  EXPECT_EQ(ctx.target_context<NpuContext>(TargetType::kX86), nullptr);

  // A context of another type under kNPU is not an NpuContext.
  ctx.set_target_context(std::make_unique<OtherContext>());
  EXPECT_EQ(ctx.target_context<NpuContext>(TargetType::kNPU), nullptr);
  EXPECT_TRUE(SubgraphRecordsOf(ctx).empty());
}

TEST(NpuContext, AProgramBuiltWithoutOneGetsDefaultSettings) {
  KernelContext ctx;
  NpuContext* npu = NpuContextOf(&ctx);
  ASSERT_NE(npu, nullptr);
  EXPECT_EQ(npu->options.driver, NpuOptions().driver);
  EXPECT_EQ(NpuContextOf(&ctx), npu);  // added once
}

}  // namespace
}  // namespace npu
}  // namespace kernels
}  // namespace lite
