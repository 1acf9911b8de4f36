"""Evaluate every bid of a hand on one sample of deals: the sampling loop.

Paired comparison: the other 39 cards are sampled once per run (:func:`analyser.sampler.
sample_deals`, seed printed) and every bid is evaluated on those same deals - on a prefix of
them when its question settled early (below).

**How many deals** (:mod:`.adaptive`). With ``--deals N`` every bid gets the N deals. By
default the sample grows in steps and each *question* stops taking deals once every
make-probability it reports has a 95 % half-width of at most 0.05 (at most 1000 deals). A
bid's contract family says which bids make one question (:meth:`~analyser.analysis.families.
registry.Family.question`): rik and beter rik each settle on their own, the alone levels with
one leader to trick 1 together, each misère / piek form, malheur and each wiezen bid on its
own. A bid that always makes or never makes settles after 50 deals; one near 50 % needs about
385.

**No unbounded work.** Every search runs under the store's node budget
(:data:`~analyser.analysis.positions.NODE_BUDGET`). A position given up there keeps the
bounds it proved; a make-probability it touches becomes a range (``Estimate.unknown``), its
expected score an interval, and the analysis counts the given-up positions.

**The solver work** of each bid - which questions it asks, how the declarer's choices of trump
and partner card are made, and how the answers become its figures and notes - belongs to its
contract family, one module each in :mod:`analyser.analysis.families` (found by the contract's
kind in :mod:`~analyser.analysis.families.registry`). Exact trick counts are made on a
subsample only (:mod:`~analyser.analysis.families.sample`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Collection

import numpy as np

from analyser.analysis.adaptive import INTERRUPTED, sampling_plan
from analyser.analysis.bids import BidSpec, aces_held, check_analysed, left_out
from analyser.analysis.families.registry import bid_specs, families, family_named
from analyser.analysis.families.sample import SampleView
from analyser.analysis.headline import apply_play
from analyser.analysis.positions import NODE_BUDGET, PositionStore
from analyser.analysis.results import BidResult, HandAnalysis
from analyser.analysis.wiezen import turned_known
from analyser.errors import RikkenError
from analyser.progress import Progress
from analyser.rules import BETER_RIK, Contract, RuleSet
from analyser.seats import Place, Seat, seat_of, turn_order


def analyse_hand(
    hand: list[int],
    seat: Place,
    ruleset: RuleSet,
    deals: int | None = None,
    seed: int = 1,
    precision: float | None = None,
    min_p: float = 0.5,
    quiet: bool = True,
    threads: int | None = None,
    max_deals: int | None = None,
    max_nodes: int = NODE_BUDGET,
    turned: int | None = None,
    deal_source: Callable[[int, int], np.ndarray] | None = None,
    legal: Collection[Contract] | None = None,
    deal_model: str = "uniform",
    play: str = "real-play",
) -> HandAnalysis:
    """Evaluate every bid of ``hand`` (13 card ints) at ``seat`` (1..4 relative to the dealer).

    ``turned`` is the turned card (a card int) under a rule set with a turned trump (wiezen,
    W-01): required there, refused elsewhere; it lies with the dealer in every sampled deal.

    ``deals`` fixes the sample size (solved in the adaptive sample's steps, every question
    to the end); without it the sample is adaptive (module docstring): each question takes
    deals until its 95 % half-widths are at most ``precision`` (default 0.05), at most
    ``max_deals`` (default 1000). ``deals`` with ``precision`` is adaptive with
    ``deals`` as the maximum. ``max_nodes`` is the node budget per search (0 = none).

    At the table (:mod:`analyser.auction`): ``deal_source(start, n)`` gives deals ``start ..
    start + n - 1`` instead of the uniform sampler (the deals conditioned on the auction so
    far, this hand at its seat in every one), and ``legal`` the calls open to the seat now:
    only those bids are evaluated, and they stand for the opening bids of the
    recommendation.

    ``deal_model`` (R-DEAL-06): ``uniform`` deals, or ``cut_only``, the deals as they lie
    after an unshuffled deal given this hand (:mod:`analyser.deal_draw`, its approximation
    stated there); with ``deal_source`` it names the model the given deals were drawn under.

    ``play`` (:mod:`analyser.analysis.headline`): the headline figures each bid shows and the
    recommendation weighs: ``real-play`` (the calibrated estimate where it applies),
    ``double-dummy``, or ``single-dummy`` (as real-play; the caller plays the bids out).

    A Ctrl-C (KeyboardInterrupt) during the sampling does not propagate once a step has
    finished: the result holds the figures of the finished steps and has ``interrupted``
    set, so a caller that needs a complete run must check it. Before any step finished it
    propagates.
    """
    from analyser.analysis.recommend import recommend
    from analyser.deal_draw import deal_source as draw_source

    check_analysed(ruleset, "rikken analyse")
    plan = sampling_plan(deals, precision, max_deals)
    if not 0 <= min_p <= 1:
        raise RikkenError(f"--min-p must be between 0 and 1, got {min_p}")
    seat_abs = seat_of(seat)
    known, turned_suit = turned_known(ruleset, list(hand), seat_abs, turned)
    specs = bid_specs(ruleset, list(hand), seat_abs, turned_suit)
    if legal is not None:
        specs = [s for s in specs if s.contract in legal]
    if deal_source is None:
        deal_source = draw_source(
            deal_model, list(hand), seat, seed, known, turned=turned_suit is not None
        )
    # given deals (at the table): ``deal_model`` names the model they were drawn under

    groups = _groups(specs)
    t0 = time.perf_counter()
    results: dict[str, BidResult] = {}
    sizes: dict[str, int] = {}
    memo: dict = {}
    with Progress(0, f"seat {seat}", quiet=quiet) as progress:
        store = PositionStore(
            np.zeros((0, 4), np.int64),
            discard_ok=ruleset.called_card_may_be_discarded,
            threads=threads,
            progress=progress,
            max_nodes=max_nodes,
        )
        active = list(groups)
        # a fixed --deals N sample is solved in the same steps (every figure is per deal,
        # and the exact-count subsample of a prefix is the prefix of the subsample), so a
        # Ctrl-C keeps the finished steps there too
        size = plan.first_step()
        interrupted = False
        kept_given_up: dict[str, int] = {}
        try:
            while active:
                if store.n < size:
                    store.extend(deal_source(store.n, size - store.n))
                for g in active:
                    done = evaluate_bids(
                        groups[g],
                        store,
                        list(hand),
                        seat_abs,
                        ruleset,
                        size,
                        memo,
                        plan.precision if plan.adaptive else 0.0,
                    )
                    # a question's bids, its size and the given-up count its figures rest
                    # on change together (built first, then one assignment), so a Ctrl-C
                    # leaves every question at its last finished step
                    new_results = dict(results)
                    new_results.update((r.spec.id, r) for r in done)
                    new_sizes = dict(sizes)
                    new_sizes[g] = size
                    results, sizes, kept_given_up = new_results, new_sizes, dict(store.given_up)
                active = [
                    g
                    for g in active
                    if not plan.settled(
                        [h for s in groups[g] for h in _half_widths(results[s.id])], size
                    )
                ]
                if active:
                    # a fixed sample needs all its deals: next_size(size, limit) is then
                    # the plain next step
                    expected = plan.limit
                    if plan.adaptive:
                        open_p = [results[s.id].estimate.p for g in active for s in groups[g]]
                        expected = max(plan.deals_needed(p) for p in open_p)
                    progress.set_status(size, max(expected, size + 1), plan.limit)
                    size = plan.next_size(size, expected)
        except KeyboardInterrupt:
            if not results:
                raise
            interrupted = True
    stopped = [s for s in specs if s.id not in results]
    specs = [s for s in specs if s.id in results]
    bids = [results[s.id] for s in specs]
    n_max = max(sizes.values(), default=0)
    # every family's tag, the ones not always reported only where they solved something
    tags = tuple(f.tag for f in families() if f.always_reported or f.tag in store.solved)
    result = HandAnalysis(
        hand=sorted(hand),
        seat=seat,
        ruleset=ruleset,
        seed=seed,
        n_deals=n_max,
        bids=bids,
        stop_reason=_stop_reason(plan, groups, sizes, results, interrupted),
        precision=plan.precision if plan.adaptive else None,
        min_p=min_p,
        seconds={tag: store.seconds.get(tag, 0.0) for tag in tags},
        positions={tag: store.solved.get(tag, 0) for tag in tags},
        query_kinds={
            key: (store.kind_seconds[key], store.kind_solved[key]) for key in store.kind_solved
        },
        sampling=plan.describe(),
        node_budget=max_nodes,
        # after a Ctrl-C, only the positions of the steps the figures rest on
        given_up={
            tag: (kept_given_up if interrupted else store.given_up).get(tag, 0) for tag in tags
        },
        turned=turned,
        deal_model=deal_model,
    )
    result.seconds["total"] = time.perf_counter() - t0
    given_up = sum(result.given_up.values())
    if given_up:
        result.notes.append(
            f"{given_up} solver position(s) reached the node budget ({max_nodes:,} nodes per "
            "search) and were bounded rather than solved: the figures they touch are ranges "
            "(P(make) low-high, the expected score's interval)"
        )
    if interrupted:
        result.interrupted = True
        result.notes.append(
            "stopped early (Ctrl-C): every figure is on the deals of the steps finished "
            "before the stop"
            + (
                "; not evaluated: "
                + ", ".join(s.id for s in stopped)
                + " (the recommendation weighs only the bids evaluated)"
                if stopped
                else ""
            )
        )
    if deal_model != "uniform":
        result.notes.append(CUT_ONLY_NOTE)
    _note_not_offered(result)
    for family in families():
        result.notes += family.hand_notes(result, store.deals[:n_max], seat_abs)
    # the headline figures (real play by default) before the recommendation that weighs them
    apply_play(result, play)
    recommend(result, aces_held(list(hand)), legal)
    return result


CUT_ONLY_NOTE = (
    "deal model cut_only: the other hands are drawn as they lie after an unshuffled deal "
    "(R-DEAL-06) with this hand's cards at this seat: sessions of the model rejected on the "
    "hand's suit lengths, the given cards exchanged into place (analyser/deal_draw.py); "
    "the sample is solved double-dummy on those deals, and the estimated real play maps the "
    "double-dummy figure through the single-dummy curves of Study 13 (measured on uniform "
    "deals) whatever the deal model"
)


def _groups(specs: list[BidSpec]) -> dict[str, list[BidSpec]]:
    """The questions of the adaptive sample: specs that share their positions stop together
    (each family says which, :meth:`~analyser.analysis.families.registry.Family.question`)."""
    out: dict[str, list[BidSpec]] = {}
    for s in specs:
        out.setdefault(family_named(s.family).question(s), []).append(s)
    return out


def _stop_reason(plan, groups, sizes, results, interrupted=False) -> str:
    """Why each question has its deals: the stop reason the reports print."""
    if interrupted:
        parts = ", ".join(f"{g} {n}" for g, n in sizes.items())
        return (
            f"{INTERRUPTED}: each question's figures are on the deals of its last finished "
            f"step ({parts}; at most {plan.limit})"
        )
    if not plan.adaptive:
        return plan.describe()
    parts = []
    for g, n in sizes.items():
        widest = max(_group_widths(groups[g], results))
        parts.append(f"{g} {n} deals (widest half-width {widest:.3f})")
    return plan.describe() + ": " + ", ".join(parts)


def _note_not_offered(result: HandAnalysis) -> None:
    """Record the contracts the hand can never bid at its seat, and why (each reason once)."""
    rs = result.ruleset
    seat = seat_of(result.seat)
    left = left_out(rs, result.hand, seat)
    if not left:
        return
    result.not_offered = [c.id for c in left]
    aces = aces_held(result.hand)
    announced = [c.id for c in rs.announced if aces in c.aces_needed]
    if announced:
        result.notes.append(
            f"{aces} aces: {announced[0]} must be announced before the auction (W-03), so this "
            "hand can only play it or, once someone outbids it, a game ranked above it (W-06); "
            f"not evaluated: {', '.join(result.not_offered)}"
        )
    elif rs.malheur == "obligatory" and aces >= 3:
        # the malheur duty leaves out everything below malheur (beter rik included) and, for
        # the forehand, whatever needs a rik nobody can bid after his malheur
        what_if = dataclasses.replace(rs, malheur="optional").spec
        result.notes.append(
            f"{aces} aces and an obligatory malheur (R-MAL-01): this hand must bid malheur or "
            f"higher at its first turn, so it can never bid {', '.join(result.not_offered)}; "
            f"they are not evaluated. --rules '{what_if}' evaluates them as a what-if"
        )
    elif turn_order(seat) == 0 and BETER_RIK.id in result.not_offered:
        result.notes.append(
            "beter rik is not evaluated: the forehand speaks first and can never bid it, it "
            "needs another player's rik (R-BID-07); his rik may choose hearts (the rik row)"
        )


def _group_widths(specs: list[BidSpec], results: dict[str, BidResult]) -> list[float]:
    return [h for s in specs for h in _half_widths(results[s.id])]


def _half_widths(b: BidResult) -> list[float]:
    """The half-widths more deals can shrink (Estimate.sampling_half_width); vragen: that of
    the share of deals someone goes along, and of P(make) once some deal has a partner."""
    out = [b.estimate.sampling_half_width] if b.estimate.n or b.joined is None else []
    if b.joined is not None:
        out.append(b.joined.sampling_half_width)
    if b.bound is not None:
        out.append(b.bound.estimate.sampling_half_width)
    return out


def evaluate_bids(
    specs: list[BidSpec],
    store: PositionStore,
    hand: list[int],
    seat: Seat,
    ruleset: RuleSet,
    n: int | None = None,
    memo: dict | None = None,
    prune: float = 0.0,
) -> list[BidResult]:
    """Figures for every spec on the first ``n`` deals of ``store`` (all by default);
    ``seat`` is absolute, 0..3. Returns the results in the order of ``specs``.

    Each family (in its order) evaluates its specs, in the batches it chooses. Adaptive
    sampling calls this after each step with the same ``memo`` (a dict kept for the run,
    where a family keeps its state between steps) and ``prune`` > 0 (its precision), which
    lets a family stop sampling the choices that can no longer be made: the rik family's
    (trump, call) pairs (:mod:`analyser.analysis.families.rik`)."""
    n = store.n if n is None else n
    sample = SampleView(store, hand, seat, ruleset, n, {} if memo is None else memo, prune)
    results: dict[str, BidResult] = {}
    for family in families():
        mine = [s for s in specs if s.family == family.name]
        if mine:
            for batch in family.batches(mine):
                results.update(family.evaluate(sample, batch))
    return [results[s.id] for s in specs]
