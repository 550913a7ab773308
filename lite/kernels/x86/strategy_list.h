// A kernel's implementations as an ordered list of strategies.
//
// A kernel family with several implementations (the x86 int8 conv: our own
// depthwise, few-output-channel, 1x1 and first-conv kernels, then oneDNN)
// keeps them as a StrategyList. Each strategy has a name, says whether it
// takes the op's current shapes and attributes (Accepts: accept, or
// decline with the reason), plans for them (Plan: packs the filter, builds
// a primitive) and runs (Run). The kernel asks the strategies in list
// order at each plan; the first that accepts wins, and the list records the
// winner and the reasons of those that declined before it. The choice
// depends on shapes and attributes only, never on timing, so it is
// reproducible. The general implementation (oneDNN) comes last and accepts
// whatever the kernel is registered for; adding a hand-written kernel is
// one strategy file and one line in the kernel's list.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lite/utils/status.h"

namespace lite {
namespace kernels {
namespace x86 {

// A strategy's answer to Accepts: accept, or decline with a reason.
struct Verdict {
  static Verdict Accept() { return Verdict{true, std::string()}; }
  static Verdict Decline(std::string reason) { return Verdict{false, std::move(reason)}; }
  bool accepted;
  std::string reason;  // why it declines (empty when it accepts)
};

// One implementation of a kernel. `Context` is what the kernel hands its
// strategies: the op's param and whatever of the kernel they use.
template <typename Context>
class Strategy {
 public:
  virtual ~Strategy() = default;
  // A short name for the list and its records ("own_depthwise", "onednn").
  virtual const char* name() const = 0;
  virtual Verdict Accepts(const Context& c) const = 0;
  // Prepares to run the current shapes; called after Accepts said yes,
  // again whenever the input shape changes.
  virtual Status Plan(Context& c) = 0;
  virtual Status Run(Context& c) = 0;
  // What the profile shows: our kernel's name ("lite:dw_int8_nhwc") or
  // oneDNN's primitive ("brg:avx512_core_vnni"); valid after Plan.
  virtual const std::string& impl_info() const = 0;
};

template <typename Context>
class StrategyList {
 public:
  struct Declined {
    std::string name;
    std::string reason;
  };

  explicit StrategyList(std::vector<std::unique_ptr<Strategy<Context>>> strategies)
      : strategies_(std::move(strategies)) {}

  // Asks each strategy in order and plans the first that accepts. When
  // none does, an Unimplemented error lists every reason.
  Status Choose(Context& c) {
    winner_ = nullptr;
    declined_.clear();
    for (auto& s : strategies_) {
      Verdict v = s->Accepts(c);
      if (v.accepted) {
        winner_ = s.get();
        return s->Plan(c);
      }
      declined_.push_back({s->name(), std::move(v.reason)});
    }
    std::string why;
    for (const Declined& d : declined_) why += "; " + d.name + ": " + d.reason;
    return Unimplemented("no implementation takes this op" + why);
  }

  Status Run(Context& c) { return winner_->Run(c); }

  // The strategy Choose planned (nullptr before it, or when none accepted).
  Strategy<Context>* winner() const { return winner_; }
  // Those asked before the winner, in order, with their reasons.
  const std::vector<Declined>& declined() const { return declined_; }
  const std::string& impl_info() const {
    static const std::string* none = new std::string;
    return winner_ ? winner_->impl_info() : *none;
  }

 private:
  std::vector<std::unique_ptr<Strategy<Context>>> strategies_;
  Strategy<Context>* winner_ = nullptr;
  std::vector<Declined> declined_;
};

}  // namespace x86
}  // namespace kernels
}  // namespace lite
