// Structural validation of a loaded program, before any pass or kernel sees
// it: the checks every op shares, independent of op semantics (those live in
// each op's Attach/CheckShape and run at creation with the declared shapes).
//
// ValidateProgram checks, naming the block, op and var at fault:
//   - at least one block, a fetch op in block 0, every op writes a var;
//   - every var an op reads is declared in its block or an ancestor block
//     (outputs may be undeclared, as Paddle's optional outputs often are);
//   - in block 0, every non-persistable var is written before it is read
//     (feed lists and feed outputs count as written): no use before
//     definition, hence no cycle in program order;
//   - BLOCK/BLOCKS attributes point at blocks that exist (and not block 0);
//   - declared dims are >= -1 and their element count does not overflow.
// It only reads the program; the caller owns it.
#pragma once

#include "lite/base/program_desc.h"
#include "lite/utils/status.h"

namespace lite {

Status ValidateProgram(const cpp::ProgramDesc& program);

}  // namespace lite
