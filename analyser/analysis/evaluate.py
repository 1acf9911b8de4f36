"""Evaluate every bid of a hand on one sample of deals: sampling, batched solving, statistics.

Paired comparison: the other 39 cards are sampled once per run (:func:`analyser.sampler.
sample_deals`, seed printed) and every bid is evaluated on those same deals - on a prefix of
them when its question settled early (below).

**How many deals** (:mod:`.adaptive`). With ``--deals N`` every bid gets the N deals. By
default the sample grows in steps and each *question* stops taking deals once every
make-probability it reports has a 95 % half-width of at most 0.05 (at most 1000 deals): the
questions are the rik family (rik and beter rik share their positions), the alone family
(7-12 alone and solo), each misère / piek form, and malheur. A bid that always makes or never
makes settles after 50 deals; one near 50 % needs about 385.

**No unbounded work.** Every search runs under the store's node budget
(:data:`~analyser.analysis.positions.NODE_BUDGET`). A position given up there keeps the
bounds it proved; a make-probability it touches becomes a range (``Estimate.unknown``), its
expected score an interval, and the analysis counts the given-up positions.

**Exact counts only where a figure needs them.** A make-probability needs ``>=K`` answers
only (and, for the alone levels, the counts of the deals that reach the lowest level, which
say every level at once). Trick counts below the target - the undertricks, where a lone
declarer's count can run for minutes - are only needed for the expected score, so they are
made on a subsample: the first :data:`EXACT_PREFIX` deals and at least :data:`STRATUM_MIN`
deals of each stratum (made, failed, given up). The expected score is the two-phase
stratified mean (:func:`~analyser.stats.stratified_mean`): each stratum's share
comes from every deal, its mean score from the counted ones, and its 95 % interval is
reported (``expected_score_ci``). The trick distribution (``tricks_hist``) counts the first
:data:`EXACT_PREFIX` deals. With ``--deals 60`` or fewer every deal is counted. The
subsample of a prefix of the sample is the prefix of the subsample, so a sample solved in
steps counts the same deals as one solved at once.

Solver work, per family:

* **rik**: for every trump and every legal called card (:func:`analyser.rules.called_card`) a
  ``>=8`` question per deal; the partner is the holder of the called card. The rikker names
  trump and card before he sees the other hands, so one (trump, card) is chosen per hand: the
  highest make-probability on the sample (exact ties: the book's G-RIK-02 / G-ACE-02 order).
  With the adaptive sample a (trump, card) stops taking deals once it can no longer be the
  choice: its interval lies below the leader's, or on the same deals it is not better than
  the leader by more than the precision (95 %, McNemar's paired comparison).
  Only that choice gets exact trick counts (on the subsample), and only when it makes on
  some deal (else the expected score is an upper bound, see the note). Beter rik chooses
  among the hearts calls; its positions are those of rik in hearts (solved once). A called
  card that is its holder's only card of its suit carries no duty when the rule set lets it
  be discarded, so it is solved as the position without a called card (provably the same).
  All calls of a trump are asked in one batch, where the calls of a deal that name the same
  partner are solved one after the other on one table.
* **alone / solo**: per strain a ``>=L`` question (L = the lowest alone level) and exact
  counts on the deals that pass it, which give every level's make-probability. Per bid the
  declarer's strain is the one with the highest make-probability (exact ties: higher
  probabilities of overtricks, then of the levels below, then G-RIK-02). A strain that never
  passes the ``>=L`` question gets no counts: its bids fail on every deal and the expected
  score is an upper bound, every deal scored at L - 1 tricks (stated in the note).
* **misère / piek** in every form: one yes/no question per distinct (goal, leader).
* **vragen** (wiezen W-07): the partner is the player the meegaan model of
  :mod:`analyser.analysis.wiezen` lets go along (per deal; none on some deals). P(make) is
  P(8 tricks together) over the deals on which someone goes along (their share is reported
  as ``joined``); the expected score counts the other deals as the asker's fallback, alone 5
  in the turned suit, or a pass (0) when alone 5 loses on average on those deals (W-08).
* **troel / troela** (wiezen W-04/W-05): the partner is the holder of the partner card (the
  4th ace, or ♥K / the next heart down) and leads that card to trick 1 (the solver's
  ``called_leads``); trump is its suit (troela: hearts).
* **malheur** (3-4 aces): the partner is the holder of the 4th ace (with 4 aces, of the named
  king: the king with the highest make-probability, exact ties to the first suit ♠ ♥ ♦ ♣). His
  trump is the book's heuristic G-MAL-07 per deal (the reported figure) and, as an upper bound,
  the double-dummy best trump per deal (the most tricks over the suits he may name).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Collection

import numpy as np

from analyser.analysis.adaptive import INTERRUPTED, sampling_plan
from analyser.analysis.bids import (
    FAMILY_ALONE,
    FAMILY_MALHEUR,
    FAMILY_NULL,
    FAMILY_RIK,
    FAMILY_TROEL,
    FAMILY_VRAGEN,
    BidSpec,
    aces_held,
    bid_specs,
    check_analysed,
    left_out,
    score_table,
)
from analyser.analysis.choice import (
    call_preference,
    malheur_partner_trump,
    trump_preference,
)
from analyser.analysis.positions import NODE_BUDGET, PositionStore
from analyser.analysis.results import (
    Alternative,
    BidResult,
    Bound,
    HandAnalysis,
)
from analyser.analysis.wiezen import (
    JOIN_MIN_COUNT,
    JOIN_MIN_TRUMPS,
    join_candidates,
    meegaan_partner,
    troel_elsewhere,
    turned_known,
)
from analyser.cards import N_RANKS, SUIT_BITS, SUIT_MASK, masks_to_owner, suit_of
from analyser.errors import RikkenError
from analyser.notation import format_card, format_strain
from analyser.progress import Progress
from analyser.rules import (
    BETER_RIK,
    RIK_TARGET,
    Contract,
    RuleSet,
    called_card,
    contract_terms,
    first_leader,
    malheur_partner_cards,
    malheur_trump_choices,
    troel_partner_card,
)
from analyser.seats import FOREHAND, Place, Seat, seat_of, turn_order
from analyser.stats import Estimate, paired_gain_upper, stratified_mean

N_TRICKS = N_RANKS + 1  # a trick count is 0..13
EXACT_PREFIX = 60  # deals whose exact counts give the trick distribution
STRATUM_MIN = 15  # counted deals at least per stratum of the expected score

TAG_RIK, TAG_ALONE, TAG_NULL, TAG_MALHEUR = "rik", "alone/solo", "misere/piek", "malheur"
TAG_VRAGEN, TAG_TROEL = "vragen", "troel"  # wiezen
TAGS = (TAG_RIK, TAG_ALONE, TAG_NULL, TAG_MALHEUR)
"""The tags every analysis reports (zero when unused); the wiezen tags only when used."""
EXTRA_TAGS = (TAG_VRAGEN, TAG_TROEL)


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

    A Ctrl-C (KeyboardInterrupt) during the sampling does not propagate once a step has
    finished: the result holds the figures of the finished steps and has ``interrupted``
    set, so a caller that needs a complete run must check it. Before any step finished it
    propagates.
    """
    from analyser.analysis.recommend import recommend
    from analyser.sampler import sample_deals

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

        def deal_source(start: int, n: int) -> np.ndarray:
            return sample_deals(known, n, seed, start=start)

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
    tags = TAGS + tuple(t for t in EXTRA_TAGS if t in store.solved)
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
    _note_not_offered(result)
    _note_troel_elsewhere(result, store.deals[:n_max], seat_abs)
    recommend(result, aces_held(list(hand)), legal)
    return result


def _groups(specs: list[BidSpec]) -> dict[str, list[BidSpec]]:
    """The questions of the adaptive sample: specs that share their positions stop together."""
    out: dict[str, list[BidSpec]] = {}
    for s in specs:
        # the alone levels with one leader share one ladder of answers (wiezen: abondance,
        # led by its declarer, apart from alone 5 and solo); rik and beter rik, the misère
        # and piek forms and malheur each settle on their own
        key = s.id
        if s.family == FAMILY_ALONE:
            key = s.family if s.leader == FOREHAND else f"{s.family} (own lead)"
        out.setdefault(key, []).append(s)
    return out


def _alone_by_leader(specs: list[BidSpec]) -> list[list[BidSpec]]:
    """The alone specs grouped by their leader to trick 1 (each group shares its positions)."""
    out: dict[Seat | None, list[BidSpec]] = {}
    for s in specs:
        out.setdefault(s.leader, []).append(s)
    return list(out.values())


def _stop_reason(plan, groups, sizes, results, interrupted=False) -> str:
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


def _note_troel_elsewhere(result: HandAnalysis, deals: np.ndarray, seat: Seat) -> None:
    """wiezen W-03: on some deals another player holds 3-4 aces and announces troel before
    the auction, which leaves this hand only the games above troel. Say how often."""
    if not result.ruleset.announced or aces_held(result.hand) >= 2 or not len(deals):
        return
    k = int(troel_elsewhere(deals, seat).sum())
    if not k:
        return
    e = Estimate(k, len(deals))
    low, high = e.interval
    result.notes.append(
        f"another player holds 3-4 aces on {k} of {len(deals)} deals ({100 * e.p:.1f}%, 95% "
        f"CI {100 * low:.1f}-{100 * high:.1f}%) and announces troel/troela before the auction "
        "(W-03): this hand can then only bid above it; the figures above include those deals"
    )


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

    Adaptive sampling calls this after each step with the same ``memo`` (a dict kept for
    the run) and ``prune`` > 0 (its precision): a rik (trump, call) that can no longer be
    the choice is then dropped and keeps the deals it had - its interval lies below the
    leading pair's, or on the same deals it is not better than the leader by more than
    ``prune`` (95 %, :func:`~analyser.stats.paired_gain_upper`)."""
    n = store.n if n is None else n
    ctx = _Context(store, hand, seat, ruleset, n, {} if memo is None else memo, prune)
    results: dict[str, BidResult] = {}
    rik = [s for s in specs if s.family == FAMILY_RIK]
    if rik:
        results.update(_evaluate_rik(ctx, rik))
    for group in _alone_by_leader([s for s in specs if s.family == FAMILY_ALONE]):
        results.update(_evaluate_alone(ctx, group))
    for spec in specs:
        if spec.family == FAMILY_NULL:
            results[spec.id] = _evaluate_null(ctx, spec)
        elif spec.family == FAMILY_MALHEUR:
            results[spec.id] = _evaluate_malheur(ctx, spec)
        elif spec.family == FAMILY_VRAGEN:
            results[spec.id] = _evaluate_vragen(ctx, spec)
        elif spec.family == FAMILY_TROEL:
            results[spec.id] = _evaluate_troel(ctx, spec)
    return [results[s.id] for s in specs]


class _Context:
    """The per-call view of the sample: its first ``n`` deals, card owners, the declarer."""

    def __init__(
        self, store, hand: list[int], seat: Seat, ruleset, n: int, memo: dict, prune: float
    ):
        self.store = store
        self.memo = memo
        self.prune = prune
        self.hand = hand
        self.seat = seat
        self.me = 1 << seat
        self.ruleset = ruleset
        self.n = n
        self.all = np.arange(n)
        self.owner = masks_to_owner(store.deals[:n]).astype(np.int64)

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

    def counted(self, strata: np.ndarray) -> np.ndarray:
        """The deals whose exact counts the expected score uses: the first EXACT_PREFIX
        deals and the first STRATUM_MIN deals of every stratum."""
        out = self.all < EXACT_PREFIX
        for h in np.unique(strata):
            out[np.flatnonzero(strata == h)[:STRATUM_MIN]] = True
        return out


def _by_called(ctx: _Context, idx, trump, leader, decl, called, target, tag) -> np.ndarray:
    """``>=target`` answers (1/0, -1 given up) of side questions whose called card varies per
    deal (``target`` one int or one per deal)."""
    return ctx.store.at_least(idx, trump, leader, decl, called, target, tag)


def _range_by_called(ctx: _Context, idx, trump, leader, decl, called, tag, solve=True):
    """(lo, hi) trick ranges per deal in ``idx`` whose called card varies per deal: exact
    counts (solved under the budget) when ``solve``, else what is known so far."""
    lo = np.zeros(idx.size, dtype=np.int64)
    hi = np.zeros(idx.size, dtype=np.int64)
    for value in np.unique(called):
        m = called == value
        if solve:
            a, b = ctx.store.trick_range(idx[m], trump, leader, decl[m], int(value), tag)
        else:
            a, b = ctx.store.known_range(idx[m], trump, leader, decl[m], int(value))
        lo[m], hi[m] = a, b
    return lo, hi


def _hist(ctx: _Context, lo: np.ndarray, hi: np.ndarray) -> tuple[list[int], int]:
    """Trick distribution over the first EXACT_PREFIX deals with an exact count (``lo`` and
    ``hi`` per deal of the sample), and the number of deals it counts."""
    sel = (ctx.all < EXACT_PREFIX) & (lo == hi)
    counts = np.bincount(lo[sel].astype(np.int64), minlength=N_TRICKS)
    return [int(x) for x in counts], int(sel.sum())


def _score(spec: BidSpec, strata, counted, lo, hi) -> tuple[float, tuple[float, float]]:
    """Expected score and its 95 % interval from trick ranges on the counted deals."""
    scores = np.asarray(spec.scores, dtype=np.float64)
    low = np.where(counted, scores[np.clip(lo, 0, N_RANKS)], 0.0)
    high = np.where(counted, scores[np.clip(hi, 0, N_RANKS)], 0.0)
    point, a, b = stratified_mean(strata, counted, low, high)
    return point, (a, b)


def _never(spec: BidSpec, n: int, level: int, what: str):
    """Figures of a bid whose choice (``what``) never took ``level`` tricks on the sample (no
    counts made): every deal has at most level - 1 tricks and the score never falls as the
    tricks rise, so scoring every deal at level - 1 bounds the mean from above (exactly when
    the failed score is flat); the interval runs down to 0 tricks."""
    bound = float(spec.scores[level - 1])
    note = (
        f"never {level}+ tricks with {what} on this sample: trick counts not computed, the "
        f"expected score is an upper bound (every deal scored as {level - 1} tricks)"
    )
    return bound, (float(spec.scores[0]), bound), [note]


# --------------------------------------------------------------------------------- rik


def _evaluate_rik(ctx: _Context, specs: list[BidSpec]) -> dict[str, BidResult]:
    leader = specs[0].leader
    # adaptive sampling drops a (trump, call) that can no longer be the choice: it keeps the
    # deals it had (ctx.memo[key_]: pair -> deals)
    key_ = "dropped " + " ".join(s.id for s in specs)
    dropped: dict[tuple[int, int], int] = ctx.memo.setdefault(key_, {})
    answers: dict[tuple[int, int], np.ndarray] = {}
    setup: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    for trump in sorted({t for s in specs for t in s.strains}):
        calls = called_card(ctx.ruleset, ctx.hand, trump)
        for c in calls:
            partner = ctx.partner_of(c)
            setup[(trump, c)] = (ctx.me | (1 << partner), ctx.effective_called(c, partner))
        for c in [c for c in calls if (trump, c) in dropped]:
            # answered before: read from the store, nothing is solved
            k = dropped[(trump, c)]
            decl, called = setup[(trump, c)]
            answers[(trump, c)] = ctx.store.at_least(
                ctx.all[:k], trump, leader, decl[:k], called[:k], RIK_TARGET, TAG_RIK
            )
        calls = [c for c in calls if (trump, c) not in dropped]
        if not calls:
            continue
        # every call of this trump in one question: the store groups a deal's calls that
        # name the same partner, and the solver lets them share its table
        idx = np.tile(ctx.all, len(calls))
        decl = np.concatenate([setup[(trump, c)][0] for c in calls])
        called = np.concatenate([setup[(trump, c)][1] for c in calls])
        ok = ctx.store.at_least(idx, trump, leader, decl, called, RIK_TARGET, TAG_RIK)
        for k, c in enumerate(calls):
            answers[(trump, c)] = ok[k * ctx.n : (k + 1) * ctx.n]
    est = {k: Estimate.of_answers(v) for k, v in answers.items()}
    made = {k: e.made for k, e in est.items()}
    unknown = {k: e.unknown for k, e in est.items()}

    def key(k):
        return (est[k].p_low, trump_preference(ctx.hand, k[0]), call_preference(ctx.hand, *k))

    if ctx.prune:
        # a pair that can no longer be the choice of any bid takes no more deals: its
        # interval lies wholly below the leader's, or - compared on the same deals, which is
        # sharper when two pairs make on mostly the same deals - it is not better than the
        # leader by more than the precision (95 %). The pair chosen is then, with 95 %
        # confidence, within the precision of the best one, the margin its own P(make) has.
        keep = set()
        for spec in specs:
            cands = sorted(
                (k for k in answers if k[0] in spec.strains),
                key=lambda k: (k not in dropped, *key(k)),
                reverse=True,
            )
            if not cands:
                continue
            lead = cands[0]
            keep.add(lead)
            for k in cands[1:]:
                if k in dropped or est[k].interval[1] < est[lead].interval[0]:
                    continue
                if answers[k].size == answers[lead].size and (
                    paired_gain_upper(answers[k], answers[lead]) < ctx.prune
                ):
                    continue
                keep.add(k)
        for k in answers:
            if k not in keep and k not in dropped:
                dropped[k] = answers[k].size

    out = {}
    for spec in specs:
        cands = [k for k in made if k[0] in spec.strains]
        # the choice is among the pairs still sampled (all of them with a fixed sample)
        ranked = sorted(cands, key=lambda k: (k not in dropped, *key(k)), reverse=True)
        trump, c = ranked[0]
        decl, called = setup[(trump, c)]
        ok = answers[(trump, c)]
        alternatives = [Alternative(k[0], k[1], est[k]) for k in ranked[1:]]
        notes: list[str] = []
        hist, hist_deals = None, 0
        if made[(trump, c)] == 0 and unknown[(trump, c)] == 0 and spec.target >= RIK_TARGET:
            # the rik fails on every deal (known from the >=8 answers): no trick counts
            expected, ci, notes = _never(
                spec, ctx.n, RIK_TARGET, f"{format_strain(trump, 'en')} trump"
            )
        else:
            counted = ctx.counted(ok)
            lo, hi = _range_by_called(ctx, ctx.all, trump, leader, decl, called, TAG_RIK, False)
            # a deal whose >=8 question was given up would give up its count too: its
            # known bounds stand for it
            m = counted & (ok >= 0)
            lo[m], hi[m] = _range_by_called(
                ctx, ctx.all[m], trump, leader, decl[m], called[m], TAG_RIK
            )
            expected, ci = _score(spec, ok, counted, lo, hi)
            hist, hist_deals = _hist(ctx, lo, hi)
        out[spec.id] = BidResult(
            spec=spec,
            trump=trump,
            called=c,
            estimate=est[(trump, c)],
            expected_score=expected,
            expected_score_ci=ci,
            tricks_hist=hist,
            tricks_hist_deals=hist_deals,
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
    gate_ok: dict[int, np.ndarray] = {}
    ranges: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for strain in strains:
        ok = ctx.store.at_least(ctx.all, strain, leader, ctx.me, -1, gate, TAG_ALONE)
        passed = ok == 1
        if passed.any():
            # the counts of the deals that pass say every level's answer at once
            ctx.store.trick_range(ctx.all[passed], strain, leader, ctx.me, -1, TAG_ALONE)
        gate_ok[strain] = ok
        ranges[strain] = ctx.store.known_range(ctx.all, strain, leader, ctx.me, -1)
    at_least = {s: [int((ranges[s][0] >= k).sum()) for k in range(N_TRICKS)] for s in strains}
    maybe = {
        s: [int(((ranges[s][0] < k) & (ranges[s][1] >= k)).sum()) for k in range(N_TRICKS)]
        for s in strains
    }

    def key(strain: int, level: int) -> tuple:
        counts = at_least[strain]
        above = tuple(counts[k] for k in range(level, N_TRICKS))
        below = tuple(counts[k] for k in range(level - 1, gate - 1, -1))
        return above + below + (trump_preference(ctx.hand, strain),)

    chosen = {}
    for spec in specs:
        ranked = sorted(spec.strains, key=lambda s, _n=spec.target: key(s, _n), reverse=True)
        chosen[spec.id] = ranked
    never = [s for s in strains if at_least[s][gate] == 0 and maybe[s][gate] == 0]
    counted: dict[int, np.ndarray] = {}
    for strain in sorted({r[0] for r in chosen.values()} - set(never)):
        # undertricks only on the counted deals (the passing ones are counted already)
        c = ctx.counted(gate_ok[strain]) | (gate_ok[strain] == 1)
        solve = c & (gate_ok[strain] >= 0)  # a given-up question keeps its known bounds
        ctx.store.trick_range(ctx.all[solve], strain, leader, ctx.me, -1, TAG_ALONE)
        ranges[strain] = ctx.store.known_range(ctx.all, strain, leader, ctx.me, -1)
        counted[strain] = c
    out = {}
    for spec in specs:
        ranked = chosen[spec.id]
        strain = ranked[0]
        notes = []
        skipped = [s for s in never if s in spec.strains and s != strain]
        if skipped:
            names = " ".join(format_strain(s, "en") for s in skipped)
            notes.append(f"never {gate}+ tricks on this sample, not counted: {names}")
        hist, hist_deals = None, 0
        if strain in never:
            expected, ci, more = _never(spec, ctx.n, gate, format_strain(strain, "en"))
            notes += more
        else:
            lo, hi = ranges[strain]
            expected, ci = _score(spec, gate_ok[strain], counted[strain], lo, hi)
            hist, hist_deals = _hist(ctx, lo, hi)
        out[spec.id] = BidResult(
            spec=spec,
            trump=strain,
            called=None,
            estimate=Estimate(at_least[strain][spec.target], ctx.n, maybe[strain][spec.target]),
            expected_score=expected,
            expected_score_ci=ci,
            tricks_hist=hist,
            tricks_hist_deals=hist_deals,
            alternatives=[
                Alternative(
                    s, None, Estimate(at_least[s][spec.target], ctx.n, maybe[s][spec.target])
                )
                for s in ranked[1:]
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
    est = Estimate.of_answers(ok)
    win, lose = spec.made_score(), spec.failed_score()

    def score(p: float) -> float:
        return float(p * win + (1 - p) * lose)

    # the score is linear in the make-probability, so its interval is that of P(make)
    low, high = est.interval
    return BidResult(
        spec=spec,
        trump=None,
        called=None,
        estimate=est,
        expected_score=score(est.p),
        expected_score_ci=(score(low), score(high)),
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
        trump = malheur_partner_trump(ctx.store.deals[: ctx.n], partner, ctx.hand, choices)
        decl = ctx.me | (1 << partner)
        called = ctx.effective_called(pc, partner) if must_play else np.full(ctx.n, -1)
        ok = np.zeros(ctx.n, dtype=np.int8)
        for s in choices:
            m = trump == s
            if m.any():
                ok[m] = _by_called(
                    ctx, ctx.all[m], s, spec.leader, decl[m], called[m], spec.target, TAG_MALHEUR
                )
        options[pc] = (int((ok == 1).sum()), partner, choices, trump, decl, called, ok)
    # The first partner card (♠ ♥ ♦ ♣ order) wins exact ties: max() keeps the first maximum.
    pc = max(options, key=lambda k: options[k][0])
    _, partner, choices, trump, decl, called, ok = options[pc]
    counted = ctx.counted(ok)
    lo = np.zeros(ctx.n, dtype=np.int64)
    hi = np.zeros(ctx.n, dtype=np.int64)
    for s in choices:
        m = trump == s
        if m.any():
            lo[m], hi[m] = _range_by_called(
                ctx, ctx.all[m], s, spec.leader, decl[m], called[m], TAG_MALHEUR, False
            )
        m &= counted & (ok >= 0)
        if m.any():
            lo[m], hi[m] = _range_by_called(
                ctx, ctx.all[m], s, spec.leader, decl[m], called[m], TAG_MALHEUR
            )
    expected, ci = _score(spec, ok, counted, lo, hi)
    hist, hist_deals = _hist(ctx, lo, hi)
    # The double-dummy best trump: on every deal whether some suit makes (>=target in each),
    # and on the counted deals the best count (raised while another suit reaches one trick
    # more: the maximum over the suits, found with yes/no questions).
    any_ok = ok.copy()
    for s in choices:
        other = (trump != s) & (any_ok != 1)
        if other.any():
            got = _by_called(
                ctx,
                ctx.all[other],
                s,
                spec.leader,
                decl[other],
                called[other],
                spec.target,
                TAG_MALHEUR,
            )
            any_ok[other] = np.where(got == 1, 1, np.where(got < 0, -1, any_ok[other]))
    best_lo, best_hi = lo.copy(), hi.copy()
    for s in choices:
        active = counted & (trump != s) & (best_lo < N_RANKS)
        while active.any():
            i = ctx.all[active]
            more = _by_called(
                ctx,
                i,
                s,
                spec.leader,
                decl[active],
                called[active],
                best_lo[active] + 1,
                TAG_MALHEUR,
            )
            grown = i[more == 1]
            best_lo[grown] += 1
            lost = i[more < 0]
            if lost.size:
                _, h = _range_by_called(
                    ctx, lost, s, spec.leader, decl[lost], called[lost], TAG_MALHEUR, False
                )
                best_hi[lost] = np.maximum(best_hi[lost], h)
            active = np.zeros(ctx.n, dtype=bool)
            active[grown] = best_lo[grown] < N_RANKS
    best_hi = np.maximum(best_hi, best_lo)
    b_expected, b_ci = _score(spec, any_ok, counted, best_lo, best_hi)
    b_hist, _ = _hist(ctx, best_lo, best_hi)
    alternatives = [
        Alternative(None, k, Estimate(options[k][0], ctx.n, int((options[k][6] < 0).sum())))
        for k in options
        if k != pc
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
        estimate=Estimate.of_answers(ok),
        expected_score=expected,
        expected_score_ci=ci,
        tricks_hist=hist,
        tricks_hist_deals=hist_deals,
        alternatives=alternatives,
        notes=notes,
        bound=Bound(
            estimate=Estimate.of_answers(any_ok),
            expected_score=b_expected,
            tricks_hist=b_hist,
            expected_score_ci=b_ci,
        ),
    )


# ------------------------------------------------------------------------ wiezen: vragen


def _evaluate_vragen(ctx: _Context, spec: BidSpec) -> BidResult:
    """vragen + meegaan (W-07) under the meegaan model, alone 5 or a pass where nobody goes
    along (W-08); see the module docstring."""
    rs = ctx.ruleset
    trump, leader = spec.strains[0], spec.leader
    partner = meegaan_partner(ctx.store.deals[: ctx.n], rs, ctx.seat, trump)
    joined = partner >= 0
    decl = np.where(joined, ctx.me | (1 << np.maximum(partner, 0)), ctx.me)
    fallback = rs.ask_fallbacks[spec.contract]
    fb_leader = first_leader(rs, fallback, (ctx.seat,), FOREHAND)
    fb_target = contract_terms(rs, fallback, turned=trump).target
    fb_scores = np.asarray(score_table(rs, fallback), dtype=np.float64)
    ok = np.zeros(ctx.n, dtype=np.int8)
    j, a = ctx.all[joined], ctx.all[~joined]
    if j.size:
        ok[j] = ctx.store.at_least(j, trump, leader, decl[j], -1, spec.target, TAG_VRAGEN)
    if a.size:
        ok[a] = ctx.store.at_least(a, trump, fb_leader, ctx.me, -1, fb_target, TAG_ALONE)
    # strata: (joined or not) x (made, failed, given up)
    strata = np.where(joined, 0, 3) + ok.astype(np.int64) + 1
    counted = ctx.counted(strata)
    lo = np.zeros(ctx.n, dtype=np.int64)
    hi = np.zeros(ctx.n, dtype=np.int64)
    for m, ldr, tag in ((joined, leader, TAG_VRAGEN), (~joined, fb_leader, TAG_ALONE)):
        if not m.any():
            continue
        lo[m], hi[m] = ctx.store.known_range(ctx.all[m], trump, ldr, decl[m], -1)
        solve = m & counted & (ok >= 0)  # a given-up question keeps its known bounds
        if solve.any():
            lo[solve], hi[solve] = ctx.store.trick_range(
                ctx.all[solve], trump, ldr, decl[solve], -1, tag
            )
    scores = np.asarray(spec.scores, dtype=np.float64)
    low = np.where(joined, scores[lo], fb_scores[lo])
    high = np.where(joined, scores[hi], fb_scores[hi])
    notes = []
    n_joined = int(joined.sum())
    join_est = Estimate(n_joined, ctx.n)
    if not join_candidates(rs, ctx.seat):
        notes.append(
            "nobody speaks after the dealer: his ask cannot be answered and he decides at once "
            "between alone 5 and a pass (W-08)"
        )
    else:
        jl, jh = join_est.interval
        notes.append(
            f"someone goes along on {n_joined} of {ctx.n} deals ({100 * join_est.p:.1f}%, 95% "
            f"CI {100 * jl:.1f}-{100 * jh:.1f}%; meegaan model: the first later player with "
            f">= {JOIN_MIN_TRUMPS} trumps and trumps + side aces >= {JOIN_MIN_COUNT}); P(make) "
            "is P(8 tricks together) over those deals"
        )
    alone = ~joined
    if alone.any():
        # the asker's choice when nobody joins, made once for the hand: alone 5 unless it
        # loses on average over those deals (then pass: the deal is thrown in, 0 each)
        fb_mean, _, _ = stratified_mean(strata[alone], counted[alone], low[alone], high[alone])
        if fb_mean < 0:
            low[alone] = high[alone] = 0.0
            notes.append(
                f"unanswered ({int(alone.sum())} deals): alone 5 would average {fb_mean:+.2f}, "
                "so the asker passes (0)"
            )
        else:
            notes.append(
                f"unanswered ({int(alone.sum())} deals): the asker plays alone 5 "
                f"(averaging {fb_mean:+.2f} there)"
            )
    point, e_low, e_high = stratified_mean(strata, counted, low, high)
    # the trick distribution of the partnership, on the deals with a partner
    hist, hist_deals = _hist(ctx, np.where(joined, lo, -1), np.where(joined, hi, -2))
    return BidResult(
        spec=spec,
        trump=trump,
        called=None,
        estimate=Estimate.of_answers(ok[j]),
        expected_score=point,
        expected_score_ci=(e_low, e_high),
        tricks_hist=hist if hist_deals else None,
        tricks_hist_deals=hist_deals,
        notes=notes,
        joined=join_est,
    )


# ------------------------------------------------------------------- wiezen: troel, troela


def _evaluate_troel(ctx: _Context, spec: BidSpec) -> BidResult:
    """troel / troela (W-04, W-05): the holder of the partner card is the partner and leads."""
    pc = troel_partner_card(ctx.hand)
    trump = spec.strains[0]
    partner = ctx.partner_of(pc)
    decl = ctx.me | (1 << partner)
    ok = np.zeros(ctx.n, dtype=np.int8)
    for p in np.unique(partner):
        m = partner == p
        ok[m] = ctx.store.at_least(
            ctx.all[m], trump, int(p), decl[m], pc, spec.target, TAG_TROEL, leads=True
        )
    counted = ctx.counted(ok)
    lo = np.zeros(ctx.n, dtype=np.int64)
    hi = np.zeros(ctx.n, dtype=np.int64)
    for p in np.unique(partner):
        m = partner == p
        lo[m], hi[m] = ctx.store.known_range(ctx.all[m], trump, int(p), decl[m], pc, leads=True)
        solve = m & counted & (ok >= 0)
        if solve.any():
            lo[solve], hi[solve] = ctx.store.trick_range(
                ctx.all[solve], trump, int(p), decl[solve], pc, TAG_TROEL, leads=True
            )
    expected, ci = _score(spec, ok, counted, lo, hi)
    hist, hist_deals = _hist(ctx, lo, hi)
    notes = [f"partner: the holder of {format_card(pc, 'en')}, who leads it to trick 1 (W-04/W-05)"]
    return BidResult(
        spec=spec,
        trump=trump,
        called=pc,
        estimate=Estimate.of_answers(ok),
        expected_score=expected,
        expected_score_ci=ci,
        tricks_hist=hist,
        tricks_hist_deals=hist_deals,
        notes=notes,
    )
