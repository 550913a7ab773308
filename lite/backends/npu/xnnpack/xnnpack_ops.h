// The xnnpack driver's operator path: one XNNPACK operator (or a short
// exact composition, or one of the driver's own NHWC kernels) per NN IR
// operation, created once and set up again for each input size.
//
// XNNPACK's operator API splits an operator's life in two: xnn_create_*
// packs the weights and fixes everything but the batch and spatial sizes;
// xnn_setup_*(op, batch, h, w, input, output) binds one size and buffers.
// An OpNode is one operation's created operators. Its key() holds every
// create-time parameter (the weights' bytes are keyed by the model as a
// whole, see xnnpack_op_path.h), so two nodes with equal keys are
// interchangeable: executables of other input sizes reuse created nodes and
// only set them up. A node keeps no per-size state but what XNNPACK's own
// setup keeps inside the operator; the sizes come from the OpEnv's model.
//
// One family of operations per file: xnnpack_op_dense.cc (conv2d,
// conv2d_transpose, fully_connected), xnnpack_op_pool.cc,
// xnnpack_op_binary.cc (elementwise, batch_norm, scale, hard_sigmoid),
// xnnpack_op_unary.cc (activations, softmax, prelu) and
// xnnpack_op_shape.cc (reshape, pad, bilinear resize and the own kernels).
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/nn_ir.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

struct XnnOperatorDelete {
  void operator()(xnn_operator_t op) const {
    if (op) xnn_delete_operator(op);
  }
};
using XnnOperatorPtr = std::unique_ptr<xnn_operator, XnnOperatorDelete>;

// What a node is set up and run with: one input size.
struct OpEnv {
  const Model& model;     // this size's dims (constants may carry no data)
  const Operation& op;    // the operation, in `model`
  int out;                // the operand the node writes (a folded clamp's output)
  // Every operand's NHWC buffer (null for constants and operands with none).
  const std::vector<float*>& buffers;
  pthreadpool_t pool;
  float* buffer(int operand) const { return buffers[operand]; }
};

class OpNode {
 public:
  virtual ~OpNode() = default;
  // The create-time parameters (XNNPACK's create arguments and the node's
  // own constants' shapes); equal keys make nodes interchangeable.
  const std::string& key() const { return key_; }
  // Creates the XNNPACK operators from `model`'s constants (packs weights).
  virtual Status Create(const Model& model) = 0;
  // Whether env's sizes can run (what Setup would refuse beyond XNNPACK's
  // own checks); Compile asks every node before any Setup.
  virtual Status Check(const OpEnv&) { return Status::OK(); }
  // Binds the operators to env's sizes and buffers.
  virtual Status Setup(const OpEnv& env) = 0;
  // Runs what Setup bound. Default: each created operator in order.
  virtual Status Run(const OpEnv& env);

 protected:
  // Appends create-time parameters to the key.
  void Key(double v);
  void KeySizes(const std::vector<size_t>& v);
  void Key(const std::string& s) { key_ += s + ';'; }
  // Keeps the operator `*created` (read after the create call that
  // `s` is the status of); Run runs them in the order kept.
  Status Keep(xnn_status s, xnn_operator_t* created, const char* call);
  xnn_operator_t op(size_t i) const { return ops_[i].get(); }

  std::vector<XnnOperatorPtr> ops_;
  std::string key_;
};

// Elements of a tensor of `dims` (all known).
size_t Numel(const std::vector<int64_t>& dims);

// The node for `op` with output bounds [lo, hi] (a folded clamp; the
// caller passes the operand it writes in OpEnv::out), or a status saying
// why this path has no node for it (Unimplemented). Weights are read by
// Create(); small constants (an elementwise operand, prelu slopes,
// batch_norm's per-channel affine) are copied into the node here. One
// factory per family.
using NodeOrWhy = StatusOr<std::unique_ptr<OpNode>>;
NodeOrWhy MakeOpNode(const Model& model, const Operation& op, float lo, float hi);
NodeOrWhy MakeDenseNode(const Model& model, const Operation& op, float lo, float hi);
NodeOrWhy MakePoolNode(const Model& model, const Operation& op, float lo, float hi);
NodeOrWhy MakeBinaryNode(const Model& model, const Operation& op, float lo, float hi);
NodeOrWhy MakeUnaryNode(const Model& model, const Operation& op);
NodeOrWhy MakeShapeNode(const Model& model, const Operation& op);

// Whether `op` takes a folded relu / relu6 / clip as its output bounds.
bool TakesOutputBounds(const Operation& op);

}  // namespace npu
}  // namespace lite
