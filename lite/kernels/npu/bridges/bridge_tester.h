// BridgeTester: a fluent one-op test of an op bridge against the host kernel
// (TFLite-style), for any driver.
//
//   BridgeTester("conv2d").Input("Input", {1, 3, 8, 8}).Weight("Filter", {4, 3, 3, 3})
//       .Output("Output").Attr("strides", std::vector<int>{2, 2}).ExpectMatchesHost(1e-5);
//   BridgeTester("conv2d")....ExpectRejected("data_format NHWC");
//
// ExpectMatchesHost runs the op on its host kernel, then checks the bridge
// in check mode (must accept), converts it in build mode into an NN IR
// model, compiles and executes it on the driver (default "reference") and
// compares every output with the host result (ExpectMatches: with given
// values). ExpectRejected asserts the
// check-mode reason (bridge or driver) contains the given text. Inputs get
// deterministic random data; the tester owns its scopes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "lite/core/op_tester.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

class BridgeTester {
 public:
  explicit BridgeTester(const std::string& op_type);
  BridgeTester& Driver(const std::string& name);
  // An activation input (var named after the param, or `var`).
  BridgeTester& Input(const std::string& param, const DDim& dims, const std::string& var = "");
  // A constant (weight) input.
  BridgeTester& Weight(const std::string& param, const DDim& dims, const std::string& var = "",
                       std::vector<float> data = {});
  // A constant of int8 levels (the weight of an op's int8 form).
  BridgeTester& Int8Weight(const std::string& param, const DDim& dims,
                           const std::vector<int8_t>& levels);
  BridgeTester& Output(const std::string& param, const std::string& var = "");
  // Values of activation input `var` (after Input).
  std::vector<float> InputData(const std::string& var) const;
  template <typename V>
  BridgeTester& Attr(const std::string& name, const V& v) {
    tester_->SetAttr(name, v);
    return *this;
  }

  // gtest assertions inside; returns the largest absolute difference.
  double ExpectMatchesHost(double max_abs);
  // As ExpectMatchesHost against given values of the (single) output, for
  // forms without a host kernel (e.g. int8 weights); the op's shapes come
  // from its InferShape.
  double ExpectMatches(const std::vector<float>& expected, double max_abs);
  void ExpectRejected(const std::string& reason_part);
  // The check-mode result on the driver.
  Status Check();

 private:
  // Converts `op` (attached to the tester's scope, output dims known), runs
  // it on the driver and compares with `expected` (one per output).
  double ExpectDriverMatches(OpLite* op, const std::vector<std::vector<float>>& expected,
                             double max_abs);

  std::unique_ptr<OpTester> tester_;
  std::string driver_ = "reference";
  std::vector<std::string> inputs_;   // activation vars, in order
  std::vector<std::string> weights_;
  std::vector<std::string> outputs_;
  uint32_t seed_ = 1;
};

}  // namespace npu
}  // namespace lite
