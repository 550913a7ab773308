// Host kernels for lod_rank_table, max_sequence_len, lod_tensor_to_array and
// array_to_lod_tensor (lite/operators/lod_array_ops.h): any element type,
// rows copied as bytes.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "lite/core/kernel.h"
#include "lite/operators/lod_array_ops.h"
#include "lite/operators/lod_util.h"

namespace lite {
namespace kernels {
namespace host {

namespace {

using operators::RankItem;

// Units [start, end) of LoD level `level - 1` followed down: the lengths
// they span at every level from `level` on, and the rows they cover.
struct SubLoD {
  LoD lengths;
  uint64_t first_row = 0, end_row = 0;
};

StatusOr<SubLoD> Descend(const LoD& lod, uint64_t start, uint64_t end, size_t level) {
  SubLoD out;
  for (size_t l = level; l < lod.size(); ++l) {
    if (end >= lod[l].size() || start > end) {
      return InvalidArgument("LoD " + operators::LodToString(lod) + " has no units [" +
                             std::to_string(start) + ", " + std::to_string(end) + ") at level " +
                             std::to_string(l));
    }
    std::vector<uint64_t> lens;
    for (uint64_t i = start; i < end; ++i) lens.push_back(lod[l][i + 1] - lod[l][i]);
    out.lengths.push_back(lens);
    start = lod[l][start];
    end = lod[l][end];
  }
  out.first_row = start;
  out.end_row = end;
  return out;
}

// Appends `lengths` (one list per level) to offsets `lod`.
void AppendLengths(const LoD& lengths, LoD* lod) {
  if (lod->empty()) lod->assign(lengths.size(), {0});
  for (size_t l = 0; l < lengths.size(); ++l) {
    for (uint64_t len : lengths[l]) (*lod)[l].push_back((*lod)[l].back() + len);
  }
}

size_t RowBytes(const Tensor& t) {
  const int64_t rows = t.dims().empty() ? 0 : t.dims()[0];
  return rows == 0 ? 0 : t.memory_size() / rows;
}

// Rows [first, end) of `from` appended at row `*at` of `to`.
void CopyRows(const Tensor& from, uint64_t first, uint64_t end, Tensor* to, int64_t* at) {
  const size_t bytes = RowBytes(from);
  std::memcpy(static_cast<char*>(to->raw_mutable_data()) + *at * bytes,
              static_cast<const char*>(from.raw_data()) + first * bytes, (end - first) * bytes);
  *at += static_cast<int64_t>(end - first);
}

DDim WithRows(DDim dims, int64_t rows) {
  if (dims.empty()) dims.push_back(rows);
  dims[0] = rows;
  return dims;
}

}  // namespace

class LodArrayCompute : public KernelBase {
 public:
  Status Run() override {
    auto& p = Param<operators::LodArrayParam>();
    const std::string& op = def().op_type;
    if (op == "lod_rank_table") return RankTable(p);
    ASSIGN_OR_RETURN(std::vector<RankItem> items, operators::RankItems(*p.rank_table, "RankTable"));
    if (op == "max_sequence_len") {
      p.out->Resize({1});
      p.out->mutable_data<int64_t>()[0] = items.empty() ? 0 : items[0].length;
      return Status::OK();
    }
    return op == "lod_tensor_to_array" ? ToArray(p, items) : FromArray(p, items);
  }

 private:
  static Status RankTable(operators::LodArrayParam& p) {
    const LoD& lod = p.x->lod();
    if (p.level >= static_cast<int>(lod.size())) {
      return InvalidArgument("attribute level " + std::to_string(p.level) +
                             " is not a LoD level of X " + operators::LodToString(lod));
    }
    const std::vector<uint64_t>& level = lod[p.level];
    std::vector<RankItem> items;
    for (size_t i = 0; i + 1 < level.size(); ++i) {
      items.push_back({static_cast<int64_t>(i), static_cast<int64_t>(level[i + 1] - level[i])});
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const RankItem& a, const RankItem& b) { return a.length > b.length; });
    p.out->Resize({static_cast<int64_t>(items.size()), 2});
    int64_t* d = p.out->mutable_data<int64_t>();
    for (size_t i = 0; i < items.size(); ++i) {
      d[2 * i] = items[i].index;
      d[2 * i + 1] = items[i].length;
    }
    p.out->set_lod(LoD(lod.begin(), lod.begin() + p.level));
    return Status::OK();
  }

  static Status ToArray(operators::LodArrayParam& p, const std::vector<RankItem>& items) {
    const Tensor& x = *p.x;
    const size_t level = p.rank_table->lod().size();
    if (level >= x.lod().size()) {
      return InvalidArgument("the rank table's level " + std::to_string(level) +
                             " is not a LoD level of X " + operators::LodToString(x.lod()));
    }
    const int64_t steps = items.empty() ? 0 : items[0].length;
    std::vector<Tensor>* out = p.out_array->GetMutableTensorList();
    out->assign(steps, Tensor());
    for (int64_t t = 0; t < steps; ++t) {
      std::vector<SubLoD> parts;
      LoD lod;
      int64_t rows = 0;
      for (const RankItem& item : items) {
        if (t >= item.length) break;
        if (item.index + 1 >= static_cast<int64_t>(x.lod()[level].size())) {
          return InvalidArgument("RankTable names sequence " + std::to_string(item.index) +
                                 ", X's LoD level " + std::to_string(level) + " has fewer");
        }
        const uint64_t unit = x.lod()[level][item.index] + t;
        ASSIGN_OR_RETURN(SubLoD part, Descend(x.lod(), unit, unit + 1, level + 1));
        if (part.end_row > static_cast<uint64_t>(x.dims()[0])) {
          return InvalidArgument("RankTable's sequence " + std::to_string(item.index) +
                                 " runs past X's rows: the table is not X's");
        }
        AppendLengths(part.lengths, &lod);
        rows += static_cast<int64_t>(part.end_row - part.first_row);
        parts.push_back(std::move(part));
      }
      Tensor& step = (*out)[t];
      step.Resize(WithRows(x.dims(), rows));
      step.mutable_data(x.dtype());
      step.set_lod(lod);
      int64_t at = 0;
      for (const SubLoD& part : parts) CopyRows(x, part.first_row, part.end_row, &step, &at);
    }
    return Status::OK();
  }

  static Status FromArray(operators::LodArrayParam& p, const std::vector<RankItem>& items) {
    const std::vector<Tensor>& x = p.x_array->GetTensorList();
    if (x.empty()) return InvalidArgument("the input array X is empty");
    // The steps the table uses: an array written by an earlier, longer run
    // keeps a tail past them.
    const size_t used = items.empty() ? 0 : std::min<size_t>(x.size(), items[0].length);
    int64_t rows = 0;
    for (size_t t = 0; t < used; ++t) {
      if (x[t].dtype() != x[0].dtype() || x[t].dims().empty() ||
          DDim(x[t].dims().begin() + 1, x[t].dims().end()) !=
              DDim(x[0].dims().begin() + 1, x[0].dims().end())) {
        return InvalidArgument("array element " + std::to_string(t) + " " +
                               DimsToString(x[t].dims()) + " does not match element 0 " +
                               DimsToString(x[0].dims()) + " in type and row shape");
      }
      rows += x[t].dims()[0];
    }
    std::vector<size_t> by_index(items.size());
    std::iota(by_index.begin(), by_index.end(), 0);
    std::sort(by_index.begin(), by_index.end(),
              [&](size_t a, size_t b) { return items[a].index < items[b].index; });
    Tensor* out = p.out;
    out->Resize(WithRows(x[0].dims(), rows));
    out->mutable_data(x[0].dtype());
    std::vector<uint64_t> sequences = {0};
    LoD lower;
    int64_t at = 0;
    for (size_t rank : by_index) {
      const int64_t length = items[rank].length;
      if (length > static_cast<int64_t>(x.size())) {
        return InvalidArgument("sequence " + std::to_string(items[rank].index) + " has " +
                               std::to_string(length) + " steps, the array only " +
                               std::to_string(x.size()));
      }
      sequences.push_back(sequences.back() + length);
      for (int64_t t = 0; t < length; ++t) {
        ASSIGN_OR_RETURN(SubLoD part, Descend(x[t].lod(), rank, rank + 1, 0));
        if (part.end_row > static_cast<uint64_t>(x[t].dims()[0]) ||
            at + static_cast<int64_t>(part.end_row - part.first_row) > rows) {
          return InvalidArgument("array element " + std::to_string(t) + " has no rows for rank " +
                                 std::to_string(rank));
        }
        AppendLengths(part.lengths, &lower);
        CopyRows(x[t], part.first_row, part.end_row, out, &at);
      }
    }
    if (at != rows) {
      return InvalidArgument("the rank table covers " + std::to_string(at) + " of the " +
                             std::to_string(rows) + " rows of the array's steps it uses");
    }
    LoD lod = p.rank_table->lod();
    lod.push_back(sequences);
    lod.insert(lod.end(), lower.begin(), lower.end());
    out->set_lod(lod);
    return Status::OK();
  }
};

}  // namespace host
}  // namespace kernels
}  // namespace lite

#define LITE_REGISTER_LOD_ARRAY(op)                                                          \
  REGISTER_LITE_KERNEL(op, kHost, kAny, kNCHW, lite::kernels::host::LodArrayCompute, def) \
      .Finalize()
LITE_REGISTER_LOD_ARRAY(lod_rank_table);
LITE_REGISTER_LOD_ARRAY(max_sequence_len);
LITE_REGISTER_LOD_ARRAY(lod_tensor_to_array);
LITE_REGISTER_LOD_ARRAY(array_to_lod_tensor);
