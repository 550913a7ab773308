// feed and fetch: the program's boundary with the predictor.
//
// feed copies column `col` of the "feed" tensor list into its output var;
// fetch copies its input into column `col` of the "fetch" list. The lists are
// Variables in the exec scope, owned by the scope; the predictor fills and
// reads them.
#pragma once

#include <vector>

#include "lite/core/op_lite.h"

namespace lite {
namespace operators {

struct FeedFetchParam : OpParam {
  std::vector<Tensor>* feed_list = nullptr;   // feed: the "feed" list
  std::vector<Tensor>* fetch_list = nullptr;  // fetch: the "fetch" list
  const Tensor* x = nullptr;                  // fetch input
  Tensor* out = nullptr;                      // feed output
  int col = 0;
};

// io_copy (inserted by type_target_cast_pass): Out = Input on another target.
struct IoCopyParam : OpParam {
  const Tensor* x = nullptr;
  Tensor* out = nullptr;
};

}  // namespace operators
}  // namespace lite
