"""Should this hand bid misère? Make-probabilities and why the closed misère fails.

:func:`analyse_misere` samples the other 39 cards (seeded), solves on the same deals:

* ``misere`` — closed misère, the forehand (seat 1) leads: double-dummy is pessimistic here
  (the defenders play as if they saw the declarer's cards);
* ``open_misere`` — the bidder's hand face up, the leader as the rule set says (book: the
  bidder); pessimistic as well (the defenders do not see each other's cards at the table);
* ``open_misere_praatje`` — all hands open, the defenders confer: double-dummy is exact.

**Sample size.** By default the sample is adaptive (:class:`~analyser.analysis.adaptive.
SamplePlan`): deals are added in steps until the 95 % half-width of each of the three
make-probabilities is at most the precision (default 0.05), at most ``max_deals``; with
``deals`` the sample is that fixed size. All three forms use the same deals. The half-width
that stops sampling is the sampling error of the ends of the range the node budget leaves
(``Estimate.sampling_half_width``), not the width of that range, which more deals do not shrink.
Deal ``i`` depends only on the seed and ``i``, so a larger sample extends a smaller one and
the same arguments give the same figures.

**Node budget.** Every search, the failure analysis's included, runs under a node budget
(:data:`~analyser.analysis.positions.NODE_BUDGET` per search). A deal whose misère position
was given up at the budget is neither made nor failed: the make-probability becomes a range
(``Estimate.unknown``; the interval is widened over it) and so does the expected score. A
failing deal whose forced-card line needs a position that was given up is *unexplained
(budget)*; it is counted apart from the solver-inconsistency count ``unexplained``.

**Why it fails.** On every sampled deal where the closed misère fails, the failure analysis
(:mod:`analyser.analysis.misere_line`) finds the *forced card*: the card with which the
declarer wins his first trick along a principal line where the defenders force a trick as
early as they can. Beside it :func:`hole_test` gives the book's worst-case test (G-MIS-02):
``δ(y) = #(outstanding cards of s below y) − #(own cards of s below y)``, a hole where
``δ ≥ 1``; a suit without holes is safe whatever the distribution. Only the first
:data:`EXPLAIN_MAX` failing deals in sample order are explained (``explain``); the shares of
the forced cards are shares of the deals explained.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from analyser.analysis import play_curve
from analyser.analysis.adaptive import SamplePlan, interrupted_reason, sampling_plan
from analyser.analysis.bids import check_analysed
from analyser.analysis.headline import DOUBLE_DUMMY, real_play_of
from analyser.analysis.misere_line import BUDGET, UNEXPLAINED, forced_cards
from analyser.analysis.positions import NODE_BUDGET, PositionStore
from analyser.analysis.results import Headline
from analyser.analysis.wiezen import turned_known
from analyser.cards import N_SUITS, rank_of, suit_of
from analyser.errors import RikkenError
from analyser.progress import Progress
from analyser.rules import (
    MISERE,
    OPEN_MISERE,
    OPEN_MISERE_PRAATJE,
    RuleSet,
    contract_terms,
    declarer_score,
    first_leader,
)
from analyser.seats import FOREHAND, Place, Seat, seat_of
from analyser.stats import Estimate

TAG = "misere"
FORMS = (MISERE, OPEN_MISERE, OPEN_MISERE_PRAATJE)
"""The misère forms, those the rule set plays (wiezen: no praatje, :func:`forms_of`)."""


def forms_of(ruleset: RuleSet) -> tuple:
    """The forms of :data:`FORMS` that ``ruleset`` plays (the closed misère always)."""
    return tuple(c for c in FORMS if ruleset.allows(c))


# The failure analysis explains at most this many failing deals, the first in sample order.
# Measured on ♠B62 ♥9742 ♦853 ♣642 at seat 2 (failing on every deal, forced tricks mostly at
# trick 11-13): about 0.1 s per deal on two cores, so 100 deals take some 10 s; a share
# estimated on 100 deals is within ±0.1 (95 %).
EXPLAIN_MAX = 100


@dataclass(frozen=True)
class SuitHoles:
    """The G-MIS-02 worst-case test of one suit of the hand."""

    suit: int
    cards: tuple[int, ...]
    """The hand's cards of the suit, ascending."""
    deltas: tuple[int, ...]
    """``δ(y)`` of each of those cards."""
    holes: tuple[int, ...]
    """The cards with ``δ ≥ 1``."""

    @property
    def safe(self) -> bool:
        """No hole: the suit cannot be used to force a trick, however it is distributed."""
        return not self.holes


@dataclass
class MisereAnalysis:
    """Everything ``rikken misere`` reports."""

    hand: list[int]
    seat: Place
    """Seat relative to the dealer, 1..4."""
    ruleset: RuleSet
    seed: int
    n_deals: int
    estimates: dict[str, Estimate]
    """Contract id (``misere``, ``open_misere``, ``open_misere_praatje``) → make-estimate
    (``unknown``: deals whose position was given up at the node budget)."""
    leaders: dict[str, Seat]
    """Contract id → the seat 0..3 leading to trick 1."""
    expected: dict[str, float]
    """Contract id → expected score of the declarer at the estimate's ``p`` (the middle of
    its range when deals were given up)."""
    forced: dict[int, int]
    """Forced card → number of explained failing deals (closed misère)."""
    forced_trick: dict[int, int]
    """Trick number (1..13) of the forced trick → number of explained failing deals."""
    failures: int
    """Deals on which the closed misère fails (given-up deals not included)."""
    unexplained: int = 0
    """Failing deals whose line ended in an escape (would mean a solver inconsistency)."""
    unexplained_budget: int = 0
    """Failing deals whose line needs a position given up at the node budget."""
    analysed: int = 0
    """Failing deals the failure analysis ran on: the first ``explain_limit`` in sample order."""
    explain_limit: int = EXPLAIN_MAX
    expected_range: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Contract id → expected score from ``p_low`` to ``p_high`` (equal ends: nothing given
    up)."""
    expected_ci: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Contract id → expected score over the estimate's 95 % interval (which is widened over
    the given-up deals): the range and the sampling uncertainty together."""
    holes: list[SuitHoles] = field(default_factory=list)
    plan: SamplePlan = field(default_factory=SamplePlan)
    stop_reason: str = ""
    node_budget: int = NODE_BUDGET
    given_up: dict[str, int] = field(default_factory=dict)
    """Positions given up at the node budget: ``make`` (the make-probabilities) and
    ``explain`` (the failure analysis)."""
    positions: dict[str, int] = field(default_factory=dict)
    """Positions solved: ``make`` and ``explain``."""
    seconds: dict[str, float] = field(default_factory=dict)
    turned: int | None = None
    """The turned card (wiezen, W-01; it lies with the dealer), else None."""
    interrupted: bool = False
    """Stopped with Ctrl-C: the figures are those of the deals finished (``n_deals``), and
    the failure analysis was skipped."""
    deal_model: str = "uniform"
    """How the other hands were dealt (R-DEAL-06): ``uniform`` or ``cut_only``."""
    play: str = "double-dummy"
    """Which figures are the headline: ``real-play`` or ``double-dummy``."""
    calibration: Any = None
    """The real-play calibration used (:class:`analyser.analysis.play_curve.Calibration`)."""
    headlines: dict[str, Headline] = field(default_factory=dict)
    """Per contract id with a real-play headline: its figures."""
    headline_why: dict[str, str] = field(default_factory=dict)
    """Per contract id asked for a real-play headline and not given one: why."""

    @property
    def explained(self) -> int:
        """Failing deals with a forced card (the denominator of the shares)."""
        return self.analysed - self.unexplained - self.unexplained_budget


def hole_test(hand: list[int]) -> list[SuitHoles]:
    """G-MIS-02 per suit ♠ ♥ ♦ ♣ (nothing played yet)."""
    from analyser.guidelines.misere import deltas

    out = []
    for s in range(N_SUITS):
        mine = sorted(c for c in hand if suit_of(c) == s)
        holding = sum(1 << rank_of(c) for c in mine)
        d = dict(deltas(holding))
        ds = tuple(d[rank_of(c)] for c in mine)
        out.append(
            SuitHoles(s, tuple(mine), ds, tuple(c for c, x in zip(mine, ds, strict=True) if x >= 1))
        )
    return out


class _DealProgress:
    """Turns the store's per-position progress into deals sampled (``per_deal`` positions
    make one deal) on a :class:`~analyser.progress.Progress`."""

    def __init__(self, progress: Progress, per_deal: int):
        self.progress = progress
        self.per_deal = max(per_deal, 1)
        self.base = 0  # deals done before the current step
        self.positions = 0  # positions solved in the current step

    def new_step(self, deals_done: int) -> None:
        self.base, self.positions = deals_done, 0

    def set_total(self, total: int) -> None:
        """Ignored: the total is counted in deals by the caller."""

    def advance(self, k: int = 1) -> None:
        self.positions += k
        done = self.base + self.positions // self.per_deal
        if done > self.progress.done:
            self.progress.advance(done - self.progress.done)


def _expected(scores: tuple[float, float], p: float) -> float:
    """The declarer's expected score at make-probability ``p``: ``scores`` = (made, failed)."""
    return p * scores[0] + (1 - p) * scores[1]


def analyse_misere(
    hand: list[int],
    seat: Place,
    ruleset: RuleSet,
    deals: int | None = None,
    seed: int = 1,
    threads: int | None = None,
    *,
    precision: float | None = None,
    max_deals: int | None = None,
    explain: int = EXPLAIN_MAX,
    max_nodes: int = NODE_BUDGET,
    quiet: bool = True,
    turned: int | None = None,
    deal_model: str = "uniform",
    play: str = "real-play",
) -> MisereAnalysis:
    """Make-probabilities of the misère forms and the forced cards of the failing deals, for
    ``hand`` at ``seat`` (1..4 relative to the dealer).

    ``deals`` alone is a fixed sample size; without it the sample is adaptive: deals are added
    until every make-probability's 95 % half-width is at most ``precision`` (default
    :data:`~analyser.analysis.adaptive.TARGET_HALF_WIDTH`), at most ``max_deals`` (default
    :data:`~analyser.analysis.adaptive.MAX_DEALS`; ``deals`` with ``precision``: at most
    ``deals``), as ``rikken analyse`` does. ``explain`` is the most failing deals the
    failure analysis runs on (the first in sample order; 0 = none). ``max_nodes`` is the
    node budget per search (0 = none), for the make-probabilities and the failure analysis
    alike. ``quiet`` hides the progress line (shown on a terminal only). ``turned`` is the
    turned card under a rule set with a turned trump (wiezen W-01: required there, refused
    elsewhere; it lies with the dealer in every sampled deal). Only the forms the rule set
    plays are evaluated (wiezen: miserie and miserie op tafel). ``deal_model``: ``uniform``
    or ``cut_only`` (R-DEAL-06, :mod:`analyser.deal_draw`). ``play``: ``real-play`` (each
    form's headline is its estimated real play where the calibration covers it,
    :mod:`analyser.analysis.headline`) or ``double-dummy``.

    A Ctrl-C (KeyboardInterrupt) during the sampling does not propagate once a step has
    finished: the result holds the figures of the finished steps and has ``interrupted``
    set, so a caller that needs a complete run must check it. Before any step finished it
    propagates. A Ctrl-C during the failure analysis skips it (``interrupted`` set,
    the make-probabilities complete)."""
    from analyser.deal_draw import deal_source
    from analyser.solver import GOAL_MISERE

    check_analysed(ruleset, "rikken misere")
    plan = sampling_plan(deals, precision, max_deals)
    if explain < 0:
        raise RikkenError(f"--explain must be 0 or more, got {explain}")
    if max_nodes < 0:
        raise RikkenError(f"the node budget must be 0 (none) or positive, got {max_nodes}")
    me = seat_of(seat)
    known, turned_suit = turned_known(ruleset, list(hand), me, turned)
    source = deal_source(deal_model, list(hand), seat, seed, known, turned=turned_suit is not None)
    forms = forms_of(ruleset)
    leaders: dict[str, Seat] = {}
    for contract in forms:
        contract_terms(ruleset, contract)  # raises if the rule set lacks it
        leaders[contract.id] = first_leader(ruleset, contract, (me,), FOREHAND)
    t0 = time.perf_counter()
    # the sample is solved in steps, fixed or adaptive (the answers are per deal), so that a
    # run stopped with Ctrl-C reports on the deals of the steps it finished
    done = None
    with Progress(plan.first(), "misère: sampling deals", quiet=quiet) as progress:
        feed = _DealProgress(progress, len(set(leaders.values())))
        store = PositionStore(
            np.zeros((0, 4), np.int64),
            discard_ok=ruleset.called_card_may_be_discarded,
            threads=threads,
            progress=feed,
            max_nodes=max_nodes,
        )
        size = plan.first_step()
        try:
            while True:
                feed.new_step(store.n)
                store.extend(source(store.n, size - store.n))
                idx = np.arange(store.n)
                made = {
                    cid: store.null_goal(idx, GOAL_MISERE, leader, 1 << me, TAG)
                    for cid, leader in leaders.items()
                }
                estimates = {cid: Estimate.of_answers(ok) for cid, ok in made.items()}
                widths = [e.sampling_half_width for e in estimates.values()]
                # what a Ctrl-C keeps (the given-up count of these deals only)
                done = (store.n, made, estimates, widths, int(store.given_up[TAG]))
                if plan.settled(widths, store.n):
                    break
                size = plan.next_size(store.n)
                # the time left is estimated for the end of each range nearest 1/2 (the worst)
                need = max(
                    plan.deals_needed(min(max(0.5, e.p_low), e.p_high)) for e in estimates.values()
                )
                progress.set_total(max(size, need) if plan.adaptive else plan.limit)
        except KeyboardInterrupt:
            if done is None:
                raise
            interrupted = True
        else:
            interrupted = False
    n_done, made, estimates, widths, given_up_make = done
    if interrupted:
        stop = interrupted_reason(n_done, plan)
    else:
        stop = _stop_reason(plan, n_done, max(widths))
    solve_seconds = time.perf_counter() - t0

    expected, expected_range, expected_ci = {}, {}, {}
    cal = None if play == DOUBLE_DUMMY else play_curve.load()
    headlines, why = {}, {}
    for contract in forms:
        scores = (declarer_score(ruleset, contract, 0), declarer_score(ruleset, contract, 1))
        if play != DOUBLE_DUMMY:
            got = real_play_of(contract, ruleset, hand, estimates[contract.id], scores, cal)
            if isinstance(got, str):
                why[contract.id] = got
            else:
                headlines[contract.id] = got
        e = estimates[contract.id]
        expected[contract.id] = _expected(scores, e.p)
        lo, hi = sorted(_expected(scores, x) for x in (e.p_low, e.p_high))
        expected_range[contract.id] = (lo, hi)
        lo, hi = sorted(_expected(scores, x) for x in e.interval)
        expected_ci[contract.id] = (lo, hi)

    failing = np.flatnonzero(made[MISERE.id] == 0)
    # after a Ctrl-C the failure analysis (more solving) is skipped
    chosen = failing[: 0 if interrupted else explain]
    t1 = time.perf_counter()
    stats: dict[str, int] = {}
    try:
        with Progress(chosen.size, "misère: explaining failing deals", quiet=quiet) as progress:
            cards, tricks = forced_cards(
                store.deals[chosen],
                leaders[MISERE.id],
                me,
                threads=threads,
                max_nodes=max_nodes,
                on_deal=progress.advance,
                stats=stats,
            )
    except KeyboardInterrupt:
        # stopped while explaining: the make-probabilities stand, the explanation is skipped
        interrupted = True
        chosen = chosen[:0]
        cards = tricks = np.zeros(0, np.int64)
        stats = {}
    forced: dict[int, int] = {}
    forced_trick: dict[int, int] = {}
    for c, t in zip(cards, tricks, strict=True):
        if c >= 0:
            forced[int(c)] = forced.get(int(c), 0) + 1
            forced_trick[int(t)] = forced_trick.get(int(t), 0) + 1
    return MisereAnalysis(
        turned=turned,
        deal_model=deal_model,
        hand=sorted(hand),
        seat=seat,
        ruleset=ruleset,
        seed=seed,
        n_deals=n_done,
        estimates=estimates,
        leaders=leaders,
        expected=expected,
        expected_range=expected_range,
        expected_ci=expected_ci,
        forced=dict(sorted(forced.items())),
        forced_trick=dict(sorted(forced_trick.items())),
        failures=int(failing.size),
        unexplained=int((cards == UNEXPLAINED).sum()),
        unexplained_budget=int((cards == BUDGET).sum()),
        analysed=int(chosen.size),
        explain_limit=explain,
        holes=hole_test(list(hand)),
        plan=plan,
        stop_reason=stop,
        node_budget=max_nodes,
        given_up={"make": given_up_make, "explain": stats.get("given_up", 0)},
        positions={"make": int(store.solved[TAG]), "explain": stats.get("positions", 0)},
        seconds={"solve": solve_seconds, "explain": time.perf_counter() - t1},
        interrupted=interrupted,
        play=play,
        calibration=cal,
        headlines=headlines,
        headline_why=why,
    )


def _stop_reason(plan: SamplePlan, n: int, widest: float) -> str:
    """Why the sample has ``n`` deals (``widest``: the largest 95 % half-width)."""
    if not plan.adaptive:
        return f"fixed sample of {n} deals (--deals)"
    if widest <= plan.precision:
        return (
            f"precision reached after {n} deals: every 95% half-width (sampling error) <= "
            f"{plan.precision:g} (widest {widest:.4f})"
        )
    return (
        f"maximum of {plan.max_deals} deals reached; widest 95% half-width (sampling error) "
        f"{widest:.4f} > {plan.precision:g}"
    )


def forced_by_suit(analysis: MisereAnalysis) -> dict[int, int]:
    """Explained failing deals per suit of the forced card."""
    out = {s: 0 for s in range(N_SUITS)}
    for c, k in analysis.forced.items():
        out[suit_of(c)] += k
    return out
