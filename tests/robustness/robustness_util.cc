#include "tests/robustness/robustness_util.h"

#include <cstdlib>
#include <vector>

#include "lite/utils/file_util.h"
#include "lite/model_parser/model_saver.h"
#include "lite/model_parser/proto_convert.h"

namespace lite {
namespace robustness {

using paddle::lite_api::CreatePaddlePredictor;
using paddle::lite_api::CxxConfig;
using paddle::lite_api::MobileConfig;

ModelBytes DefaultModelBytes() {
  tools::DefaultModel m = tools::MakeDefaultModel();
  ModelBytes b;
  Status s = SaveCombinedModelToBuffers(m.program, *m.scope, &b.program, &b.params);
  if (!s.ok()) b.program.clear();
  return b;
}

std::string ProgramBytes(const cpp::ProgramDesc& program) {
  paddle::framework::proto::ProgramDesc proto;
  ProgramToProto(program, &proto);
  return SerializeDeterministic(proto);
}

StatusOr<std::shared_ptr<PaddlePredictor>> CreateFromBytes(const ModelBytes& bytes) {
  CxxConfig config;
  config.set_model_buffer(bytes.program.data(), bytes.program.size(), bytes.params.data(),
                          bytes.params.size());
  return CreatePaddlePredictor<CxxConfig>(config);
}

StatusOr<std::shared_ptr<PaddlePredictor>> CreateFromMutated(const ModelMutation& mutate) {
  tools::DefaultModel m = tools::MakeDefaultModel();
  mutate(&m);
  ModelBytes b;
  RETURN_IF_ERROR(SaveCombinedModelToBuffers(m.program, *m.scope, &b.program, &b.params));
  return CreateFromBytes(b);
}

std::string DefaultModelNb() {
  auto p = CreateFromBytes(DefaultModelBytes());
  if (!p.ok()) return "";
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/robustness_default.nb";
  if (!(*p)->SaveOptimizedModel(path, paddle::lite_api::ModelType::kNaiveBuffer).ok()) return "";
  std::string bytes;
  if (!ReadFileToString(path, &bytes).ok()) return "";
  return bytes;
}

StatusOr<std::shared_ptr<PaddlePredictor>> CreateFromNb(const std::string& nb) {
  MobileConfig config;
  config.set_model_from_buffer(nb);
  return CreatePaddlePredictor<MobileConfig>(config);
}

bool Has(const Status& s, const std::string& text) {
  return s.message().find(text) != std::string::npos;
}

Status RunDefaultInput(PaddlePredictor* p, const std::vector<int64_t>& shape) {
  auto in = p->GetInput(0);
  in->Resize(shape);
  int64_t n = in->numel() > 0 ? in->numel() : 0;
  std::vector<float> data(static_cast<size_t>(n), 0.5f);
  in->CopyFromCpu(data.data());
  return p->Run();
}

cpp::OpDesc& OpAt(tools::DefaultModel* m, int index) {
  return m->program.blocks[0].ops[static_cast<size_t>(index)];
}

}  // namespace robustness
}  // namespace lite
