// Fuzz target: the ProgramDesc loader (LoadProgramFromBuffer). Any bytes
// must give a Status, never a crash. A program that loads must also list
// its params and survive a save + reload (ProgramToProto +
// SerializeDeterministic as model_saver and the .nb writer do, then parse
// again): a program the engine accepted and cannot write back is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lite/model_parser/framework.pb.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/persistable_params.h"
#include "lite/model_parser/proto_convert.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  auto prog = lite::LoadProgramFromBuffer(bytes, "<fuzz model>");
  if (!prog.ok()) return 0;
  std::vector<const lite::cpp::VarDesc*> params;
  (void)lite::ListParamVars(*prog, "<fuzz params>", &params);

  paddle::framework::proto::ProgramDesc pb;
  lite::ProgramToProto(*prog, &pb);
  // As the savers do (partial: Paddle programs may lack required fields).
  const std::string again = lite::SerializeDeterministic(pb);
  auto reloaded = lite::LoadProgramFromBuffer(again, "<fuzz model, saved again>");
  if (!reloaded.ok()) {
    std::fprintf(stderr, "a loaded program does not reload after saving: %s\n",
                 reloaded.status().ToString().c_str());
    std::abort();
  }
  return 0;
}
