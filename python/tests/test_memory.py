"""The memory budget through Python: set_memory_limit_mb on both configs, a
run over it raises LiteError naming the input and the limit and leaves the
predictor usable, get_memory_stats() counts the refusal."""

import numpy as np
import pytest

from paddlelite import lite


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) // 1024
    raise RuntimeError("no VmRSS")


def run(predictor, side):
    x = np.random.default_rng(side).uniform(-1, 1, (1, 3, side, side)).astype(np.float32)
    predictor.get_input(0).from_numpy(x)
    predictor.run()
    return predictor.get_output(0).numpy()


def test_config_keeps_the_limit():
    for config in (lite.CxxConfig(), lite.MobileConfig()):
        assert config.memory_limit_mb() == 0
        config.set_memory_limit_mb(512)
        assert config.memory_limit_mb() == 512


def test_run_over_the_budget_raises_and_the_predictor_stays_usable(default_model_dir):
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    # 96 MB above what the process holds; a 2048 x 2048 input is 48 MB and
    # its first conv's output 128 MB.
    limit = rss_mb() + 96
    config.set_memory_limit_mb(limit)
    predictor = lite.create_paddle_predictor(config)
    small = run(predictor, 64)
    with pytest.raises(lite.LiteError, match=r"input 'x' \[1, 3, 2048, 2048\].*memory limit"):
        run(predictor, 2048)
    stats = predictor.get_memory_stats()
    assert stats["budget_refusals"] == 1
    assert stats["limit_bytes"] == limit * 1024 * 1024
    np.testing.assert_array_equal(run(predictor, 64), small)


def test_negative_limit_fails_creation(default_model_dir):
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    config.set_memory_limit_mb(-1)
    with pytest.raises(lite.LiteError, match="memory_limit_mb = -1"):
        lite.create_paddle_predictor(config)


def test_shape_buckets_pad_and_crop_and_refuse(default_model_dir):
    # The default model's only output is [1, 10] (a global pool): padding
    # changes it and no crop undoes that, so inferred crops refuse a padded
    # run; a size on the bucket runs unpadded.
    for config in (lite.CxxConfig(), lite.MobileConfig()):
        assert config.shape_buckets() == (0, "")
        config.set_shape_buckets(64, "prob=1/2")
        assert config.shape_buckets() == (64, "prob=1/2")
    with pytest.raises(lite.LiteError, match="bucket crop 'prob=0'"):
        lite.CxxConfig().set_shape_buckets(64, "prob=0")
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    config.set_shape_buckets(32)
    predictor = lite.create_paddle_predictor(config)
    with pytest.raises(lite.LiteError, match=r"output 'prob' \[1, 10\] .* is not 4-D"):
        run(predictor, 48)
    assert run(predictor, 64).shape == (1, 10)
    stats = predictor.get_memory_stats()
    assert stats["bucket_multiple"] == 32
    assert stats["bucket_runs"] == 2
    assert stats["bucket_padded_runs"] == 1
