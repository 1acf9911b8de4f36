"""Joined misère: "and if seat T plays misère too?" (``rikken misere HAND --with-seat T``).

Two or three players play the closed misère in one deal, each for himself (R-BID-08, I-05,
W-14; docs/rules.md). :func:`analyse_joined` samples the other 39 cards given the hand (the
same seeded deals as ``rikken misere``: deal ``i`` depends only on the seed and ``i``), and
on every deal asks the joined search (:mod:`analyser.solver.joined_misere`, whose docstring
defines the game) once per declarer whether he makes: X against best play by the others,
co-declarers bound to duck a trick that would sink them when they can (model ``duck``). The
end of play is the rule set's ``several_declarers`` switch: ``settle_all`` (book, wiezen),
``stop_at_first_failure`` (IWWA I-06).

Reported: P(make) of each declarer, P(all make) (each in his own worst case on the same
deal), and the hand's expected score by the rule set's table for several declarers
(:func:`analyser.rules.score`: every misère player settles the misère amount with each other
player, R-MIS-02 default / W-17). A search given up at the node budget leaves that
declarer's result open on that deal: the probabilities become ranges (Estimate.unknown) and
the expected score an interval from the worst to the best resolution for the hand (his own
open result failed and the others' made, and the reverse), widened by the sampling error.
Sampling is adaptive as in ``rikken misere``: steps of deals until every reported
probability's half-width is at most the precision, at most ``max_deals``.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np

from analyser.analysis.adaptive import SamplePlan, interrupted_reason, sampling_plan
from analyser.analysis.bids import check_analysed
from analyser.analysis.misere import _stop_reason
from analyser.analysis.positions import NODE_BUDGET
from analyser.analysis.wiezen import turned_known
from analyser.cards import N_SEATS
from analyser.errors import RikkenError
from analyser.progress import Progress
from analyser.rules import MISERE, RuleSet, first_leader, score
from analyser.seats import FOREHAND, PLACES, Place, Seat, seat_of
from analyser.stats import Estimate, stratified_mean

MODEL = "duck"
MAX_DECLARERS = 3  # the joined search is checked for two and three declarers


@dataclass
class JoinedAnalysis:
    """What ``rikken misere --with-seat`` adds to the misère report."""

    hand: list[int]
    seat: Place
    """The hand's place relative to the dealer, 1..4."""
    with_places: tuple[Place, ...]
    """The other declarers' places, in the order given."""
    ruleset: RuleSet
    seed: int
    n_deals: int
    made: list[Estimate]
    """Per declarer (the hand first, then ``with_places``): make-estimate, ``unknown`` the
    deals whose search was given up at the node budget."""
    all_made: Estimate
    """Every declarer makes (on a deal, each in his own game)."""
    expected: float
    """The hand's expected score (the middle of ``expected_range``)."""
    expected_range: tuple[float, float]
    """From every open result resolved against the hand to every one in its favour."""
    expected_ci: tuple[float, float]
    """95 % interval of the expected score: the range and the sampling error together."""
    leader: Seat
    end_of_play: str
    """The rule set's ``several_declarers``: ``settle_all`` or ``stop_at_first_failure``."""
    model: str = MODEL
    plan: SamplePlan = field(default_factory=SamplePlan)
    stop_reason: str = ""
    node_budget: int = NODE_BUDGET
    searches: int = 0
    given_up: int = 0
    max_search_nodes: int = 0
    interrupted: bool = False
    """Stopped with Ctrl-C: the figures are those of the deals finished (``n_deals``)."""
    seconds: float = 0.0

    @property
    def declarers(self) -> tuple[Seat, ...]:
        """Absolute seats of the declarers, the hand's first."""
        return tuple(seat_of(p) for p in (self.seat, *self.with_places))


def check_with_places(seat: Place, with_places: tuple[int, ...]) -> tuple[Place, ...]:
    """The other declarers' places, validated: 1..4, not the hand's own, no repeats, at most
    two (three declarers). RikkenError (one line) otherwise."""
    out: list[Place] = []
    for t in with_places:
        if t not in PLACES:
            raise RikkenError(f"--with-seat must be a seat 1..4, got {t}")
        if t == seat:
            raise RikkenError(f"--with-seat {t} is the hand's own seat (--seat {seat})")
        if t in out:
            raise RikkenError(f"--with-seat {t} is given twice")
        out.append(Place(t))
    if not out:
        raise RikkenError("--with-seat needs a seat 1..4")
    if len(out) + 1 > MAX_DECLARERS:
        raise RikkenError(
            f"at most {MAX_DECLARERS} misère declarers (two --with-seat), got {len(out) + 1}"
        )
    return tuple(out)


def _score_table(ruleset: RuleSet, declarers: tuple[Seat, ...]) -> dict[tuple[int, ...], int]:
    """The hand's score (declarers[0]) for every combination of made (1) / failed (0)."""
    out = {}
    for combo in itertools.product((0, 1), repeat=len(declarers)):
        tricks = [0] * N_SEATS
        for d, ok in zip(declarers, combo, strict=True):
            tricks[d] = 0 if ok else 1
        out[combo] = score(ruleset, MISERE, tricks, declarers)[declarers[0]]
    return out


def _score_bounds(
    results: np.ndarray, table: dict[tuple[int, ...], int]
) -> tuple[np.ndarray, np.ndarray]:
    """Per deal, the hand's lowest and highest score over the open results (-1): the hand's
    own score rises with its make and falls with every other declarer's."""
    low = np.empty(results.shape[0])
    high = np.empty(results.shape[0])
    for i, row in enumerate(results):
        worst = tuple(int(r) if r >= 0 else (0 if k == 0 else 1) for k, r in enumerate(row))
        best = tuple(int(r) if r >= 0 else (1 if k == 0 else 0) for k, r in enumerate(row))
        low[i], high[i] = table[worst], table[best]
    return low, high


def _joined_column(deals, leader, decl_mask, x, rule, max_nodes, threads, stats) -> np.ndarray:
    """Declarer ``x``'s joined-misère answers (1, 0, -1 given up) on ``deals``.

    A misère that makes alone - against all three others, with no co-declarer to sink
    first - makes joined too, under either end of play: whatever the others do, ``x`` takes
    no trick before play ends. The main solver settles that question in about a millisecond
    a deal, so only the other deals go to the joined search (under stop_at_first_failure
    the joined proofs of such deals ran into the node budget one search in six)."""
    from analyser.solver import GOAL_MISERE, solve_batch
    from analyser.solver.joined_api import solve_joined_batch
    from analyser.solver.layout import NT

    out = np.zeros(deals.shape[0], dtype=np.int8)
    alone = solve_batch(
        deals, NT, leader, 1 << x, GOAL_MISERE, 0, -1, threads=threads, max_nodes=max_nodes
    )
    made_alone = alone == 1
    out[made_alone] = 1
    rest = ~made_alone
    if rest.any():
        out[rest] = solve_joined_batch(
            deals[rest],
            leader,
            decl_mask,
            x,
            "misere",
            rule,
            MODEL,
            max_nodes=max_nodes,
            threads=threads,
            stats=stats,
        )
    return out


def analyse_joined(
    hand: list[int],
    seat: Place,
    with_places: tuple[int, ...],
    ruleset: RuleSet,
    deals: int | None = None,
    seed: int = 1,
    threads: int | None = None,
    *,
    precision: float | None = None,
    max_deals: int | None = None,
    max_nodes: int = NODE_BUDGET,
    quiet: bool = True,
    turned: int | None = None,
    deal_model: str = "uniform",
) -> JoinedAnalysis:
    """Make-probabilities of a closed misère that the players at ``with_places`` (1..4,
    one or two) join, for ``hand`` at ``seat``; see the module docstring. Sampling options
    as :func:`~analyser.analysis.misere.analyse_misere`; ``max_nodes`` is the node budget of
    each search (0 = none). ``turned``: the turned card of a rule set with a turned trump
    (wiezen W-01; it lies with the dealer in every sampled deal). ``deal_model``: the other
    hands dealt ``uniform`` or as an unshuffled table deals them (``cut_only``,
    :mod:`analyser.deal_draw`); the same deals as the misère analysis of the same seed.

    A Ctrl-C (KeyboardInterrupt) during the sampling does not propagate once a step has
    finished: the result holds the figures of the finished steps and has ``interrupted``
    set, so a caller that needs a complete run must check it. Before any step finished it
    propagates."""
    from analyser.deal_draw import deal_source

    check_analysed(ruleset, "rikken misere")
    places = check_with_places(seat, with_places)
    if MISERE not in ruleset.joinable:
        raise RikkenError(f"misère cannot be joined under {ruleset.spec}")
    if max_nodes < 0:
        raise RikkenError(f"the node budget must be 0 (none) or positive, got {max_nodes}")
    plan = sampling_plan(deals, precision, max_deals)
    me = seat_of(seat)
    declarers = (me, *(seat_of(p) for p in places))
    decl_mask = sum(1 << d for d in declarers)
    leader = first_leader(ruleset, MISERE, declarers, FOREHAND)
    rule = ruleset.several_declarers
    known, turned_suit = turned_known(ruleset, list(hand), me, turned)
    source = deal_source(deal_model, list(hand), seat, seed, known, turned=turned_suit is not None)
    table = _score_table(ruleset, declarers)
    stats: dict[str, int] = {}
    results = np.zeros((0, len(declarers)), np.int64)
    all_deals = np.zeros((0, N_SEATS), np.int64)
    t0 = time.perf_counter()
    # solved in steps, fixed or adaptive (the answers are per deal), so that a run stopped
    # with Ctrl-C reports on the deals of the steps it finished
    interrupted = False
    with Progress(plan.first(), "joined misère: sampling deals", quiet=quiet) as progress:
        size = plan.first_step()
        try:
            while True:
                new = source(all_deals.shape[0], size - all_deals.shape[0])
                cols = [
                    _joined_column(new, leader, decl_mask, x, rule, max_nodes, threads, stats)
                    for x in declarers
                ]
                # one assignment: a Ctrl-C leaves both arrays at the last finished step
                all_deals, results = (
                    np.vstack([all_deals, new]),
                    np.vstack([results, np.stack(cols, axis=1).astype(np.int64)]),
                )
                progress.advance(new.shape[0])
                n = all_deals.shape[0]
                if plan.settled(_widths(*_estimates(results)), n):
                    break
                size = plan.next_size(n)
                if plan.adaptive:
                    progress.set_total(size)
        except KeyboardInterrupt:
            if all_deals.shape[0] == 0:
                raise
            interrupted = True
    n = all_deals.shape[0]
    made, all_ok = _estimates(results)
    stop = _stop_reason(plan, n, max(_widths(made, all_ok)))
    low, high = _score_bounds(results, table)
    point, ci_lo, ci_hi = stratified_mean(np.zeros(n), np.ones(n, bool), low, high)
    return JoinedAnalysis(
        hand=sorted(hand),
        seat=seat,
        with_places=places,
        ruleset=ruleset,
        seed=seed,
        n_deals=n,
        made=made,
        all_made=all_ok,
        expected=point,
        expected_range=(float(low.mean()), float(high.mean())),
        expected_ci=(ci_lo, ci_hi),
        leader=leader,
        end_of_play=rule,
        plan=plan,
        stop_reason=interrupted_reason(n, plan) if interrupted else stop,
        node_budget=max_nodes,
        searches=int(results.size),
        given_up=int((results < 0).sum()),
        max_search_nodes=stats.get("max_nodes_one", 0),
        seconds=time.perf_counter() - t0,
        interrupted=interrupted,
    )


def _estimates(results: np.ndarray) -> tuple[list[Estimate], Estimate]:
    """Each declarer's make-estimate (in the order of ``results``' columns) and all made."""
    made = [Estimate.of_answers(results[:, k]) for k in range(results.shape[1])]
    return made, Estimate.of_answers(_all_made(results))


def _widths(made: list[Estimate], all_ok: Estimate) -> list[float]:
    """The half-widths of the stopping rule (Estimate.sampling_half_width)."""
    return [e.sampling_half_width for e in (*made, all_ok)]


def _all_made(results: np.ndarray) -> np.ndarray:
    """Per deal: 1 if every declarer makes, 0 if one fails, -1 if open (none fails, one
    or more given up)."""
    out = np.ones(results.shape[0], np.int64)
    out[np.any(results < 0, axis=1)] = -1
    out[np.any(results == 0, axis=1)] = 0
    return out
