"""Fuzzing the readers of user input (Hypothesis): whatever the text, a reader gives a result
or the project's own error (:class:`~analyser.errors.RikkenError`), never another exception.

Each reader gets arbitrary text and text built from its own alphabet (which reaches deeper
into it). The default suite runs a fixed, reproducible set of examples (``derandomize``);
``-m slow`` runs many more.
"""

from __future__ import annotations

import json
import pathlib
import tempfile
import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyser.auction import read_auction
from analyser.errors import RikkenError
from analyser.notation import parse_card, parse_deal, parse_hand, parse_seat, parse_strain
from analyser.rules import get_ruleset, parse_ruleset, switch_names
from analyser.solver.ddfile import read_dd_csv
from analyser.studies.cluster import parse_scheduler
from analyser.studies.config import COMMON_KEYS, load_study

QUICK = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
THOROUGH = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HAND_CHARS = "♠♥♦♣♤♡♢♧❤\ufe0fSHDCRKshdcrkAKQJTHVBakqjthvb1098765432.:-–,; \t\xa0"
AUCTION_WORDS = (
    "pass pas past rik beter better alone alleen acht negen tien 8 9 10 11 12 13 solo misere "
    "misère piek open met een praatje malheur troela , ; /"
).split()
RULE_PARTS = ["book", "iwwa2024", "wiezen", ":", ",", "=", "on", "off", "8", "-1", "x", " "]
CSV_PARTS = [
    "deal", "trump", "leader", "declarer", "partner", "goal", "called", ",", "\n", '"',
    "N:", "AKQT98.T4.AT.752", " ", "S", "NT", "N", "E", ">=7", "misere", "DA", "\r\n",
]  # fmt: skip

alphabet_text = st.text(alphabet=HAND_CHARS, max_size=60)
any_text = st.text(max_size=200)


def _reads(reader, text):
    """Run ``reader`` on ``text``: a result or a RikkenError (its message one line)."""
    try:
        return reader(text)
    except RikkenError as exc:
        assert str(exc), "an error without a message"
        return None


READERS = {
    "hand": lambda t: parse_hand(t, n_cards=None),
    "full hand": parse_hand,
    "deal": lambda t: parse_deal("N:" + t, n_cards=None),
    "card": parse_card,
    "seat": parse_seat,
    "strain": parse_strain,
}


def _all_readers(text: str) -> None:
    for reader in READERS.values():
        _reads(reader, text)


@QUICK
@given(st.one_of(any_text, alphabet_text))
def test_notation_readers(text):
    _all_readers(text)


@pytest.mark.slow
@THOROUGH
@given(st.one_of(any_text, alphabet_text))
def test_notation_readers_thoroughly(text):
    _all_readers(text)


rule_text = st.one_of(
    any_text,
    st.lists(st.sampled_from(RULE_PARTS + list(switch_names())), max_size=12).map("".join),
)


@QUICK
@given(rule_text)
def test_rule_specs(text):
    _reads(parse_ruleset, text)


@pytest.mark.slow
@THOROUGH
@given(rule_text)
def test_rule_specs_thoroughly(text):
    _reads(parse_ruleset, text)


auction_text = st.one_of(
    any_text, st.lists(st.sampled_from(AUCTION_WORDS), max_size=40).map(" ".join)
)
BOOK = get_ruleset("book")


@QUICK
@given(auction_text)
def test_auctions(text):
    _reads(lambda t: read_auction(BOOK, t), text)


@pytest.mark.slow
@THOROUGH
@given(auction_text)
def test_auctions_thoroughly(text):
    _reads(lambda t: read_auction(BOOK, t), text)


csv_text = st.one_of(
    any_text,
    st.lists(st.sampled_from(CSV_PARTS), max_size=40).map(
        lambda parts: "deal,trump,leader,declarer\n" + "".join(parts)
    ),
    st.lists(st.sampled_from(CSV_PARTS), max_size=40).map("".join),
)


@QUICK
@given(csv_text)
def test_dd_csv(text):
    _reads(read_dd_csv, text)


@pytest.mark.slow
@THOROUGH
@given(csv_text)
def test_dd_csv_thoroughly(text):
    _reads(read_dd_csv, text)


# study files: arbitrary bytes, and tables of the study keys with values of any type
toml_value = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.text(max_size=20),
    st.sampled_from(["malheur", "misere", "book", "../x", "..", "", "a/b"]),
    st.lists(st.integers(-5, 20), max_size=4),
    st.booleans(),
    st.floats(allow_nan=False, allow_infinity=False),
)
study_table = st.dictionaries(
    st.sampled_from([*COMMON_KEYS, "extends", "data_dir", "report_dir", "studies", "x"]),
    toml_value,
    max_size=8,
)
VALID_STUDY = tomllib.loads(
    (pathlib.Path(__file__).resolve().parent.parent / "sims" / "malheur.toml").read_text("utf-8")
)


def _toml(table: dict) -> bytes:
    """A flat table as TOML (JSON writes its strings, numbers and lists as TOML reads them)."""
    return "".join(f"{k} = {json.dumps(v)}\n" for k, v in table.items()).encode()


study_bytes = st.one_of(
    st.binary(max_size=200),
    # a valid study with one key changed to any value: reaches every check of the keys
    st.tuples(st.sampled_from([*VALID_STUDY, "extends", "data_dir"]), toml_value).map(
        lambda kv: _toml({**VALID_STUDY, kv[0]: kv[1]})
    ),
    any_text.map(lambda t: t.encode("utf-8", "surrogatepass")),
    study_table.map(_toml),
)


def _read_study(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "fuzz.toml"
        path.write_bytes(data)
        _reads(load_study, path)


@QUICK
@given(study_bytes)
def test_study_files(data):
    _read_study(data)


@pytest.mark.slow
@THOROUGH
@given(study_bytes)
def test_study_files_thoroughly(data):
    _read_study(data)


@QUICK
@given(st.one_of(any_text, st.from_regex(r"[a-z]{0,5}(://)?[\w.\[\]:]{0,20}(:\d{0,6})?")))
def test_scheduler_addresses(text):
    _reads(parse_scheduler, text)
