"""The JSON output of every command and game against its schema in docs/schemas/, and the
output layer's dispatch (analyser.output)."""

from __future__ import annotations

import copy
import importlib
import json
import pathlib
import subprocess
import sys

import pytest
from click.testing import CliRunner
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from analyser.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "docs" / "schemas"
URN = "urn:rikken-analyser:schema:"

HONOURS = "♠AHVB ♥AHVB ♦AHV ♣AH"  # every answer is clear: fast to solve
SAFE = "♠5432 ♥432 ♦432 ♣432"  # a misère without a hole
HOLEY = "♠B62 ♥9742 ♦853 ♣642"  # a misère that fails now and then: forced cards to list
TWO_ACES = "♠AH32 ♥AH32 ♦H32 ♣32"
QUIET = ("--quiet", "--format", "json")

# schema name -> command line of a small, seeded run whose JSON it describes
CASES = {
    "hand nl": ("hand", ["hand", "♠AHV1098 ♥104 ♦A10 ♣752", "--format", "json"]),
    "hand en": ("hand", ["hand", "AKQT98.T4.AT.752", "--lang", "en", "--format", "json"]),
    "analyse": ("analyse", ["analyse", HONOURS, "--deals", "3", "--seed", "11", *QUIET]),
    "analyse seat all": (
        "analyse",
        ["analyse", SAFE, "--seat", "all", "--deals", "3", "--seed", "4", *QUIET],
    ),
    "analyse malheur": (
        "analyse",
        ["analyse", HONOURS, "--rules", "book:malheur=optional", "--deals", "3", "--seed", "5"]
        + list(QUIET),
    ),
    "analyse wiezen": (
        "analyse",
        ["analyse", TWO_ACES, "--seat", "2", "--rules", "wiezen", "--turned", "H7"]
        + ["--deals", "4", "--seed", "2", *QUIET],
    ),
    "analyse single-dummy": (
        "analyse",
        ["analyse", HONOURS, "--deals", "3", "--seed", "1", "--play", "single-dummy"]
        + ["--bids", "solo", "--play-deals", "1", "--samples", "2", "--workers", "1", *QUIET],
    ),
    "analyse --auction": (
        "analyse-auction",
        ["analyse", SAFE, "--seat", "2", "--auction", "rik", "--deals", "6", "--seed", "4"]
        + list(QUIET),
    ),
    "misere": ("misere", ["misere", HOLEY, "--seat", "2", "--deals", "20", "--seed", "1", *QUIET]),
    "analyse cut_only": (
        "analyse",
        ["analyse", HONOURS, "--deals", "3", "--seed", "2", "--deal-model", "cut_only", *QUIET],
    ),
    "misere cut_only": (
        "misere",
        ["misere", HOLEY, "--deals", "6", "--seed", "2", "--deal-model", "cut_only", *QUIET],
    ),
    "misere joined": (
        "misere",
        ["misere", SAFE, "--seat", "2", "--with-seat", "3", "--deals", "6", "--seed", "3"]
        + ["--explain", "0", *QUIET],
    ),
    "misere wiezen": (
        "misere",
        ["misere", SAFE, "--rules", "wiezen", "--turned", "♥7", "--seat", "2", "--deals", "5"]
        + ["--seed", "4", *QUIET],
    ),
    "whist": (
        "whist",
        ["analyse", HONOURS, "--game", "whist", "--turned", "H7", "--deals", "6", "--seed", "3"]
        + list(QUIET),
    ),
    "klaverjas": (
        "klaverjas",
        ["analyse", "♠AB9 ♥A10 ♦H ♣A7", "--game", "klaverjas", "--deals", "2", "--seed", "2"]
        + list(QUIET),
    ),
    "piket": (
        "piket",
        ["analyse", "♠AHVB10 ♥A98 ♦H87 ♣7", "--game", "piket", "--elder", "--deals", "3"]
        + ["--seed", "4", *QUIET],
    ),
    "dd": ("dd", ["dd", str(ROOT / "data" / "dd_example.csv"), *QUIET]),
}


def _load(path: pathlib.Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _registry() -> Registry:
    """Every schema file under its ``$id``, so that the files may refer to each other."""
    resources = [Resource.from_contents(_load(p)) for p in sorted(SCHEMAS.glob("*.json"))]
    return Registry().with_resources((r.id(), r) for r in resources)


REGISTRY = _registry()


def validator(name: str) -> Draft202012Validator:
    """The validator of ``docs/schemas/<name>.schema.json``."""
    return Draft202012Validator(_load(SCHEMAS / f"{name}.schema.json"), registry=REGISTRY)


_OUTPUTS: dict[str, object] = {}


def output(case: str):
    """The parsed JSON of a case's run (each run once per session)."""
    if case not in _OUTPUTS:
        result = CliRunner().invoke(main, CASES[case][1])
        assert result.exit_code == 0, result.output
        _OUTPUTS[case] = json.loads(result.stdout)
    return copy.deepcopy(_OUTPUTS[case])


def errors(name: str, instance) -> list[str]:
    """The schema's complaints about ``instance``, one line each."""
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator(name).iter_errors(instance)
    ]


def test_every_schema_is_a_valid_draft_2020_12_schema_named_after_its_file():
    files = sorted(SCHEMAS.glob("*.schema.json"))
    assert {p.name.removesuffix(".schema.json") for p in files} >= {
        "analyse",
        "analyse-auction",
        "misere",
        "whist",
        "klaverjas",
        "piket",
        "hand",
        "dd",
    }
    for path in files:
        schema = _load(path)
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"] == URN + path.name.removesuffix(".schema.json")
        assert 'additionalProperties": true' not in path.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", list(CASES))
def test_real_output_matches_its_schema(case):
    assert errors(CASES[case][0], output(case)) == []


def test_given_up_is_an_object_of_counts_in_analyse_misere_and_the_joined_misere():
    analysis = output("analyse")["given_up"]
    assert set(analysis) == {"rik", "alone/solo", "misere/piek", "malheur"}
    misere = output("misere joined")
    assert set(misere["given_up"]) == {"make", "explain"}
    assert set(misere["joined"]["given_up"]) == {"make"}
    for counts in (analysis, misere["given_up"], misere["joined"]["given_up"]):
        assert all(isinstance(v, int) and v >= 0 for v in counts.values())


def test_the_schemas_refuse_what_the_commands_never_write():
    """Closed objects, required fields, types and fixed values: a schema that accepted
    anything would pass the test above."""
    d = output("analyse")
    d["surprise"] = 1
    assert errors("analyse", d)
    d = output("analyse")
    del d["bids"][0]["p_make"]
    assert errors("analyse", d)
    d = output("analyse")
    d["bids"][0]["exactness"] = "roughly"
    assert errors("analyse", d)
    d = output("analyse")
    d["bids"][0]["called"] = "HX"
    assert errors("analyse", d)
    d = output("analyse")
    d["given_up"]["rik"] = -1
    assert errors("analyse", d)
    d = output("analyse wiezen")
    del d["turned"]  # the wiezen analysis names its turned card
    assert errors("analyse", d)
    d = output("misere joined")
    d["joined"]["given_up"] = 0  # the old shape of the joined misère's count
    assert errors("misere", d)
    d = output("misere")
    d["contracts"][0]["contract"] = "piek"
    assert errors("misere", d)
    d = output("analyse --auction")
    d["decision"][0]["extra"] = True
    assert errors("analyse-auction", d)
    d = output("analyse --auction")
    del d["best_call"]
    assert errors("analyse-auction", d)
    assert errors("analyse", output("analyse --auction"))  # the auction's keys are its own
    d = output("piket")
    d["candidates"][-1]["expected_score"] = 1.0  # a stage-1 set was never played out
    assert d["candidates"][-1]["stage"] == 1 and errors("piket", d)
    d = output("klaverjas")
    d["trumps"] = d["trumps"][:3]
    assert errors("klaverjas", d)
    d = output("whist")
    d["form"] = "3 points"
    assert errors("whist", d)
    d = output("hand nl")
    d["cards"] = d["cards"][:12]
    assert errors("hand", d)
    d = output("dd")
    d[0]["result"] = "9"
    assert errors("dd", d)


def test_render_picks_the_renderer_by_the_result_class():
    from analyser.notation import parse_hand
    from analyser.output import MODULES, render, renderer_of
    from analyser.output.hand import HandResult

    hand = HandResult(parse_hand("♠AHV1098 ♥104 ♦A10 ♣752"))
    runner = CliRunner()
    for fmt in ("table", "json", "csv"):
        cli = runner.invoke(main, ["hand", "♠AHV1098 ♥104 ♦A10 ♣752", "--format", fmt])
        assert render(hand, fmt) == cli.stdout
    with pytest.raises(TypeError):
        renderer_of(object())
    for module in set(MODULES.values()):
        assert importlib.import_module(f"analyser.output.{module}").RENDERER.command


def test_game_result_classes_are_the_ones_the_dispatch_names():
    from analyser.analysis.results import HandAnalysis
    from analyser.auction.decision import TableAnalysis
    from analyser.games.klaverjas.analysis import KlaverjasAnalysis
    from analyser.games.piket.exchange import PiketAnalysis
    from analyser.games.whist import WhistAnalysis
    from analyser.output import MODULES

    for cls in (HandAnalysis, TableAnalysis, KlaverjasAnalysis, PiketAnalysis, WhistAnalysis):
        assert cls.__name__ in MODULES


def test_the_output_layer_loads_no_solver_and_no_game_imports_it():
    # `rikken hand` goes through the output layer: it must not pay for numba
    code = "import sys, analyser.output, analyser.output.hand; print('numba' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert done.stdout.strip() == "False"
    for path in (ROOT / "analyser" / "games").rglob("*.py"):
        assert "analyser.output" not in path.read_text(encoding="utf-8"), path


def test_the_cases_reach_the_optional_parts_of_the_schemas():
    """Each optional branch of a schema is checked on at least one real output."""
    played = [b for b in output("analyse single-dummy")["bids"] if "double_dummy_sample" in b]
    assert played and played[0]["play"] == "single-dummy"
    assert any(b["upper_bound"] for b in output("analyse malheur")["bids"])
    assert any(b["alternatives"] for b in output("analyse")["bids"])
    assert any(b["joined"] for b in output("analyse wiezen")["bids"])
    assert output("analyse wiezen")["turned"] == "H7"
    assert output("misere")["forced"] and output("misere")["forced_trick"]
    assert output("misere wiezen")["turned"] == "H7"
    stages = {c["stage"] for c in output("piket")["candidates"]}
    assert stages == {1, 2, 3} and any("vs_best" in c for c in output("piket")["candidates"])
    assert len(output("analyse seat all")) == 4
