"""Result records of a hand analysis (filled by :mod:`.evaluate`, read by the reports)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from analyser.analysis.bids import BidSpec
from analyser.rules import RuleSet
from analyser.seats import Place
from analyser.stats import Estimate


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
    expected_score_ci: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Headline:
    """The figure shown first for a bid when it is not its double-dummy one
    (:mod:`analyser.analysis.headline`): ``estimate`` says which it is (``real-play``)."""

    estimate: str
    p: float
    low: float
    high: float
    expected_score: float
    expected_score_ci: tuple[float, float]
    family: str
    """The calibration family whose curve gave it."""


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
    """Deals with t = 0..13 declarer-side tricks among the first deals of the sample
    (``tricks_hist_deals`` of them; trick-taking bids)."""
    expected_score_ci: tuple[float, float] = (0.0, 0.0)
    """95 % interval of the expected score (sampling, subsample and given-up positions)."""
    tricks_hist_deals: int = 0
    """Deals the trick distribution counts (the first of the sample with an exact count)."""
    alternatives: list[Alternative] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    bound: Bound | None = None
    opening: bool = False
    """Legal as the opening bid at this seat."""
    score_is_bound: bool = False
    """``expected_score`` is an upper bound (the bid never made on the sample and no trick
    counts were made; see the notes)."""
    joined: Estimate | None = None
    """vragen (wiezen): the deals on which someone goes along, out of all the bid's deals
    (the meegaan model, :mod:`analyser.analysis.wiezen`); ``estimate`` is over those."""
    headline: Headline | None = None
    """The real-play figures shown first; None: the double-dummy ones are the headline."""
    headline_why: str | None = None
    """Why a real-play headline was asked for and not given (the bid falls back to
    double-dummy)."""

    @property
    def estimate_kind(self) -> str:
        """Which figure is the headline: ``real-play`` or ``double-dummy``."""
        return self.headline.estimate if self.headline is not None else "double-dummy"

    @property
    def p_headline(self) -> float:
        """The headline P(make)."""
        return self.headline.p if self.headline is not None else self.estimate.p

    @property
    def score_headline(self) -> float:
        """The headline expected score."""
        return self.headline.expected_score if self.headline is not None else self.expected_score

    @property
    def score_headline_ci(self) -> tuple[float, float]:
        """The headline expected score's 95 % interval."""
        if self.headline is not None:
            return self.headline.expected_score_ci
        return self.expected_score_ci

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
    """The most deals any bid was evaluated on (each bid's own count: its estimate's n)."""
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
    sampling: str = ""
    """How the sample size was chosen (fixed, or adaptive with its precision and maximum)."""
    node_budget: int = 0
    """Nodes per search before a position is given up (0 = no budget)."""
    given_up: dict[str, int] = field(default_factory=dict)
    """Positions given up at the node budget, per contract family tag."""
    turned: int | None = None
    """The turned card (wiezen, W-01; it lies with the dealer), else None."""
    interrupted: bool = False
    """Stopped with Ctrl-C: each question's figures are on the deals of its last finished
    step, and a bid no step finished is left out (listed in the notes)."""
    deal_model: str = "uniform"
    """How the other hands were dealt (R-DEAL-06): ``uniform`` or ``cut_only``."""
    play: str = "double-dummy"
    """Which figures are the headline (:data:`analyser.analysis.headline.PLAYS`)."""
    calibration: Any = None
    """The real-play calibration the headlines used (:class:`analyser.analysis.play_curve.
    Calibration`), None when there is none or ``play`` is double-dummy."""

    def bid(self, contract_id: str) -> BidResult:
        """The result row of a contract id (``rik``, ``alone_9_beter``, ``solo``...)."""
        for b in self.bids:
            if b.spec.id == contract_id:
                return b
        raise KeyError(contract_id)
