"""Opt (Paddle-Lite's optimizer class) round trip, its errors, and the
paddle_lite_opt console script: opt's flags, output and exit codes."""

import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

from paddlelite import lite


def script():
    path = pathlib.Path(sys.executable).parent / "paddle_lite_opt"
    assert path.exists(), f"{path}: the wheel's console script is not installed"
    return str(path)


def run_light(nb, x):
    config = lite.MobileConfig()
    config.set_model_from_file(str(nb))
    predictor = lite.create_paddle_predictor(config)
    predictor.get_input(0).from_numpy(x)
    predictor.run()
    return predictor.get_output(0).numpy()


def run_full(model_dir, x, places):
    config = lite.CxxConfig()
    config.set_model_dir(str(model_dir))
    config.set_valid_places(places)
    predictor = lite.create_paddle_predictor(config)
    predictor.get_input(0).from_numpy(x)
    predictor.run()
    return predictor.get_output(0).numpy()


X = np.random.default_rng(5).uniform(-1, 1, (2, 3, 32, 32)).astype(np.float32)


def test_opt_round_trip(default_model_dir, tmp_path, cpu_targets, cpu_places):
    opt = lite.Opt()
    opt.set_model_dir(str(default_model_dir))
    opt.set_valid_places(cpu_targets)
    opt.set_model_type("naive_buffer")
    opt.set_optimize_out(str(tmp_path / "opt_model"))
    opt.run()
    nb = tmp_path / "opt_model.nb"
    assert nb.read_bytes()[:6] == b"LITENB"
    assert np.array_equal(run_light(nb, X), run_full(default_model_dir, X, cpu_places))

    proto = tmp_path / "proto"
    opt.run_optimize(str(default_model_dir), "", "", "protobuf", "host", str(proto))
    assert (proto / "__model__").exists() and (proto / "__params__").exists()
    np.testing.assert_allclose(run_full(proto, X, cpu_places),
                               run_full(default_model_dir, X, cpu_places), atol=1e-6)


def test_opt_errors(default_model_dir, tmp_path):
    opt = lite.Opt()
    with pytest.raises(lite.LiteError, match="no model"):
        opt.run()
    opt.set_model_dir(str(default_model_dir))
    with pytest.raises(lite.LiteError, match="set_optimize_out"):
        opt.run()
    with pytest.raises(lite.LiteError, match="naive_buffer or protobuf"):
        opt.set_model_type("onnx")
    opt.set_optimize_out(str(tmp_path / "m"))
    opt.set_valid_places("gpu")
    with pytest.raises(lite.LiteError, match="gpu"):
        opt.run()
    assert not list(tmp_path.iterdir())


def test_opt_print_supported_ops(capsys, cpu_targets):
    # x86,host; host on the aarch64 build, which has no x86 target (docs/aarch64.md).
    opt = lite.Opt()
    opt.set_valid_places(cpu_targets)
    opt.print_supported_ops()
    out = capsys.readouterr().out
    assert out.startswith(f"ops supported by {cpu_targets}:")
    kernel_target = cpu_targets.split(",")[0]
    assert re.search(rf"^conv2d +\S*{kernel_target}", out, re.M)


def flag_names(help_text):
    return sorted(set(re.findall(r"^\s+-(\w+) \(", help_text, re.M)))


def test_console_script_has_opts_flags(tools_bin):
    ours = subprocess.run([script(), "--help"], capture_output=True, text=True)
    theirs = subprocess.run([str(tools_bin / "opt"), "--help"], capture_output=True, text=True)
    names = flag_names(ours.stdout)
    assert "optimize_out" in names and "valid_targets" in names and "print_model_ops" in names
    assert names == flag_names(theirs.stdout)


def test_console_script_optimizes(default_model_dir, tmp_path, cpu_targets, cpu_places):
    out = tmp_path / "cli_model"
    done = subprocess.run([script(), f"--model_dir={default_model_dir}", f"--optimize_out={out}",
                           f"--valid_targets={cpu_targets}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "summary: ops 14 -> " in done.stdout
    assert f"wrote {out}.nb" in done.stdout
    assert np.array_equal(run_light(f"{out}.nb", X), run_full(default_model_dir, X, cpu_places))


def test_console_script_errors_are_one_line(tmp_path):
    done = subprocess.run([script(), f"--model_dir={tmp_path}/missing",
                           f"--optimize_out={tmp_path}/x"], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("opt: error: ")
    assert f"{tmp_path}/missing" in done.stderr
    done = subprocess.run([script(), "stray"], capture_output=True, text=True)
    assert done.returncode == 1 and "unexpected argument 'stray'" in done.stderr


PADDLE_LITE_SCRIPT = """
from paddlelite.lite import *
import numpy as np
import sys

config = MobileConfig()
config.set_model_from_file(sys.argv[1])
predictor = create_paddle_predictor(config)
input_tensor = predictor.get_input(0)
input_tensor.from_numpy(np.ones((1, 3, 32, 32)).astype('float32'))
predictor.run()
output_tensor = predictor.get_output(0)
print(output_tensor.numpy().argmax(), output_tensor.shape())
"""


def test_a_paddle_lite_script_runs_unchanged(default_model_dir, tmp_path):
    subprocess.run([script(), f"--model_dir={default_model_dir}",
                    f"--optimize_out={tmp_path}/m"], check=True, capture_output=True)
    (tmp_path / "user.py").write_text(PADDLE_LITE_SCRIPT)
    done = subprocess.run([sys.executable, str(tmp_path / "user.py"), f"{tmp_path}/m.nb"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    want = run_light(f"{tmp_path}/m.nb", np.ones((1, 3, 32, 32), np.float32))
    assert done.stdout.split() == [str(want.argmax()), "[1,", "10]"]
