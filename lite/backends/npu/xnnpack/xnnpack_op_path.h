// The xnnpack driver's operator path (docs/memory.md, "Operators created
// once (npu, xnnpack)"): a float model runs as a sequence of OpNodes
// (xnnpack_ops.h), one per operation, on one activation buffer.
//
// One driver instance serves one subgraph kernel, which compiles the same
// subgraph again at each new input size. OperatorPath keeps the nodes
// created for the last structure it compiled. A model's structure key holds
// its operations and wiring, each operand's type, lifetime and rank, every
// constant's dims and a hash of its bytes, and every node's create-time
// parameters (what does not depend on the batch and spatial sizes a setup
// takes; what does, such as a ceil_mode pool's end padding, is in the
// node's key). A compile with the kept key reuses the created nodes
// (weights packed once); another key creates new ones and keeps those.
//
// An executable is small: the model without constant data (this size's
// dims and attributes), the steps, its activation plan, and shared
// pointers to the nodes, the thread pool and the workspace, so executables
// are destroyed safely in any order and after the driver. The plan gives
// each activation (model inputs and outputs included, 4-D ones NHWC) an
// offset by liveness (first fit). The executables of a driver run one at a
// time and share one workspace buffer, from KeptBlocks, grown to the
// largest plan among them and freed with the last of them: a smaller new
// size takes resident pages, a larger one faults in only the growth. Nodes
// are set up for the executable that ran last: Execute sets them up again
// when another executable (another size) ran them or the workspace grew.
#pragma once

#include <pthreadpool.h>

#include <memory>
#include <string>
#include <vector>

#include "lite/backends/npu/driver.h"
#include "lite/utils/status.h"

namespace lite {
namespace npu {

struct NodeSet;
struct Workspace;

class OperatorPath {
 public:
  OperatorPath();
  ~OperatorPath();
  // An executable of `model` on this path, or Unimplemented saying why the
  // path declines it (an int8 operand, an operation it has no node for, an
  // XNNPACK create or setup that fails). Every operation must have passed
  // XnnpackSupports.
  StatusOr<std::unique_ptr<Executable>> Compile(const Model& model, int threads);
  // Runs an executable of Compile's; false (nothing run) for another kind.
  static bool Owns(const Executable* executable);
  static Status Execute(Executable* executable, const std::vector<HostTensor>& inputs,
                        const std::vector<HostTensor>& outputs);

  // Node sets created and compiles that reused the kept one (tests, docs).
  int created() const { return created_; }
  int reused() const { return reused_; }
  // Constants whose bytes Compile hashed (not recognised by their buffer).
  int hashed() const { return hashed_; }

 private:
  std::shared_ptr<NodeSet> kept_;
  std::weak_ptr<Workspace> workspace_;  // held by the executables
  std::shared_ptr<pthreadpool> pool_;
  int pool_threads_ = 0;
  int created_ = 0, reused_ = 0;
  // The constants of the last model keyed and their hashes, by operand
  // index: an operand sharing its buffer is not hashed again. Holds those
  // buffers (the subgraph kernel holds the same ones).
  std::vector<SharedBytes> key_bytes_;
  std::vector<int64_t> key_hashes_;
  int hashed_ = 0;
};

}  // namespace npu
}  // namespace lite
