#!/usr/bin/env bash
# Quickstart: install the build dependencies, build the tools, generate the
# default model (a small deterministic CNN, no download), optimize it into
# out/default_model.nb with a picture of every pass that changed the graph,
# and run it with the light predictor.
#
#   bash tools/quickstart.sh
#
# Outputs (all under out/, which git ignores):
#   out/default_model/__model__ + __params__   the Paddle model
#   out/default_model.nb                       the optimized model
#   out/visualize/NN_<pass>.dot (.svg)         the graph after each pass
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/setup.sh
bazel build -c opt //tools:opt //tools:run_model //tools:make_default_model

echo "== generating the default model"
bazel-bin/tools/make_default_model --out=out/default_model

echo "== optimizing it (tools/opt)"
bazel-bin/tools/opt --model_dir=out/default_model --optimize_out=out/default_model \
  --optimize_out_type=naive_buffer --valid_targets=host --visualize_dir=out/visualize

echo "== running it with the light predictor (tools/run_model)"
bazel-bin/tools/run_model --optimized_model=out/default_model.nb --warmup=5 --repeats=50
