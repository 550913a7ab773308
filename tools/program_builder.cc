#include "tools/program_builder.h"

#include <cstring>

#include "tools/tool_util.h"

namespace lite {
namespace tools {

ProgramBuilder::ProgramBuilder(uint32_t seed) : scope_(std::make_unique<Scope>()), seed_(seed) {
  prog_.blocks.resize(1);
  block().vars.push_back(cpp::FeedFetchListVar("feed", cpp::VarKind::kFeedList));
  block().vars.push_back(cpp::FeedFetchListVar("fetch", cpp::VarKind::kFetchList));
}

void ProgramBuilder::Activation(const std::string& name, std::vector<int64_t> dims,
                                DataType dtype) {
  cpp::VarDesc v;
  v.name = name;
  v.dims = std::move(dims);
  v.dtype = dtype;
  block().vars.push_back(v);
}

void ProgramBuilder::Weight(const std::string& name, std::vector<int64_t> dims, double lo,
                            double hi) {
  cpp::VarDesc v;
  v.name = name;
  v.dims = dims;
  v.persistable = true;
  block().vars.push_back(v);
  Tensor* t = scope_->Var(name)->GetMutableTensor();
  t->Resize(dims);
  std::vector<float> values = LcgUniform(static_cast<size_t>(t->numel()), ++seed_, lo, hi);
  std::memcpy(t->mutable_data<float>(), values.data(), values.size() * sizeof(float));
  t->set_persistable(true);
}

void ProgramBuilder::Feed(const std::string& name, std::vector<int64_t> dims) {
  cpp::VarDesc x;
  x.name = name;
  x.dims = std::move(dims);
  x.need_check_feed = true;
  block().vars.push_back(x);
  auto& feed = Op("feed");
  feed.SetInput("X", {"feed"});
  feed.SetOutput("Out", {name});
  feed.SetAttr("col", feeds_++);
}

void ProgramBuilder::Fetch(const std::string& name) {
  auto& fetch = Op("fetch");
  fetch.SetInput("X", {name});
  fetch.SetOutput("Out", {"fetch"});
  fetch.SetAttr("col", fetches_++);
}

cpp::OpDesc& ProgramBuilder::Op(const std::string& type) {
  block().ops.emplace_back(type);
  return block().ops.back();
}

std::vector<int64_t> ProgramBuilder::Dims(const std::string& name) const {
  const cpp::VarDesc* v = prog_.blocks[0].FindVar(name);
  return v ? v->dims : std::vector<int64_t>();
}

BuiltProgram ProgramBuilder::Finish() {
  BuiltProgram m;
  m.program = std::move(prog_);
  m.scope = std::move(scope_);
  return m;
}

}  // namespace tools
}  // namespace lite
