"""run() releases the GIL: two clones run on two Python threads at the same
time, and each gets its own right answer.

The test raises Python's thread switch interval to 10 s, so a thread keeps
the GIL until it releases it itself. If run() held the GIL, one thread's
[before run, after run] interval could never overlap the other's; released,
the two threads' runs overlap."""

import sys
import threading
import time

import numpy as np

from paddlelite import lite

RUNS = 6


def test_two_clones_run_in_parallel(default_model_dir):
    config = lite.CxxConfig()
    config.set_model_dir(str(default_model_dir))
    first = lite.create_paddle_predictor(config)
    second = first.clone()
    rng = np.random.default_rng(0)
    inputs = [rng.uniform(-1, 1, (64, 3, 32, 32)).astype(np.float32) for _ in range(2)]
    want = []
    for x in inputs:
        first.get_input(0).from_numpy(x)
        first.run()
        want.append(first.get_output(0).numpy())

    intervals = [[], []]
    results = [None, None]
    errors = []

    def work(index, predictor):
        try:
            predictor.get_input(0).from_numpy(inputs[index])
            for _ in range(RUNS):
                start = time.perf_counter()
                predictor.run()
                intervals[index].append((start, time.perf_counter()))
            results[index] = predictor.get_output(0).numpy()
        except Exception as e:  # reported below
            errors.append(e)

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    try:
        threads = [threading.Thread(target=work, args=(i, p))
                   for i, p in enumerate((first, second))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old_interval)

    assert not errors, errors
    for got, expected in zip(results, want):
        assert np.array_equal(got, expected)
    overlaps = sum(1 for a0, a1 in intervals[0] for b0, b1 in intervals[1]
                   if a0 < b1 and b0 < a1)
    assert overlaps > 0, intervals
