// KernelBase and the KernelRegistry.
//
// A kernel is one implementation of an op for a Place (target, precision,
// layout). Kernels are registered with a KernelDef that names the op, an alias
// (several kernels for one op and place), and the declared Place of each
// input/output argument (undeclared arguments take the kernel's place). The
// registry owns the defs; an Instruction owns its kernel instance, and the
// kernel borrows its op's param struct.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "lite/base/buffer_pool.h"
#include "lite/base/parallel_work.h"
#include "lite/core/op_lite.h"
#include "lite/core/thread_pool.h"
#include "lite/base/types.h"
#include "lite/utils/status.h"

namespace lite {

// Per-target state a device library keeps for one program's kernels (its
// run-time settings, its kernels' records). The library subclasses it; the
// core only stores it, keyed by target, and never looks inside.
class TargetContext {
 public:
  virtual ~TargetContext() = default;
  virtual TargetType target() const = 0;
};

// Per-predictor execution context shared by its kernels.
struct KernelContext {
  std::unique_ptr<ThreadPool> pool;  // nullptr when running on one thread
  BufferPool buffers;                // memory_optimize_pass's run-time pool
  int threads = 1;
  // Device libraries' contexts, one per target (see TargetContext).
  std::map<TargetType, std::unique_ptr<TargetContext>> targets;

  // The context of `target` as the library's type T; null when there is none
  // (or it is not a T).
  template <typename T>
  T* target_context(TargetType target) const {
    auto it = targets.find(target);
    return it == targets.end() ? nullptr : dynamic_cast<T*>(it->second.get());
  }
  // Replaces the context of its target.
  void set_target_context(std::unique_ptr<TargetContext> context) {
    TargetType t = context->target();
    targets[t] = std::move(context);
  }

  // Kernels run on `threads` threads: a ThreadPool when more than one.
  void set_threads(int n) {
    threads = n < 1 ? 1 : n;
    pool = threads > 1 ? std::make_unique<ThreadPool>(threads) : nullptr;
  }
};

// Number of chunks ParallelForChunks may use (size of per-thread scratch).
inline int NumThreads(const KernelContext* ctx) {
  return ctx && ctx->pool ? ctx->pool->size() : 1;
}

// Runs fn(chunk, begin, end) over [0, n) split across ctx's pool, passing
// the chunk index (< NumThreads(ctx)) for per-thread scratch; or runs
// fn(0, 0, n) when there is no pool (ctx may be null) or `work` <
// kMinParallelWork.
inline void ParallelForChunks(const KernelContext* ctx, int64_t n, int64_t work,
                              const ThreadPool::ChunkFn& fn) {
  if (!ctx || !ctx->pool || work < kMinParallelWork) {
    if (n > 0) fn(0, 0, n);
    return;
  }
  ctx->pool->ParallelForChunks(n, fn);
}
// As ParallelForChunks, for loops that need no per-thread scratch.
inline void ParallelFor(const KernelContext* ctx, int64_t n, int64_t work,
                        const ThreadPool::RangeFn& fn) {
  ParallelForChunks(ctx, n, work, [&fn](int, int64_t b, int64_t e) { fn(b, e); });
}

class KernelBase;
using KernelFactory = std::function<std::unique_ptr<KernelBase>()>;
// Whether a kernel can run an op, judged from its attributes (shapes are not
// known when kernels are picked): e.g. an x86 kernel declines a fused
// activation oneDNN cannot express exactly. A declining kernel is skipped by
// static_kernel_pick_pass, so the op gets the next best kernel (host).
using KernelAcceptFn = std::function<bool(const cpp::OpDesc&)>;
// The declared dims of a var of the op being picked for (a weight's are
// exact; an activation's may hold -1 for unknown extents); empty when the
// var has no desc.
using VarDimsFn = std::function<std::vector<int64_t>(const std::string& var)>;
// As KernelAcceptFn, for kernels that also judge the dims declared for the
// op's vars (e.g. a conv kernel that takes only filters of 1-4 input
// channels).
using KernelAcceptDimsFn = std::function<bool(const cpp::OpDesc&, const VarDimsFn&)>;

struct KernelDef {
  std::string op_type;
  std::string alias = "def";
  Place place;
  std::map<std::string, Place> input_places;
  std::map<std::string, Place> output_places;
  KernelFactory factory;
  KernelAcceptFn accepts;  // empty: accepts every op of its type
  KernelAcceptDimsFn accepts_dims;  // empty: no judgement on dims

  // "op_type/alias/target/precision/layout", unique in the registry and the
  // form a picked kernel is recorded in an optimized model.
  std::string Key() const;
  Place InputPlace(const std::string& arg) const;
  Place OutputPlace(const std::string& arg) const;

  // Builder-style declarations used by REGISTER_LITE_KERNEL.
  KernelDef& BindInput(const std::string& arg, Place p);
  KernelDef& BindOutput(const std::string& arg, Place p);
  KernelDef& SetAccepts(KernelAcceptFn fn) {
    accepts = std::move(fn);
    return *this;
  }
  KernelDef& SetAcceptsDims(KernelAcceptDimsFn fn) {
    accepts_dims = std::move(fn);
    return *this;
  }
  // Both accept functions (each empty one accepts).
  bool Accepts(const cpp::OpDesc& desc, const VarDimsFn& dims) const {
    return (!accepts || accepts(desc)) && (!accepts_dims || accepts_dims(desc, dims));
  }
  KernelDef& Finalize() { return *this; }
};

class KernelBase {
 public:
  virtual ~KernelBase() = default;

  // Called once when the runtime program is created, after Bind, with the
  // shapes known ahead of the first run inferred (see BuildRuntimeProgram):
  // device kernels compile here so failures show before anything runs.
  virtual Status Init() { return Status::OK(); }
  // Called once before the first Run (e.g. to repack weights).
  virtual Status Prepare() { return Status::OK(); }
  virtual Status Run() = 0;
  // The dry planning pass (RuntimeProgram::ActivationBytesAhead) asks this of
  // a kernel whose op runs an inner block and infers its outputs' shapes
  // inside the kernel (a device subgraph): infer them for the inputs as now
  // fed, run nothing, and return the bytes the run needs at its peak beyond
  // the op's outputs (inner activations, a device compile's memory); -1 when
  // the kernel cannot tell (the pass then gives up). The default cannot.
  virtual int64_t InferAhead() { return -1; }
  // The implementation the kernel planned (e.g. oneDNN's primitive name and
  // ISA, "brgconv:avx512_core_vnni"), shown per op by the profile; empty
  // when a kernel has only one.
  virtual const std::string& impl_info() const {
    static const std::string* none = new std::string;
    return *none;
  }

  void Bind(const KernelDef* def, OpParam* param, KernelContext* ctx) {
    def_ = def;
    param_ = param;
    ctx_ = ctx;
  }
  const KernelDef& def() const { return *def_; }
  template <typename P>
  P& Param() const {
    return *static_cast<P*>(param_);
  }
  KernelContext* ctx() const { return ctx_; }
  // The predictor's thread count (1 when no context is bound).
  int threads() const { return ctx_ ? ctx_->threads : 1; }
  // The bound param, untyped (to bind another kernel of the same op to it).
  OpParam* raw_param() const { return param_; }

 private:
  const KernelDef* def_ = nullptr;
  OpParam* param_ = nullptr;
  KernelContext* ctx_ = nullptr;
};

class KernelRegistry {
 public:
  static KernelRegistry& Global();
  KernelDef& Register(const std::string& op_type, Place place,
                      const std::string& alias, KernelFactory factory);
  // All kernels for `op_type`, sorted by Key().
  std::vector<const KernelDef*> Find(const std::string& op_type) const;
  const KernelDef* FindByKey(const std::string& key) const;
  std::vector<const KernelDef*> All() const;  // sorted by Key()

 private:
  std::deque<KernelDef> defs_;  // stable addresses
};

}  // namespace lite

#define LITE_KERNEL_VAR(op, t, p, l, alias) \
  lite_kernel_##op##_##t##_##p##_##l##_##alias

// REGISTER_LITE_KERNEL(relu, kHost, kFloat, kNCHW, ReluCompute, def)
//     .BindInput("X", Place(TARGET(kHost)))
//     .Finalize();
#define REGISTER_LITE_KERNEL(op, t, p, l, KernelClass, alias)                \
  static ::lite::KernelDef& LITE_KERNEL_VAR(op, t, p, l, alias)              \
      [[maybe_unused]] = ::lite::KernelRegistry::Global().Register(          \
          #op, ::lite::Place(TARGET(t), PRECISION(p), DATALAYOUT(l)), #alias, \
          [] { return std::unique_ptr<::lite::KernelBase>(new KernelClass); })
