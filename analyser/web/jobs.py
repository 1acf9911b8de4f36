"""The web app's job queue: analyses run on a bounded set of threads, each with its progress,
its stop (the page's cancel button, or the time limit) and its answer.

At most ``workers`` analyses run at once and at most ``waiting`` more wait for a thread; a
job beyond that is refused (:class:`QueueFull`), so that many open tabs cannot oversubscribe
the machine. A stop ends a running analysis at its next step as a Ctrl-C ends the command:
the figures of the steps finished are kept (:mod:`analyser.progress`, :mod:`analyser.api`).
Threads suffice: the solver runs outside Python's lock (numba ``nogil``), so the server
stays responsive while the jobs solve.
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from analyser.errors import RikkenError

# the states of a job; the last three are final
QUEUED, RUNNING, DONE, STOPPED, FAILED = "queued", "running", "done", "stopped", "failed"
FINAL = (DONE, STOPPED, FAILED)
# finished jobs kept for their pages (the oldest are forgotten first)
KEEP_FINISHED = 200


class QueueFull(RikkenError):
    """Every thread is busy and the waiting line is full: try again later."""


@dataclass
class Job:
    """One analysis: ``run(on_progress, stop)`` gives the API's Result. ``version`` grows
    with every change, so that a listener sees when to look again."""

    id: str
    run: Callable[..., Any]
    command_line: str
    status: str = QUEUED
    progress: dict = field(default_factory=dict)
    result: Any = None
    error: str = ""
    missing: str = ""
    timed_out: bool = False
    version: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    started: float | None = None
    changed: threading.Condition = field(default_factory=threading.Condition)

    def update(self, **fields: Any) -> None:
        """Set ``fields`` and wake whoever waits for a change."""
        with self.changed:
            for k, v in fields.items():
                setattr(self, k, v)
            self.version += 1
            self.changed.notify_all()

    def snapshot(self) -> dict:
        """The job's state as JSON (the answer included once there is one)."""
        out = {
            "id": self.id,
            "status": self.status,
            "progress": self.progress,
            "command_line": self.command_line,
            "version": self.version,
        }
        if self.status in FINAL:
            out.update(error=self.error, missing=self.missing, timed_out=self.timed_out)
            out["result"] = self.result
        return out


class JobQueue:
    """Runs jobs on ``workers`` threads, ``waiting`` more queued; ``time_limit`` seconds
    (None: none) after it starts a job is stopped as with the cancel button."""

    def __init__(self, workers: int, waiting: int, time_limit: float | None = None) -> None:
        if workers < 1 or waiting < 0:
            raise ValueError("a job queue needs at least one worker and no negative line")
        self.workers = workers
        self.waiting = waiting
        self.time_limit = time_limit
        self.jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rikken-job")
        self._order = itertools.count()

    def active(self) -> int:
        """Jobs running or waiting."""
        return sum(1 for j in self.jobs.values() if j.status not in FINAL)

    def submit(self, run: Callable[..., Any], command_line: str) -> Job:
        """Queue ``run``; QueueFull when every thread and waiting place is taken."""
        with self._lock:
            busy = self.active()
            if busy >= self.workers + self.waiting:
                raise QueueFull(
                    f"the server is busy: {busy} analyses running or waiting (at most "
                    f"{self.workers} at once and {self.waiting} waiting); try again when one "
                    "finishes"
                )
            job = Job(f"{next(self._order)}-{secrets.token_hex(6)}", run, command_line)
            self.jobs[job.id] = job
            self._forget_old()
        self._pool.submit(self._work, job)
        return job

    def get(self, job_id: str) -> Job | None:
        """The job of ``job_id`` (None: unknown or forgotten)."""
        return self.jobs.get(job_id)

    def cancel(self, job: Job) -> None:
        """Stop ``job``: a waiting job never starts, a running one stops at its next step
        and keeps the figures of the steps finished."""
        job.stop.set()
        with self._lock:
            if job.status == QUEUED:
                job.update(status=STOPPED, missing="cancelled before it started")

    def shutdown(self) -> None:
        """Stop every job and wait for the threads."""
        for job in list(self.jobs.values()):
            self.cancel(job)
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _forget_old(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.status in FINAL]
        for k in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self.jobs[k]

    def _work(self, job: Job) -> None:
        with self._lock:
            if job.status != QUEUED:  # cancelled while it waited
                return
            job.update(status=RUNNING, started=time.monotonic())
        timer = None
        if self.time_limit is not None:

            def time_up() -> None:
                job.update(timed_out=True)
                job.stop.set()

            timer = threading.Timer(self.time_limit, time_up)
            timer.daemon = True
            timer.start()
        try:
            result = job.run(on_progress=lambda e: job.update(progress=e), stop=job.stop)
        except KeyboardInterrupt:  # stopped before its first step: no figures
            job.update(status=STOPPED, missing="stopped before the first step finished")
        except RikkenError as exc:
            job.update(status=FAILED, error=str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug: the page says so in one line
            job.update(status=FAILED, error=f"internal error: {type(exc).__name__}: {exc}")
        else:
            stopped = result.interrupted or job.stop.is_set()
            job.update(
                status=STOPPED if stopped else DONE,
                result=_answer(result),
                missing=result.missing,
            )
        finally:
            if timer is not None:
                timer.cancel()


def _answer(result: Any) -> dict:
    """What the page shows of an API Result: its JSON, its table and the command line."""
    return {
        "command": result.command,
        "json": result.to_dict(),
        "table": result.render("table"),
        "seed": result.seed,
        "argv": result.argv,
        "command_line": result.command_line(),
    }
