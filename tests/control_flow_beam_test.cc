// A beam-search decoder built as Paddle builds one: a `while` loop whose
// body reads the last step's ids and scores from tensor arrays, scores the
// next token (lookup_table of a [V, V] weight of logits, softmax, top_k,
// log + the prefix score), keeps the best with beam_search and writes the
// step's picks back to the arrays; beam_search_decode turns the arrays into
// sentences after the loop. Run in the full predictor, from .nb in the light
// predictor, from saved protobuf and through `opt`, against a plain C++
// beam search over the same weight.
#include <algorithm>
#include <cmath>

#include "tests/control_flow_programs.h"

namespace control_flow_test {
namespace {

constexpr int kVocab = 6, kBeam = 2, kSteps = 4;
constexpr int64_t kEndId = 0;

VarDesc LoDVar(const std::string& name, DataType t) {
  VarDesc v = Activation(name, t, {-1, 1});
  v.lod_level = 2;
  return v;
}

VarDesc Array(const std::string& name, DataType t) {
  VarDesc v = Activation(name, t, {-1, 1});
  v.kind = VarKind::kTensorArray;
  return v;
}

// Feeds init_ids / init_scores ([sources, 1], LoD {{0..sources},
// {0..sources}}); fetches the decoded sentence ids and scores.
ProgramDesc BeamDecodeProgram() {
  ProgramDesc p;
  p.blocks.resize(2);
  auto& main = p.blocks[0];
  main.vars = {lite::cpp::FeedFetchListVar("feed", VarKind::kFeedList),
               lite::cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
               LoDVar("init_ids", DataType::kInt64),
               LoDVar("init_scores", DataType::kFloat32),
               TensorVarDesc("logits", DataType::kFloat32, {kVocab, kVocab}, true),
               Activation("i", DataType::kInt64, {1}),
               Activation("max_len", DataType::kInt64, {1}),
               Activation("cond", DataType::kBool, {1}),
               Array("ids_arr", DataType::kInt64),
               Array("scores_arr", DataType::kFloat32),
               LoDVar("sentence_ids", DataType::kInt64),
               LoDVar("sentence_scores", DataType::kFloat32)};
  main.ops.push_back(Feed("init_ids", 0));
  main.ops.push_back(Feed("init_scores", 1));
  main.ops.push_back(FillConstant("i", kPaddleInt64, {1}, 0));
  main.ops.push_back(FillConstant("max_len", kPaddleInt64, {1}, kSteps));
  main.ops.push_back(
      Op("write_to_array", {{"X", {"init_ids"}}, {"I", {"i"}}}, {{"Out", {"ids_arr"}}}));
  main.ops.push_back(
      Op("write_to_array", {{"X", {"init_scores"}}, {"I", {"i"}}}, {{"Out", {"scores_arr"}}}));
  main.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"max_len"}}}, {{"Out", {"cond"}}}));
  OpDesc loop = Op("while",
                   {{"X", {"ids_arr", "scores_arr", "i", "max_len", "logits"}},
                    {"Condition", {"cond"}}},
                   {{"Out", {"ids_arr", "scores_arr", "i", "cond"}}});
  SetSubBlock(&loop, 1);
  main.ops.push_back(loop);
  OpDesc decode = Op("beam_search_decode", {{"Ids", {"ids_arr"}}, {"Scores", {"scores_arr"}}},
                     {{"SentenceIds", {"sentence_ids"}}, {"SentenceScores", {"sentence_scores"}}});
  decode.SetAttr("beam_size", kBeam);
  decode.SetAttr("end_id", static_cast<int32_t>(kEndId));
  main.ops.push_back(decode);
  main.ops.push_back(Fetch("sentence_ids", 0));
  main.ops.push_back(Fetch("sentence_scores", 1));

  auto& body = p.blocks[1];
  body.idx = 1;
  body.parent_idx = 0;
  body.vars = {LoDVar("pre_ids", DataType::kInt64),
               LoDVar("pre_scores", DataType::kFloat32),
               Activation("emb", DataType::kFloat32, {-1, kVocab}),
               Activation("probs", DataType::kFloat32, {-1, kVocab}),
               Activation("top_probs", DataType::kFloat32, {-1, kBeam}),
               Activation("top_ids", DataType::kInt64, {-1, kBeam}),
               Activation("log_probs", DataType::kFloat32, {-1, kBeam}),
               Activation("accumulated", DataType::kFloat32, {-1, kBeam}),
               LoDVar("selected_ids", DataType::kInt64),
               LoDVar("selected_scores", DataType::kFloat32)};
  body.ops.push_back(
      Op("read_from_array", {{"X", {"ids_arr"}}, {"I", {"i"}}}, {{"Out", {"pre_ids"}}}));
  body.ops.push_back(
      Op("read_from_array", {{"X", {"scores_arr"}}, {"I", {"i"}}}, {{"Out", {"pre_scores"}}}));
  body.ops.push_back(
      Op("lookup_table", {{"W", {"logits"}}, {"Ids", {"pre_ids"}}}, {{"Out", {"emb"}}}));
  OpDesc softmax = Op("softmax", {{"X", {"emb"}}}, {{"Out", {"probs"}}});
  softmax.SetAttr("axis", -1);
  body.ops.push_back(softmax);
  OpDesc top_k = Op("top_k", {{"X", {"probs"}}}, {{"Out", {"top_probs"}}, {"Indices", {"top_ids"}}});
  top_k.SetAttr("k", kBeam);
  body.ops.push_back(top_k);
  body.ops.push_back(Op("log", {{"X", {"top_probs"}}}, {{"Out", {"log_probs"}}}));
  OpDesc add = Op("elementwise_add", {{"X", {"log_probs"}}, {"Y", {"pre_scores"}}},
                  {{"Out", {"accumulated"}}});
  add.SetAttr("axis", -1);
  body.ops.push_back(add);
  OpDesc search = Op("beam_search",
                     {{"pre_ids", {"pre_ids"}}, {"pre_scores", {"pre_scores"}},
                      {"ids", {"top_ids"}}, {"scores", {"accumulated"}}},
                     {{"selected_ids", {"selected_ids"}}, {"selected_scores", {"selected_scores"}}});
  search.SetAttr("beam_size", kBeam);
  search.SetAttr("end_id", static_cast<int32_t>(kEndId));
  search.SetAttr("level", 0);
  search.SetAttr("is_accumulated", true);
  body.ops.push_back(search);
  OpDesc inc = Op("increment", {{"X", {"i"}}}, {{"Out", {"i"}}});
  inc.SetAttr("step", 1.0f);
  body.ops.push_back(inc);
  body.ops.push_back(
      Op("write_to_array", {{"X", {"selected_ids"}}, {"I", {"i"}}}, {{"Out", {"ids_arr"}}}));
  body.ops.push_back(Op("write_to_array", {{"X", {"selected_scores"}}, {"I", {"i"}}},
                        {{"Out", {"scores_arr"}}}));
  body.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"max_len"}}}, {{"Out", {"cond"}}}));
  return p;
}

// Logits favouring the end token from tokens 3 and 5, so some beams end.
std::vector<float> Logits() {
  std::vector<float> w(kVocab * kVocab);
  for (size_t k = 0; k < w.size(); ++k) w[k] = std::sin(1.7f * k + 0.3f);
  w[3 * kVocab + kEndId] = 2.5f;
  w[5 * kVocab + kEndId] = 1.5f;
  return w;
}

struct Sentence {
  std::vector<int64_t> ids;
  std::vector<float> scores;
};

// Plain beam search: every beam extends by every token (an ended beam only
// by itself), the kBeam best survive; a source stops when its best are all
// ended beams; sentences best final score first.
std::vector<std::vector<Sentence>> ReferenceDecode(const std::vector<int64_t>& starts) {
  const std::vector<float> w = Logits();
  std::vector<std::vector<Sentence>> out;
  for (int64_t start : starts) {
    std::vector<Sentence> beams = {{{start}, {0.f}}};
    for (int step = 0; step < kSteps; ++step) {
      std::vector<std::pair<Sentence, bool>> cands;  // extended, ended before
      for (const Sentence& b : beams) {
        if (b.ids.back() == kEndId) {
          cands.push_back({b, true});
          continue;
        }
        const float* row = &w[b.ids.back() * kVocab];
        const float top = *std::max_element(row, row + kVocab);
        double sum = 0;
        for (int v = 0; v < kVocab; ++v) sum += std::exp(row[v] - top);
        for (int v = 0; v < kVocab; ++v) {
          Sentence e = b;
          e.ids.push_back(v);
          e.scores.push_back(b.scores.back() + std::log(std::exp(row[v] - top) / sum));
          cands.push_back({e, false});
        }
      }
      std::stable_sort(cands.begin(), cands.end(), [](const auto& a, const auto& b) {
        return a.first.scores.back() > b.first.scores.back();
      });
      cands.resize(std::min<size_t>(cands.size(), kBeam));
      bool all_ended = true;
      for (const auto& c : cands) all_ended = all_ended && c.second;
      if (all_ended) break;
      beams.clear();
      for (const auto& c : cands) beams.push_back(c.first);
    }
    std::stable_sort(beams.begin(), beams.end(), [](const Sentence& a, const Sentence& b) {
      return a.scores.back() > b.scores.back();
    });
    out.push_back(beams);
  }
  return out;
}

const std::vector<int64_t> kStarts = {1, 4, 2};

void RunDecode(PaddlePredictor* p) {
  const int64_t n = static_cast<int64_t>(kStarts.size());
  std::vector<uint64_t> rows(n + 1);
  for (int64_t k = 0; k <= n; ++k) rows[k] = k;
  auto ids = p->GetInput(0);
  ids->Resize({n, 1});
  ASSERT_TRUE(ids->CopyFromCpu(kStarts.data(), n).ok());
  ids->SetLoD({rows, rows});
  auto scores = p->GetInput(1);
  scores->Resize({n, 1});
  std::vector<float> zeros(n, 0.f);
  ASSERT_TRUE(scores->CopyFromCpu(zeros.data(), n).ok());
  scores->SetLoD({rows, rows});
  auto s = p->Run();
  ASSERT_TRUE(s.ok()) << s.ToString();

  const auto want = ReferenceDecode(kStarts);
  std::vector<int64_t> want_ids;
  std::vector<float> want_scores;
  std::vector<uint64_t> per_source = {0}, per_sentence = {0};
  bool some_ended = false;
  for (const auto& sentences : want) {
    for (const Sentence& sentence : sentences) {
      want_ids.insert(want_ids.end(), sentence.ids.begin(), sentence.ids.end());
      want_scores.insert(want_scores.end(), sentence.scores.begin(), sentence.scores.end());
      per_sentence.push_back(want_ids.size());
      some_ended = some_ended || sentence.ids.back() == kEndId;
    }
    per_source.push_back(per_sentence.size() - 1);
  }
  ASSERT_TRUE(some_ended) << "the weights should end some beams";
  auto got_ids = p->GetOutput(0);
  auto got_scores = p->GetOutput(1);
  ASSERT_EQ(got_ids->numel(), static_cast<int64_t>(want_ids.size()));
  EXPECT_EQ(std::vector<int64_t>(got_ids->data<int64_t>(),
                                 got_ids->data<int64_t>() + got_ids->numel()),
            want_ids);
  EXPECT_EQ(got_ids->lod(), (paddle::lite_api::lod_t{per_source, per_sentence}));
  EXPECT_EQ(got_scores->lod(), got_ids->lod());
  ASSERT_EQ(got_scores->numel(), static_cast<int64_t>(want_scores.size()));
  for (size_t k = 0; k < want_scores.size(); ++k) {
    EXPECT_NEAR(got_scores->data<float>()[k], want_scores[k], 1e-5) << k;
  }
}

lite::Scope* Weights() {
  static lite::Scope* scope = [] {
    auto* s = new lite::Scope;
    lite::Tensor* t = s->Var("logits")->GetMutableTensor();
    t->Resize({kVocab, kVocab});
    const std::vector<float> w = Logits();
    std::copy(w.begin(), w.end(), t->mutable_data<float>());
    t->set_persistable(true);
    return s;
  }();
  return scope;
}

TEST(BeamDecode, WhileLoopDecodesOnEveryPath) {
  EveryPath(BeamDecodeProgram(), HostPlaces(), "beam_decode", [](PaddlePredictor* p) {
    RunDecode(p);
    RunDecode(p);  // the arrays are rewritten from step 0 on the next run
  }, Weights());
}

TEST(BeamDecode, OptWritesADecoderTheLightPredictorRuns) {
  auto light = ThroughOpt(BeamDecodeProgram(), "beam_opt", Weights());
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  RunDecode(light->get());
}

// Paddle's dynamic-RNN form: x (LoD level 1) is ranked, split into steps
// (lod_tensor_to_array), a while loop over max_sequence_len steps writes
// tanh(step) * 2 of each step, and array_to_lod_tensor puts the sequences
// back: out = 2 tanh(x) with x's rows and LoD.
ProgramDesc DynamicRnnProgram() {
  ProgramDesc p;
  p.blocks.resize(2);
  auto& main = p.blocks[0];
  VarDesc x = Activation("x", DataType::kFloat32, {-1, 2});
  x.lod_level = 1;
  VarDesc table = Activation("table", DataType::kInt64, {-1, 2});
  table.kind = VarKind::kOther;
  table.raw_type = 8;  // LOD_RANK_TABLE
  VarDesc out = x;
  out.name = "out";
  main.vars = {lite::cpp::FeedFetchListVar("feed", VarKind::kFeedList),
               lite::cpp::FeedFetchListVar("fetch", VarKind::kFetchList),
               x,
               table,
               out,
               Array("steps", DataType::kFloat32),
               Array("results", DataType::kFloat32),
               Activation("max_len", DataType::kInt64, {1}),
               Activation("i", DataType::kInt64, {1}),
               Activation("cond", DataType::kBool, {1})};
  main.ops.push_back(Feed("x", 0));
  main.ops.push_back(Op("lod_rank_table", {{"X", {"x"}}}, {{"Out", {"table"}}}));
  main.ops.back().SetAttr("level", 0);
  main.ops.push_back(Op("lod_tensor_to_array", {{"X", {"x"}}, {"RankTable", {"table"}}},
                        {{"Out", {"steps"}}}));
  main.ops.push_back(
      Op("max_sequence_len", {{"RankTable", {"table"}}}, {{"Out", {"max_len"}}}));
  main.ops.push_back(FillConstant("i", kPaddleInt64, {1}, 0));
  main.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"max_len"}}}, {{"Out", {"cond"}}}));
  OpDesc loop = Op("while", {{"X", {"steps", "i", "max_len"}}, {"Condition", {"cond"}}},
                   {{"Out", {"results", "i", "cond"}}});
  SetSubBlock(&loop, 1);
  main.ops.push_back(loop);
  main.ops.push_back(Op("array_to_lod_tensor", {{"X", {"results"}}, {"RankTable", {"table"}}},
                        {{"Out", {"out"}}}));
  main.ops.push_back(Fetch("out", 0));
  auto& body = p.blocks[1];
  body.idx = 1;
  body.parent_idx = 0;
  body.vars = {Activation("step", DataType::kFloat32, {-1, 2}),
               Activation("t", DataType::kFloat32, {-1, 2}),
               Activation("r", DataType::kFloat32, {-1, 2})};
  body.ops.push_back(
      Op("read_from_array", {{"X", {"steps"}}, {"I", {"i"}}}, {{"Out", {"step"}}}));
  body.ops.push_back(Op("tanh", {{"X", {"step"}}}, {{"Out", {"t"}}}));
  OpDesc scale = Op("scale", {{"X", {"t"}}}, {{"Out", {"r"}}});
  scale.SetAttr("scale", 2.f);
  scale.SetAttr("bias", 0.f);
  body.ops.push_back(scale);
  body.ops.push_back(
      Op("write_to_array", {{"X", {"r"}}, {"I", {"i"}}}, {{"Out", {"results"}}}));
  OpDesc inc = Op("increment", {{"X", {"i"}}}, {{"Out", {"i"}}});
  inc.SetAttr("step", 1.0f);
  body.ops.push_back(inc);
  body.ops.push_back(Op("less_than", {{"X", {"i"}}, {"Y", {"max_len"}}}, {{"Out", {"cond"}}}));
  return p;
}

void RunDynamicRnn(PaddlePredictor* p, const paddle::lite_api::lod_t& lod) {
  const int64_t rows = static_cast<int64_t>(lod[0].back());
  std::vector<float> x(rows * 2);
  for (size_t k = 0; k < x.size(); ++k) x[k] = std::sin(0.9f * k + 0.1f);
  auto in = p->GetInput(0);
  in->Resize({rows, 2});
  ASSERT_TRUE(in->CopyFromCpu(x.data(), rows * 2).ok());
  in->SetLoD(lod);
  auto s = p->Run();
  ASSERT_TRUE(s.ok()) << s.ToString();
  auto out = p->GetOutput(0);
  EXPECT_EQ(out->lod(), lod);
  ASSERT_EQ(out->numel(), rows * 2);
  for (int64_t k = 0; k < rows * 2; ++k) {
    EXPECT_NEAR(out->data<float>()[k], 2 * std::tanh(x[k]), 1e-6) << k;
  }
}

TEST(DynamicRnn, StepsOverRankedSequencesOnEveryPath) {
  auto check = [](PaddlePredictor* p) {
    RunDynamicRnn(p, {{0, 2, 5, 6}});
    RunDynamicRnn(p, {{0, 3, 4}});
    RunDynamicRnn(p, {{0, 1, 2}});  // fewer steps: the arrays' stale tail is unused
  };
  EveryPath(DynamicRnnProgram(), HostPlaces(), "dynamic_rnn", check);
  auto light = ThroughOpt(DynamicRnnProgram(), "dynamic_rnn_opt");
  ASSERT_TRUE(light.ok()) << light.status().ToString();
  check(light->get());
}

}  // namespace
}  // namespace control_flow_test
