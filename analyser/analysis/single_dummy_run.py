"""`rikken analyse --play single-dummy`: the analysed bids played out by single-dummy players
(:mod:`analyser.single_dummy`) on the first deals of the analysis's own sample, beside the
double-dummy result on those same deals.

Each bid is played as the double-dummy analysis chose it (its trump and called card); the
declarer is this hand, the other three hands are the sampled ones. The double-dummy figure
here is recomputed on exactly the played deals, so the two make-rates are a paired
comparison. The open forms (open misère, open piek) show the declarer's hand from the first
card on, the praatje forms all four hands (the card played before the reveal is chosen as if
it were already open: a small simplification). Bids whose partner or trump varies per deal
(malheur, troel, vragen) and the wiezen bids are not played yet; they are listed in the notes.
The tables and JSON of the play are :mod:`analyser.output.single_dummy`'s.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence

import numpy as np

from analyser.analysis.families.alone import FAMILY_ALONE
from analyser.analysis.families.null import FAMILY_NULL
from analyser.analysis.families.rik import FAMILY_RIK
from analyser.analysis.results import BidResult, HandAnalysis
from analyser.analysis.wiezen import turned_known
from analyser.cards import mask_to_cards
from analyser.errors import RikkenError
from analyser.progress import Progress
from analyser.rules.terms import ALL_OPEN, BIDDER_OPEN
from analyser.seats import seat_of
from analyser.stats import Estimate

DEFAULT_SAMPLES = 10  # worlds per decision
DEFAULT_PLAY_DEALS = 40  # deals played out per bid
REACH = 0.3  # the default bids: double-dummy P(make) at least this (within reach)
MAX_DEFAULT_BIDS = 3


@dataclasses.dataclass(frozen=True)
class PlayedBid:
    """One bid played out single-dummy on ``sd.n`` deals, and double-dummy on the same."""

    bid_id: str
    sd: Estimate
    dd: Estimate
    both: int
    """Deals made both ways (the paired comparison's concordant makes)."""
    samples: int
    seconds: float
    decisions: int = 0
    """Decisions that needed a search, over the played deals."""
    limited: int = 0
    """Of those, the decisions that left out a world or ran out of the node budget."""
    decision_nodes: int = 0
    """The node budget per decision."""


def playable(b: BidResult) -> bool:
    """Can this bid be played out single-dummy (a fixed trump and partner rule)?"""
    fam = b.spec.family
    if fam == FAMILY_NULL:
        return True  # no trump, alone
    return b.trump is not None and (
        fam == FAMILY_ALONE or (fam == FAMILY_RIK and b.called is not None)
    )


def choose_bids(analysis: HandAnalysis, asked: Sequence[str] | None) -> list[BidResult]:
    """The bids to play: those ``asked`` (ids; RikkenError for one that is not analysed or
    cannot be played), else the playable ones whose double-dummy P(make) is at least REACH,
    the MAX_DEFAULT_BIDS most likely."""
    if asked:
        out = []
        for bid_id in asked:
            try:
                b = analysis.bid(bid_id)
            except KeyError:
                ids = ", ".join(x.spec.id for x in analysis.bids)
                msg = f"--bids: {bid_id!r} is not analysed here (one of: {ids})"
                raise RikkenError(msg) from None
            if not playable(b):
                raise RikkenError(
                    f"--bids: {bid_id} cannot be played single-dummy yet (its partner or "
                    "trump varies per deal)"
                )
            out.append(b)
        return out
    within = [b for b in analysis.bids if playable(b) and b.estimate.p >= REACH]
    within.sort(key=lambda b: -b.estimate.p)
    return within[:MAX_DEFAULT_BIDS]


def _contract(b: BidResult, declarer: int):
    from analyser.single_dummy import KIND_GE, KIND_MISERE, KIND_PIEK, PlayContract

    spec = b.spec
    vis = spec.visibility
    open_ = (0, 1, 2, 3) if vis == ALL_OPEN else (declarer,) if vis == BIDDER_OPEN else ()
    leader = spec.leader if spec.leader is not None else declarer
    if spec.family == FAMILY_NULL:
        kind = KIND_MISERE if spec.target == 0 else KIND_PIEK
        return PlayContract(4, leader, declarer, kind, open=open_)
    called = int(b.called) if spec.family == FAMILY_RIK else -1
    return PlayContract(int(b.trump), leader, declarer, KIND_GE, spec.target, called, open=open_)


def _dd_answer(hands, c, solver) -> int:
    from analyser.single_dummy import KIND_GE

    if c.kind != KIND_GE:
        return solver.solve(hands, c.trump, c.leader, [c.declarer], c.kind)
    side = [c.declarer]
    if c.called >= 0:
        side.append(next(s for s in range(4) if c.called in hands[s]))
    called = c.called if c.called >= 0 else None
    return solver.solve(hands, c.trump, c.leader, side, f">={c.target}", called)


_WORKER_SOLVER = None  # one solver (and its table) per worker process


def _play_job(job) -> tuple[int, int, int, int, float, int, int]:
    """One deal of one bid: (bid index, deal index, single-dummy made, double-dummy made,
    seconds, decisions searched, decisions limited). Runs in a worker process or inline."""
    from analyser.single_dummy import play_deal
    from analyser.solver import Solver

    global _WORKER_SOLVER
    if _WORKER_SOLVER is None:
        _WORKER_SOLVER = Solver()
    bi, i, hands, contract, options, seed = job
    t0 = time.perf_counter()
    got = play_deal(hands, contract, options, seed, i, solver=_WORKER_SOLVER)
    dd = _dd_answer(hands, contract, _WORKER_SOLVER)
    seconds = time.perf_counter() - t0
    return bi, i, int(got.made), int(dd), seconds, got.decisions, got.limited


def play_out(
    analysis: HandAnalysis,
    bids: Sequence[str] | None = None,
    samples: int = DEFAULT_SAMPLES,
    n_deals: int = DEFAULT_PLAY_DEALS,
    quiet: bool = True,
    workers: int | None = None,
) -> list[PlayedBid]:
    """Play the chosen bids (:func:`choose_bids`) out single-dummy on the first ``n_deals``
    deals of the analysis's sample (seed ``analysis.seed``), with ``samples`` worlds per
    decision (at most :data:`~analyser.single_dummy.DEFAULT_DECISION_NODES` solver nodes per
    decision), and solve the same deals double-dummy. ``workers`` processes share the deals
    (None = one per core; 1 = in this process): a deal plays the same way in any of them,
    its worlds depending only on the seed and the deal's index."""
    import os
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    from analyser.deal_draw import deal_source
    from analyser.single_dummy import PlayOptions

    if samples < 1 or n_deals < 1:
        raise RikkenError("--samples and --play-deals must be at least 1")
    if workers is not None and workers < 1:
        raise RikkenError("--workers must be at least 1")
    chosen = choose_bids(analysis, bids)
    declarer = seat_of(analysis.seat)
    known, turned_suit = turned_known(
        analysis.ruleset, list(analysis.hand), declarer, analysis.turned
    )
    # the analysis's own deals, under its deal model
    source = deal_source(
        analysis.deal_model,
        list(analysis.hand),
        analysis.seat,
        analysis.seed,
        known,
        turned=turned_suit is not None,
    )
    deals = source(0, n_deals)
    hands_list = [[mask_to_cards(int(m)) for m in d] for d in deals]
    may_discard = analysis.ruleset.called_card_may_be_discarded
    contracts = [_contract(b, declarer) for b in chosen]
    options = PlayOptions(samples, called_card_may_be_discarded=may_discard)
    jobs = [
        (bi, i, hands, c, options, analysis.seed)
        for bi, c in enumerate(contracts)
        for i, hands in enumerate(hands_list)
    ]
    sd = np.zeros((len(chosen), n_deals), np.int8)
    dd = np.zeros((len(chosen), n_deals), np.int8)
    seconds = np.zeros(len(chosen))
    decisions = np.zeros(len(chosen), np.int64)
    limited = np.zeros(len(chosen), np.int64)
    k = min(workers or os.cpu_count() or 1, max(len(jobs), 1))
    with Progress(len(jobs), "single-dummy deals", quiet=quiet) as progress:

        def take(r) -> None:
            bi, i, made, dd_made, sec, searched, short = r
            sd[bi, i], dd[bi, i] = made, dd_made
            seconds[bi] += sec
            decisions[bi] += searched
            limited[bi] += short
            progress.advance()

        if k == 1:
            for job in jobs:
                take(_play_job(job))
        else:
            # "spawn": clean interpreters (no inherited numba threads); each loads the cache
            with ProcessPoolExecutor(k, mp_context=get_context("spawn")) as pool:
                for fut in as_completed([pool.submit(_play_job, j) for j in jobs]):
                    take(fut.result())
    return [
        PlayedBid(
            b.spec.id,
            Estimate.of_answers(sd[bi]),
            Estimate.of_answers(dd[bi]),
            int(((sd[bi] == 1) & (dd[bi] == 1)).sum()),
            samples,
            float(seconds[bi]),
            int(decisions[bi]),
            int(limited[bi]),
            options.decision_nodes,
        )
        for bi, b in enumerate(chosen)
    ]
