"""The web app of ``rikken serve`` (docs/web.md): a page where a player enters a hand and
gets the bid table, with progress, a cancel button and a link that reproduces the answer.

It is a Starlette app (:mod:`.app`) served by uvicorn, running the analyses of the Python
API (:mod:`analyser.api`) on a bounded job queue (:mod:`.jobs`).
"""

from __future__ import annotations

import os

DEFAULT_HOST = "127.0.0.1"  # loopback: only this machine reaches the server
DEFAULT_PORT = 8765
# a job's time limit by default (seconds): the command's own bounds (adaptive sampling to at
# most 1000 deals, a node budget per search) end almost every analysis well within it; this
# stops the rest as a Ctrl-C would, keeping the figures of the steps finished
DEFAULT_TIME_LIMIT = 600.0


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    jobs: int | None = None,
    waiting: int | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> None:
    """Run the web app until Ctrl-C: ``jobs`` analyses at once (default one per core), each
    with its share of the cores as solver threads, ``waiting`` more queued."""
    import uvicorn

    from analyser.solver.api import set_default_threads
    from analyser.web.app import create_app

    cores = os.cpu_count() or 1
    jobs = jobs or cores
    # the jobs share the machine: together they use each core once
    set_default_threads(max(1, cores // jobs))
    app = create_app(jobs=jobs, waiting=waiting, time_limit=time_limit)
    uvicorn.run(app, host=host, port=port, log_level="warning")


__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "DEFAULT_TIME_LIMIT", "serve"]
