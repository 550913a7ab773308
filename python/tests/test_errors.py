"""Engine failures raise paddlelite.lite.LiteError (a RuntimeError) with the
engine's message; bad arrays are errors, never silent conversions; nothing
aborts the interpreter."""

import numpy as np
import pytest

from paddlelite import lite


@pytest.fixture
def predictor(default_model_dir):
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    return lite.create_paddle_predictor(config)


def test_lite_error_is_a_runtime_error():
    assert issubclass(lite.LiteError, RuntimeError)


def test_x86_place_only_where_the_build_has_it(default_model_dir, cpu_targets):
    # The aarch64 wheel has no x86 target: CxxConfig and Opt refuse the place
    # with the engine's message instead of running everything on host.
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    config.set_valid_places([lite.Place(lite.TargetType.X86), lite.Place(lite.TargetType.Host)])
    opt = lite.Opt()
    opt.set_valid_places("x86")
    if "x86" in cpu_targets:
        lite.create_paddle_predictor(config)
        opt.print_supported_ops()
        return
    refused = (r"valid place x86 is not available in this build \(aarch64: built without the "
               r"x86 target\); use arm,host or host")
    with pytest.raises(lite.LiteError, match=refused):
        lite.create_paddle_predictor(config)
    with pytest.raises(lite.LiteError, match=refused):
        opt.print_supported_ops()


def test_missing_model_names_the_path(tmp_path):
    config = lite.CxxConfig()
    config.set_model_dir(str(tmp_path / "nowhere"))
    with pytest.raises(lite.LiteError, match="nowhere"):
        lite.create_paddle_predictor(config)
    mobile = lite.MobileConfig()
    mobile.set_model_from_file(str(tmp_path / "missing.nb"))
    with pytest.raises(RuntimeError, match="missing.nb"):
        lite.create_paddle_predictor(mobile)


def test_corrupt_nb_is_an_error(tmp_path):
    bad = tmp_path / "bad.nb"
    bad.write_bytes(b"LITENB" + b"\x00" * 10)
    mobile = lite.MobileConfig()
    mobile.set_model_from_file(str(bad))
    with pytest.raises(lite.LiteError):
        lite.create_paddle_predictor(mobile)


def test_run_without_input_names_the_input(predictor):
    with pytest.raises(lite.LiteError, match="'x'|x"):
        predictor.run()


def test_from_numpy_rejects_wrong_dtype_and_shape(predictor):
    t = predictor.get_input(0)
    with pytest.raises(lite.LiteError, match="float64.*float32"):
        t.from_numpy(np.zeros((1, 3, 32, 32), dtype=np.float64))
    with pytest.raises(lite.LiteError, match="int64"):
        t.from_numpy(np.zeros((1, 3, 32, 32), dtype=np.int64))
    with pytest.raises(lite.LiteError, match=r"shape \[1, 4, 32, 32\]"):
        t.from_numpy(np.zeros((1, 4, 32, 32), dtype=np.float32))  # channels are fixed
    t.from_numpy(np.zeros((1, 3, 31, 32), dtype=np.float32))  # NCHW spatial dims are not
    with pytest.raises(lite.LiteError, match="shape"):
        t.from_numpy(np.zeros((3, 32, 32), dtype=np.float32))
    with pytest.raises(lite.LiteError, match="output"):
        predictor.get_output(0).from_numpy(np.zeros((1, 10), dtype=np.float32))


def test_non_contiguous_arrays_are_copied_correctly(predictor):
    base = np.random.default_rng(0).uniform(-1, 1, (1, 3, 32, 64)).astype(np.float32)
    strided = base[:, :, :, ::2]
    assert not strided.flags.c_contiguous
    predictor.get_input(0).from_numpy(strided)
    predictor.run()
    got = predictor.get_output(0).numpy()
    predictor.get_input(0).from_numpy(np.ascontiguousarray(strided))
    predictor.run()
    assert np.array_equal(got, predictor.get_output(0).numpy())


def test_bad_indices_and_names(predictor):
    with pytest.raises(IndexError, match="input index 3 out of range.*x"):
        predictor.get_input(3)
    with pytest.raises(IndexError):
        predictor.get_output(-1)
    with pytest.raises(lite.LiteError, match="nope"):
        predictor.get_input("nope")
    with pytest.raises(lite.LiteError, match="nope"):
        predictor.get_output("nope")


def test_output_before_run_is_an_error(predictor):
    with pytest.raises(lite.LiteError, match="prob"):
        predictor.get_output(0).numpy()


def test_save_with_unknown_type_is_an_error(predictor, tmp_path):
    with pytest.raises(lite.LiteError, match="naive_buffer or protobuf"):
        predictor.save_optimized_model(str(tmp_path / "m"), model_type="onnx")
    assert not list(tmp_path.iterdir())
