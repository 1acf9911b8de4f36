"""Evaluate every bid of a hand on one sample of deals: sampling, batched solving, statistics.

Paired comparison: the other 39 cards are sampled once per run (:func:`analyser.sampler.
sample_deals`, seed printed) and every bid is evaluated on those same deals.

Solver work, per family (each answer is exact for its position; the one bound is the expected
score of a bid that never makes on the sample, which its note states):

* **rik**: for every trump and every legal called card (:func:`analyser.rules.called_card`) a
  ``>=8`` question per deal; the partner is the holder of the called card. The rikker names
  trump and card before he sees the other hands, so one (trump, card) is chosen per hand: the
  highest make-probability on the sample (exact ties: the book's G-RIK-02 / G-ACE-02 order).
  Only that choice gets exact trick counts (expected score, trick distribution), and only
  when it makes on some deal (else the expected score is an upper bound, see the note). Beter rik
  chooses among the hearts calls; its positions are those of rik in hearts (solved once).
  One shortcut, provably exact: a called card that is its holder's only card of its suit
  carries no duty at all when the rule set lets it be discarded (he must play it on the first
  lead of the suit anyway, and may discard it before in both cases), so it is solved as the
  position without a called card. Different called cards stay different positions even when
  they name the same partner (the duty changes the play); asking first without the duty (an
  upper bound for every call with that partner) was measured to cost more than it saves when
  the rik usually makes, so it is not done. But all calls of a trump are asked in one batch,
  where the calls of a deal that name the same partner are solved one after the other on
  one table (positions after the called card has fallen are the same for every call): the
  rik ``>=8`` questions took 8% less time on the benchmark's borderline rik hand, 4% on its
  malheur hand (only the king calls in clubs can name one partner twice).
* **alone / solo**: per strain a ``>=L`` question (L = the lowest alone level), exact counts
  only on deals that pass it; a strain never passing gets no counts (the report says so). Per
  bid the declarer's strain is the one with the highest make-probability (exact ties: higher
  probabilities of overtricks, then of the levels below, then G-RIK-02). The chosen strains get
  exact counts on every deal (the expected score needs the undertricks) - unless the chosen
  strain never passes the ``>=L`` question: then every alone bid fails on every deal, no
  counts are made (a lone declarer's count far below L can cost minutes per deal) and the
  expected score is an upper bound, every deal scored at L - 1 tricks (stated in the note).
* **misère / piek** in every form: one yes/no question per distinct (goal, leader).
* **malheur** (3-4 aces): the partner is the holder of the 4th ace (with 4 aces, of the named
  king: the king with the highest make-probability, exact ties to the first suit ♠ ♥ ♦ ♣). His
  trump is the book's heuristic G-MAL-07 per deal (the reported figure) and, as an upper bound,
  the double-dummy best trump per deal (the most tricks over the suits he may name).
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from analyser.analysis.bids import (
    FAMILY_ALONE,
    FAMILY_MALHEUR,
    FAMILY_NULL,
    FAMILY_RIK,
    BidSpec,
    aces_held,
    bid_specs,
    left_out,
)
from analyser.analysis.choice import (
    call_preference,
    malheur_partner_trump,
    trump_preference,
)
from analyser.analysis.positions import PositionStore
from analyser.analysis.results import (
    Alternative,
    BidResult,
    Bound,
    Estimate,
    HandAnalysis,
)
from analyser.cards import N_RANKS, SUIT_BITS, SUIT_MASK, masks_to_owner, suit_of
from analyser.errors import RikkenError
from analyser.notation import format_strain
from analyser.progress import Progress
from analyser.rules import (
    RIK_TARGET,
    RuleSet,
    called_card,
    contract_terms,
    malheur_partner_cards,
    malheur_trump_choices,
)
from analyser.seats import FOREHAND, Place, Seat, seat_of

BATCH = 200  # deals per sampling step with --precision
MIN_DEALS = 200  # the smallest sample --precision may stop at
N_TRICKS = N_RANKS + 1  # a trick count is 0..13

TAG_RIK, TAG_ALONE, TAG_NULL, TAG_MALHEUR = "rik", "alone/solo", "misere/piek", "malheur"
TAGS = (TAG_RIK, TAG_ALONE, TAG_NULL, TAG_MALHEUR)


def analyse_hand(
    hand: list[int],
    seat: Place,
    ruleset: RuleSet,
    deals: int = 1000,
    seed: int = 1,
    precision: float | None = None,
    min_p: float = 0.5,
    quiet: bool = True,
    threads: int | None = None,
) -> HandAnalysis:
    """Evaluate every bid of ``hand`` (13 card ints) at ``seat`` (1..4 relative to the dealer).

    ``deals`` is the sample size, or with ``precision`` the maximum: then deals are added in
    batches of :data:`BATCH` until every bid's 95 % Wilson half-width is at most ``precision``
    (never stopping below :data:`MIN_DEALS`, or ``deals`` if smaller).
    """
    from analyser.analysis.recommend import recommend
    from analyser.sampler import sample_deals

    if deals < 1:
        raise RikkenError(f"the number of deals must be at least 1, got {deals}")
    if precision is not None and not 0 < precision < 0.5:
        raise RikkenError(f"--precision must be between 0 and 0.5, got {precision}")
    if not 0 <= min_p <= 1:
        raise RikkenError(f"--min-p must be between 0 and 1, got {min_p}")
    seat_abs = seat_of(seat)
    known: list[list[int]] = [[], [], [], []]
    known[seat_abs] = list(hand)
    specs = bid_specs(ruleset, list(hand), seat_abs)
    t0 = time.perf_counter()
    with Progress(0, f"seat {seat}", quiet=quiet) as progress:
        store = PositionStore(
            np.zeros((0, 4), np.int64),
            discard_ok=ruleset.called_card_may_be_discarded,
            threads=threads,
            progress=progress,
        )
        floor = min(MIN_DEALS, deals)
        while True:
            if precision is None:
                size = deals
            else:
                size = min(BATCH if store.n >= floor else floor, deals - store.n)
            store.extend(sample_deals(known, size, seed, start=store.n))
            bids = evaluate_bids(specs, store, list(hand), seat_abs, ruleset)
            if precision is None:
                stop = f"fixed sample of {store.n} deals (--deals)"
                break
            widest = max(_half_widths(bids))
            if widest <= precision and store.n >= floor:
                stop = (
                    f"precision reached: every 95% half-width <= {precision:g} "
                    f"(widest {widest:.4f}) after {store.n} deals"
                )
                break
            if store.n >= deals:
                stop = (
                    f"maximum of {deals} deals (--deals) reached; widest 95% half-width "
                    f"{widest:.4f} > {precision:g}"
                )
                break
    result = HandAnalysis(
        hand=sorted(hand),
        seat=seat,
        ruleset=ruleset,
        seed=seed,
        n_deals=store.n,
        bids=bids,
        stop_reason=stop,
        precision=precision,
        min_p=min_p,
        seconds={tag: store.seconds.get(tag, 0.0) for tag in TAGS},
        positions={tag: store.solved.get(tag, 0) for tag in TAGS},
        query_kinds={
            key: (store.kind_seconds[key], store.kind_solved[key]) for key in store.kind_solved
        },
    )
    result.seconds["total"] = time.perf_counter() - t0
    _note_not_offered(result)
    recommend(result, aces_held(list(hand)))
    return result


def _note_not_offered(result: HandAnalysis) -> None:
    """Record the contracts the hand can never bid at its seat, and why (each reason once)."""
    rs = result.ruleset
    seat = seat_of(result.seat)
    left = left_out(rs, result.hand, seat)
    if not left:
        return
    result.not_offered = [c.id for c in left]
    aces = aces_held(result.hand)
    if rs.malheur == "obligatory" and aces >= 3:
        # the malheur duty leaves out everything below malheur (beter rik included) and, for
        # the forehand, whatever needs a rik nobody can bid after his malheur
        what_if = dataclasses.replace(rs, malheur="optional").spec
        result.notes.append(
            f"{aces} aces and an obligatory malheur (R-MAL-01): this hand must bid malheur or "
            f"higher at its first turn, so it can never bid {', '.join(result.not_offered)}; "
            f"they are not evaluated. --rules '{what_if}' evaluates them as a what-if"
        )
    elif seat == FOREHAND:
        result.notes.append(
            "beter rik is not evaluated: the forehand speaks first and can never bid it, it "
            "needs another player's rik (R-BID-07); his rik may choose hearts (the rik row)"
        )


def _half_widths(bids: list[BidResult]) -> list[float]:
    out = []
    for b in bids:
        out.append(b.estimate.half_width)
        if b.bound is not None:
            out.append(b.bound.estimate.half_width)
    return out


def evaluate_bids(
    specs: list[BidSpec], store: PositionStore, hand: list[int], seat: Seat, ruleset: RuleSet
) -> list[BidResult]:
    """Figures for every spec on all deals of ``store`` (``seat`` is absolute, 0..3)."""
    ctx = _Context(store, hand, seat, ruleset)
    results: dict[str, BidResult] = {}
    rik = [s for s in specs if s.family == FAMILY_RIK]
    if rik:
        results.update(_evaluate_rik(ctx, rik))
    alone = [s for s in specs if s.family == FAMILY_ALONE]
    if alone:
        results.update(_evaluate_alone(ctx, alone))
    for spec in specs:
        if spec.family == FAMILY_NULL:
            results[spec.id] = _evaluate_null(ctx, spec)
        elif spec.family == FAMILY_MALHEUR:
            results[spec.id] = _evaluate_malheur(ctx, spec)
    return [results[s.id] for s in specs]


class _Context:
    """The per-call view of the sample: deals, card owners, the declarer's seat."""

    def __init__(self, store: PositionStore, hand: list[int], seat: Seat, ruleset: RuleSet):
        self.store = store
        self.hand = hand
        self.seat = seat
        self.me = 1 << seat
        self.ruleset = ruleset
        self.n = store.n
        self.all = np.arange(store.n)
        self.owner = masks_to_owner(store.deals).astype(np.int64)

    def partner_of(self, c: int) -> np.ndarray:
        """Per deal, the seat holding card ``c``."""
        return self.owner[:, c]

    def effective_called(self, c: int, partner: np.ndarray) -> np.ndarray:
        """Per deal, the called card to give the solver: -1 where the duty is void (the
        holder's only card of the suit, and the rule set lets it be discarded)."""
        if not self.ruleset.called_card_may_be_discarded:
            return np.full(self.n, c, dtype=np.int64)
        s = suit_of(c)
        held = (self.store.deals[self.all, partner] >> (SUIT_BITS * s)) & SUIT_MASK
        singleton = (held & (held - 1)) == 0
        return np.where(singleton, -1, c).astype(np.int64)


def _by_called(ctx: _Context, idx, trump, leader, decl, called, target, tag) -> np.ndarray:
    """Side questions whose called card varies per deal: ``target`` (one int or one per
    deal) tricks or more, or exact tricks for ``target=None``."""
    if target is not None:
        return ctx.store.at_least(idx, trump, leader, decl, called, target, tag)
    out = np.zeros(idx.size, dtype=np.int8)
    for value in np.unique(called):
        m = called == value
        out[m] = ctx.store.tricks(idx[m], trump, leader, decl[m], int(value), tag)
    return out


def _hist(tricks: np.ndarray) -> list[int]:
    return [int(x) for x in np.bincount(tricks.astype(np.int64), minlength=N_TRICKS)]


def _expected(spec: BidSpec, tricks: np.ndarray) -> float:
    scores = np.asarray(spec.scores, dtype=np.float64)
    return float(scores[tricks.astype(np.int64)].mean()) if tricks.size else 0.0


def _figures(spec: BidSpec, tricks: np.ndarray | None, n: int, level: int, what: str):
    """(made, expected score, trick histogram, notes) of a bid on ``n`` deals from its exact
    ``tricks``, or - when ``tricks`` is None because its choice (``what``) never took ``level``
    tricks on the sample and no counts were made - from the bound: every deal has at most
    level - 1 tricks and the score never falls as the tricks rise, so scoring every deal at
    level - 1 tricks bounds the mean from above (exactly, when the failed score is flat)."""
    if tricks is not None:
        return int((tricks >= spec.target).sum()), _expected(spec, tricks), _hist(tricks), []
    bound = _expected(spec, np.full(n, level - 1, dtype=np.int64))
    note = (
        f"never {level}+ tricks with {what} on this sample: trick counts not computed, the "
        f"expected score is an upper bound (every deal scored as {level - 1} tricks)"
    )
    return 0, bound, None, [note]


# --------------------------------------------------------------------------------- rik


def _evaluate_rik(ctx: _Context, specs: list[BidSpec]) -> dict[str, BidResult]:
    leader = specs[0].leader
    made: dict[tuple[int, int], int] = {}
    setup: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    for trump in range(4):
        calls = called_card(ctx.ruleset, ctx.hand, trump)
        for c in calls:
            partner = ctx.partner_of(c)
            setup[(trump, c)] = (ctx.me | (1 << partner), ctx.effective_called(c, partner))
        if not calls:
            continue
        # every call of this trump in one question: the store groups a deal's calls that
        # name the same partner, and the solver lets them share its table
        idx = np.tile(ctx.all, len(calls))
        decl = np.concatenate([setup[(trump, c)][0] for c in calls])
        called = np.concatenate([setup[(trump, c)][1] for c in calls])
        ok = ctx.store.at_least(idx, trump, leader, decl, called, RIK_TARGET, TAG_RIK)
        for k, c in enumerate(calls):
            made[(trump, c)] = int(ok[k * ctx.n : (k + 1) * ctx.n].sum())

    out = {}
    for spec in specs:
        cands = [k for k in made if k[0] in spec.strains]

        def key(k, _made=made):
            return (_made[k], trump_preference(ctx.hand, k[0]), call_preference(ctx.hand, *k))

        ranked = sorted(cands, key=key, reverse=True)
        trump, c = ranked[0]
        decl, called = setup[(trump, c)]
        alternatives = [Alternative(k[0], k[1], Estimate(made[k], ctx.n)) for k in ranked[1:]]
        tricks = None
        if made[(trump, c)] > 0 or spec.target < RIK_TARGET:
            # else the rik fails on every deal (known from the >=8 answers): no trick counts
            tricks = _by_called(ctx, ctx.all, trump, leader, decl, called, None, TAG_RIK)
        n_made, expected, hist, notes = _figures(
            spec, tricks, ctx.n, RIK_TARGET, f"{format_strain(trump, 'en')} trump"
        )
        out[spec.id] = BidResult(
            spec=spec,
            trump=trump,
            called=c,
            estimate=Estimate(n_made, ctx.n),
            expected_score=expected,
            tricks_hist=hist,
            alternatives=alternatives,
            notes=notes,
            score_is_bound=hist is None,
        )
    return out


# ------------------------------------------------------------------------- alone / solo


def _evaluate_alone(ctx: _Context, specs: list[BidSpec]) -> dict[str, BidResult]:
    leader = specs[0].leader
    gate = min(s.target for s in specs)
    strains = sorted({t for s in specs for t in s.strains})
    partial: dict[int, np.ndarray] = {}  # exact tricks where >= gate, else -1
    for strain in strains:
        passed = ctx.store.at_least(ctx.all, strain, leader, ctx.me, -1, gate, TAG_ALONE) == 1
        t = np.full(ctx.n, -1, dtype=np.int64)
        if passed.any():
            t[passed] = ctx.store.tricks(ctx.all[passed], strain, leader, ctx.me, -1, TAG_ALONE)
        partial[strain] = t
    at_least = {s: [int((partial[s] >= k).sum()) for k in range(N_TRICKS)] for s in strains}

    def key(strain: int, level: int) -> tuple:
        counts = at_least[strain]
        above = tuple(counts[k] for k in range(level, N_TRICKS))
        below = tuple(counts[k] for k in range(level - 1, gate - 1, -1))
        return above + below + (trump_preference(ctx.hand, strain),)

    chosen = {}
    for spec in specs:
        ranked = sorted(spec.strains, key=lambda s, _n=spec.target: key(s, _n), reverse=True)
        chosen[spec.id] = ranked
    counted = {ranked[0] for ranked in chosen.values()}
    # A strain that never reaches the lowest alone level gets no trick counts: its bids fail
    # on every deal (known from the >=gate answers), and the exact count of a lone declarer
    # far below it can take the solver minutes per deal (every defence must be refuted).
    full = {
        s: ctx.store.tricks(ctx.all, s, leader, ctx.me, -1, TAG_ALONE).astype(np.int64)
        for s in sorted(counted)
        if at_least[s][gate] > 0
    }
    never = [s for s in strains if s not in counted and at_least[s][gate] == 0]
    out = {}
    for spec in specs:
        ranked = chosen[spec.id]
        strain = ranked[0]
        notes = []
        skipped = [s for s in never if s in spec.strains]
        if skipped:
            names = " ".join(format_strain(s, "en") for s in skipped)
            notes.append(f"never {gate}+ tricks on this sample, not counted: {names}")
        made, expected, hist, bound_notes = _figures(
            spec, full.get(strain), ctx.n, gate, format_strain(strain, "en")
        )
        notes += bound_notes
        out[spec.id] = BidResult(
            spec=spec,
            trump=strain,
            called=None,
            estimate=Estimate(made, ctx.n),
            expected_score=expected,
            tricks_hist=hist,
            alternatives=[
                Alternative(s, None, Estimate(at_least[s][spec.target], ctx.n)) for s in ranked[1:]
            ],
            notes=notes,
            score_is_bound=hist is None,
        )
    return out


# ------------------------------------------------------------------------- misère / piek


def _evaluate_null(ctx: _Context, spec: BidSpec) -> BidResult:
    from analyser.solver import GOAL_MISERE, GOAL_PIEK

    goal = GOAL_MISERE if spec.contract.is_misere else GOAL_PIEK
    ok = ctx.store.null_goal(ctx.all, goal, spec.leader, ctx.me, TAG_NULL)
    made = int(ok.sum())
    p = made / ctx.n if ctx.n else 0.0
    expected = p * spec.made_score() + (1 - p) * spec.failed_score()
    return BidResult(
        spec=spec,
        trump=None,
        called=None,
        estimate=Estimate(made, ctx.n),
        expected_score=float(expected),
        tricks_hist=None,
    )


# ------------------------------------------------------------------------------ malheur


def _evaluate_malheur(ctx: _Context, spec: BidSpec) -> BidResult:
    rs = ctx.ruleset
    must_play = contract_terms(rs, spec.contract).called_card_must_be_played
    options = {}
    for pc in malheur_partner_cards(ctx.hand):
        partner = ctx.partner_of(pc)
        choices = malheur_trump_choices(rs, pc)
        trump = malheur_partner_trump(ctx.store.deals, partner, ctx.hand, choices)
        decl = ctx.me | (1 << partner)
        called = ctx.effective_called(pc, partner) if must_play else np.full(ctx.n, -1)
        ok = np.zeros(ctx.n, dtype=np.int8)
        for s in choices:
            m = trump == s
            if m.any():
                ok[m] = _by_called(
                    ctx, ctx.all[m], s, spec.leader, decl[m], called[m], spec.target, TAG_MALHEUR
                )
        options[pc] = (int(ok.sum()), partner, choices, trump, decl, called)
    # The first partner card (♠ ♥ ♦ ♣ order) wins exact ties: max() keeps the first maximum.
    pc = max(options, key=lambda k: options[k][0])
    _, partner, choices, trump, decl, called = options[pc]
    tricks = np.zeros(ctx.n, dtype=np.int64)
    for s in choices:
        m = trump == s
        if m.any():
            tricks[m] = _by_called(
                ctx, ctx.all[m], s, spec.leader, decl[m], called[m], None, TAG_MALHEUR
            )
    # The double-dummy best trump: raise each deal's best count while another suit reaches
    # one trick more (exact: the maximum over the suits, found with yes/no questions).
    best = tricks.copy()
    for s in choices:
        active = (trump != s) & (best < N_RANKS)
        while active.any():
            i = ctx.all[active]
            more = _by_called(
                ctx, i, s, spec.leader, decl[active], called[active], best[active] + 1, TAG_MALHEUR
            )
            grown = i[more == 1]
            best[grown] += 1
            active = np.zeros(ctx.n, dtype=bool)
            active[grown] = best[grown] < N_RANKS
    alternatives = [
        Alternative(None, k, Estimate(options[k][0], ctx.n)) for k in options if k != pc
    ]
    trump_counts = {format_strain(s, "en"): int((trump == s).sum()) for s in choices}
    notes = [
        "partner's trump by G-MAL-07 (longest suit counting the malheur player's aces, then "
        "best ranks): " + ", ".join(f"{k} {v}" for k, v in trump_counts.items() if v)
    ]
    if len(options) > 1:
        notes.append("4 aces: the named king is the one with the highest make-probability")
    return BidResult(
        spec=spec,
        trump=None,
        called=pc,
        estimate=Estimate(int((tricks >= spec.target).sum()), ctx.n),
        expected_score=_expected(spec, tricks),
        tricks_hist=_hist(tricks),
        alternatives=alternatives,
        notes=notes,
        bound=Bound(
            estimate=Estimate(int((best >= spec.target).sum()), ctx.n),
            expected_score=_expected(spec, best),
            tricks_hist=_hist(best),
        ),
    )
