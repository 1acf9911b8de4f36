"""`rikken analyse` and `rikken misere` from the command line: formats, schema, errors."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyser.cli import main

HONOURS = "♠AHVB ♥AHVB ♦AHV ♣AH"  # every answer is clear: fast to solve
SAFE = "♠5432 ♥432 ♦432 ♣432"

BID_IDS = {"rik", "beter_rik", "misere", "piek", "open_misere", "open_piek"}
BID_IDS |= {"open_misere_praatje", "open_piek_praatje", "malheur"}
BID_IDS |= {f"alone_{n}" for n in range(7, 14)}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _json(*extra):
    result = run("analyse", HONOURS, "--deals", "3", "--seed", "11", "--format", "json", *extra)
    assert result.exit_code == 0, result.output
    return result.output


def test_json_schema():
    d = json.loads(_json("--rules", "book:malheur=optional"))
    for key, kind in [
        ("hand", str),
        ("seat", int),
        ("deals", int),
        ("seed", int),
        ("rules", str),
        ("bids", list),
        ("recommended_opening", str),
        ("method", str),
    ]:
        assert isinstance(d[key], kind), key
    assert "highest_competitive" in d
    assert d["seat"] == 1 and d["deals"] == 3 and d["seed"] == 11
    # seat 1, the forehand, can never bid beter rik (R-BID-07)
    assert d["rules"] == "book:malheur=optional" and d["not_offered"] == ["beter_rik"]
    assert d["method"] == "double-dummy"
    ids = [b["bid"] for b in d["bids"]]
    assert set(ids) <= BID_IDS and "malheur" in ids and "rik" in ids
    assert len({b["contract"] for b in d["bids"]}) == len(d["bids"])
    for b in d["bids"]:
        assert isinstance(b["beter"], bool)
        assert b["trump"] in (None, "S", "H", "D", "C")
        assert b["called"] is None or (isinstance(b["called"], str) and len(b["called"]) == 2)
        assert 0.0 <= b["ci_low"] <= b["p_make"] <= b["ci_high"] <= 1.0
        assert isinstance(b["expected_score"], float)
        assert b["exactness"] in ("exact", "pessimistic", "optimistic")
        hist = b["tricks_hist"]
        assert hist is None or (len(hist) == 14 and sum(hist) == 3)
        if b["bid"] in ("misere", "piek") or b["bid"].startswith("open_"):
            assert b["trump"] is None and hist is None
        if b["bid"].endswith("praatje"):
            assert b["exactness"] == "exact"
    solo = [b for b in d["bids"] if b["contract"] == "solo_beter"][0]
    assert solo["bid"] == "alone_13" and solo["beter"] is True and solo["trump"] == "H"
    # appended with the node budget and the adaptive sample
    assert d["sampling"] == "fixed sample of 3 deals (--deals)"
    assert d["node_budget"] == 2_000_000 and set(d["given_up"]) == {
        "rik",
        "alone/solo",
        "misere/piek",
        "malheur",
    }
    for b in d["bids"]:
        assert b["deals"] == 3 and b["unknown"] == 0 and b["p_low"] == b["p_high"] == b["p_make"]
        low, high = b["expected_score_ci"]
        assert low <= b["expected_score"] <= high
        assert (b["tricks_hist_deals"] is None) == (b["tricks_hist"] is None)


def test_adaptive_default_and_its_options():
    result = run("analyse", HONOURS, "--seed", "2", "--format", "json", "--max-deals", "20")
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert d["sampling"].startswith("adaptive") and d["deals"] == 20
    clash = run("analyse", HONOURS, "--deals", "10", "--max-deals", "20")
    errors = [line for line in clash.output.splitlines() if line.startswith("Error:")]
    assert clash.exit_code == 2 and len(errors) == 1 and "--max-deals" in errors[0]


def test_json_lists_the_bids_a_four_ace_hand_can_never_make_under_book():
    d = json.loads(_json())
    assert d["rules"] == "book"
    ids = [b["contract"] for b in d["bids"]]
    assert ids[0] == "malheur" and "rik" not in ids
    assert "rik" in d["not_offered"] and "alone_12_beter" in d["not_offered"]
    assert not set(ids) & set(d["not_offered"])
    assert any("R-MAL-01" in note for note in d["notes"])


def test_same_seed_gives_byte_identical_json():
    assert _json() == _json()


def test_csv_mirrors_the_bids():
    d = json.loads(_json())
    result = run("analyse", HONOURS, "--deals", "3", "--seed", "11", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert [r["contract"] for r in rows] == [b["contract"] for b in d["bids"]]
    assert [float(r["p_make"]) for r in rows] == [b["p_make"] for b in d["bids"]]


def test_table_names_seed_rules_and_meaning():
    result = run("analyse", HONOURS, "--deals", "3", "--seed", "11", "--lang", "en")
    out = result.output
    assert result.exit_code == 0
    assert "seed 11" in out and "rules  book" in out
    assert "exact: all hands are open" in out and "optimistic" in out
    assert "recommended opening bid:" in out and "upper bound" in out


def test_seat_all_lists_four_seats():
    result = run(
        "analyse", HONOURS, "--seat", "all", "--deals", "2", "--seed", "3", "--format", "json"
    )
    d = json.loads(result.output)
    assert [x["seat"] for x in d] == [1, 2, 3, 4]
    assert [x["seat_compass"] for x in d] == ["N", "E", "S", "W"]


def test_misere_command_json():
    result = run("misere", SAFE, "--seat", "2", "--deals", "20", "--seed", "2", "--format", "json")
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    closed = d["contracts"][0]
    assert closed["contract"] == "misere" and closed["p_make"] == 1.0 and d["failures"] == 0
    assert all(h["safe"] for h in d["holes"])
    table = run("misere", "♠A ♥5432 ♦5432 ♣5432", "--seat", "2", "--deals", "10", "--seed", "2")
    assert table.exit_code == 0 and "♠A" in table.output and "forced" in table.output


MISERE_KEYS = (
    "sampling", "stop_reason", "precision", "node_budget", "given_up", "contracts", "failures",
    "explain_limit", "analysed", "explained", "unexplained_budget", "unexplained", "forced",
    "forced_trick", "holes",
)  # fmt: skip


def _misere_json(*extra):
    hand = "♠9 ♥8532 ♦7432 ♣6432"
    result = run("misere", hand, "--seat", "2", "--seed", "4", "--format", "json", *extra)
    assert result.exit_code == 0, result.output
    return result.output


def test_misere_fixed_sample_json_is_byte_identical_and_complete():
    out = _misere_json("--deals", "12", "--explain", "6")
    assert out == _misere_json("--deals", "12", "--explain", "6")
    d = json.loads(out)
    assert all(k in d for k in MISERE_KEYS)
    assert d["deals"] == 12 and d["precision"] is None and d["sampling"].startswith("fixed")
    assert d["node_budget"] > 0 and set(d["given_up"]) == {"make", "explain"}
    assert d["explain_limit"] == 6 and d["analysed"] == min(d["failures"], 6)
    assert d["explained"] + d["unexplained_budget"] + d["unexplained"] == d["analysed"]
    assert sum(f["deals"] for f in d["forced"]) == d["explained"]
    assert sum(f["share"] for f in d["forced"]) == pytest.approx(1.0, abs=1e-3)
    for c in d["contracts"]:
        assert 0 <= c["ci_low"] <= c["p_low"] <= c["p_make"] <= c["p_high"] <= c["ci_high"] <= 1
        low, high = c["expected_score_ci"]
        assert low <= c["expected_score"] <= high
        assert c["unknown"] == round((c["p_high"] - c["p_low"]) * d["deals"])


def test_misere_adaptive_default_stops_when_certain():
    result = run("misere", SAFE, "--seat", "2", "--seed", "2", "--format", "json", "--quiet")
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert d["deals"] == 50 and d["precision"] == 0.05 and d["sampling"].startswith("adaptive")
    assert d["stop_reason"].startswith("precision reached")
    assert d["contracts"][0]["p_make"] == 1.0 and d["failures"] == 0


def test_misere_table_says_what_was_explained_and_bounded():
    out = run("misere", "♠9 ♥8532 ♦7432 ♣6432", "--seat", "2", "--deals", "12", "--seed",
              "4", "--explain", "3", "--lang", "en").output  # fmt: skip
    assert "explained on 3 of them, the first 3 in sample order" in out
    assert "node budget (2,000,000 nodes per search)" in out
    assert "sample fixed sample of 12 deals" in out


def test_misere_csv_lists_the_forced_cards():
    d = json.loads(_misere_json("--deals", "12", "--explain", "6"))
    result = run("misere", "♠9 ♥8532 ♦7432 ♣6432", "--seat", "2", "--seed", "4",
                 "--deals", "12", "--explain", "6", "--format", "csv")  # fmt: skip
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert [r["card"] for r in rows] == [f["card"] for f in d["forced"]]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--precision", "0.7"], "--precision"),
        (["--precision", "0"], "--precision"),
        (["--max-deals", "0"], "--max-deals"),
        (["--deals", "0"], "--deals"),
        (["--deals", "5", "--max-deals", "10"], "--max-deals"),
        (["--explain", "-1"], "--explain"),
        (["--seat", "5"], "--seat"),
        (["--rules", "nosuch"], "unknown rule set"),
    ],
)
def test_misere_bad_options_are_one_error_line_and_exit_code_2(args, fragment):
    result = run("misere", SAFE, *args)
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1 and fragment in error_lines[0]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["analyse", "♠AHV"], "13"),
        (["analyse", HONOURS, "--seat", "5"], "--seat"),
        (["analyse", HONOURS, "--rules", "nosuch"], "unknown rule set"),
        (["analyse", HONOURS, "--precision", "0.7"], "--precision"),
        (["analyse", HONOURS, "--deals", "0"], "--deals"),
        (["analyse", HONOURS, "--min-p", "2"], "--min-p"),
        (["misere", "♠AHV", "--deals", "5"], "13"),
        (["misere", SAFE, "--seat", "0"], "--seat"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_code_2(args, fragment):
    result = run(*args)
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1 and fragment in error_lines[0]


# ------------------------------------------------------------------------------- wiezen

STRONG = "♠AHVB ♥HVB10 ♦HV10 ♣HV"  # no ace: every bid but troel; quick to solve
THREE_ACES = "♠AHV ♥AH1098 ♦A2 ♣753"
WIEZEN_IDS = {"vragen", "alone_5", "misere", "open_misere", "troel", "troela", "solo"}
WIEZEN_IDS |= {"solo_slim"} | {f"abondance_{n}{t}" for n in range(9, 13) for t in ("", "_turned")}


def _wiezen_json(hand, *extra):
    result = run(
        "analyse",
        hand,
        "--rules",
        "wiezen",
        "--deals",
        "4",
        "--seed",
        "3",
        "--format",
        "json",
        *extra,
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_wiezen_analyse_offers_every_bid_with_the_turned_trump():
    d = _wiezen_json(STRONG, "--turned", "♥7")
    assert d["rules"] == "wiezen" and d["turned"] == "H7" and d["method"] == "double-dummy"
    bids = {b["bid"]: b for b in d["bids"]}
    assert set(bids) == WIEZEN_IDS - {"troel", "troela"}
    assert all(b["bid"] == b["contract"] and b["beter"] is False for b in d["bids"])
    for bid in ("vragen", "alone_5", "abondance_9_turned", "abondance_12_turned", "solo_slim"):
        assert bids[bid]["trump"] == "H", bid  # played in the turned suit (W-01)
    for bid in ("abondance_9", "abondance_11", "solo"):
        assert bids[bid]["trump"] != "H", bid  # the plain form names another suit (W-10)
    joined = bids["vragen"]["joined"]
    assert joined["deals"] == 4 and bids["vragen"]["deals"] == joined["joined"]
    assert bids["alone_5"]["joined"] is None
    # alone 5 follows an unanswered ask: never an opening bid (W-08)
    assert not bids["alone_5"]["opening_legal"] and bids["vragen"]["opening_legal"]
    assert d["recommended_opening"] in set(bids) | {"pass"}


def test_wiezen_table_shows_flemish_names():
    result = run(
        "analyse", STRONG, "--rules", "wiezen", "--turned", "h7", "--deals", "3", "--seed", "1"
    )
    assert result.exit_code == 0, result.output
    for name in ("vragen", "alleen", "abondance 9 in troef", "miserie op tafel", "solo slim"):
        assert name in result.output
    assert "turned ♥7" in result.output and "someone goes along on" in result.output


def test_wiezen_three_aces_play_troel():
    d = _wiezen_json(THREE_ACES, "--turned", "♥7")
    assert [b["bid"] for b in d["bids"]] == ["troel", "open_misere", "solo", "solo_slim"]
    troel = d["bids"][0]
    assert troel["called"] == "CA" and troel["trump"] == "C"  # the fourth ace (W-04)
    assert troel["opening_legal"] and d["recommended_opening"] in ("troel", "pass")
    assert "vragen" in d["not_offered"]


def test_wiezen_dealer_holds_the_turned_card():
    d = _wiezen_json("♠AHVB ♥HVB7 ♦HV10 ♣HV", "--turned", "H7", "--seat", "4")
    vragen = next(b for b in d["bids"] if b["bid"] == "vragen")
    assert vragen["joined"]["joined"] == 0  # nobody speaks after the dealer (W-08)
    assert "decides at once" in vragen["note"]


def test_wiezen_seat_all_keeps_the_seats_the_turned_card_allows():
    result = run(
        "analyse",
        STRONG,
        "--rules",
        "wiezen",
        "--turned",
        "♥7",
        "--seat",
        "all",
        "--deals",
        "2",
        "--seed",
        "2",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    assert [d["seat"] for d in json.loads(result.output)] == [1, 2, 3]


def test_wiezen_misere():
    result = run(
        "misere",
        SAFE,
        "--rules",
        "wiezen",
        "--turned",
        "♥7",
        "--seat",
        "2",
        "--deals",
        "5",
        "--seed",
        "4",
        "--format",
        "json",
    )
    assert result.exit_code == 0, result.output
    d = json.loads(result.output)
    assert [c["contract"] for c in d["contracts"]] == ["misere", "open_misere"]
    assert d["turned"] == "H7" and d["rules"] == "wiezen"
    table = run(
        "misere", SAFE, "--rules", "wiezen", "--turned", "♥7", "--deals", "5", "--seed", "4"
    )
    assert table.exit_code == 0 and "miserie op tafel" in table.output


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["analyse", STRONG, "--rules", "wiezen"], "needs the turned card"),
        (["analyse", STRONG, "--turned", "♥7"], "no turned trump"),
        (["analyse", STRONG, "--rules", "iwwa2024", "--turned", "♥7"], "no turned trump"),
        (["analyse", STRONG, "--rules", "wiezen", "--turned", "♥7", "--seat", "4"], "dealer"),
        (["analyse", STRONG, "--rules", "wiezen", "--turned", "♥10", "--seat", "2"], "dealer"),
        (["analyse", STRONG, "--rules", "wiezen", "--turned", "X9"], "--turned"),
        (["misere", SAFE, "--rules", "wiezen"], "needs the turned card"),
        (["misere", SAFE, "--rules", "book", "--turned", "♥7"], "no turned trump"),
        (["misere", SAFE, "--rules", "wiezen", "--turned", "♥4", "--seat", "1"], "dealer"),
        (["misere", SAFE, "--rules", "wiezen", "--turned", "♥7", "--seat", "4"], "dealer"),
    ],
)
def test_wiezen_bad_input_is_one_error_line_and_exit_code_2(args, fragment):
    result = run(*args, "--deals", "2")
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    error_lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error_lines) == 1 and fragment in error_lines[0], result.output


def test_deal_model_is_stated_in_every_output_and_uniform_is_the_default():
    base = ("analyse", HONOURS, "--deals", "3", "--seed", "11")
    d = json.loads(_json())
    assert d["deal_model"] == "uniform"
    # --deal-model uniform given is the default: the same bytes
    assert _json("--deal-model", "uniform") == _json()
    table = run(*base)
    assert table.exit_code == 0 and "deal model uniform" in table.output
    rows = list(csv.DictReader(io.StringIO(run(*base, "--format", "csv").output)))
    assert rows and {r["deal_model"] for r in rows} == {"uniform"}


def test_deal_model_cut_only_draws_other_deals_and_says_so():
    cut = json.loads(_json("--deal-model", "cut_only"))
    assert cut["deal_model"] == "cut_only"
    assert any(n.startswith("deal model cut_only") for n in cut["notes"])
    assert "whatever the deal model" in " ".join(cut["notes"])
    again = _json("--deal-model", "cut_only")
    assert json.loads(again) == cut  # the seed reproduces the cut_only deals
    table = run("analyse", SAFE, "--deals", "3", "--seed", "2", "--deal-model", "cut_only")
    assert table.exit_code == 0 and "deal model cut_only" in table.output
    m = run("misere", SAFE, "--deals", "3", "--seed", "2", "--deal-model", "cut_only")
    assert m.exit_code == 0 and "deal model cut_only" in m.output


def test_joined_misere_under_cut_only_solves_the_misere_analysis_deals(monkeypatch):
    import analyser.deal_draw as draw

    asked = []
    real = draw.deal_source

    def spy(model, hand, place, seed, known=None, **kw):
        source = real(model, hand, place, seed, known, **kw)

        def take(start, n):
            got = source(start, n)
            asked.append((model, place, seed, got.copy()))
            return got

        return take

    monkeypatch.setattr(draw, "deal_source", spy)
    out = run("misere", SAFE, "--seat", "2", "--with-seat", "3", "--deals", "4", "--seed", "1",
              "--deal-model", "cut_only", "--format", "json", "--explain", "0")  # fmt: skip
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["joined"]["deals"] == 4
    # the misère figures and the joined misère drew the same cut_only deals
    assert len(asked) >= 2 and {a[:3] for a in asked} == {("cut_only", 2, 1)}
    assert np.array_equal(asked[0][3], asked[-1][3])


def test_the_auction_filters_cut_only_deals_under_cut_only(monkeypatch):
    import analyser.deal_draw as draw

    models = []
    real = draw.deal_source

    def spy(model, hand, place, seed, known=None, **kw):
        models.append((model, place, seed))
        return real(model, hand, place, seed, known, **kw)

    monkeypatch.setattr(draw, "deal_source", spy)
    args = ["analyse", SAFE, "--seat", "3", "--auction", "rik pas", "--deals", "8", "--seed", "2"]
    out = run(*args, "--deal-model", "cut_only")
    assert out.exit_code == 0, out.output
    assert models == [("cut_only", 3, 2)]  # the raw deals the auction's filter sees
    assert "deal model cut_only" in out.output
    uniform = run(*args)
    assert uniform.exit_code == 0 and "deal model uniform" in uniform.output
    assert models == [("cut_only", 3, 2)]  # uniform deals come from the sampler, no draw


@pytest.mark.parametrize(
    "args, message",
    [
        (("analyse", SAFE, "--rules", "wiezen", "--turned", "H7", "--seat", "2"), "turned trump"),
        (("analyse", "♠AHV ♥AHV ♦AHV ♣AHV", "--game", "klaverjas"), "--deal-model"),
    ],
)
def test_deal_model_cut_only_refused_where_it_does_not_apply(args, message):
    result = run(*args, "--deals", "3", "--seed", "1", "--deal-model", "cut_only")
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
