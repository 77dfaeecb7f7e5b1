"""The Python layer's parallel loop (rams_sim/parallel.py): every row once, in blocks, on threads."""

from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

from rams_sim import engine
from rams_sim.kernels import drivers
from rams_sim.kernels.args import rules_args
from rams_sim.parallel import BLOCKS_PER_THREAD, block_size, in_blocks
from rams_sim.policies import pack_policies, seat_policies
from rams_sim.rules import Rules


@pytest.fixture(params=[1, 2])
def threads(request):
    before = numba.get_num_threads()
    numba.set_num_threads(min(request.param, numba.config.NUMBA_NUM_THREADS))
    yield numba.get_num_threads()
    numba.set_num_threads(before)


@pytest.mark.parametrize("rows, most", [(0, 10), (1, 10), (7, 1), (100, 3), (1000, 8192), (20_001, 256)])
def test_every_row_is_covered_once_in_order(threads, rows, most):
    seen = np.zeros(rows, np.int64)
    lock = threading.Lock()

    def call(lo, hi):
        assert 0 <= lo < hi <= rows and hi - lo <= most
        with lock:
            seen[lo:hi] += 1
        return (lo, hi)

    bounds = in_blocks(call, rows, most)
    assert (seen == 1).all()
    assert [lo for lo, _ in bounds] == sorted(lo for lo, _ in bounds)  # results come back block by block
    assert sum(hi - lo for lo, hi in bounds) == rows


def test_block_size_aims_at_several_blocks_per_thread():
    assert block_size(10_000_000, 8192, threads=2) == 8192
    assert block_size(1600, 8192, threads=2) == 1600 // (2 * BLOCKS_PER_THREAD)
    assert block_size(3, 8192, threads=2) == 1


def test_an_error_in_a_block_reaches_the_caller(threads):
    def call(lo, hi):
        if lo <= 50 < hi:
            raise ValueError("block of row 50")
        return hi - lo

    with pytest.raises(ValueError, match="row 50"):
        in_blocks(call, 100, 10)


def test_the_kernel_threads_run_the_blocks_in_parallel():
    """With two threads the blocks run on two threads at once (the kernels release the GIL)."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("one core")
    before = numba.get_num_threads()
    numba.set_num_threads(2)
    names, both = set(), threading.Barrier(2, timeout=30)

    def call(lo, hi):
        names.add(threading.current_thread().name)
        both.wait()  # returns only once two blocks are running at the same time
        return 0

    try:
        in_blocks(call, 2, 1)
    finally:
        numba.set_num_threads(before)
    assert len(names) == 2


def test_a_run_in_blocks_equals_one_block():
    """The engine's blocks change no row: 2,000 deals in blocks of 64 equal one block of 2,000."""
    rules = Rules.classic(players=5)
    whole = engine.simulate(rules, "basic", seed=3, deals=2000)
    small = engine.new_deal_out(2000, 5)
    kinds, params, announce = pack_policies(seat_policies("basic", 5))
    scores = np.full(5, rules.start, np.int64)
    args = (rules_args(rules), kinds, params, announce, np.uint64(3), 0, -1, scores, engine.NO_ORDER, engine.NO_KEYS,
            *small.arrays, None)
    in_blocks(lambda lo, hi: drivers.play_deals(*args, lo, hi), 2000, 64)
    for a, b in zip(whole.arrays, small.arrays):
        np.testing.assert_array_equal(a, b)
