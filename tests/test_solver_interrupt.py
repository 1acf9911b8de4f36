"""Ctrl-C during a batch solve is a KeyboardInterrupt, never a crash.

numba builds a solve call's result with Python code (it unpickles the result's types), and
Python runs its Ctrl-C handler in the main thread: a Ctrl-C that arrived while the main
thread searched ended the process with a segmentation fault (`rikken analyse` too). The
main thread now only waits while worker threads solve (analyser/solver/api.py)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

SCRIPT = """
import sys
import numpy as np
from analyser.solver import GOAL_TRICKS, solve_batch
rng = np.random.default_rng(5)
n = 300
masks = np.zeros((n, 4), np.int64)
for i in range(n):
    order = rng.permutation(52)
    for s in range(4):
        for c in order[13 * s : 13 * s + 13]:
            masks[i, s] |= 1 << (16 * (c // 13) + c % 13)
solve_batch(masks[:1], 4, 0, 5, GOAL_TRICKS, threads=1)  # compiled or loaded before the clock
print("start", flush=True)
try:
    solve_batch(masks, 4, 0, 5, GOAL_TRICKS, threads=int(sys.argv[1]))
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_during_a_batch_is_a_keyboard_interrupt(threads):
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(threads)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "start"
    time.sleep(1.0)  # inside the batch: 300 exact counts take far longer
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err  # a crash was -11 (SIGSEGV)
    assert out.strip() == "interrupted", (out, err)
