// Host kernels for beam_search (one step: the beam_size best candidates of
// each source, lite/operators/beam_search_ops.h) and beam_search_decode
// (backtracking the per-step arrays into sentences).
#include <algorithm>
#include <cmath>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/beam_search_ops.h"
#include "lite/operators/lod_util.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

// Offsets of every level in rows (the last level's units): level i indexes
// level i + 1. Error when a level points past the next one.
StatusOr<LoD> AbsoluteOffsets(const LoD& lod) {
  LoD abs = lod;
  for (int i = static_cast<int>(abs.size()) - 2; i >= 0; --i) {
    for (uint64_t& offset : abs[i]) {
      if (offset >= abs[i + 1].size()) {
        return InvalidArgument("LoD " + operators::LodToString(lod) + ": level " +
                               std::to_string(i) + " offset " + std::to_string(offset) +
                               " is past level " + std::to_string(i + 1));
      }
      offset = abs[i + 1][offset];
    }
  }
  return abs;
}

struct Candidate {
  size_t prefix = 0;  // row of pre_ids
  int64_t id = 0;
  float score = 0;
};

// Better: higher score, then later prefix row (Paddle's order of items).
bool Better(const Candidate& a, const Candidate& b) {
  return a.score > b.score || (a.score == b.score && a.prefix > b.prefix);
}

}  // namespace

class BeamSearchCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::BeamSearchParam>();
    const Tensor& scores = *p.scores;
    const int64_t rows = scores.dims()[0];
    if (static_cast<int>(scores.lod().size()) <= p.level) {
      return InvalidArgument("scores has LoD " + operators::LodToString(scores.lod()) +
                             ", no level " + std::to_string(p.level));
    }
    ASSIGN_OR_RETURN(LoD abs, AbsoluteOffsets(scores.lod()));
    const std::vector<uint64_t>& sources = abs[p.level];
    RETURN_IF_ERROR(CheckSourceLevel(sources, rows));
    const int64_t width = rows == 0 ? 0 : scores.numel() / rows;
    const int64_t* pre_ids = p.pre_ids->data<int64_t>();
    const float* pre_scores = p.pre_scores->data<float>();
    const int64_t* ids = p.ids ? p.ids->data<int64_t>() : nullptr;
    const float* score = scores.data<float>();

    // The kept candidates of every prefix row, in selection order.
    std::vector<std::vector<Candidate>> by_prefix(rows);
    for (size_t s = 0; s + 1 < sources.size(); ++s) {
      std::vector<Candidate> all;
      for (uint64_t r = sources[s]; r < sources[s + 1]; ++r) {
        if (pre_ids[r] == p.end_id) {
          all.push_back({r, p.end_id, pre_scores[r]});
          continue;
        }
        for (int64_t d = 0; d < width; ++d) {
          const int64_t at = static_cast<int64_t>(r) * width + d;
          const float v = p.is_accumulated ? score[at] : pre_scores[r] + std::log(score[at]);
          all.push_back({r, ids ? ids[at] : d, v});
        }
      }
      const size_t keep = std::min(all.size(), static_cast<size_t>(p.beam_size));
      std::stable_sort(all.begin(), all.end(), Better);
      all.resize(keep);
      // A source whose ended prefixes only extend with end_id is finished.
      bool finished = true;
      for (const Candidate& c : all) {
        finished = finished && c.id == p.end_id && pre_ids[c.prefix] == p.end_id;
      }
      if (finished) continue;
      for (const Candidate& c : all) by_prefix[c.prefix].push_back(c);
    }

    std::vector<uint64_t> per_prefix = {0};
    for (const auto& kept : by_prefix) per_prefix.push_back(per_prefix.back() + kept.size());
    const int64_t selected = static_cast<int64_t>(per_prefix.back());
    p.selected_ids->Resize({selected, 1});
    p.selected_scores->Resize({selected, 1});
    int64_t* out_ids = p.selected_ids->mutable_data<int64_t>();
    float* out_scores = p.selected_scores->mutable_data<float>();
    int32_t* parents = nullptr;
    if (p.parent_idx) {
      p.parent_idx->Resize({selected});
      parents = p.parent_idx->mutable_data<int32_t>();
    }
    int64_t k = 0;
    for (const auto& kept : by_prefix) {
      for (const Candidate& c : kept) {
        out_ids[k] = c.id;
        out_scores[k] = c.score;
        if (parents) parents[k] = static_cast<int32_t>(c.prefix);
        ++k;
      }
    }
    const LoD lod = {sources, per_prefix};
    p.selected_ids->set_lod(lod);
    p.selected_scores->set_lod(lod);
    return Status::OK();
  }

 private:
  static Status CheckSourceLevel(const std::vector<uint64_t>& sources, int64_t rows) {
    for (size_t i = 0; i < sources.size(); ++i) {
      if ((i == 0 && sources[i] != 0) || (i > 0 && sources[i] < sources[i - 1])) {
        return InvalidArgument("the source level of scores' LoD is not a sequence of offsets");
      }
    }
    if (sources.empty() || sources.back() != static_cast<uint64_t>(rows)) {
      return InvalidArgument("the source level of scores' LoD ends at " +
                             std::to_string(sources.empty() ? 0 : sources.back()) +
                             ", scores has " + std::to_string(rows) + " rows");
    }
    return Status::OK();
  }
};

// Walks each sentence back from the last step where its source still had
// candidates: the candidate's prefix row at step t is its parent, candidate
// row of step t - 1.
class BeamSearchDecodeCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::BeamSearchDecodeParam>();
    const std::vector<Tensor>& ids = p.ids->GetTensorList();
    const std::vector<Tensor>& scores = p.scores->GetTensorList();
    if (ids.empty()) return InvalidArgument("the Ids array is empty (no step ran)");
    if (ids.size() != scores.size()) {
      return InvalidArgument("the Ids array has " + std::to_string(ids.size()) +
                             " steps, the Scores array " + std::to_string(scores.size()));
    }
    for (size_t t = 0; t < ids.size(); ++t) RETURN_IF_ERROR(CheckStep(ids[t], scores[t], t));
    const size_t sources = ids[0].lod()[0].size() - 1;
    std::vector<Sentence> sentences;
    std::vector<uint64_t> per_source = {0};
    for (size_t s = 0; s < sources; ++s) {
      std::vector<Sentence> mine;
      for (size_t t = ids.size(); t-- > 0 && mine.empty();) {
        const LoD& lod = ids[t].lod();
        if (s + 1 >= lod[0].size()) {
          return InvalidArgument("step " + std::to_string(t) + " has LoD for " +
                                 std::to_string(lod[0].size() - 1) + " sources, step 0 for " +
                                 std::to_string(sources));
        }
        const uint64_t first = lod[1][lod[0][s]], last = lod[1][lod[0][s + 1]];
        if (last - first > static_cast<uint64_t>(p.beam_size)) {
          return InvalidArgument("step " + std::to_string(t) + " holds " +
                                 std::to_string(last - first) + " candidates of source " +
                                 std::to_string(s) + ", more than beam_size " +
                                 std::to_string(p.beam_size));
        }
        for (uint64_t c = first; c < last; ++c) {
          ASSIGN_OR_RETURN(Sentence sentence, Backtrack(ids, scores, t, c, p.end_id));
          mine.push_back(std::move(sentence));
        }
      }
      std::stable_sort(mine.begin(), mine.end(), [](const Sentence& a, const Sentence& b) {
        return a.scores.back() > b.scores.back();
      });
      for (auto& sentence : mine) sentences.push_back(std::move(sentence));
      per_source.push_back(sentences.size());
    }
    std::vector<uint64_t> per_sentence = {0};
    for (const Sentence& sentence : sentences) {
      per_sentence.push_back(per_sentence.back() + sentence.ids.size());
    }
    const int64_t tokens = static_cast<int64_t>(per_sentence.back());
    p.sentence_ids->Resize({tokens});
    p.sentence_scores->Resize({tokens});
    int64_t* out_ids = p.sentence_ids->mutable_data<int64_t>();
    float* out_scores = p.sentence_scores->mutable_data<float>();
    for (const Sentence& sentence : sentences) {
      out_ids = std::copy(sentence.ids.begin(), sentence.ids.end(), out_ids);
      out_scores = std::copy(sentence.scores.begin(), sentence.scores.end(), out_scores);
    }
    const LoD lod = {per_source, per_sentence};
    p.sentence_ids->set_lod(lod);
    p.sentence_scores->set_lod(lod);
    return Status::OK();
  }

 private:
  struct Sentence {
    std::vector<int64_t> ids;  // first token first
    std::vector<float> scores;
  };

  static Status CheckStep(const Tensor& ids, const Tensor& scores, size_t t) {
    const std::string step = "step " + std::to_string(t) + " of ";
    if (ids.dtype() != DataType::kInt64) return InvalidArgument(step + "Ids is not int64");
    if (scores.dtype() != DataType::kFloat32) {
      return InvalidArgument(step + "Scores is not float32");
    }
    if (ids.numel() != scores.numel()) {
      return InvalidArgument(step + "Ids and Scores differ in size");
    }
    const LoD& lod = ids.lod();
    if (lod.size() != 2 || lod[0].empty() || lod[0].front() != 0 || lod[1].empty() ||
        lod[1].front() != 0 || lod[1].back() != static_cast<uint64_t>(ids.numel()) ||
        lod[0].back() + 1 != lod[1].size() || !std::is_sorted(lod[0].begin(), lod[0].end()) ||
        !std::is_sorted(lod[1].begin(), lod[1].end())) {
      return InvalidArgument(step + "Ids must carry a 2-level LoD {source -> prefixes, prefix "
                             "-> candidates} over its " + std::to_string(ids.numel()) +
                             " rows, has " + operators::LodToString(lod));
    }
    return Status::OK();
  }

  // The sentence ending at candidate `c` of step `t`.
  static StatusOr<Sentence> Backtrack(const std::vector<Tensor>& ids,
                                      const std::vector<Tensor>& scores, size_t t, uint64_t c,
                                      int64_t end_id) {
    Sentence back;  // last token first
    for (size_t step = t + 1; step-- > 0;) {
      const int64_t id = ids[step].data<int64_t>()[c];
      // Ended beams repeat end_id: keep only its last occurrence.
      if (id != end_id || back.ids.empty()) {
        back.ids.push_back(id);
        back.scores.push_back(scores[step].data<float>()[c]);
      }
      if (step == 0) break;
      const std::vector<uint64_t>& per_prefix = ids[step].lod()[1];
      const uint64_t parent =
          std::upper_bound(per_prefix.begin(), per_prefix.end(), c) - per_prefix.begin() - 1;
      if (parent >= static_cast<uint64_t>(ids[step - 1].numel())) {
        return InvalidArgument("step " + std::to_string(step) + " has prefix row " +
                               std::to_string(parent) + ", step " + std::to_string(step - 1) +
                               " only " + std::to_string(ids[step - 1].numel()) + " candidates");
      }
      c = parent;
    }
    Sentence sentence;
    sentence.ids.assign(back.ids.rbegin(), back.ids.rend());
    sentence.scores.assign(back.scores.rbegin(), back.scores.rend());
    return sentence;
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

REGISTER_LITE_KERNEL(beam_search, kHost, kAny, kNCHW, lite::kernels::host::BeamSearchCompute,
                     def)
    .Finalize();
REGISTER_LITE_KERNEL(beam_search_decode, kHost, kAny, kNCHW,
                     lite::kernels::host::BeamSearchDecodeCompute, def)
    .Finalize();
