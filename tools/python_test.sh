#!/usr/bin/env bash
# The Python tests as a user meets the module: builds the wheel
# (tools/build_wheel.sh), installs it offline into a fresh
# `python3 -m venv --system-site-packages` (numpy, pytest, PIL from Debian),
# and runs pytest there over python/tests and examples/python.
# Run by tools/test.sh; pytest's closing line ("N passed, ...") is what
# .ci/run counts. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bazel build //tools:make_default_model //tools:opt
wheel=$(bash tools/build_wheel.sh "$work/dist" | tail -1)
/usr/bin/python3 -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-deps "$wheel"
LITE_TOOLS_BIN="$PWD/bazel-bin/tools" "$work/venv/bin/python" -m pytest -rxs \
  -p no:cacheprovider python/tests examples/python "$@"
