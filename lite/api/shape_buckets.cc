#include "lite/api/shape_buckets.h"

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <utility>

namespace lite {

using paddle::lite_api::BucketCrop;
using paddle::lite_api::ShapeBuckets;

namespace {
// "a/b" or "a" as a positive fraction; false when malformed.
bool ParseScale(const std::string& text, int* num, int* den) {
  const size_t slash = text.find('/');
  const std::string a = text.substr(0, slash);
  const std::string b = slash == std::string::npos ? "1" : text.substr(slash + 1);
  char* end = nullptr;
  const long n = std::strtol(a.c_str(), &end, 10);
  if (a.empty() || *end) return false;
  const long d = std::strtol(b.c_str(), &end, 10);
  if (b.empty() || *end) return false;
  if (n <= 0 || d <= 0 || n > 1 << 20 || d > 1 << 20) return false;
  *num = static_cast<int>(n);
  *den = static_cast<int>(d);
  return true;
}
}  // namespace

Status ShapeBucketer::Validate(const ShapeBuckets& options,
                               const std::vector<std::string>& outputs) {
  if (options.multiple < 0) {
    return InvalidArgument("shape buckets: multiple = " + std::to_string(options.multiple) +
                           " is negative (0 turns them off)");
  }
  if (options.multiple == 0 && !options.crops.empty()) {
    return InvalidArgument("shape buckets: outputs to crop are given but the multiple is 0 "
                           "(buckets off)");
  }
  for (const BucketCrop& c : options.crops) {
    bool found = false;
    std::string known;
    for (const std::string& o : outputs) {
      found = found || o == c.output;
      known += (known.empty() ? "" : ", ") + o;
    }
    if (!found) {
      return NotFound("shape buckets: no output named '" + c.output + "' to crop (outputs: " +
                      known + ")");
    }
    if (c.num <= 0 || c.den <= 0) {
      return InvalidArgument("shape buckets: the scale of output '" + c.output + "' (" +
                             std::to_string(c.num) + "/" + std::to_string(c.den) +
                             ") is not positive");
    }
  }
  return Status::OK();
}

ShapeBucketer::ShapeBucketer(const ShapeBuckets& options, std::vector<std::string> inputs,
                             std::vector<std::string> outputs)
    : options_(options), inputs_(std::move(inputs)), outputs_(std::move(outputs)) {
  ratios_.resize(outputs_.size() * 2);
}

Status ShapeBucketer::Pad(std::vector<Tensor>* feeds, const std::vector<Tensor>& fetches) {
  feed_ = -1;
  padded_ = false;
  std::string spatial;
  for (size_t i = 0; i < feeds->size(); ++i) {
    if ((*feeds)[i].dims().size() != 4) continue;
    spatial += (spatial.empty() ? "'" : ", '") + inputs_[i] + "' " +
               DimsToString((*feeds)[i].dims());
    if (feed_ >= 0) feed_ = -2;
    if (feed_ == -1) feed_ = static_cast<int>(i);
  }
  if (feed_ < 0) {
    return FailedPrecondition("shape buckets round the H and W of the model's one 4-D (NCHW) "
                              "input; this run has " +
                              (spatial.empty() ? std::string("none") : spatial));
  }
  for (size_t j = 0; j < fetches.size(); ++j) {
    if (fetches[j].external_memory()) {
      return FailedPrecondition("shape buckets: output '" + outputs_[j] +
                                "' is bound to caller memory (ShareExternalData), which a "
                                "cropped output cannot be written into; bind none with "
                                "buckets on");
    }
  }
  Tensor& in = (*feeds)[feed_];
  const DDim& d = in.dims();
  const int64_t m = options_.multiple;
  h_ = d[2];
  w_ = d[3];
  hb_ = (h_ + m - 1) / m * m;
  wb_ = (w_ + m - 1) / m * m;
  DDim bucketed = d;
  bucketed[2] = hb_;
  bucketed[3] = wb_;
  std::string key;
  for (size_t i = 0; i < feeds->size(); ++i) {
    key += DimsToString(static_cast<int>(i) == feed_ ? bucketed : (*feeds)[i].dims()) + ";";
  }
  ++runs_;
  if (!seen_.insert(key).second) ++hits_;
  if (hb_ == h_ && wb_ == w_) return Status::OK();

  PadTo(feeds, hb_, wb_);
  ++padded_runs_;
  return Status::OK();
}

void ShapeBucketer::PadTo(std::vector<Tensor>* feeds, int64_t hp, int64_t wp) {
  Tensor& in = (*feeds)[feed_];
  const DDim d = in.dims();
  Tensor padded;
  padded.Resize({d[0], d[1], hp, wp});
  padded.set_lod(in.lod());
  char* dst = static_cast<char*>(padded.mutable_data(in.dtype()));
  const char* src = static_cast<const char*>(in.raw_data());
  const size_t elem = DataTypeSize(in.dtype());
  std::memset(dst, 0, padded.memory_size());
  for (int64_t p = 0; p < d[0] * d[1]; ++p) {
    for (int64_t y = 0; y < d[2]; ++y) {
      std::memcpy(dst + ((p * hp + y) * wp) * elem, src + ((p * d[2] + y) * d[3]) * elem,
                  static_cast<size_t>(d[3]) * elem);
    }
  }
  saved_ = std::move(in);
  in = std::move(padded);
  padded_ = true;
}

void ShapeBucketer::Restore(std::vector<Tensor>* feeds) {
  if (padded_) (*feeds)[feed_] = std::move(saved_);
  padded_ = false;
}

void ShapeBucketer::Observe(int64_t h, int64_t w, const std::vector<Tensor>& fetches) {
  for (size_t j = 0; j < fetches.size() && j < outputs_.size(); ++j) {
    const DDim& o = fetches[j].dims();
    if (o.size() != 4) continue;
    const int64_t ins[2] = {h, w};
    for (int k = 0; k < 2; ++k) {
      DimRatio& r = ratios_[2 * j + k];
      const int64_t in = ins[k], out = o[2 + k];
      if (r.in == 0) {
        r.in = in;
        r.out = out;
      } else if (in != r.in) {
        // out / in == r.out / r.in, exactly.
        if (out * r.in == r.out * in) {
          r.confirmed = true;
        } else {
          r.broken = true;
        }
      }
    }
  }
}

void ShapeBucketer::Crop(Tensor* t, int64_t rows, int64_t cols) {
  // In place, each row moved towards the front (never past a row still to
  // move): the fetch list keeps its buffer, so the next run's fetch copies
  // into it instead of allocating.
  const DDim d = t->dims();
  char* base = static_cast<char*>(t->raw_mutable_data());
  const size_t elem = DataTypeSize(t->dtype());
  for (int64_t p = 0; p < d[0] * d[1]; ++p) {
    for (int64_t y = 0; y < rows; ++y) {
      std::memmove(base + ((p * rows + y) * cols) * elem, base + ((p * d[2] + y) * d[3]) * elem,
                   static_cast<size_t>(cols) * elem);
    }
  }
  t->Resize({d[0], d[1], rows, cols});
}

Status ShapeBucketer::Finish(std::vector<Tensor>* feeds, std::vector<Tensor>* fetches, bool ok,
                             bool* check_run) {
  *check_run = false;
  const bool padded = padded_;
  Restore(feeds);
  if (!ok) return Status::OK();
  Observe(hb_, wb_, *fetches);
  if (!padded) return Status::OK();
  RETURN_IF_ERROR(CropAll(fetches, check_run));
  if (*check_run) {
    // Keep this run's outputs; the check runs the caller's input padded one
    // bucket further, a size the model takes whenever it takes the buckets.
    saved_outputs_.swap(*fetches);
    fetches->resize(saved_outputs_.size());
    PadTo(feeds, hb_ + options_.multiple, wb_ + options_.multiple);
    ++check_runs_;
  }
  return Status::OK();
}

Status ShapeBucketer::CropAll(std::vector<Tensor>* fetches, bool* check_run) {
  const std::string run = "a run at " + std::to_string(h_) + "x" + std::to_string(w_) +
                          " padded to " + std::to_string(hb_) + "x" + std::to_string(wb_);
  // rows x cols for each output to crop; -1: leave it.
  std::vector<std::pair<int64_t, int64_t>> sizes(fetches->size(), {-1, -1});
  const int64_t in[2] = {h_, w_}, bucket[2] = {hb_, wb_};
  for (size_t j = 0; j < fetches->size(); ++j) {
    const DDim& o = (*fetches)[j].dims();
    const std::string which = "shape buckets: output '" + outputs_[j] + "' " + DimsToString(o);
    int num[2] = {0, 0}, den[2] = {0, 0};
    bool declared = options_.crops.empty();
    for (const BucketCrop& c : options_.crops) {
      if (c.output != outputs_[j]) continue;
      declared = true;
      num[0] = num[1] = c.num;
      den[0] = den[1] = c.den;
    }
    if (!declared) continue;  // not named in the declared crops: left as run
    if (o.size() != 4) {
      return FailedPrecondition(which + " after " + run +
                                " is not 4-D, so zero padding changes it and no crop undoes "
                                "that: name the outputs to crop (set_shape_buckets) or run "
                                "without buckets");
    }
    int64_t extent[2];
    for (int k = 0; k < 2; ++k) {
      const int64_t out = o[2 + k];
      const char* dim = k == 0 ? "H" : "W";
      if (in[k] == bucket[k]) {  // not padded: nothing to crop
        extent[k] = out;
        continue;
      }
      if (options_.crops.empty()) {
        const DimRatio& r = ratios_[2 * j + k];
        if (r.broken) {
          return FailedPrecondition(which + ": its " + dim + " is not the input's times one "
                                    "ratio over the runs so far (" +
                                    std::to_string(r.in) + " -> " + std::to_string(r.out) +
                                    ", " + std::to_string(bucket[k]) + " -> " +
                                    std::to_string(out) + "), so " + run +
                                    " cannot be cropped: declare the crop or run without "
                                    "buckets");
        }
        if (!r.confirmed) {
          *check_run = true;  // the caller's own size gives a second observation
          extent[k] = out;
          continue;
        }
        const int64_t g = std::gcd(out, bucket[k]);
        num[k] = static_cast<int>(out / g);
        den[k] = static_cast<int>(bucket[k] / g);
      } else if (out * den[k] != bucket[k] * num[k]) {
        return FailedPrecondition(which + ": its " + dim + " after " + run + " is not " +
                                  std::to_string(num[k]) + "/" + std::to_string(den[k]) +
                                  " of the input's, as the crop declares");
      }
      if (in[k] * num[k] % den[k] != 0) {
        return FailedPrecondition(which + ": " + run + " would crop its " + dim + " to " +
                                  std::to_string(in[k]) + " x " + std::to_string(num[k]) + "/" +
                                  std::to_string(den[k]) +
                                  ", not a whole number: use input sizes that make it whole "
                                  "or run without buckets");
      }
      extent[k] = in[k] * num[k] / den[k];
    }
    sizes[j] = {extent[0], extent[1]};
  }
  if (*check_run) return Status::OK();  // nothing cropped before the check
  for (size_t j = 0; j < fetches->size(); ++j) {
    if (sizes[j].first < 0) continue;
    const DDim& o = (*fetches)[j].dims();
    if (sizes[j].first != o[2] || sizes[j].second != o[3]) {
      Crop(&(*fetches)[j], sizes[j].first, sizes[j].second);
    }
  }
  return Status::OK();
}

Status ShapeBucketer::Checked(std::vector<Tensor>* feeds, std::vector<Tensor>* fetches,
                              bool ok) {
  Restore(feeds);
  std::vector<Tensor> first;
  first.swap(saved_outputs_);
  if (!ok) return Status::OK();
  Observe(hb_ + options_.multiple, wb_ + options_.multiple, *fetches);
  fetches->swap(first);
  bool again = false;
  RETURN_IF_ERROR(CropAll(fetches, &again));
  if (again) return Internal("shape buckets: an output scale is still unchecked after the check run");
  return Status::OK();
}

void ShapeBucketer::Fill(paddle::lite_api::MemoryStats* stats) const {
  stats->bucket_multiple = options_.multiple;
  stats->bucket_runs = runs_;
  stats->bucket_hits = hits_;
  stats->bucket_padded_runs = padded_runs_;
  stats->bucket_shapes = static_cast<int>(seen_.size());
  stats->bucket_check_runs = check_runs_;
}

}  // namespace lite

namespace paddle {
namespace lite_api {

StatusOr<std::vector<BucketCrop>> ParseBucketCrops(const std::string& text) {
  std::vector<BucketCrop> crops;
  size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    BucketCrop c;
    const size_t eq = item.find('=');
    c.output = item.substr(0, eq);
    if (c.output.empty() ||
        (eq != std::string::npos &&
         !lite::ParseScale(item.substr(eq + 1), &c.num, &c.den))) {
      return lite::InvalidArgument("bucket crop '" + item +
                                   "': expected output[=num/den] with positive integers");
    }
    crops.push_back(c);
    start = comma + 1;
  }
  return crops;
}

}  // namespace lite_api
}  // namespace paddle
