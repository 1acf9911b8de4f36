"""Studies on a Dask cluster: each chunk of a study is one Dask task.

``rikken study run SIM --scheduler tcp://host:8786`` sends the chunks to an existing cluster
(started with ``dask scheduler`` and ``dask worker tcp://host:8786 --nthreads 1`` on each
machine; every worker needs this package installed and the same version);
``--workers N`` starts a ``LocalCluster`` of N single-threaded worker processes on this
machine. Without either the chunks are solved in this process, as before.

A chunk is a task big enough to amortise the overhead (a chunk solves hundreds to thousands
of positions: ``chunk_hands`` hands times ``deals_per_hand`` deals). Its result comes back to
this process, which saves it in the study's Parquet cache the moment it arrives, so an
interrupted run resumes from its finished chunks exactly as an in-process run does. A chunk's
rows depend only on the study's parameters and the chunk's hands (every draw comes from the
seed), so the table is the same however many workers solve it and in whatever order.

Several workers on one machine share its cores: each worker's solver and sampler use its share
(:func:`worker_threads`) instead of one thread per core each.

numba's on-disk cache is not safe for several processes compiling into it at once, so before
any task the workers are warmed one after the other (:func:`warm`): the first to run on a
machine compiles the kernels, the others only load them.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pandas as pd

from analyser.errors import RikkenError
from analyser.studies.config import StudyConfig

# how long a run waits for the scheduler to answer and for its first worker, by default
SCHEDULER_TIMEOUT = 60.0
# the address forms Dask's comms read: [protocol://]host:port (an IPv6 host in brackets)
_PROTOCOLS = ("tcp", "tls", "ucx", "ws", "wss")
_ADDRESS = re.compile(
    r"^(?:(?P<protocol>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$"
)


@dataclass(frozen=True)
class Scheduler:
    """A checked Dask scheduler address and how long to wait for it and its first worker."""

    address: str
    timeout: float = SCHEDULER_TIMEOUT

    def __str__(self) -> str:
        return self.address


def parse_scheduler(text: str, timeout: float = SCHEDULER_TIMEOUT) -> Scheduler:
    """Read a --scheduler ADDRESS (``tcp://host:8786``, ``host:8786``; protocols tcp, tls,
    ucx, ws, wss): a RikkenError naming the forms for anything else, so that a wrong address
    is one line before Dask is asked (which raises a bare ValueError)."""
    address = text.strip()
    match = _ADDRESS.match(address)
    protocol = (match.group("protocol") or "tcp") if match else None
    if match is None or protocol not in _PROTOCOLS or not 0 < int(match.group("port")) < 65536:
        raise RikkenError(
            f"--scheduler {text!r} is not a Dask scheduler address: give "
            "[tcp://]host:port, e.g. tcp://127.0.0.1:8786 (protocols: "
            + ", ".join(_PROTOCOLS)
            + ")"
        )
    if not timeout > 0:
        raise RikkenError(f"the scheduler timeout must be above 0 s, got {timeout}")
    return Scheduler(address if match.group("protocol") else f"tcp://{address}", timeout)


def worker_threads(cores: int, workers_here: int) -> int:
    """Solver threads for each of ``workers_here`` worker processes on a machine of ``cores``
    cores: its share of the cores, at least one (each process left at one thread per core
    would run workers_here times as many threads as cores)."""
    return max(1, cores // max(1, workers_here))


def warm(workers_here: int = 1) -> str:
    """Compile (or load) every numba kernel a study runs, on tiny inputs, and give this
    worker its share of the machine's cores (``workers_here`` workers run on it); returns
    'ok'."""
    import os

    import numba
    import numpy as np

    from analyser.sampler import random_deals, sample_deals
    from analyser.solver import GOAL_GE, Solver, solve_batch
    from analyser.solver.api import set_default_threads

    threads = worker_threads(os.cpu_count() or 1, workers_here)
    set_default_threads(threads)
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))

    known: list[list[int]] = [list(range(13)), [], [], []]
    for parallel in (False, True):
        sample_deals(known, 4, seed=1, parallel=parallel)
    random_deals(2, 1)
    Solver().solve([[0], [13], [26], [39]], 0, 0, [0, 2], "tricks")
    solve_batch(np.array([[1, 2, 4, 8]], dtype=np.int64), 4, 0, 1, GOAL_GE, 1, -1, threads=1)
    return "ok"


def _solve_chunk(cfg: StudyConfig, index: int, hands: pd.DataFrame) -> tuple[int, pd.DataFrame]:
    """One chunk on a worker: (its index, its result rows)."""
    from analyser.studies.registry import study_module

    return index, study_module(cfg.kind).solve_hands(cfg, hands, None)


def solve_on_cluster(
    cfg: StudyConfig,
    chunks: Sequence[tuple[int, pd.DataFrame]],
    scheduler: str | Scheduler | None = None,
    workers: int | None = None,
) -> Iterator[tuple[int, pd.DataFrame]]:
    """Solve ``chunks`` ((index, hands) pairs) on the cluster at ``scheduler`` (an address,
    read by :func:`parse_scheduler`, or a :class:`Scheduler` with its timeout) or on a new
    LocalCluster of ``workers`` processes; yields (index, rows) as each chunk finishes. A
    scheduler that does not answer, or has no worker, within the timeout is a RikkenError
    naming its address (a message on stderr says what the run waits for meanwhile)."""
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover (a dependency; kept for a broken install)
        raise RikkenError("Dask distributed is not installed: pip install distributed") from None
    if (scheduler is None) == (workers is None):
        raise RikkenError("give either --scheduler ADDRESS or --workers N, not both")
    if workers is not None and workers < 1:
        raise RikkenError("--workers must be at least 1")
    if isinstance(scheduler, str):
        scheduler = parse_scheduler(scheduler)
    cluster = None
    if scheduler is None:
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
    try:
        if scheduler is not None:
            # a scheduler far away, or with no worker yet, would otherwise keep the run silent
            print(
                f"connecting to the Dask scheduler at {scheduler.address} "
                f"(waiting up to {scheduler.timeout:g} s for it and a worker)",
                file=sys.stderr,
                flush=True,
            )
        try:
            client = Client(
                cluster if cluster is not None else scheduler.address,
                timeout=f"{scheduler.timeout if scheduler else 20}s",
            )
        except (OSError, ValueError) as exc:
            raise RikkenError(
                f"cannot reach the Dask scheduler at {scheduler}: {_one_line(exc)}"
            ) from None
        with client:
            if scheduler is not None:
                try:
                    client.wait_for_workers(1, timeout=scheduler.timeout)
                except (TimeoutError, OSError):
                    raise RikkenError(
                        f"the Dask scheduler at {scheduler.address} has no worker after "
                        f"{scheduler.timeout:g} s (start one with `dask worker "
                        f"{scheduler.address} --nthreads 1`, or give a longer "
                        "--scheduler-timeout)"
                    ) from None
            info = client.scheduler_info()["workers"]
            hosts = Counter(w.get("host") for w in info.values())
            for address in sorted(info):
                # one after the other (module docstring)
                client.run(warm, hosts[info[address].get("host")], workers=[address])
            futures = [client.submit(_solve_chunk, cfg, i, h, pure=False) for i, h in chunks]
            for fut in as_completed(futures):
                yield fut.result()
    finally:
        if cluster is not None:
            cluster.close()


def _one_line(exc: BaseException) -> str:
    """An exception's message on one line (Dask's connection errors span several)."""
    return " ".join(str(exc).split()) or type(exc).__name__
