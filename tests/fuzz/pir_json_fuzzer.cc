// Fuzz target: the Paddle 3 PIR loader (inference.json -> engine program).
// Any bytes must give a Status, never a crash. A program that translates
// must survive a save + reload as a legacy ProgramDesc (what
// `opt --optimize_out_type=protobuf` does with it): a PIR program the engine
// accepted and cannot write back is a bug.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lite/model_parser/framework.pb.h"
#include "lite/model_parser/model_loader.h"
#include "lite/model_parser/pir/pir_loader.h"
#include "lite/model_parser/proto_convert.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  auto model = lite::pir::ReadPirModel(bytes, "<fuzz inference.json>");
  if (!model.ok()) return 0;
  paddle::framework::proto::ProgramDesc pb;
  lite::ProgramToProto(model->program, &pb);
  const std::string again = lite::SerializeDeterministic(pb);
  auto reloaded = lite::LoadProgramFromBuffer(again, "<fuzz PIR program, saved again>");
  if (!reloaded.ok()) {
    std::fprintf(stderr, "a translated PIR program does not reload after saving: %s\n",
                 reloaded.status().ToString().c_str());
    std::abort();
  }
  return 0;
}
