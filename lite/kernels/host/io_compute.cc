// Host kernels for feed and fetch: feed shares the fed tensor's buffer with
// the program variable, fetch copies a variable into the fetch list (dims,
// dtype, LoD and data).
#include "lite/core/kernel.h"
#include "lite/operators/io_ops.h"

namespace lite {
namespace kernels {
namespace host {

class FeedCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::FeedFetchParam>();
    if (p.col >= static_cast<int>(p.feed_list->size())) {
      return FailedPrecondition("feed column " + std::to_string(p.col) + " not set");
    }
    // The input is read in place, whether the predictor's input tensor owns
    // its buffer or the caller does (ShareExternalData): no kernel writes
    // its inputs, and the buffer pool never takes a buffer another tensor
    // still holds. (A copy here would cost a pass over the input on every
    // run, noticeable for a 1x3x640x640 image.)
    p.out->ShareDataWith((*p.feed_list)[p.col]);
    return Status::OK();
  }
};

class FetchCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::FeedFetchParam>();
    if (p.fetch_list->size() <= static_cast<size_t>(p.col)) {
      p.fetch_list->resize(p.col + 1);
    }
    Tensor& out = (*p.fetch_list)[p.col];
    if (out.external_memory() && out.buffer_bytes() < p.x->memory_size()) {
      return InvalidArgument("fetch column " + std::to_string(p.col) + ": the caller's buffer "
                             "holds " + std::to_string(out.buffer_bytes()) + " bytes but the "
                             "output " + DimsToString(p.x->dims()) + " needs " +
                             std::to_string(p.x->memory_size()));
    }
    out.CopyDataFrom(*p.x);  // into the caller's buffer when one is bound
    return Status::OK();
  }
};

// Host side of io_copy: every target here shares host memory, so a copy.
class IoCopyCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::IoCopyParam>();
    p.out->CopyDataFrom(*p.x);
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(feed, kHost, kAny, kAny, lite::kernels::host::FeedCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(fetch, kHost, kAny, kAny, lite::kernels::host::FetchCompute, def)
    .Finalize();
REGISTER_LITE_KERNEL(io_copy, kHost, kAny, kAny, lite::kernels::host::IoCopyCompute, def)
    .BindInput("Input", lite::Place(TARGET(kAny), PRECISION(kAny), DATALAYOUT(kAny)))
    .BindOutput("Out", lite::Place(TARGET(kAny), PRECISION(kAny), DATALAYOUT(kAny)))
    .Finalize();
