// Three more family stand-ins, built like tools/standin_families.h's (op
// types and attributes as Paddle's exporters write them, LCG weights, fixed
// seeds):
//
//   ernie    PaddleNLP ERNIE/BERT-tiny text classifier: int64 input_ids and
//            token_type_ids [-1,-1]; lookup_table_v2 word (padding_idx 0),
//            position and type embeddings, position ids as PaddleNLP
//            computes them (cumsum of fill_any_like ones, minus the ones);
//            layer_norm; the attention mask from input_ids (equal to a
//            fill_constant pad id, cast, scale -1e4, unsqueeze2 [1, 2]); 2
//            post-norm encoder layers (separate q/k/v matmul_v2, reshape2,
//            transpose2, scale, mask add, softmax, gelu FFN, dropout
//            is_test); the [CLS] slice; fc + tanh pooler; fc head. Output
//            logits [N,3].
//   unet     segmentation: conv + batch_norm + relu blocks, a stride-2 stem,
//            max pool2d down, conv2d_transpose 2x2/2 up, concat skips,
//            bilinear_interp_v2 back to the input's size (read at run time),
//            then arg_max over channels (int64 [N,1,H,W]) and the softmax
//            probabilities [N,3,H,W] as outputs. Input x [-1,3,-1,-1]
//            (multiples of 8).
//   picodet  PP-PicoDet style: hard_swish LCNet-like backbone (depthwise 5x5
//            with SE: adaptive pool, 1x1, relu, 1x1, hard_sigmoid,
//            elementwise_mul), a PAN neck (nearest_interp_v2 x2 top-down,
//            depthwise stride-2 bottom-up), GFL heads (sigmoid scores;
//            distances as softmax over 8 bins times a range op's 0..7),
//            flatten / transpose / reshape2, points minus / plus distances,
//            divided by scale_factor, concat over levels, multiclass_nms3.
//            Inputs image [-1,3,64,64] and scale_factor [-1,2]; outputs the
//            kept boxes [K,6] and their count per image.
#pragma once

#include <string>

#include "lite/utils/status.h"
#include "tools/program_builder.h"

namespace lite {
namespace tools {

// ernie, unet or picodet; NotFound for any other name.
StatusOr<BuiltProgram> MakeFamily2Standin(const std::string& name);

}  // namespace tools
}  // namespace lite
