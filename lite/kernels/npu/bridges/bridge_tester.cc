#include "lite/kernels/npu/bridges/bridge_tester.h"

#include <gtest/gtest.h>

#include <cmath>

#include "lite/backends/npu/driver.h"
#include "lite/kernels/npu/bridges/bridge.h"
#include "lite/kernels/npu/subgraph_converter.h"

namespace lite {
namespace npu {

BridgeTester::BridgeTester(const std::string& op_type)
    : tester_(std::make_unique<OpTester>(op_type)) {}

BridgeTester& BridgeTester::Driver(const std::string& name) {
  driver_ = name;
  return *this;
}

BridgeTester& BridgeTester::Input(const std::string& param, const DDim& dims,
                                  const std::string& var) {
  const std::string name = var.empty() ? param : var;
  tester_->SetInput<float>(param, name, dims, RandomFloats(Product(dims), seed_++));
  inputs_.push_back(name);
  return *this;
}

BridgeTester& BridgeTester::Weight(const std::string& param, const DDim& dims,
                                   const std::string& var, std::vector<float> data) {
  const std::string name = var.empty() ? param : var;
  if (data.empty()) data = RandomFloats(Product(dims), seed_++);
  tester_->SetInput<float>(param, name, dims, data);
  tester_->scope()->FindVar(name)->GetMutableTensor()->set_persistable(true);
  weights_.push_back(name);
  return *this;
}

BridgeTester& BridgeTester::Int8Weight(const std::string& param, const DDim& dims,
                                       const std::vector<int8_t>& levels) {
  tester_->SetInput<int8_t>(param, param, dims, levels);
  tester_->scope()->FindVar(param)->GetMutableTensor()->set_persistable(true);
  weights_.push_back(param);
  return *this;
}

std::vector<float> BridgeTester::InputData(const std::string& var) const {
  const Tensor& t = tester_->Get(var);
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

BridgeTester& BridgeTester::Output(const std::string& param, const std::string& var) {
  const std::string name = var.empty() ? param : var;
  tester_->SetOutput(param, name);
  outputs_.push_back(name);
  return *this;
}

Status BridgeTester::Check() {
  auto driver = DriverRegistry::Global().Create(driver_);
  if (!driver.ok()) return driver.status();
  // A fresh op attached to a scope holding the same tensors (dims known).
  auto op = OpRegistry::Global().Create(tester_->desc()->Type());
  if (!op) return NotFound("op type not registered");
  Scope weights;
  for (const auto& w : weights_) {
    weights.Var(w)->GetMutableTensor()->ShareDataWith(*tester_->scope()->FindMutableTensor(w));
  }
  RETURN_IF_ERROR(op->Attach(*tester_->desc(), tester_->scope()));
  return CheckOnDevice(op.get(), tester_->scope(), &weights, **driver);
}

double BridgeTester::ExpectMatchesHost(double max_abs) {
  Status host = tester_->Run(TargetType::kHost);
  EXPECT_TRUE(host.ok()) << host.ToString();
  if (!host.ok()) return INFINITY;
  std::vector<std::vector<float>> expected;
  for (const auto& o : outputs_) expected.push_back(tester_->GetData<float>(o));
  return ExpectDriverMatches(tester_->op(), expected, max_abs);
}

double BridgeTester::ExpectMatches(const std::vector<float>& expected, double max_abs) {
  auto op = OpRegistry::Global().Create(tester_->desc()->Type());
  EXPECT_TRUE(op != nullptr);
  if (!op) return INFINITY;
  Status attach = op->Attach(*tester_->desc(), tester_->scope());
  if (attach.ok()) attach = op->InferShape();
  EXPECT_TRUE(attach.ok()) << attach.ToString();
  if (!attach.ok()) return INFINITY;
  return ExpectDriverMatches(op.get(), {expected}, max_abs);
}

double BridgeTester::ExpectDriverMatches(OpLite* op,
                                         const std::vector<std::vector<float>>& expected,
                                         double max_abs) {
  Status check = Check();
  EXPECT_TRUE(check.ok()) << "check mode rejected: " << check.ToString();
  if (!check.ok()) return INFINITY;

  Scope weights;
  for (const auto& w : weights_) {
    weights.Var(w)->GetMutableTensor()->ShareDataWith(*tester_->scope()->FindMutableTensor(w));
  }
  auto model = ConvertToModel({op}, tester_->scope(), &weights, inputs_, outputs_);
  EXPECT_TRUE(model.ok()) << model.status().ToString();
  if (!model.ok()) return INFINITY;
  auto driver = DriverRegistry::Global().Create(driver_);
  EXPECT_TRUE(driver.ok());
  CompileOptions options;
  auto exe = (*driver)->Compile(*model, options);
  EXPECT_TRUE(exe.ok()) << exe.status().ToString() << "\n" << model->DebugString();
  if (!exe.ok()) return INFINITY;
  std::vector<HostTensor> ins, outs;
  for (const auto& v : inputs_) {
    Tensor* t = tester_->scope()->FindMutableTensor(v);
    ins.push_back({t->raw_mutable_data(), t->memory_size(), t->dims()});
  }
  std::vector<std::vector<float>> got(outputs_.size());
  for (size_t i = 0; i < outputs_.size(); ++i) {
    const Tensor& t = tester_->Get(outputs_[i]);
    got[i].resize(t.numel());
    outs.push_back({got[i].data(), got[i].size() * sizeof(float), t.dims()});
  }
  Status run = (*driver)->Execute(exe->get(), ins, outs);
  EXPECT_TRUE(run.ok()) << run.ToString();
  double worst = 0;
  for (size_t i = 0; i < outputs_.size(); ++i) {
    EXPECT_EQ(got[i].size(), expected[i].size());
    for (size_t k = 0; k < got[i].size() && k < expected[i].size(); ++k) {
      const double d = std::fabs(static_cast<double>(got[i][k]) - expected[i][k]);
      worst = std::isnan(d) ? INFINITY : std::max(worst, d);
    }
  }
  EXPECT_LE(worst, max_abs) << tester_->desc()->Type() << " on " << driver_;
  return worst;
}

void BridgeTester::ExpectRejected(const std::string& reason_part) {
  Status s = Check();
  ASSERT_FALSE(s.ok()) << "expected a rejection containing '" << reason_part << "'";
  EXPECT_NE(s.message().find(reason_part), std::string::npos) << s.message();
}

}  // namespace npu
}  // namespace lite
