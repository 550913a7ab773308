// Per-op profiling of a RuntimeProgram: the table rows (one per op type and
// kernel place, or one per instruction), and the arithmetic of the ops whose
// speed is worth stating in GFLOP/s. Plain values computed from the
// program's instructions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lite/core/op_lite.h"

namespace lite {

struct ProfileRow {
  std::string op_type;
  std::string place;   // the picked kernel's place, "host/float/NCHW"
  std::string output;  // per-instruction rows: the op's first output var
  std::string impl;    // the kernel's impl_info(), e.g. oneDNN's primitive and ISA
  int ops = 0;         // instructions of this type and place
  double ms = 0;       // per run, summed over those instructions
  double percent = 0;  // of the program's total
  int64_t flops = 0;   // per run, of the ops that count theirs (OpLite::Flops)
  double gflops = -1;  // GFLOP/s over the counted ops; -1 when not counted
};

// "op type  place  ops  ms/run  share  GFLOP/s  impl" lines plus a total line.
std::string FormatProfile(const std::vector<ProfileRow>& rows, double total_ms);
// Per-instruction rows in program order: "#  op type  output  place  ms/run
// share  GFLOP/s  impl" lines plus a total line.
std::string FormatProfileDetail(const std::vector<ProfileRow>& rows, double total_ms);

}  // namespace lite
