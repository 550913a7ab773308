// beam_search and beam_search_decode through their host kernels: one step
// against a reference that picks each source's best candidates one at a
// time (over beam_size, end_id, level, is_accumulated and the ids-less
// form), Paddle's documented example, and a multi-step decode whose
// sentences are rebuilt from parent_idx and a source per row tracked here
// (not from the LoD the decoder walks).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "lite/core/op_tester.h"

namespace lite {
namespace {

struct Pick {
  int64_t prefix, id;
  float score;
};

// Reference: for each source (rows [sources[s], sources[s+1])), take the
// best remaining candidate beam_size times (higher score, then later row,
// then earlier candidate); drop a source whose picks are all end_id after
// end_id prefixes; list picks by prefix row, best first.
std::vector<std::vector<Pick>> ReferenceStep(const std::vector<uint64_t>& sources,
                                             const std::vector<int64_t>& pre_ids,
                                             const std::vector<float>& pre_scores,
                                             const std::vector<int64_t>* ids,
                                             const std::vector<float>& scores, int width,
                                             int beam, int64_t end_id, bool accumulated) {
  std::vector<std::vector<Pick>> by_row(pre_ids.size());
  for (size_t s = 0; s + 1 < sources.size(); ++s) {
    std::vector<Pick> cands;
    for (uint64_t r = sources[s]; r < sources[s + 1]; ++r) {
      if (pre_ids[r] == end_id) {
        cands.push_back({static_cast<int64_t>(r), end_id, pre_scores[r]});
        continue;
      }
      for (int d = 0; d < width; ++d) {
        const float v = scores[r * width + d];
        cands.push_back({static_cast<int64_t>(r), ids ? (*ids)[r * width + d] : d,
                         accumulated ? v : pre_scores[r] + std::log(v)});
      }
    }
    std::vector<bool> taken(cands.size(), false);
    std::vector<Pick> picks;
    for (int k = 0; k < beam; ++k) {
      int best = -1;
      for (size_t c = 0; c < cands.size(); ++c) {
        if (taken[c]) continue;
        if (best < 0 || cands[c].score > cands[best].score ||
            (cands[c].score == cands[best].score && cands[c].prefix > cands[best].prefix)) {
          best = static_cast<int>(c);
        }
      }
      if (best < 0) break;
      taken[best] = true;
      picks.push_back(cands[best]);
    }
    bool finished = true;
    for (const Pick& p : picks) finished = finished && p.id == end_id && pre_ids[p.prefix] == end_id;
    if (finished) continue;
    for (const Pick& p : picks) by_row[p.prefix].push_back(p);
  }
  return by_row;
}

struct StepCase {
  LoD lod;  // of scores; pre_ids has one row per scores row
  int level, beam;
  int64_t end_id;
  bool accumulated, with_ids;
  std::vector<int64_t> pre_ids;
};

void CheckStep(const StepCase& c, uint32_t seed) {
  const int64_t rows = static_cast<int64_t>(c.pre_ids.size());
  const int width = 4;
  std::vector<float> pre_scores = RandomFloats(rows, seed, -3.f, 0.f);
  std::vector<float> scores = RandomFloats(rows * width, seed + 1, 0.05f, 1.f);
  std::vector<int64_t> ids(rows * width);
  for (size_t k = 0; k < ids.size(); ++k) ids[k] = static_cast<int64_t>((k * 7 + 3) % 11);
  OpTester t("beam_search");
  t.SetInput<int64_t>("pre_ids", "pre_ids", {rows, 1}, c.pre_ids);
  t.SetInput<float>("pre_scores", "pre_scores", {rows, 1}, pre_scores);
  if (c.with_ids) t.SetInput<int64_t>("ids", "ids", {rows, width}, ids);
  t.SetInput<float>("scores", "scores", {rows, width}, scores)->set_lod(c.lod);
  t.SetOutput("selected_ids", "sel_ids");
  t.SetOutput("selected_scores", "sel_scores");
  t.SetOutput("parent_idx", "parent");
  t.SetAttr("level", c.level);
  t.SetAttr("beam_size", c.beam);
  t.SetAttr("end_id", static_cast<int32_t>(c.end_id));
  t.SetAttr("is_accumulated", c.accumulated);
  Status s = t.Run();
  ASSERT_TRUE(s.ok()) << s.ToString();

  // Absolute source offsets, computed level by level here.
  std::vector<uint64_t> sources = c.lod[c.level];
  for (size_t l = c.level + 1; l < c.lod.size(); ++l) {
    for (auto& o : sources) o = c.lod[l][o];
  }
  auto want = ReferenceStep(sources, c.pre_ids, pre_scores, c.with_ids ? &ids : nullptr, scores,
                            width, c.beam, c.end_id, c.accumulated);
  std::vector<int64_t> want_ids;
  std::vector<float> want_scores;
  std::vector<int32_t> want_parents;
  std::vector<uint64_t> per_row = {0};
  for (const auto& row : want) {
    for (const Pick& p : row) {
      want_ids.push_back(p.id);
      want_scores.push_back(p.score);
      want_parents.push_back(static_cast<int32_t>(p.prefix));
    }
    per_row.push_back(want_ids.size());
  }
  EXPECT_EQ(t.GetData<int64_t>("sel_ids"), want_ids);
  EXPECT_EQ(t.GetData<float>("sel_scores"), want_scores);
  EXPECT_EQ(t.GetData<int32_t>("parent"), want_parents);
  EXPECT_EQ(t.Get("sel_ids").dims(), (DDim{static_cast<int64_t>(want_ids.size()), 1}));
  EXPECT_EQ(t.Get("sel_ids").lod(), (LoD{sources, per_row}));
  EXPECT_EQ(t.Get("sel_scores").lod(), (LoD{sources, per_row}));
}

TEST(BeamSearch, OneStepMatchesTheReferenceOverAttributes) {
  const LoD two_sources = {{0, 2, 5}, {0, 1, 2, 3, 4, 5}};
  const std::vector<int64_t> live = {1, 2, 3, 4, 5};
  const std::vector<int64_t> some_ended = {0, 2, 0, 4, 0};
  const std::vector<int64_t> first_ended = {0, 0, 3, 0, 5};
  uint32_t seed = 1;
  for (int beam : {1, 2, 3, 6}) {
    for (bool accumulated : {true, false}) {
      for (bool with_ids : {true, false}) {
        for (const auto* pre : {&live, &some_ended, &first_ended}) {
          SCOPED_TRACE("beam " + std::to_string(beam) + " accumulated " +
                       std::to_string(accumulated) + " ids " + std::to_string(with_ids));
          CheckStep({two_sources, 0, beam, 0, accumulated, with_ids, *pre}, seed++);
        }
      }
    }
  }
  // end_id other than 0; level 1 of a three-level LoD (two sources of
  // rows [0, 1) and [1, 3)).
  CheckStep({two_sources, 0, 2, 3, true, true, {3, 3, 1, 2, 3}}, seed++);
  CheckStep({{{0, 2}, {0, 1, 3}, {0, 1, 2, 3}}, 1, 2, 0, true, true, {1, 0, 2}}, seed++);
  CheckStep({{{0, 2}, {0, 1, 3}, {0, 1, 2, 3}}, 0, 2, 0, false, false, {1, 0, 2}}, seed++);
}

// A source whose prefixes have all ended and whose best candidates are the
// end tokens drops out; the other source keeps its picks.
TEST(BeamSearch, FinishedSourceIsPruned) {
  OpTester t("beam_search");
  t.SetInput<int64_t>("pre_ids", "pre_ids", {4, 1}, {0, 0, 1, 2});
  t.SetInput<float>("pre_scores", "pre_scores", {4, 1}, {-0.5f, -0.7f, -0.1f, -0.2f});
  t.SetInput<int64_t>("ids", "ids", {4, 2}, {5, 6, 5, 6, 7, 8, 9, 0});
  t.SetInput<float>("scores", "scores", {4, 2}, {-0.1f, -0.2f, -0.1f, -0.2f, -0.3f, -0.9f,
                                                 -0.4f, -0.35f})
      ->set_lod({{0, 2, 4}, {0, 1, 2, 3, 4}});
  t.SetOutput("selected_ids", "ids_out");
  t.SetOutput("selected_scores", "scores_out");
  t.SetAttr("beam_size", 2);
  t.SetAttr("end_id", 0);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<int64_t>("ids_out"), (std::vector<int64_t>{7, 0}));
  EXPECT_EQ(t.GetData<float>("scores_out"), (std::vector<float>{-0.3f, -0.35f}));
  EXPECT_EQ(t.Get("ids_out").lod(), (LoD{{0, 2, 4}, {0, 0, 0, 1, 2}}));
}

// Paddle's own unit-test case (test_beam_search_op.py).
TEST(BeamSearch, PaddleExample) {
  OpTester t("beam_search");
  t.SetInput<int64_t>("pre_ids", "pre_ids", {4, 1}, {1, 2, 3, 4});
  t.SetInput<float>("pre_scores", "pre_scores", {4, 1}, {0.1f, 0.2f, 0.3f, 0.4f});
  t.SetInput<int64_t>("ids", "ids", {4, 3}, {4, 2, 5, 2, 1, 3, 3, 5, 2, 8, 2, 1});
  t.SetInput<float>("scores", "scores", {4, 3},
                    {0.5f, 0.3f, 0.2f, 0.6f, 0.3f, 0.1f, 0.9f, 0.5f, 0.1f, 0.7f, 0.5f, 0.1f})
      ->set_lod({{0, 2, 4}, {0, 1, 2, 3, 4}});
  t.SetOutput("selected_ids", "ids_out");
  t.SetOutput("selected_scores", "scores_out");
  t.SetOutput("parent_idx", "parent");
  t.SetAttr("beam_size", 2);
  t.SetAttr("end_id", 0);
  ASSERT_TRUE(t.Run().ok());
  EXPECT_EQ(t.GetData<int64_t>("ids_out"), (std::vector<int64_t>{4, 2, 3, 8}));
  EXPECT_EQ(t.GetData<float>("scores_out"), (std::vector<float>{0.5f, 0.6f, 0.9f, 0.7f}));
  EXPECT_EQ(t.GetData<int32_t>("parent"), (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(t.Get("ids_out").lod(), (LoD{{0, 2, 4}, {0, 1, 2, 3, 4}}));
}

TEST(BeamSearch, BadInputsAreErrors) {
  auto make = [](LoD lod, int beam, int64_t rows_of_pre) {
    auto t = std::make_unique<OpTester>("beam_search");
    t->SetInput<int64_t>("pre_ids", "pre_ids", {rows_of_pre, 1},
                         std::vector<int64_t>(rows_of_pre, 1));
    t->SetInput<float>("pre_scores", "pre_scores", {rows_of_pre, 1},
                       std::vector<float>(rows_of_pre, 0.f));
    t->SetInput<float>("scores", "scores", {2, 2}, {0.1f, 0.2f, 0.3f, 0.4f})->set_lod(lod);
    t->SetOutput("selected_ids", "a");
    t->SetOutput("selected_scores", "b");
    t->SetAttr("beam_size", beam);
    return t;
  };
  EXPECT_TRUE(make({{0, 2}, {0, 1, 2}}, 2, 2)->Run().ok());
  EXPECT_FALSE(make({}, 2, 2)->Run().ok());                  // no LoD level 0
  EXPECT_FALSE(make({{0, 1}, {0, 1, 2}}, 2, 2)->Run().ok());  // sources end at row 1
  EXPECT_FALSE(make({{0, 2}, {0, 1, 2}}, 0, 2)->Run().ok());  // beam_size 0
  EXPECT_FALSE(make({{0, 2}, {0, 1, 2}}, 2, 3)->Run().ok());  // pre_ids rows differ
}

// Decoding: `steps` beam_search steps over random probabilities, each
// step's outputs written to the arrays as a while loop would; the expected
// sentences come from parent_idx and a source per row tracked here.
TEST(BeamSearchDecode, SentencesFollowTheParentsOfEachStep) {
  for (int beam : {1, 2, 3}) {
    for (int64_t end_id : {0, 2}) {
      SCOPED_TRACE("beam " + std::to_string(beam) + " end_id " + std::to_string(end_id));
      const int vocab = 5, sources = 3, steps = 5;
      std::vector<Tensor> id_steps, score_steps;
      Tensor ids0, scores0;
      ids0.Resize({sources, 1});
      scores0.Resize({sources, 1});
      LoD lod0 = {{0, 1, 2, 3}, {0, 1, 2, 3}};
      for (int s = 0; s < sources; ++s) {
        ids0.mutable_data<int64_t>()[s] = 4;  // the start token
        scores0.mutable_data<float>()[s] = 0.f;
      }
      ids0.set_lod(lod0);
      scores0.set_lod(lod0);
      id_steps.push_back(ids0);
      score_steps.push_back(scores0);
      // Per step: each row's parent row and source.
      std::vector<std::vector<int32_t>> parents = {{}};
      std::vector<std::vector<int>> source_of = {{0, 1, 2}};
      for (int step = 1; step < steps; ++step) {
        const Tensor& pre = id_steps.back();
        const int64_t rows = pre.numel();
        if (rows == 0) break;
        OpTester t("beam_search");
        Tensor* pi = t.scope()->Var("pre_ids")->GetMutableTensor();
        pi->CopyDataFrom(pre);
        pi->Resize({rows, 1});
        t.desc()->SetInput("pre_ids", {"pre_ids"});
        Tensor* ps = t.scope()->Var("pre_scores")->GetMutableTensor();
        ps->CopyDataFrom(score_steps.back());
        ps->Resize({rows, 1});
        t.desc()->SetInput("pre_scores", {"pre_scores"});
        t.SetInput<float>("scores", "probs", {rows, vocab},
                          RandomFloats(rows * vocab, 100 * step + beam, 0.01f, 1.f))
            ->set_lod(pre.lod());
        t.SetOutput("selected_ids", "ids");
        t.SetOutput("selected_scores", "scores");
        t.SetOutput("parent_idx", "parent");
        t.SetAttr("beam_size", beam);
        t.SetAttr("end_id", static_cast<int32_t>(end_id));
        t.SetAttr("is_accumulated", false);
        Status s = t.Run();
        ASSERT_TRUE(s.ok()) << s.ToString();
        id_steps.push_back(t.Get("ids"));
        score_steps.push_back(t.Get("scores"));
        parents.push_back(t.GetData<int32_t>("parent"));
        std::vector<int> src;
        for (int32_t p : parents.back()) src.push_back(source_of.back()[p]);
        source_of.push_back(src);
      }
      // Expected: per source, the candidates of its last step with any,
      // traced back by parent, repeated end tokens dropped, best final
      // score first.
      std::vector<int64_t> want_ids;
      std::vector<float> want_scores;
      std::vector<uint64_t> per_source = {0}, per_sentence = {0};
      for (int s = 0; s < sources; ++s) {
        struct Sent {
          std::vector<int64_t> ids;
          std::vector<float> scores;
        };
        std::vector<Sent> sents;
        for (int t = static_cast<int>(id_steps.size()) - 1; t >= 0 && sents.empty(); --t) {
          for (size_t c = 0; c < source_of[t].size(); ++c) {
            if (source_of[t][c] != s) continue;
            Sent sent;
            int64_t row = static_cast<int64_t>(c);
            for (int u = t; u >= 0; --u) {
              const int64_t id = id_steps[u].data<int64_t>()[row];
              if (id != end_id || sent.ids.empty()) {
                sent.ids.insert(sent.ids.begin(), id);
                sent.scores.insert(sent.scores.begin(), score_steps[u].data<float>()[row]);
              }
              if (u > 0) row = parents[u][row];
            }
            sents.push_back(sent);
          }
        }
        std::stable_sort(sents.begin(), sents.end(), [](const Sent& a, const Sent& b) {
          return a.scores.back() > b.scores.back();
        });
        for (const Sent& sent : sents) {
          want_ids.insert(want_ids.end(), sent.ids.begin(), sent.ids.end());
          want_scores.insert(want_scores.end(), sent.scores.begin(), sent.scores.end());
          per_sentence.push_back(want_ids.size());
        }
        per_source.push_back(per_sentence.size() - 1);
      }

      OpTester d("beam_search_decode");
      *d.scope()->Var("ids_arr")->GetMutableTensorList() = id_steps;
      *d.scope()->Var("scores_arr")->GetMutableTensorList() = score_steps;
      d.desc()->SetInput("Ids", {"ids_arr"});
      d.desc()->SetInput("Scores", {"scores_arr"});
      d.SetOutput("SentenceIds", "sent_ids");
      d.SetOutput("SentenceScores", "sent_scores");
      d.SetAttr("beam_size", beam);
      d.SetAttr("end_id", static_cast<int32_t>(end_id));
      Status s = d.Run();
      ASSERT_TRUE(s.ok()) << s.ToString();
      EXPECT_EQ(d.GetData<int64_t>("sent_ids"), want_ids);
      EXPECT_EQ(d.GetData<float>("sent_scores"), want_scores);
      EXPECT_EQ(d.Get("sent_ids").lod(), (LoD{per_source, per_sentence}));
      EXPECT_EQ(per_source.back(), static_cast<uint64_t>(sources * beam));
    }
  }
}

TEST(BeamSearchDecode, BadArraysAreErrors) {
  auto run = [](std::vector<Tensor> ids, std::vector<Tensor> scores, int beam) {
    OpTester d("beam_search_decode");
    *d.scope()->Var("i")->GetMutableTensorList() = std::move(ids);
    *d.scope()->Var("s")->GetMutableTensorList() = std::move(scores);
    d.desc()->SetInput("Ids", {"i"});
    d.desc()->SetInput("Scores", {"s"});
    d.SetOutput("SentenceIds", "a");
    d.SetOutput("SentenceScores", "b");
    d.SetAttr("beam_size", beam);
    return d.Run();
  };
  Tensor ids, scores;
  ids.Resize({2, 1});
  ids.mutable_data<int64_t>()[0] = 1;
  ids.mutable_data<int64_t>()[1] = 2;
  scores.Resize({2, 1});
  scores.mutable_data<float>()[0] = scores.mutable_data<float>()[1] = 0.f;
  ids.set_lod({{0, 1}, {0, 2}});
  scores.set_lod(ids.lod());
  EXPECT_TRUE(run({ids}, {scores}, 2).ok());
  EXPECT_FALSE(run({ids}, {scores}, 1).ok());  // two candidates of a beam of 1
  EXPECT_FALSE(run({}, {}, 2).ok());          // no steps
  EXPECT_FALSE(run({ids, ids}, {scores}, 2).ok());  // arrays differ in length
  Tensor flat = ids;
  flat.set_lod({});
  EXPECT_FALSE(run({flat}, {scores}, 2).ok());  // no 2-level LoD
}

}  // namespace
}  // namespace lite
