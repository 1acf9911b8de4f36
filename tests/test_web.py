"""Every endpoint of the web app (analyser.web.app) with Starlette's test client: valid and
invalid input, progress as server-sent events, cancel, the queue full, the time limit."""

from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient

from analyser import api, web
from analyser.cli import main
from analyser.cli import serve as serve_command
from analyser.web.app import create_app, read_params
from analyser.web.jobs import JobQueue

HONOURS = "♠AHVB ♥AHVB ♦AHV ♣AH"
RIK = "♠AHV1098 ♥104 ♦A10 ♣752"
SLOW = {"hand": RIK, "deals": "5000", "seed": "3"}  # many steps: time to cancel it


@pytest.fixture
def client():
    with TestClient(create_app(jobs=1, waiting=1)) as c:
        yield c


def wait(client: TestClient, job_id: str, timeout: float = 120) -> dict:
    """The job's state once it is finished."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        snap = client.get(f"/api/jobs/{job_id}").json()
        if snap["status"] in ("done", "stopped", "failed"):
            return snap
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} did not finish in {timeout}s")


def wait_for_step(client: TestClient, job_id: str, timeout: float = 120) -> dict:
    """The job's state once a step of its sample has finished."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        snap = client.get(f"/api/jobs/{job_id}").json()
        if (
            "deals" in snap["progress"]
            or snap["status"] != "running"
            and snap["status"] != "queued"
        ):
            return snap
        time.sleep(0.02)
    raise AssertionError("no step finished")


def test_the_page_and_its_files(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="form"' in page.text
    assert "/static/app.js" in page.text
    for name, kind in (("app.js", "javascript"), ("style.css", "css")):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"]


def test_meta_lists_games_rules_and_switches(client):
    meta = client.get("/api/meta").json()
    assert meta["games"] == ["rikken", "whist", "piket", "klaverjas"]
    assert "min_alone" in meta["rules"]["book"] and "troel" in meta["rules"]["wiezen"]
    assert meta["langs"] == ["nl", "en"] and meta["jobs"] == 1


def test_a_hand_is_read_as_the_command_reads_it(client):
    r = client.get("/api/hand", params={"hand": "AKQT98.T4.AT.752"})
    assert r.status_code == 200
    cards = r.json()["cards"]
    assert {"SA", "SK", "SQ", "HT", "C2"} <= set(cards) and len(cards) == 13
    bad = client.get("/api/hand", params={"hand": "♠AX"})
    assert bad.status_code == 400 and "\n" not in bad.json()["error"]


def test_an_analysis_runs_and_equals_the_api_and_the_command(client):
    r = client.post("/api/jobs", params={"hand": HONOURS, "deals": "3", "seed": "11"})
    assert r.status_code == 202
    job = r.json()
    assert job["seed"] == 11
    assert job["command_line"] == f"rikken analyse '{HONOURS}' --deals 3 --seed 11"
    snap = wait(client, job["id"])
    assert snap["status"] == "done", snap
    expected = api.analyse(HONOURS, deals=3, seed=11)
    assert snap["result"]["json"] == expected.to_dict()
    assert snap["result"]["table"] == expected.render("table")
    cli = CliRunner().invoke(main, [*snap["result"]["argv"], "--quiet", "--format", "json"])
    assert json.loads(cli.stdout) == snap["result"]["json"]


def test_a_seed_left_out_is_drawn_and_recorded(client):
    job = client.post("/api/jobs", params={"hand": HONOURS, "deals": "2"}).json()
    assert job["seed"] >= 1 and job["command_line"].endswith(f"--seed {job['seed']}")
    assert wait(client, job["id"])["result"]["json"]["seed"] == job["seed"]


def test_the_events_stream_progress_then_the_answer(client):
    job = client.post("/api/jobs", params={"hand": RIK, "deals": "50", "seed": "2"}).json()
    kinds, last = [], None
    with client.stream("GET", f"/api/jobs/{job['id']}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        for line in stream.iter_lines():
            if line.startswith("event: "):
                kinds.append(line[7:])
            elif line.startswith("data: "):
                last = json.loads(line[6:])
    assert kinds[-1] == "end" and kinds.count("end") == 1 and "progress" in kinds
    assert last["status"] == "done" and last["result"]["json"]["deals"] == 50


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"hand": "♠AHVB ♥AHVB ♦AHV"}, "13"),
        ({"hand": RIK, "seat": "5"}, "'5' is not a seat"),
        ({"hand": RIK, "rules": "book:min_alone=3"}, "min_alone"),
        ({"hand": RIK, "variant": "rotterdam"}, "--variant applies only with --game klaverjas"),
        ({"hand": RIK, "game": "whist"}, "--game whist needs --turned CARD"),
        ({"hand": RIK, "deals": "0"}, "0 is not in the range"),
        ({"hand": RIK, "turned": "Z9"}, "Invalid value for '--turned'"),
        ({"hand": RIK, "samples": "3"}, "rikken analyse has no option 'samples'"),
        ({"seat": "1"}, "give a hand"),
        ({"hand": RIK, "command": "dd"}, "unknown command 'dd'"),
        ({"hand": RIK, "elder": "maybe"}, "elder must be"),
        ({"hand": "x" * 500}, "longer than"),
    ],
)
def test_bad_input_is_refused_with_the_commands_one_line(client, params, message):
    r = client.post("/api/jobs", params=params)
    assert r.status_code == 400
    error = r.json()["error"]
    assert message in error and "\n" not in error and "Traceback" not in error


def test_the_refusal_is_the_command_lines(client):
    hand = "♠AHVB ♥AHVB ♦AHV"
    error = client.post("/api/jobs", params={"hand": hand}).json()["error"]
    out = CliRunner().invoke(main, ["analyse", hand])
    assert out.exit_code == 2 and error in out.output


def test_an_error_found_while_running_is_the_jobs_one_line(client):
    # the auction is read by the analysis: a job that fails says why in one line
    job = client.post("/api/jobs", params={"hand": RIK, "seat": "2", "auction": "pas pas"})
    snap = wait(client, job.json()["id"])
    assert snap["status"] == "failed" and "seat 3's turn" in snap["error"]


def test_misere_runs_with_its_failure_causes(client):
    params = {"command": "misere", "hand": "♠B62 ♥9742 ♦853 ♣642", "seat": "2"}
    job = client.post("/api/jobs", params={**params, "deals": "20", "seed": "1"}).json()
    snap = wait(client, job["id"])
    assert snap["result"]["json"]["forced"][0]["card"] == "SJ"


def test_cancel_stops_the_job_and_keeps_the_steps_finished(client):
    job = client.post("/api/jobs", params=SLOW).json()
    wait_for_step(client, job["id"])
    r = client.post(f"/api/jobs/{job['id']}/cancel")
    assert r.status_code == 200
    snap = wait(client, job["id"])
    assert snap["status"] == "stopped" and not snap["timed_out"]
    figures = snap["result"]["json"]
    assert figures["bids"] and figures["deals"] < 5000
    assert "stopped" in figures["stop_reason"].lower()


def test_a_full_queue_refuses_more_and_a_waiting_job_can_be_cancelled(client):
    running = client.post("/api/jobs", params=SLOW).json()
    waiting = client.post("/api/jobs", params={**SLOW, "seed": "4"}).json()
    assert waiting["status"] == "queued"
    full = client.post("/api/jobs", params={**SLOW, "seed": "5"})
    assert full.status_code == 503 and "busy" in full.json()["error"]
    assert client.post(f"/api/jobs/{waiting['id']}/cancel").json()["status"] == "stopped"
    client.post(f"/api/jobs/{running['id']}/cancel")
    assert wait(client, running["id"])["status"] == "stopped"
    assert client.post("/api/jobs", params={"hand": HONOURS, "deals": "2"}).status_code == 202


def test_the_time_limit_stops_a_job_as_cancel_does():
    with TestClient(create_app(jobs=1, waiting=0, time_limit=1.0)) as c:
        job = c.post("/api/jobs", params=SLOW).json()
        snap = wait(c, job["id"])
    assert snap["status"] == "stopped" and snap["timed_out"]


def test_unknown_jobs_are_404(client):
    for method, path in (("get", "/api/jobs/nope"), ("get", "/api/jobs/nope/events")):
        assert getattr(client, method)(path).status_code == 404
    assert client.post("/api/jobs/nope/cancel").status_code == 404


def test_form_posts_are_read_like_queries(client):
    r = client.post("/api/jobs", data={"hand": HONOURS, "deals": "2", "seed": "1"})
    assert r.status_code == 202 and r.json()["seed"] == 1


def test_read_params_maps_the_url_to_the_api():
    assert read_params({"hand": " x ", "seat": "", "elder": "younger"}) == (
        "analyse",
        {"hand": "x", "elder": False},
    )
    assert read_params({"command": "misere", "hand": "x", "with_seat": "3, 4"})[1] == {
        "hand": "x",
        "with_seat": ("3", "4"),
    }


def test_the_queue_needs_a_worker():
    with pytest.raises(ValueError):
        JobQueue(0, 1)


def test_the_serve_command_defaults_are_the_web_apps():
    assert serve_command.DEFAULT_HOST == web.DEFAULT_HOST == "127.0.0.1"
    assert serve_command.DEFAULT_PORT == web.DEFAULT_PORT == 8765
    assert serve_command.DEFAULT_TIME_LIMIT == web.DEFAULT_TIME_LIMIT
    out = CliRunner().invoke(main, ["serve", "--help"])
    assert out.exit_code == 0 and "--jobs" in out.output and "127.0.0.1" in out.output
    bad = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert bad.exit_code == 2
