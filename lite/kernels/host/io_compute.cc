// Host kernels for feed and fetch: copy between the feed/fetch lists and
// program variables (dims, dtype, LoD and data).
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
    p.out->CopyDataFrom((*p.feed_list)[p.col]);
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
    (*p.fetch_list)[p.col].CopyDataFrom(*p.x);
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
