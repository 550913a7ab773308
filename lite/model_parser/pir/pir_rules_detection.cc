// PIR -> engine rules for the two-stage detection ops: roi_align,
// matrix_nms, generate_proposals (Paddle 3's form is the engine's
// generate_proposals_v2) and distribute_fpn_proposals. Optional operands
// and results that are null in the program are left unbound.
// (density_prior_box has no PIR op in Paddle 3.)
#include "lite/model_parser/pir/pir_translator.h"

namespace lite {
namespace pir {
namespace {

// Binds results 1.. of `op` to the outputs `names` of the op emitted last
// (result 0 was bound by EmitSimple); null results stay unbound.
Status BindExtraOutputs(const Op& op, Translator* t, const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, std::string>> extra;
  for (size_t k = 1; k < op.results.size() && k <= names.size(); ++k) {
    const Result& r = op.results[k];
    if (r.id == 0 || (r.type.dtype.empty() && !r.type.is_vector)) continue;
    ASSIGN_OR_RETURN(std::string name, t->Out(op, k));
    extra.emplace_back(names[k - 1], name);
  }
  cpp::OpDesc* last = t->LastEmitted();
  for (const auto& e : extra) last->SetOutput(e.first, {e.second});
  return Status::OK();
}

// roi_align(x, boxes, boxes_num) {pooled_height, pooled_width,
// spatial_scale, sampling_ratio, aligned} -> out
Status RoiAlign(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t ph = a.Int("pooled_height", 1);
  const int64_t pw = a.Int("pooled_width", 1);
  const double scale = a.Float("spatial_scale", 1.0);
  const int64_t ratio = a.Int("sampling_ratio", -1);
  const bool aligned = a.Bool("aligned", false);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "roi_align", {"X", "ROIs", "RoisNum"}));
  d->SetAttr("pooled_height", static_cast<int32_t>(ph));
  d->SetAttr("pooled_width", static_cast<int32_t>(pw));
  d->SetAttr("spatial_scale", static_cast<float>(scale));
  d->SetAttr("sampling_ratio", static_cast<int32_t>(ratio));
  d->SetAttr("aligned", aligned);
  return Status::OK();
}

// matrix_nms(bboxes, scores) {score_threshold, nms_top_k, keep_top_k,
// post_threshold, use_gaussian, gaussian_sigma, background_label,
// normalized} -> (out, index, roisnum)
Status MatrixNms(const Op& op, Translator* t) {
  AttrReader a(op);
  const double score_threshold = a.Float("score_threshold");
  const int64_t nms_top_k = a.Int("nms_top_k");
  const int64_t keep_top_k = a.Int("keep_top_k");
  const double post_threshold = a.Float("post_threshold", 0.0);
  const bool use_gaussian = a.Bool("use_gaussian", false);
  const double sigma = a.Float("gaussian_sigma", 2.0);
  const int64_t background = a.Int("background_label", 0);
  const bool normalized = a.Bool("normalized", true);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d, t->EmitSimple(op, "matrix_nms", {"BBoxes", "Scores"}));
  d->SetAttr("score_threshold", static_cast<float>(score_threshold));
  d->SetAttr("nms_top_k", static_cast<int32_t>(nms_top_k));
  d->SetAttr("keep_top_k", static_cast<int32_t>(keep_top_k));
  d->SetAttr("post_threshold", static_cast<float>(post_threshold));
  d->SetAttr("use_gaussian", use_gaussian);
  d->SetAttr("gaussian_sigma", static_cast<float>(sigma));
  d->SetAttr("background_label", static_cast<int32_t>(background));
  d->SetAttr("normalized", normalized);
  return BindExtraOutputs(op, t, {"Index", "RoisNum"});
}

// generate_proposals(scores, bbox_deltas, im_shape, anchors, variances)
// {pre_nms_top_n, post_nms_top_n, nms_thresh, min_size, eta, pixel_offset}
// -> (rpn_rois, rpn_roi_probs, rpn_rois_num): the engine's
// generate_proposals_v2.
Status GenerateProposals(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t pre = a.Int("pre_nms_top_n");
  const int64_t post = a.Int("post_nms_top_n");
  const double nms_thresh = a.Float("nms_thresh");
  const double min_size = a.Float("min_size");
  const double eta = a.Float("eta");
  const bool pixel_offset = a.Bool("pixel_offset", true);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(cpp::OpDesc * d,
                   t->EmitSimple(op, "generate_proposals_v2",
                                 {"Scores", "BboxDeltas", "ImShape", "Anchors", "Variances"},
                                 "RpnRois"));
  d->SetAttr("pre_nms_topN", static_cast<int32_t>(pre));
  d->SetAttr("post_nms_topN", static_cast<int32_t>(post));
  d->SetAttr("nms_thresh", static_cast<float>(nms_thresh));
  d->SetAttr("min_size", static_cast<float>(min_size));
  d->SetAttr("eta", static_cast<float>(eta));
  d->SetAttr("pixel_offset", pixel_offset);
  return BindExtraOutputs(op, t, {"RpnRoiProbs", "RpnRoisNum"});
}

// distribute_fpn_proposals(fpn_rois, rois_num) {min_level, max_level,
// refer_level, refer_scale, pixel_offset} -> (multi_fpn_rois list,
// multi_level_rois_num list, restore_index)
Status DistributeFpnProposals(const Op& op, Translator* t) {
  AttrReader a(op);
  const int64_t min_level = a.Int("min_level");
  const int64_t max_level = a.Int("max_level");
  const int64_t refer_level = a.Int("refer_level");
  const int64_t refer_scale = a.Int("refer_scale");
  const bool pixel_offset = a.Bool("pixel_offset", true);
  RETURN_IF_ERROR(a.status());
  ASSIGN_OR_RETURN(std::string rois, t->In(op, 0));
  std::string rois_num;
  if (t->Present(op, 1)) {
    ASSIGN_OR_RETURN(rois_num, t->In(op, 1));
  }
  ASSIGN_OR_RETURN(std::vector<std::string> multi_rois, t->OutList(op, 0));
  std::vector<std::string> multi_num;
  if (op.results.size() > 1 && op.results[1].id != 0 && op.results[1].type.is_vector) {
    ASSIGN_OR_RETURN(multi_num, t->OutList(op, 1));
  }
  ASSIGN_OR_RETURN(std::string restore, t->Out(op, 2));
  cpp::OpDesc* d = t->Emit("distribute_fpn_proposals", op);
  d->SetInput("FpnRois", {rois});
  if (!rois_num.empty()) d->SetInput("RoisNum", {rois_num});
  d->SetOutput("MultiFpnRois", multi_rois);
  if (!multi_num.empty()) d->SetOutput("MultiLevelRoIsNum", multi_num);
  d->SetOutput("RestoreIndex", {restore});
  d->SetAttr("min_level", static_cast<int32_t>(min_level));
  d->SetAttr("max_level", static_cast<int32_t>(max_level));
  d->SetAttr("refer_level", static_cast<int32_t>(refer_level));
  d->SetAttr("refer_scale", static_cast<int32_t>(refer_scale));
  d->SetAttr("pixel_offset", pixel_offset);
  return Status::OK();
}

}  // namespace

void AddDetectionRules(RuleTable* table) {
  (*table)["pd_op.roi_align"] = RoiAlign;
  (*table)["pd_op.matrix_nms"] = MatrixNms;
  (*table)["pd_op.generate_proposals"] = GenerateProposals;
  (*table)["pd_op.distribute_fpn_proposals"] = DistributeFpnProposals;
}

}  // namespace pir
}  // namespace lite
