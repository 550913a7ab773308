// The int8 conv's strategy list: the list asks in order, plans the first
// that accepts and records the reasons of those that declined; a depthwise
// int8 conv the own depthwise kernel takes wins it, and a depthwise shape
// it declines falls to oneDNN with the reason.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "lite/backends/x86/depthwise_int8_nhwc.h"
#include "lite/core/op_tester.h"
#include "lite/kernels/x86/conv_int8_compute.h"
#include "lite/kernels/x86/strategy_list.h"

namespace lite {
namespace kernels {
namespace x86 {
namespace {

struct Calls {
  std::vector<std::string> planned, ran;
};

class Fake : public Strategy<Calls> {
 public:
  Fake(const char* name, bool accepts) : name_(name), accepts_(accepts) {}
  const char* name() const override { return name_; }
  Verdict Accepts(const Calls&) const override {
    return accepts_ ? Verdict::Accept() : Verdict::Decline(std::string(name_) + " says no");
  }
  Status Plan(Calls& c) override {
    c.planned.push_back(name_);
    return Status::OK();
  }
  Status Run(Calls& c) override {
    c.ran.push_back(name_);
    return Status::OK();
  }
  const std::string& impl_info() const override { return impl_; }

 private:
  const char* name_;
  bool accepts_;
  const std::string impl_ = "fake";
};

std::vector<std::unique_ptr<Strategy<Calls>>> List(std::vector<bool> accepts) {
  static const char* kNames[] = {"a", "b", "c"};
  std::vector<std::unique_ptr<Strategy<Calls>>> list;
  for (size_t i = 0; i < accepts.size(); ++i)
    list.push_back(std::make_unique<Fake>(kNames[i], accepts[i]));
  return list;
}

TEST(StrategyList, FirstThatAcceptsWinsAndDeclinedReasonsAreKept) {
  StrategyList<Calls> list(List({false, true, true}));
  Calls calls;
  ASSERT_TRUE(list.Choose(calls).ok());
  ASSERT_NE(list.winner(), nullptr);
  EXPECT_STREQ(list.winner()->name(), "b");
  ASSERT_EQ(list.declined().size(), 1u);
  EXPECT_EQ(list.declined()[0].name, "a");
  EXPECT_EQ(list.declined()[0].reason, "a says no");
  ASSERT_TRUE(list.Run(calls).ok());
  EXPECT_EQ(calls.planned, std::vector<std::string>{"b"});
  EXPECT_EQ(calls.ran, std::vector<std::string>{"b"});
}

TEST(StrategyList, NoneAcceptsIsUnimplementedWithEveryReason) {
  StrategyList<Calls> list(List({false, false}));
  Calls calls;
  Status s = list.Choose(calls);
  EXPECT_EQ(s.code(), StatusCode::kUnimplemented);
  EXPECT_NE(s.ToString().find("a says no"), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("b says no"), std::string::npos) << s.ToString();
  EXPECT_EQ(list.winner(), nullptr);
  EXPECT_EQ(list.impl_info(), "");
}

// Runs an int8 depthwise_conv2d (16 channels, 20x20, float input quantized
// by the kernel) with window k x k at `stride` on the x86 int8 kernel and
// returns it.
ConvInt8Compute* RunDepthwise(OpTester* t, int k, int stride) {
  const int c = 16, h = 20, w = 20;
  std::vector<float> x(c * h * w);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 13) / 6.f - 1.f;
  std::vector<int8_t> f(c * k * k);
  for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<int8_t>(static_cast<int>(i % 21) - 10);
  t->SetInput<float>("Input", "x", {1, c, h, w}, x);  // NHWC element order: any values do
  t->SetInput<int8_t>("Filter", "f", {c, 1, k, k}, f);
  t->SetOutput("Output", "out");
  t->SetAttr("strides", std::vector<int>{stride, stride});
  t->SetAttr("paddings", std::vector<int>{k / 2, k / 2});
  t->SetAttr("dilations", std::vector<int>{1, 1});
  t->SetAttr("groups", c);
  t->SetAttr("enable_int8", true);
  t->SetAttr("Input_scale", 1.f);
  t->SetAttr("Filter_scales", std::vector<float>(c, 10.f));
  const KernelDef* def =
      KernelRegistry::Global().FindByKey("depthwise_conv2d/def/x86/int8/NHWC");
  EXPECT_NE(def, nullptr);
  if (def == nullptr) return nullptr;
  Status s = t->RunKernel(def);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return dynamic_cast<ConvInt8Compute*>(t->kernel());
}

TEST(X86ConvInt8Strategies, DepthwisePicksTheOwnKernel) {
  if (!lite::x86::DepthwiseInt8Nhwc::Available()) GTEST_SKIP() << "no own depthwise kernel here";
  OpTester t("depthwise_conv2d");
  ConvInt8Compute* conv = RunDepthwise(&t, 3, 1);
  ASSERT_NE(conv, nullptr);
  const auto& list = conv->strategies();
  ASSERT_NE(list.winner(), nullptr);
  EXPECT_STREQ(list.winner()->name(), "own_depthwise");
  EXPECT_EQ(conv->impl_info(), "lite:dw_int8_nhwc");
  ASSERT_EQ(list.declined().size(), 1u);
  EXPECT_EQ(list.declined()[0].name, "own_nchw_input");
  EXPECT_EQ(list.declined()[0].reason, "Input is bound in NHWC");
}

TEST(X86ConvInt8Strategies, SparseDepthwiseFallsToOneDnnWithTheReason) {
  // A 1x1 depthwise window: one tap per input pixel, too few for the own
  // kernel's conversion to pay; no other own kernel takes it.
  OpTester t("depthwise_conv2d");
  ConvInt8Compute* conv = RunDepthwise(&t, 1, 1);
  ASSERT_NE(conv, nullptr);
  const auto& list = conv->strategies();
  ASSERT_NE(list.winner(), nullptr);
  EXPECT_STREQ(list.winner()->name(), "onednn");
  EXPECT_EQ(conv->impl_info().rfind("lite:", 0), std::string::npos) << conv->impl_info();
  ASSERT_EQ(list.declined().size(), 4u);
  EXPECT_EQ(list.declined()[1].name, "own_depthwise");
  if (lite::x86::DepthwiseInt8Nhwc::Available()) {
    EXPECT_NE(list.declined()[1].reason.find("taps per input pixel of stride"), std::string::npos)
        << list.declined()[1].reason;
  }
  EXPECT_EQ(list.declined()[3].name, "own_pointwise");
}

}  // namespace
}  // namespace x86
}  // namespace kernels
}  // namespace lite
