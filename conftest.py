"""pytest fixtures shared by the Python tests (python/tests,
examples/python), run by tools/python_test.sh against the installed wheel.

Real-model tests take `shared_models` and skip with the project's standard
message when ../shared/models is absent; the rest need only the tools built
by Bazel (bazel-bin/tools, or $LITE_TOOLS_BIN).
"""

import os
import pathlib
import platform
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent
SHARED_MODELS = REPO.parent / "shared" / "models"
SKIP_REAL = "../shared/models not found; skipping real-model test"


@pytest.fixture(scope="session")
def shared_models():
    if not SHARED_MODELS.is_dir():
        pytest.skip(SKIP_REAL)
    return SHARED_MODELS


@pytest.fixture(scope="session")
def tools_bin():
    path = pathlib.Path(os.environ.get("LITE_TOOLS_BIN", REPO / "bazel-bin" / "tools"))
    assert (path / "make_default_model").exists(), (
        f"{path}/make_default_model missing: bazel build //tools:make_default_model //tools:opt")
    return path


# The CPU targets of the tests' full predictors: x86,host where the wheel has
# the x86 target (x86-64), host on the aarch64 wheel, which refuses x86
# (lite/api/build_targets.h).
CPU_TARGETS = "x86,host" if platform.machine() == "x86_64" else "host"


@pytest.fixture(scope="session")
def cpu_targets():
    return CPU_TARGETS


@pytest.fixture(scope="session")
def cpu_places(cpu_targets):
    from paddlelite import lite
    names = {"x86": lite.TargetType.X86, "host": lite.TargetType.Host}
    return [lite.Place(names[t]) for t in cpu_targets.split(",")]


@pytest.fixture(scope="session")
def default_model_dir(tools_bin, tmp_path_factory):
    """The quickstart's generated CNN: x [-1,3,32,32] float32 -> prob [-1,10]."""
    out = tmp_path_factory.mktemp("default_model")
    subprocess.run([str(tools_bin / "make_default_model"), f"--out={out}"], check=True,
                   capture_output=True)
    return out
