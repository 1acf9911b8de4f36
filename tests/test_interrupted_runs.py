"""A run stopped with Ctrl-C keeps what it finished: `rikken analyse`, `rikken misere` and
the joined misère report the figures of the deals of the steps finished before the stop
(the same figures a run of that size gives), say so in their sample line, and exit with 130.
A run stopped before its first step finished has nothing to report: "Aborted!", exit 130.

The Ctrl-C is simulated by a KeyboardInterrupt raised from inside the solving of a chosen
step (as the solver raises it, analyser/solver/driver.py), so the tests do not race a timer.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from analyser.analysis import evaluate, joined, misere
from analyser.analysis.adaptive import INTERRUPTED, SamplePlan
from analyser.analysis.evaluate import analyse_hand
from analyser.analysis.joined import analyse_joined
from analyser.analysis.misere import analyse_misere
from analyser.analysis.positions import PositionStore
from analyser.cli import main
from analyser.notation import parse_hand
from analyser.rules import get_ruleset
from analyser.seats import Place

BOOK = get_ruleset("book")
RIK_HAND = parse_hand("♠AHB42 ♥AH2 ♦6 ♣8743")
HOLE_MISERE = "♠A ♥5432 ♦5432 ♣5432"  # one hole (the bare ace): fails on some deals only
SLOW_MISERE = parse_hand("♠B62 ♥9742 ♦853 ♣642")  # given up at small node budgets


def _stop_in_step(monkeypatch, first_step: int) -> None:
    """Ctrl-C inside the misère solving of the step after ``first_step`` deals."""
    real = PositionStore.null_goal

    def null_goal(self, idx, *args, **kwargs):
        if self.n > first_step:
            raise KeyboardInterrupt
        return real(self, idx, *args, **kwargs)

    monkeypatch.setattr(PositionStore, "null_goal", null_goal)


def test_a_stopped_misere_run_reports_its_finished_steps(monkeypatch):
    hand = parse_hand(HOLE_MISERE)
    full = analyse_misere(hand, Place(2), BOOK, deals=20, seed=8, explain=0)
    _stop_in_step(monkeypatch, 20)
    # a fixed sample is solved in steps too (20, 50, ...): the first one stands
    cut = analyse_misere(hand, Place(2), BOOK, deals=200, seed=8)
    assert cut.interrupted and cut.n_deals == 20
    assert cut.stop_reason.startswith(f"{INTERRUPTED} after 20 of at most 200 deals")
    assert cut.estimates == full.estimates and cut.expected == full.expected
    assert cut.failures == full.failures > 0
    assert cut.given_up == full.given_up  # counted on the reported deals only
    assert cut.analysed == 0  # no failure analysis (more solving) after the stop


def test_a_misere_run_stopped_in_its_first_step_reports_nothing(monkeypatch):
    _stop_in_step(monkeypatch, 0)
    with pytest.raises(KeyboardInterrupt):
        analyse_misere(parse_hand(HOLE_MISERE), Place(2), BOOK, deals=200, seed=8)


def test_a_stopped_joined_run_reports_its_finished_steps(monkeypatch):
    hand = parse_hand("♠543 ♥A432 ♦432 ♣432")
    full = analyse_joined(hand, Place(2), (3,), BOOK, deals=20, seed=4)
    real = joined._joined_column
    calls = []

    def column(*args, **kwargs):
        calls.append(1)
        if len(calls) > 2:  # two declarers: the third column is the second step's
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(joined, "_joined_column", column)
    cut = analyse_joined(hand, Place(2), (3,), BOOK, deals=100, seed=4)
    assert cut.interrupted and cut.n_deals == 20 and cut.stop_reason.startswith(INTERRUPTED)
    assert cut.made == full.made and cut.all_made == full.all_made
    assert cut.expected_ci == full.expected_ci


def test_a_stopped_analysis_keeps_each_question_at_its_last_finished_step(monkeypatch):
    # the adaptive sample's first step is 20 deals; a run capped at 20 is that step alone
    full = analyse_hand(RIK_HAND, Place(2), BOOK, seed=3, max_deals=20)
    real = evaluate.evaluate_bids
    calls = []

    def evaluate_bids(specs, store, hand, seat, ruleset, n=None, *args):
        if n is not None and n > 20:
            calls.append(1)
            if len(calls) == 2:  # one question has its second step, the others not
                raise KeyboardInterrupt
        return real(specs, store, hand, seat, ruleset, n, *args)

    monkeypatch.setattr(evaluate, "evaluate_bids", evaluate_bids)
    cut = analyse_hand(RIK_HAND, Place(2), BOOK, seed=3)
    assert cut.interrupted and cut.stop_reason.startswith(INTERRUPTED)
    sizes = sorted({b.estimate.n for b in cut.bids})
    assert sizes[0] == 20 and len(sizes) == 2, sizes  # one question went on to its next step
    before = {b.spec.id: b for b in full.bids}
    at_20 = [b for b in cut.bids if b.estimate.n == 20]
    assert at_20
    for b in at_20:
        assert b.estimate == before[b.spec.id].estimate, b.spec.id
        assert b.expected_score == before[b.spec.id].expected_score, b.spec.id
    assert any(n.startswith("stopped early (Ctrl-C)") for n in cut.notes)
    assert cut.recommended_opening is not None


def _record_steps(monkeypatch, stop_after: int | None = None) -> list[int]:
    """The sample sizes evaluate_bids is called with; a Ctrl-C in the first call past
    ``stop_after`` deals, before it solves anything, when given."""
    real = evaluate.evaluate_bids
    sizes: list[int] = []

    def evaluate_bids(specs, store, hand, seat, ruleset, n=None, *args):
        if stop_after is not None and n > stop_after:
            raise KeyboardInterrupt
        sizes.append(n)
        return real(specs, store, hand, seat, ruleset, n, *args)

    monkeypatch.setattr(evaluate, "evaluate_bids", evaluate_bids)
    return sizes


def _figures(a) -> list[tuple]:
    return [
        (
            b.spec.id,
            b.trump,
            b.called,
            b.estimate,
            b.expected_score,
            b.expected_score_ci,
            b.tricks_hist,
            [(x.trump, x.called, x.estimate) for x in b.alternatives],
        )
        for b in a.bids
    ]


def test_a_fixed_analysis_sample_is_solved_in_steps_with_the_figures_of_one_step(monkeypatch):
    # a node budget that gives positions up, so the ranges must agree too
    kw = dict(deals=70, seed=3, max_nodes=2000)
    sizes = _record_steps(monkeypatch)
    stepped = analyse_hand(RIK_HAND, Place(2), BOOK, **kw)
    assert sorted(set(sizes)) == [20, 50, 70]
    monkeypatch.setattr(SamplePlan, "first_step", lambda self: self.limit)
    sizes.clear()
    one_step = analyse_hand(RIK_HAND, Place(2), BOOK, **kw)
    assert set(sizes) == {70}
    assert sum(one_step.given_up.values()) > 0
    assert _figures(stepped) == _figures(one_step)
    assert stepped.stop_reason == one_step.stop_reason == "fixed sample of 70 deals (--deals)"


def test_a_stopped_fixed_analysis_reports_its_finished_steps(monkeypatch):
    full = analyse_hand(RIK_HAND, Place(2), BOOK, deals=20, seed=3)
    _record_steps(monkeypatch, stop_after=20)
    cut = analyse_hand(RIK_HAND, Place(2), BOOK, deals=500, seed=3)
    assert cut.interrupted and cut.n_deals == 20
    assert cut.stop_reason.startswith(f"{INTERRUPTED}: each question's figures")
    assert "at most 500" in cut.stop_reason
    assert _figures(cut) == _figures(full)
    assert cut.recommended_opening == full.recommended_opening


def test_the_command_prints_the_finished_steps_and_exits_130(monkeypatch):
    _stop_in_step(monkeypatch, 20)
    args = ["misere", HOLE_MISERE, "--seat", "2", "--deals", "200", "--seed", "8"]
    result = CliRunner().invoke(main, args, prog_name="rikken")
    assert result.exit_code == 130
    assert "stopped early (Ctrl-C) after 20 of at most 200 deals" in result.stdout
    assert "failure analysis skipped: stopped early" in result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("stopped early (Ctrl-C)"), result.stderr


def test_the_command_stopped_before_any_step_says_aborted_and_exits_130(monkeypatch):
    _stop_in_step(monkeypatch, 0)
    args = ["misere", HOLE_MISERE, "--seat", "2", "--deals", "200", "--seed", "8"]
    result = CliRunner().invoke(main, args, prog_name="rikken")
    assert result.exit_code == 130
    assert result.stdout == "" and "Aborted!" in result.stderr


def test_given_up_positions_of_the_cut_step_are_not_counted(monkeypatch):
    # the stop comes after the second step's positions were solved (some given up at the
    # tiny budget), before its figures: they must not count
    kw = dict(seed=3, explain=0, max_nodes=300)
    full = analyse_misere(SLOW_MISERE, Place(2), BOOK, deals=20, **kw)
    longer = analyse_misere(SLOW_MISERE, Place(2), BOOK, deals=50, **kw)
    assert longer.given_up["make"] > full.given_up["make"] > 0  # the test can fail
    real = PositionStore.null_goal

    def null_goal(self, idx, *args, **kwargs):
        out = real(self, idx, *args, **kwargs)
        if self.n > 20:
            raise KeyboardInterrupt
        return out

    monkeypatch.setattr(PositionStore, "null_goal", null_goal)
    cut = analyse_misere(SLOW_MISERE, Place(2), BOOK, deals=50, **kw)
    assert cut.interrupted and cut.n_deals == 20
    assert cut.given_up == full.given_up and cut.estimates == full.estimates


def test_an_analysis_cut_after_solving_counts_only_the_finished_steps(monkeypatch):
    kw = dict(seed=3, max_nodes=2000)
    full = analyse_hand(RIK_HAND, Place(2), BOOK, max_deals=20, **kw)
    assert sum(full.given_up.values()) > 0  # the budget gives some up: the test can fail
    real = evaluate.evaluate_bids

    def evaluate_bids(specs, store, hand, seat, ruleset, n=None, *args):
        out = real(specs, store, hand, seat, ruleset, n, *args)
        if n is not None and n > 20:
            raise KeyboardInterrupt  # solved, but stopped before its figures count
        return out

    monkeypatch.setattr(evaluate, "evaluate_bids", evaluate_bids)
    cut = analyse_hand(RIK_HAND, Place(2), BOOK, **kw)
    assert cut.interrupted and {b.estimate.n for b in cut.bids} == {20}
    assert cut.given_up == full.given_up
    assert [b.estimate for b in cut.bids] == [b.estimate for b in full.bids]


def test_a_stop_in_the_failure_analysis_keeps_the_probabilities(monkeypatch):
    hand = parse_hand(HOLE_MISERE)
    full = analyse_misere(hand, Place(2), BOOK, deals=50, seed=8, explain=0)

    def forced_cards(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(misere, "forced_cards", forced_cards)
    cut = analyse_misere(hand, Place(2), BOOK, deals=50, seed=8)
    assert cut.interrupted and cut.n_deals == 50 and cut.analysed == 0
    assert cut.estimates == full.estimates and cut.stop_reason == full.stop_reason


def test_the_analyse_command_prints_the_finished_steps_and_exits_130(monkeypatch):
    _record_steps(monkeypatch, stop_after=20)
    args = ["analyse", "♠AHB42 ♥AH2 ♦6 ♣8743", "--seat", "all", "--seed", "3"]
    result = CliRunner().invoke(main, args, prog_name="rikken")
    assert result.exit_code == 130
    assert result.stdout.count("seat   ") == 1  # seat 1 only, cut after its first step
    assert "stopped early (Ctrl-C): each question's figures" in result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].endswith("seat(s) 2, 3, 4 not analysed"), result.stderr
