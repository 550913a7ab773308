#!/usr/bin/env bash
# ocr_page_ab.sh: the whole OCR page (det + cls + rec of every line), timed
# per model, our tools/ocr against ONNX Runtime running the same three ONNX
# models on the same inputs in the same order (tools/ocr_page_ort.js),
# interleaved: odd rounds ORT first, even rounds ours first.
#
#   tools/ocr_page_ab.sh PAGE.ppm ROUNDS REPEATS [tools/ocr flags...]
#
# Run from the repository root after `bazel build //tools:ocr`; the models
# are ../shared/models' PP-OCR det (en PP-OCRv3, 640 x 640 ONNX input: give
# a square page and --det_limit_side=640), cls and rec; NODE_PATH as in
# ../shared/bench/README.md. Prints "round side det cls rec total" per
# measurement (medians of REPEATS page reads, ms) and the median of the
# round medians per side and model with our/ORT ratios.
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
page=$1 rounds=$2 repeats=$3
shift 3
M=${MODELS:-../shared/models}
det=$M/ppocr_det_en_PP-OCRv3 cls=$M/ppocr_cls_mobile_v2.0 rec=$M/ppocr_rec_ch_PP-OCRv4_from_onnx
inputs=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$inputs" "$log"' EXIT

ours() {
  bazel-bin/tools/ocr --image="$page" --det_model="$det" --cls_model="$cls" --rec_model="$rec" \
    --threads=1 --repeats="$repeats" "$@" | tail -n 1
}
ours --save_inputs="$inputs" "$@" > /dev/null
ort() {
  node tools/ocr_page_ort.js "$inputs" --det "$det/reference/model.onnx" \
    --cls "$cls/reference/model.onnx" --rec "$rec/reference/model.onnx" --threads 1 \
    --repeats "$repeats"
}

for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then order="ort ours"; else order="ours ort"; fi
  for side in $order; do
    if [ "$side" = ort ]; then json=$(ort); else json=$(ours "$@"); fi
    echo "$r $side $json" | tee -a "$log"
  done
done

node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
const by = { ort: [], ours: [] };
for (const l of lines) { const [, side, ...json] = l.split(" "); by[side].push(JSON.parse(json.join(" "))); }
const med = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length;
  return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2; };
const out = {};
for (const k of ["det_ms", "cls_ms", "rec_ms", "median_ms"]) {
  const o = med(by.ours.map((j) => j[k])), t = med(by.ort.map((j) => j[k]));
  out[k] = { ours: +o.toFixed(3), ort: +t.toFixed(3), ours_over_ort: +(o / t).toFixed(3) };
}
out.rounds = by.ours.length;
out.rec_runs = by.ours[0].rec_runs;
console.log(JSON.stringify(out));
' "$log"
