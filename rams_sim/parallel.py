"""The Python layer's parallel loop: a driver's rows in blocks, on threads.

The bulk drivers (:mod:`rams_sim.kernels.drivers`) are plain ``nogil`` kernels over a
range of output rows. This module splits the rows into blocks and runs the blocks on
``numba.get_num_threads()`` threads (``--threads``, ``numba.set_num_threads``); the
kernels release the GIL, so the threads run in parallel. Every row is a pure function
of (seed, deal or party index), so the result does not depend on the block size or the
thread count.

Why threads instead of numba's ``prange``, and why the kernels are still compiled with
``parallel=True``: :mod:`rams_sim.kernels.rows` and docs/ENGINE.md ("Threads, not
``prange``, for the bulk drivers"). A block is thousands of deals, so calling into the
kernel once per block costs nothing measurable (about 5 µs a call).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from typing import TypeVar

import numba

T = TypeVar("T")

BLOCKS_PER_THREAD = 8  # blocks per thread: the last block to finish leaves little idle time


def block_size(rows: int, most: int, threads: int | None = None) -> int:
    """Rows per block: about ``BLOCKS_PER_THREAD`` blocks per thread, at most ``most`` rows, at least 1."""
    threads = numba.get_num_threads() if threads is None else threads
    return max(1, min(most, -(-rows // (threads * BLOCKS_PER_THREAD))))


def in_blocks(call: Callable[[int, int], T], rows: int, most: int) -> list[T]:
    """``call(lo, hi)`` for consecutive blocks of ``range(rows)`` on the kernel threads; its results, block by block.

    ``most``: the largest block (rows). With one thread, or one block, the calls run in
    this thread. An exception in a block cancels the blocks not yet started and is raised
    here once the running ones have finished (the kernels cannot be interrupted midway).
    """
    threads = numba.get_num_threads()
    size = block_size(rows, most, threads)
    bounds = [(lo, min(rows, lo + size)) for lo in range(0, rows, size)]
    if threads == 1 or len(bounds) <= 1:
        return [call(lo, hi) for lo, hi in bounds]
    pool = ThreadPoolExecutor(max_workers=min(threads, len(bounds)), thread_name_prefix="rams-sim-kernel")
    futures = [pool.submit(call, lo, hi) for lo, hi in bounds]
    try:
        return [f.result() for f in futures]
    except BaseException:
        for f in futures:
            f.cancel()
        wait(futures)
        raise
    finally:
        pool.shutdown(wait=True)
