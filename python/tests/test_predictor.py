"""paddlelite.lite's predictor surface on the generated default model: full
vs light predictor, tensors as numpy, names and infos, clone, LoD, the NPU
placement report, the profiler, docstrings."""

import gc
import pydoc

import numpy as np
import pytest

from paddlelite import lite


def make_input(batch=2, seed=0):
    return np.random.default_rng(seed).uniform(-1, 1, (batch, 3, 32, 32)).astype(np.float32)


@pytest.fixture
def cxx_predictor(default_model_dir, cpu_places):
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    config.set_valid_places(cpu_places)
    return lite.create_paddle_predictor(config)


def run(predictor, x):
    predictor.get_input(0).from_numpy(x)
    predictor.run()
    return predictor.get_output(0).numpy()


def test_full_and_light_predictors_agree(cxx_predictor, tmp_path):
    x = make_input()
    full = run(cxx_predictor, x)
    assert full.shape == (2, 10) and full.dtype == np.float32
    np.testing.assert_allclose(full.sum(axis=1), 1.0, rtol=1e-5)  # softmax rows

    cxx_predictor.save_optimized_model(str(tmp_path / "m"))
    config = lite.MobileConfig()
    config.set_model_from_file(str(tmp_path / "m.nb"))
    light = lite.create_paddle_predictor(config)
    assert light.get_pass_log() == ""
    assert np.array_equal(run(light, x), full)

    buffered = lite.MobileConfig()
    buffered.set_model_from_buffer((tmp_path / "m.nb").read_bytes())
    assert np.array_equal(run(lite.create_paddle_predictor(buffered), x), full)


def test_names_infos_and_lookup_by_name(cxx_predictor):
    assert cxx_predictor.get_input_names() == ["x"]
    assert cxx_predictor.get_output_names() == ["prob"]
    (info,) = cxx_predictor.get_input_infos()
    assert (info.name, info.shape, info.dtype) == ("x", [-1, 3, 32, 32], np.dtype(np.float32))
    assert cxx_predictor.get_output_infos()[0].name == "prob"

    x = make_input(batch=1)
    cxx_predictor.get_input("x").from_numpy(x)
    cxx_predictor.run()
    by_name = cxx_predictor.get_output("prob").numpy()
    assert np.array_equal(by_name, cxx_predictor.get_output(0).numpy())
    assert cxx_predictor.get_input(0).shape() == [1, 3, 32, 32]


def test_numpy_returns_a_copy_that_outlives_the_predictor(default_model_dir):
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    predictor = lite.create_paddle_predictor(config)
    first = run(predictor, make_input(seed=1))
    kept = first.copy()
    first[:] = 7  # writing the copy does not touch the predictor's output
    assert np.array_equal(predictor.get_output(0).numpy(), kept)
    second = run(predictor, make_input(seed=2))
    assert not np.array_equal(second, kept)  # a later run does not change `first`
    assert np.all(first == 7)
    out = predictor.get_output(0)
    del predictor
    gc.collect()
    assert np.array_equal(out.numpy(), second)  # the tensor keeps its predictor alive


def test_clone_shares_the_model(cxx_predictor):
    x = make_input(seed=3)
    want = run(cxx_predictor, x)
    clone = cxx_predictor.clone()
    assert np.array_equal(run(clone, x), want)


def test_list_accessors_and_lod(cxx_predictor):
    x = make_input(batch=1, seed=4)
    t = cxx_predictor.get_input(0)
    t.resize([1, 3, 32, 32])
    t.set_float_data(x.ravel().tolist())
    assert t.float_data() == x.ravel().tolist()
    cxx_predictor.run()
    want = run(cxx_predictor, x)
    assert np.allclose(cxx_predictor.get_output(0).float_data(), want.ravel(), rtol=0, atol=0)
    t.set_lod([[0, 1]])
    assert t.lod() == [[0, 1]]


def test_threads_and_profiler(default_model_dir):
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    config.set_threads(2)
    config.set_profiling(True)
    assert config.threads() == 2 and config.profiling()
    assert config.adaptive_threads()
    config.set_adaptive_threads(False)
    assert not config.adaptive_threads()
    predictor = lite.create_paddle_predictor(config)
    assert predictor.get_profile_summary() == ""
    run(predictor, make_input())
    assert "conv2d" in predictor.get_profile_summary()
    assert "conv2d" in predictor.get_profile_detail()
    predictor.reset_profile()
    assert predictor.get_profile_summary() == ""


def test_npu_options_and_placement_report(default_model_dir):
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    config.set_valid_places([lite.Place(lite.TargetType.NPU), lite.Place(lite.TargetType.Host)])
    config.set_npu_driver("reference")
    config.set_npu_cross_check(True)
    assert config.npu_options().driver == "reference"
    predictor = lite.create_paddle_predictor(config)
    run(predictor, make_input())
    report = predictor.get_placement_report()
    assert report.subgraphs, str(report)
    sub = report.subgraphs[0]
    assert sub.driver == "reference" and sub.state == "device" and sub.ops
    assert sub.cross_checked_runs == 1 and sub.max_abs_diff < 1e-4
    assert "npu/reference" in report.summary()
    assert any(op.on_device for op in report.ops)

    options = lite.NpuOptions()
    options.driver = "reference"
    options.min_subgraph_size = 1000  # no cluster is that large: all on host
    config.set_npu_options(options)
    config.set_npu_cross_check(False)
    host_only = lite.create_paddle_predictor(config)
    run(host_only, make_input())
    assert not host_only.get_placement_report().subgraphs


def test_enums_places_and_version():
    p = lite.Place(lite.TargetType.X86, lite.PrecisionType.FP32, lite.DataLayoutType.NCHW)
    assert p == lite.Place(target=lite.TargetType.X86)
    assert "x86" in repr(p)
    assert lite.get_version() == lite.__version__ != ""


def test_arm_target_runs_and_matches_host(default_model_dir):
    # TargetType.ARM: the XNNPACK kernels (x86 ones on this machine) run the
    # model and agree with the host target.
    x = make_input()
    outs = {}
    for target in (lite.TargetType.ARM, lite.TargetType.Host):
        config = lite.CxxConfig()
        config.set_model_dir(str(default_model_dir))
        config.set_valid_places([lite.Place(target), lite.Place(lite.TargetType.Host)])
        outs[target] = run(lite.create_paddle_predictor(config), x)
    assert "arm" in repr(lite.Place(lite.TargetType.ARM))
    np.testing.assert_allclose(outs[lite.TargetType.ARM], outs[lite.TargetType.Host], atol=1e-5)


def test_arm_fp16(default_model_dir):
    # enable_fp16: the convs on arm run XNNPACK's f16 operators (x86-64's
    # F16C, arm64's fp16 arithmetic); without arm it is refused, and on a CPU
    # without half arithmetic (an arm64 core with NEON only) it is refused
    # with that reason.
    x = make_input()
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    config.set_valid_places([lite.Place(lite.TargetType.ARM), lite.Place(lite.TargetType.Host)])
    fp32 = run(lite.create_paddle_predictor(config), x)
    config.enable_fp16()
    config.set_profiling(True)
    assert config.fp16_enabled()
    try:
        predictor = lite.create_paddle_predictor(config)
    except Exception as e:
        assert "lacks the half-precision arithmetic" in str(e), str(e)
        pytest.skip("this CPU has no half arithmetic: enable_fp16 refused with that reason")
    fp16 = run(predictor, x)
    assert "convolution2d_nhwc_f16" in predictor.get_profile_summary()
    np.testing.assert_allclose(fp16, fp32, atol=5e-3)
    config.set_valid_places([lite.Place(lite.TargetType.Host)])
    with pytest.raises(Exception, match="enable_fp16 needs the arm target"):
        lite.create_paddle_predictor(config)


def test_help_documents_the_api():
    text = pydoc.render_doc(lite.CxxConfig)
    assert "set_model_dir(self: paddlelite.lite.CxxConfig, model_dir: str)" in text
    assert "full predictor" in text
    assert "set_npu_driver" in text and "set_threads" in text
    assert "GIL" in pydoc.render_doc(lite.PaddlePredictor)
    assert "copy" in (lite.Tensor.numpy.__doc__ or "")
