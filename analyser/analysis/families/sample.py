"""What every contract family shares: its view of the sample and the figures made from it.

**Exact counts only where a figure needs them.** A make-probability needs ``>=K`` answers
only. Trick counts below the target - the undertricks, where a lone declarer's count can run
for minutes - are only needed for the expected score, so they are made on a subsample
(:meth:`SampleView.counted`): the first :data:`EXACT_PREFIX` deals and at least
:data:`STRATUM_MIN` deals of each stratum (made, failed, given up). The expected score is the
two-phase stratified mean (:func:`~analyser.stats.stratified_mean`,
:func:`expected_score`): each stratum's share comes from every deal, its mean score from the
counted ones, and its 95 % interval is reported. The trick distribution
(:meth:`SampleView.hist`) counts the first :data:`EXACT_PREFIX` deals. With ``--deals 60`` or
fewer every deal is counted. The subsample of a prefix of the sample is the prefix of the
subsample, so a sample solved in steps counts the same deals as one solved at once.
"""

from __future__ import annotations

import numpy as np

from analyser.analysis.bids import N_TRICKS, BidSpec
from analyser.analysis.positions import PositionStore
from analyser.cards import N_RANKS, SUIT_BITS, SUIT_MASK, masks_to_owner, suit_of
from analyser.rules import RuleSet
from analyser.seats import Seat
from analyser.stats import stratified_mean

EXACT_PREFIX = 60  # deals whose exact counts give the trick distribution
STRATUM_MIN = 15  # counted deals at least per stratum of the expected score


class SampleView:
    """One evaluation call's view of the sample: its first ``n`` deals, the card owners and
    the declarer. ``memo`` is a dict kept for the whole run (a family's state between the
    steps of an adaptive sample); ``prune`` > 0 is the adaptive sample's precision (0: a
    fixed sample, nothing is pruned)."""

    def __init__(
        self,
        store: PositionStore,
        hand: list[int],
        seat: Seat,
        ruleset: RuleSet,
        n: int,
        memo: dict,
        prune: float,
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

    def trick_ranges(
        self, idx, trump, leader, decl, called, tag, solve=True
    ) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) trick ranges per deal in ``idx`` whose called card varies per deal:
        exact counts (solved under the budget) when ``solve``, else what is known so far."""
        lo = np.zeros(idx.size, dtype=np.int64)
        hi = np.zeros(idx.size, dtype=np.int64)
        for value in np.unique(called):
            m = called == value
            if solve:
                a, b = self.store.trick_range(idx[m], trump, leader, decl[m], int(value), tag)
            else:
                a, b = self.store.known_range(idx[m], trump, leader, decl[m], int(value))
            lo[m], hi[m] = a, b
        return lo, hi

    def hist(self, lo: np.ndarray, hi: np.ndarray) -> tuple[list[int], int]:
        """Trick distribution over the first EXACT_PREFIX deals with an exact count (``lo``
        and ``hi`` per deal of the sample), and the number of deals it counts."""
        sel = (self.all < EXACT_PREFIX) & (lo == hi)
        counts = np.bincount(lo[sel].astype(np.int64), minlength=N_TRICKS)
        return [int(x) for x in counts], int(sel.sum())


def expected_score(spec: BidSpec, strata, counted, lo, hi) -> tuple[float, tuple[float, float]]:
    """Expected score and its 95 % interval from trick ranges on the counted deals."""
    scores = np.asarray(spec.scores, dtype=np.float64)
    low = np.where(counted, scores[np.clip(lo, 0, N_RANKS)], 0.0)
    high = np.where(counted, scores[np.clip(hi, 0, N_RANKS)], 0.0)
    point, a, b = stratified_mean(strata, counted, low, high)
    return point, (a, b)


def never_made(spec: BidSpec, level: int, what: str):
    """Figures of a bid whose choice (``what``) never took ``level`` tricks on the sample (no
    counts made): every deal has at most level - 1 tricks and the score never falls as the
    tricks rise, so scoring every deal at level - 1 bounds the mean from above (exactly when
    the failed score is flat); the interval runs down to 0 tricks. Returns the expected
    score, its interval and the note that says so."""
    bound = float(spec.scores[level - 1])
    note = (
        f"never {level}+ tricks with {what} on this sample: trick counts not computed, the "
        f"expected score is an upper bound (every deal scored as {level - 1} tricks)"
    )
    return bound, (float(spec.scores[0]), bound), [note]
