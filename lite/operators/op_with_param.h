// OpWithParam<P>: the base of an op whose state is one Param struct. It holds
// the struct as param_ and returns it from param(), so an op class declares
// only its checks, its shape inference and how it binds its attributes.
// Kernels and passes see only the Param structs (the op headers); the op
// classes live in their .cc files.
#pragma once

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

template <typename P>
class OpWithParam : public OpLite {
 public:
  using OpLite::OpLite;
  OpParam* param() override { return &param_; }

 protected:
  P param_;
};

}  // namespace operators
}  // namespace lite
