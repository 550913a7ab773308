"""Every model of ../shared/models through paddlelite against its reference
outputs, with the full predictor (CxxConfig, x86 + host; host on aarch64) and the light one
(the full predictor's saved .nb through MobileConfig). Tolerance: the
reference's own rule |engine - reference| <= max_abs + max_rel * |reference|.

Paddle 3 PIR programs and PaddleSlim-quantized models included: every model
must load and match."""

import json
import pathlib

import numpy as np
import pytest

from paddlelite import lite

SHARED = pathlib.Path(__file__).resolve().parents[3] / "shared" / "models"
MODELS = sorted(p.parent.parent.name for p in SHARED.glob("*/reference/meta.json"))


def load_reference(models, name):
    ref_dir = models / name / "reference"
    meta = json.loads((ref_dir / "meta.json").read_text())
    return ref_dir, meta


def read_tensor(ref_dir, spec):
    return np.fromfile(ref_dir / spec["file"], dtype=spec["dtype"]).reshape(spec["shape"])


def full_config(models, name, meta, places):
    config = lite.CxxConfig()
    model = models / name
    if "model_file" in meta:
        config.set_model_file(str(model / meta["model_file"]))
        config.set_param_file(str(model / meta["params_file"]))
    else:
        config.set_model_dir(str(model / meta.get("model_dir", ".")))
    config.set_valid_places(places)
    return config


def check_against_reference(predictor, ref_dir, meta):
    for spec in meta["inputs"]:
        t = predictor.get_input(spec["name"])
        t.from_numpy(read_tensor(ref_dir, spec))
        if spec.get("lod"):
            t.set_lod(spec["lod"])
    predictor.run()
    tol = meta["tolerance"]
    for spec in meta["outputs"]:
        out = predictor.get_output(spec["fetch_col"])
        got, want = out.numpy(), read_tensor(ref_dir, spec)
        assert got.shape == want.shape, spec["name"]
        err = np.abs(got.astype(np.float64) - want)
        limit = tol["max_abs"] + tol.get("max_rel", 0.0) * np.abs(want)
        worst = np.unravel_index(np.argmax(err - limit), err.shape)
        assert np.all(err <= limit), (spec["name"], worst, got[worst], want[worst])
        if spec.get("lod"):
            assert out.lod() == spec["lod"], spec["name"]


@pytest.mark.parametrize("name", MODELS or ["(no models)"])
def test_model_full_and_light(shared_models, name, tmp_path, cpu_places):
    ref_dir, meta = load_reference(shared_models, name)
    full = lite.create_paddle_predictor(full_config(shared_models, name, meta, cpu_places))
    check_against_reference(full, ref_dir, meta)
    full.save_optimized_model(str(tmp_path / "model"))
    config = lite.MobileConfig()
    config.set_model_from_file(str(tmp_path / "model.nb"))
    check_against_reference(lite.create_paddle_predictor(config), ref_dir, meta)
