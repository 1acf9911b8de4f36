"""Result records of a hand analysis (filled by :mod:`.evaluate`, read by the reports)."""

from __future__ import annotations

from dataclasses import dataclass, field

from analyser.analysis.bids import BidSpec
from analyser.analysis.stats import wilson_half_width, wilson_interval
from analyser.rules import RuleSet
from analyser.seats import Place


@dataclass(frozen=True)
class Estimate:
    """``made`` successes out of ``n`` sampled deals, with its 95 % Wilson interval."""

    made: int
    n: int

    @property
    def p(self) -> float:
        """The sample proportion (0 for an empty sample)."""
        return self.made / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95 % Wilson interval."""
        return wilson_interval(self.made, self.n)

    @property
    def half_width(self) -> float:
        """Half the interval's width (the ``--precision`` criterion)."""
        return wilson_half_width(self.made, self.n)


@dataclass(frozen=True)
class Alternative:
    """A runner-up choice of trump (and called card) with its make-probability."""

    trump: int | None
    called: int | None
    estimate: Estimate


@dataclass(frozen=True)
class Bound:
    """Malheur with the double-dummy best trump on every deal (an upper bound)."""

    estimate: Estimate
    expected_score: float
    tricks_hist: list[int]


@dataclass
class BidResult:
    """One bid's figures on the sample."""

    spec: BidSpec
    trump: int | None
    """The strain used (0..3, 4 = no trump), None where it varies per deal (malheur)."""
    called: int | None
    """The called card (rik) or malheur partner card, else None."""
    estimate: Estimate
    expected_score: float
    tricks_hist: list[int] | None
    """Deals with t = 0..13 declarer-side tricks (trick-taking bids)."""
    alternatives: list[Alternative] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    bound: Bound | None = None
    opening: bool = False
    """Legal as the opening bid at this seat."""
    score_is_bound: bool = False
    """``expected_score`` is an upper bound (the bid never made on the sample and no trick
    counts were made; see the notes)."""

    @property
    def mean_tricks(self) -> float | None:
        """Average declarer-side tricks, where the distribution is known."""
        if self.tricks_hist is None:
            return None
        n = sum(self.tricks_hist)
        return sum(t * k for t, k in enumerate(self.tricks_hist)) / n if n else None


@dataclass
class HandAnalysis:
    """Everything ``rikken analyse`` reports for one hand at one seat."""

    hand: list[int]
    seat: Place
    """Seat relative to the dealer, 1..4."""
    ruleset: RuleSet
    seed: int
    n_deals: int
    bids: list[BidResult]
    stop_reason: str
    precision: float | None
    min_p: float
    recommended_opening: str | None = None
    """Contract id of the best legal opening bid, ``pass``, or None if nothing is legal."""
    highest_competitive: str | None = None
    """Contract id of the highest bid worth competing to, or None."""
    notes: list[str] = field(default_factory=list)
    not_offered: list[str] = field(default_factory=list)
    """Contract ids of the rule set this hand can never bid at its seat, so not evaluated
    (beter rik for the forehand, R-BID-07; below malheur for 3-4 aces, R-MAL-01)."""
    seconds: dict[str, float] = field(default_factory=dict)
    """Solver wall seconds per contract family tag, and ``total`` (the whole analysis)."""
    positions: dict[str, int] = field(default_factory=dict)
    """Positions solved per contract family tag."""
    query_kinds: dict[tuple[str, str], tuple[float, int]] = field(default_factory=dict)
    """(family tag, query kind ``>=K``/``exact``/``misere``/``piek``) → (seconds, positions)."""

    def bid(self, contract_id: str) -> BidResult:
        """The result row of a contract id (``rik``, ``alone_9_beter``, ``solo``...)."""
        for b in self.bids:
            if b.spec.id == contract_id:
                return b
        raise KeyError(contract_id)
