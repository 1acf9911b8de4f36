"""The web app of ``rikken serve`` (docs/web.md): the page, and the JSON endpoints it calls.

Endpoints (every answer JSON; an input the command line refuses is refused here with the
command's one-line message, HTTP 400, never a traceback):

* ``GET /`` — the page; its URL (``/?hand=…&seat=…&rules=…&auction=…&seed=…``) is its
  state, and opening a URL with a hand runs that analysis.
* ``GET /api/meta`` — the games, rule sets and their switches, the languages.
* ``GET /api/hand?hand=…`` — a hand read as the command line reads it (its cards).
* ``POST /api/jobs?command=analyse|misere&hand=…&…`` — queue an analysis: 202 with the job
  (its id, seed and command line); 400 for bad input; 503 when the queue is full.
* ``GET /api/jobs/{id}`` — the job's state (and its answer once finished).
* ``GET /api/jobs/{id}/events`` — the same as server-sent events, one per change, until
  the job is finished.
* ``POST /api/jobs/{id}/cancel`` — stop the job (its partial answer is kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import urllib.parse
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from analyser import api
from analyser.errors import RikkenError
from analyser.web.jobs import FINAL, Job, JobQueue, QueueFull

# the query parameters each command takes, by their API keyword; the page writes them in its
# URL under the same names (the command line's options with _ for -)
PARAMS: dict[str, tuple[str, ...]] = {
    "analyse": (
        "hand",
        "game",
        "seat",
        "rules",
        "turned",
        "auction",
        "deals",
        "precision",
        "max_deals",
        "node_budget",
        "min_p",
        "variant",
        "elder",
        "form",
        "seed",
        "lang",
    ),
    "misere": (
        "hand",
        "seat",
        "with_seat",
        "rules",
        "turned",
        "deals",
        "precision",
        "max_deals",
        "explain",
        "seed",
        "lang",
    ),
}
# how often an event stream looks for a change (seconds)
POLL = 0.2
# the most characters of one parameter: far beyond any hand, rule set or auction
MAX_PARAM = 400


def static_dir() -> str:
    """The folder of the page's files (package data, so a wheel carries them)."""
    return str(resources.files("analyser.web") / "static")


def read_params(params: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The command and the API's keyword arguments of a request's parameters; RikkenError
    (one line) for an unknown parameter or command. Empty values are options not given."""
    command = params.get("command") or "analyse"
    if command not in PARAMS:
        raise RikkenError(f"unknown command {command!r} (one of: {', '.join(PARAMS)})")
    kwargs: dict[str, Any] = {}
    for name, raw in params.items():
        if name == "command":
            continue
        if name not in PARAMS[command]:
            raise RikkenError(f"rikken {command} has no option {name!r}")
        text = raw.strip()
        if len(text) > MAX_PARAM:
            raise RikkenError(f"{name} is longer than {MAX_PARAM} characters")
        if not text:
            continue
        if name == "elder":
            if text not in ("elder", "younger"):
                raise RikkenError(f"elder must be 'elder' or 'younger', got {text!r}")
            kwargs[name] = text == "elder"
        elif name == "with_seat":
            kwargs[name] = tuple(s.strip() for s in text.split(",") if s.strip())
        else:
            kwargs[name] = text
    if "hand" not in kwargs:
        raise RikkenError("give a hand (e.g. '♠AHV1098 ♥104 ♦A10 ♣752')")
    return command, kwargs


def _lifespan(queue: JobQueue):
    """Stop the jobs when the server stops (Ctrl-C on `rikken serve`)."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        try:
            yield
        finally:
            queue.shutdown()

    return lifespan


def create_app(jobs: int | None = None, waiting: int | None = None, time_limit=None):
    """The Starlette app: ``jobs`` analyses at once (default: one per core), ``waiting`` more
    queued (default: as many), each stopped after ``time_limit`` seconds (None: never)."""
    jobs = jobs or os.cpu_count() or 1
    queue = JobQueue(jobs, jobs if waiting is None else waiting, time_limit)

    def error(message: str, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def page(request: Request) -> Response:
        return FileResponse(os.path.join(static_dir(), "index.html"))

    async def meta(request: Request) -> Response:
        from analyser.rules.ruleset import RULESET_NAMES, switch_names

        return JSONResponse(
            {
                "games": list(api.GAME_DEALS),
                "rules": {name: list(switch_names(name)) for name in RULESET_NAMES},
                "langs": list(api.LANGS),
                "jobs": queue.workers,
                "waiting": queue.waiting,
                "time_limit": queue.time_limit,
            }
        )

    async def hand(request: Request) -> Response:
        from analyser.notation import parse_hand
        from analyser.output.format import card_code

        try:
            cards = parse_hand(request.query_params.get("hand", ""), None)
        except RikkenError as exc:
            return error(str(exc))
        return JSONResponse({"cards": [card_code(c) for c in cards]})

    async def submit(request: Request) -> Response:
        params = dict(request.query_params)
        if request.headers.get("content-type", "").startswith("application/x-www-form"):
            # a plain HTML form's post: the same parameters in the body
            body = (await request.body()).decode("utf-8", errors="replace")
            params.update(urllib.parse.parse_qsl(body, keep_blank_values=True))
        try:
            command, kwargs = read_params(params)
            function = getattr(api, command)
            # the arguments are read and checked here, so that bad input is refused at once
            checked = function(**kwargs, dry_run=True)
            kwargs["seed"] = checked.seed

            def run(on_progress, stop) -> api.Result:
                return function(**kwargs, on_progress=on_progress, stop=stop)

            job = queue.submit(run, checked.command_line())
        except QueueFull as exc:
            return error(str(exc), 503)
        except RikkenError as exc:
            return error(str(exc))
        body = job.snapshot()
        body.update(seed=checked.seed, argv=checked.argv)
        return JSONResponse(body, status_code=202)

    def job_of(request: Request) -> Job | None:
        return queue.get(request.path_params["job"])

    async def status(request: Request) -> Response:
        job = job_of(request)
        if job is None:
            return error("no such job (finished long ago, or never started)", 404)
        return JSONResponse(job.snapshot())

    async def cancel(request: Request) -> Response:
        job = job_of(request)
        if job is None:
            return error("no such job (finished long ago, or never started)", 404)
        queue.cancel(job)
        return JSONResponse(job.snapshot())

    async def events(request: Request) -> Response:
        job = job_of(request)
        if job is None:
            return error("no such job (finished long ago, or never started)", 404)

        async def stream():
            seen = -1
            while True:
                if job.version != seen:
                    seen = job.version
                    snap = job.snapshot()
                    kind = "end" if job.status in FINAL else "progress"
                    yield f"event: {kind}\ndata: {json.dumps(snap)}\n\n"
                    if kind == "end":
                        return
                if await request.is_disconnected():
                    return
                await asyncio.sleep(POLL)

        return StreamingResponse(stream(), media_type="text/event-stream")

    app = Starlette(
        routes=[
            Route("/", page),
            Route("/api/meta", meta),
            Route("/api/hand", hand),
            Route("/api/jobs", submit, methods=["POST"]),
            Route("/api/jobs/{job}", status),
            Route("/api/jobs/{job}/events", events),
            Route("/api/jobs/{job}/cancel", cancel, methods=["POST"]),
            Mount("/static", StaticFiles(directory=static_dir()), name="static"),
        ],
        lifespan=_lifespan(queue),
    )
    app.state.queue = queue
    return app
