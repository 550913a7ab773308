#!/usr/bin/env bash
# Checks a deploy bundle of tools/bundle_aarch64.sh the way a board uses it,
# under qemu-user on this machine: unpacks it into a temporary folder and
# runs its programs with the arm64 sysroot as qemu's -L prefix (the sysroot
# stands in for the board's Debian packages, lib/ of the bundle is on
# LD_LIBRARY_PATH), on the shared MNIST model (../shared/models):
#   - bin/model_info, bin/opt (-> .nb), bin/run_model and bin/accuracy
#     against the model's reference, bin/benchmark;
#   - examples/predict.cc compiled with the cross compiler against include/
#     and lib/libpaddle_lite_plus.so only, and run;
#   - the wheel unpacked and imported by the sysroot's arm64 python3.11
#     (from paddlelite.lite import *), the model run through CxxConfig and
#     compared with the reference;
#   - with --ocr also bin/ocr on examples/test_page.ppm with the PaddleOCR
#     det -> cls -> rec models (about 12 minutes under qemu);
#   - with --pytest also python/tests with that python3.11 and the unpacked
#     wheel (about 10 minutes under qemu). pytest is Debian's python3-pytest
#     of this machine, pure Python and architecture-independent, appended to
#     sys.path after the sysroot's packages (so numpy is the arm64 one); the
#     tools the tests run (make_default_model, opt) are this machine's native
#     build. The four tests of the paddle_lite_opt console script are left
#     out: its interpreter line names the arm64 python3.11, which this
#     machine's kernel cannot execute without binfmt_misc (qemu-user runs the
#     programs it starts itself, not the ones they exec).
#
#   tools/bundle_aarch64_test.sh BUNDLE.tar.gz [--ocr] [--pytest]
#
# QEMU_CPU picks the emulated CPU (default cortex-a72). Without
# ../shared/models it says so and checks only what needs no model.
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=$(realpath "${1:?usage: tools/bundle_aarch64_test.sh BUNDLE.tar.gz [--ocr] [--pytest]}")
shift
ocr=0
pytest=0
for a in "$@"; do
  case "$a" in
    --ocr) ocr=1 ;;
    --pytest) pytest=1 ;;
    *) echo "bundle_aarch64_test: unknown option $a" >&2; exit 2 ;;
  esac
done
sysroot=${PADDLE_LITE_PLUS_AARCH64_SYSROOT:-${PADDLE_LITE_PLUS_AARCH64:-$HOME/.cache/paddle_lite_plus_aarch64}/sysroot}
[ -x "$sysroot/usr/bin/python3.11" ] || { echo "bundle_aarch64_test: no arm64 sysroot at $sysroot (tools/setup_aarch64.sh)" >&2; exit 1; }
models=$(realpath -m ../shared/models)
export QEMU_CPU=${QEMU_CPU:-cortex-a72}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xzf "$bundle"
dir=$(echo "$tmp"/paddle-lite-plus-*-aarch64)
[ -d "$dir" ] || { echo "bundle_aarch64_test: no paddle-lite-plus-*-aarch64/ folder in $bundle" >&2; exit 1; }
for f in bin/opt bin/run_model bin/benchmark bin/accuracy bin/model_info bin/ocr \
         lib/libpaddle_lite_plus.so include/lite/api/paddle_api.h examples/predict.cc \
         examples/test_page.ppm debian-packages.txt README.txt; do
  [ -e "$dir/$f" ] || { echo "bundle_aarch64_test: $f missing from the bundle" >&2; exit 1; }
done
ls "$dir"/python/paddlelite-*-linux_aarch64.whl >/dev/null
arm() { qemu-aarch64-static -L "$sysroot" -E LD_LIBRARY_PATH="$dir/lib" "$@"; }
step() { echo "-- $*"; }

step "debian-packages.txt: $(paste -sd' ' "$dir/debian-packages.txt")"
step "examples/predict.cc against include/ and lib/ only"
aarch64-linux-gnu-g++ -std=c++17 -O2 "$dir/examples/predict.cc" -I "$dir/include" \
  -L "$dir/lib" -lpaddle_lite_plus -Wl,-rpath,'$ORIGIN/../lib' \
  -Wl,-rpath-link,"$sysroot/usr/lib/aarch64-linux-gnu" -Wl,-rpath-link,"$sysroot/lib/aarch64-linux-gnu" \
  -o "$tmp/predict"
mkdir -p "$tmp/py"
/usr/bin/python3 -m zipfile -e "$dir"/python/paddlelite-*.whl "$tmp/py"
step "python3.11 (arm64): from paddlelite.lite import *"
PYTHONPATH="$tmp/py" arm "$sysroot/usr/bin/python3.11" -c 'from paddlelite.lite import *; print(CxxConfig, MobileConfig)'

if [ ! -d "$models" ]; then
  echo "bundle_aarch64_test: $models not found; model runs skipped"
  exit 0
fi
m=$models/mnist_mlp_fluid2018
step "bin/model_info"
arm "$dir/bin/model_info" --model_dir="$m" | head -5
step "bin/opt -> mnist.nb"
arm "$dir/bin/opt" --model_dir="$m" --valid_targets=host --optimize_out="$tmp/mnist" | tail -1
arm "$dir/bin/opt" --model_dir="$m" --valid_targets=npu,host --optimize_out="$tmp/mnist_npu" | tail -1
step "bin/run_model on the reference (checks the outputs)"
arm "$dir/bin/run_model" --optimized_model="$tmp/mnist.nb" --reference="$m/reference" --repeats=2
arm "$dir/bin/run_model" --optimized_model="$tmp/mnist_npu.nb" --reference="$m/reference" --repeats=2 | tail -2
step "bin/accuracy"
arm "$dir/bin/accuracy" --reference="$m/reference" --optimized_model="$tmp/mnist.nb" | tail -2
step "bin/benchmark"
arm "$dir/bin/benchmark" --optimized_model="$tmp/mnist.nb" --reference="$m/reference" --warmup=1 --repeats=3 | tail -2
step "examples/predict mnist.nb"
arm "$tmp/predict" "$tmp/mnist.nb"
step "python3.11 (arm64): the model through CxxConfig against its reference"
PYTHONPATH="$tmp/py" arm "$sysroot/usr/bin/python3.11" - "$m" <<'EOF'
import json, sys
import numpy as np
from paddlelite.lite import *
m = sys.argv[1]
meta = json.load(open(m + "/reference/meta.json"))
config = CxxConfig()
config.set_model_dir(m)
config.set_valid_places([Place(TargetType.Host)])
predictor = create_paddle_predictor(config)
for i, feed in enumerate(meta["inputs"]):
    x = np.fromfile(m + "/reference/" + feed["file"], feed["dtype"]).reshape(feed["shape"])
    predictor.get_input(i).from_numpy(x)
predictor.run()
for i, fetch in enumerate(meta["outputs"]):
    want = np.fromfile(m + "/reference/" + fetch["file"], fetch["dtype"]).reshape(fetch["shape"])
    got = predictor.get_output(i).numpy()
    err = float(np.abs(got - want).max())
    print(f"{fetch['name']}: max abs error {err:.2e}")
    assert err < 1e-4, "output differs from the reference"
EOF

if [ "$ocr" = 1 ]; then
  step "bin/ocr on examples/test_page.ppm"
  arm "$dir/bin/ocr" --image="$dir/examples/test_page.ppm" --valid_targets=host \
    --det_model="$models/ppocr_det_en_PP-OCRv3" --cls_model="$models/ppocr_cls_mobile_v2.0" \
    --rec_model="$models/ppocr_rec_ch_PP-OCRv4_from_onnx" | tee "$tmp/ocr.txt"
  [ -s "$tmp/ocr.txt" ] || { echo "bundle_aarch64_test: bin/ocr found no text" >&2; exit 1; }
fi
if [ "$pytest" = 1 ]; then
  step "pytest python/tests with the arm64 python3.11 and the bundle's wheel"
  bazel build //tools:make_default_model //tools:opt
  native_bin=$(bazel info bazel-bin 2>/dev/null)
  ln -s /usr/lib/python3/dist-packages "$tmp/host-dist-packages"
  LITE_TOOLS_BIN="$native_bin/tools" PYTHONPATH="$tmp/py" arm "$sysroot/usr/bin/python3.11" -c '
import sys
sys.path.append(sys.argv[1])
import pytest
sys.exit(pytest.main(["-rfEs", "-p", "no:cacheprovider", "python/tests",
                      "-k", "not console_script and not paddle_lite_script"]))' "$tmp/host-dist-packages"
fi
echo "bundle_aarch64_test: $(basename "$bundle") passed ($QEMU_CPU)"
