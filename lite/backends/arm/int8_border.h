// The zero-bordered input of the arm int8 loops' window forms
// (int8_gemm.h's RunWindow, int8_depthwise.h): NHWC levels copied into the
// inside of a buffer of hp x wp pixels of cp levels (cp: the channels
// rounded up to 16) whose border was zeroed when it was allocated; a window
// then reads its taps there without bounds checks (padding is level 0, the
// value 0). The padded channels hold whatever the copy leaves there (the
// next pixel's levels): the loops' packed weights are zero for them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lite {
namespace arm {

// The inside of `dst` (n images of hp x wp pixels of cp levels, the window's
// top / left padding before the first input pixel) from x (n x h x w x c).
void CopyIntoBorder(const int8_t* x, size_t n, size_t h, size_t w, size_t c, size_t cp,
                    size_t top, size_t left, size_t hp, size_t wp, int8_t* dst);

}  // namespace arm
}  // namespace lite
