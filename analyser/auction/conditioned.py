"""Deals conditioned on the auction so far: rejection over the seeded uniform sampler.

The other three hands are drawn uniformly among the completions of the known cards
(:func:`analyser.sampler.sample_deals`), and a deal is **accepted** when, for every earlier
call of another seat, the bidding model gives that seat's hand exactly that call at that point
of the auction (:meth:`~analyser.auction.model.BiddingModel.calls`). This seat's own earlier
calls are facts, not evidence, and are not tested. Rejection from a uniform sample leaves the
accepted deals uniform among all the completions the auction accepts.

Reproducible like the sampler: the raw deals are drawn in blocks from deal index 0 up, so the
``k``-th accepted deal depends only on the seed, the known cards, the auction and the model,
and :meth:`ConditionedDeals.take` returns the same deals whatever the batches.

**Acceptance.** ``acceptance`` is the share of raw deals accepted so far (with its 95 %
Wilson interval). An auction that is nearly impossible under the model is refused with one
line (:class:`~analyser.errors.RulesError`) as soon as the interval's upper end falls below
:data:`MIN_ACCEPTANCE`, or when :data:`MAX_RAW` raw deals do not give the deals asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from analyser.auction.calls import Turn
from analyser.auction.model import BiddingModel
from analyser.errors import RulesError
from analyser.rules import RuleSet
from analyser.sampler import known_owner, sample_deals
from analyser.seats import Seat, place_of
from analyser.stats import wilson_interval

BLOCK = 4096  # raw deals drawn at a time
MIN_ACCEPTANCE = 0.001  # refuse an auction whose acceptance is surely below this (95 %)
MAX_RAW = 2_000_000  # raw deals at most


def accepts(
    ruleset: RuleSet,
    model: BiddingModel,
    turns: Sequence[Turn],
    deals: np.ndarray,
    own_seat: Seat | None = None,
) -> np.ndarray:
    """``bool[n]``: the deals (``int64[n, 4]``) on which every call in ``turns`` of a seat
    other than ``own_seat`` is the call ``model`` gives that seat's hand."""
    deals = np.asarray(deals, dtype=np.int64)
    ok = np.ones(deals.shape[0], dtype=bool)
    for t in turns:
        if t.seat == own_seat:
            continue
        idx = np.flatnonzero(ok)
        if not idx.size:
            break
        calls = model.calls(ruleset, t.before, t.seat, deals[idx, t.seat])
        ok[idx[calls != t.call.id]] = False
    return ok


class ConditionedDeals:
    """The accepted deals of an auction, in the order of the raw sample (module docstring).

    ``known``: the known cards in any form :func:`~analyser.sampler.known_owner` takes (this
    seat's hand); ``turns``: the earlier calls (:func:`~analyser.auction.calls.replay`);
    ``own_seat``: the seat whose calls are not tested; ``draw(start, n)``: the raw deals
    ``start .. start + n - 1`` (default: uniform deals around ``known``; under the cut_only
    model, :func:`analyser.deal_draw.deal_source`'s)."""

    def __init__(
        self,
        ruleset: RuleSet,
        model: BiddingModel,
        turns: Sequence[Turn],
        known,
        seed: int,
        own_seat: Seat | None = None,
        *,
        block: int = BLOCK,
        max_raw: int = MAX_RAW,
        min_acceptance: float = MIN_ACCEPTANCE,
        draw: Callable[[int, int], np.ndarray] | None = None,
    ):
        self.ruleset = ruleset
        self.model = model
        self.turns = list(turns)
        self.owner = known_owner(known)
        self.seed = seed
        self.own_seat = own_seat
        self.block = block
        self.max_raw = max_raw
        self.min_acceptance = min_acceptance
        # the raw deals: uniform around the known cards, or another deal model's draw
        self.draw = draw or (lambda start, n: sample_deals(self.owner, n, self.seed, start=start))
        self.raw = 0
        self._accepted: list[np.ndarray] = []
        self._n = 0

    @property
    def accepted(self) -> int:
        """Accepted deals so far."""
        return self._n

    @property
    def acceptance(self) -> float:
        """Share of the raw deals drawn so far that the auction accepts (1 before any draw)."""
        return self._n / self.raw if self.raw else 1.0

    @property
    def acceptance_interval(self) -> tuple[float, float]:
        """95 % Wilson interval of the acceptance rate."""
        return wilson_interval(self._n, self.raw) if self.raw else (0.0, 1.0)

    def describe(self) -> str:
        """One line: accepted of drawn, the rate and its interval."""
        low, high = self.acceptance_interval
        return (
            f"{self._n:,} of {self.raw:,} sampled deals accept the auction under the "
            f"{self.model.name} model ({100 * self.acceptance:.2f}%, 95% CI "
            f"{100 * low:.2f}-{100 * high:.2f}%)"
        )

    def _auction_text(self) -> str:
        return " ".join(f"{place_of(t.seat)}:{t.call.id}" for t in self.turns) or "no calls"

    def _draw(self) -> None:
        deals = self.draw(self.raw, self.block)
        self.raw += deals.shape[0]
        ok = accepts(self.ruleset, self.model, self.turns, deals, self.own_seat)
        if ok.any():
            self._accepted.append(deals[ok])
            self._n += int(ok.sum())

    def _refuse(self) -> None:
        raise RulesError(
            f"the auction ({self._auction_text()}) is nearly impossible under the "
            f"{self.model.name} bidding model: {self._n:,} of {self.raw:,} sampled deals "
            f"accept it (at most {100 * self.acceptance_interval[1]:.3f}%, 95%); "
            "check the calls and the seat"
        )

    def take(self, start: int, n: int) -> np.ndarray:
        """Accepted deals ``start .. start + n - 1`` as ``int64[n, 4]`` (drawing more raw
        deals as needed; RulesError when the auction is nearly impossible)."""
        if n <= 0:
            return np.zeros((0, 4), dtype=np.int64)
        while self._n < start + n:
            if self.raw and self.acceptance_interval[1] < self.min_acceptance:
                self._refuse()
            if self.raw >= self.max_raw:
                self._refuse()
            self._draw()
        if len(self._accepted) > 1:
            self._accepted = [np.concatenate(self._accepted)]
        return self._accepted[0][start : start + n].copy()
