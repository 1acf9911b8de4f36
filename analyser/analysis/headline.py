"""The figure a player reads first: each bid's real-play P(make) and expected score.

Every figure the sample gives is double-dummy (all hands seen). By default (``play =
"real-play"``) the headline of a bid is its **estimated real play**: the double-dummy P(make)
mapped through its family's curve from Study 13 (:mod:`analyser.analysis.play_curve`,
single-dummy players who see only their own hand and draw their worlds consistent with the
auction), with a range that carries the curve's band and the sample's interval. The expected
score follows from it: the double-dummy mean score of the made deals and of the failed deals
(from the bid's trick distribution; for misère and piek the two fixed scores), weighted by the
real-play P(make). The recommendation then weighs these.

A bid the calibration does not cover (a family without a curve, a hand outside the family's
design, a double-dummy P(make) outside the curve's range, a rule set other than rikken's) keeps
its double-dummy figures as its headline, and the reason is recorded
(``BidResult.headline_why``) and shown. ``play = "double-dummy"`` makes every headline
double-dummy (the figures of old);
``"single-dummy"`` is the real-play headline for the analysis, with the bids played out on top
(:mod:`analyser.analysis.single_dummy_run`).
"""

from __future__ import annotations

import numpy as np

from analyser.analysis import play_curve
from analyser.analysis.results import BidResult, HandAnalysis, Headline
from analyser.cards import cards_to_mask
from analyser.rules import RuleSet
from analyser.rules.contracts import PRAATJE_KINDS, Contract
from analyser.stats import Estimate

PLAYS = ("real-play", "double-dummy", "single-dummy")
"""The ``--play`` modes: the real-play estimate (default), double-dummy, or played out."""

REAL_PLAY, DOUBLE_DUMMY, SINGLE_DUMMY = PLAYS


def outcome_scores(b: BidResult) -> tuple[float, float]:
    """The bid's mean score when made and when failed: over the deals of its trick
    distribution where there are some, else the score at the target and just below it (null
    contracts: their two fixed scores)."""
    spec = b.spec
    if spec.contract.is_null:
        return float(spec.made_score()), float(spec.failed_score())
    scores = np.asarray(spec.scores, dtype=float)
    made_at = float(scores[spec.target])
    failed_at = float(scores[max(spec.target - 1, 0)])
    if not b.tricks_hist:
        return made_at, failed_at
    hist = np.asarray(b.tricks_hist, dtype=float)
    tricks = np.arange(hist.size)
    made = tricks >= spec.target
    n_made, n_failed = hist[made].sum(), hist[~made].sum()
    s = scores[: hist.size]
    return (
        float((hist[made] * s[made]).sum() / n_made) if n_made else made_at,
        float((hist[~made] * s[~made]).sum() / n_failed) if n_failed else failed_at,
    )


def real_play_of(
    contract: Contract,
    ruleset: RuleSet,
    hand: list[int],
    estimate: Estimate,
    scores: tuple[float, float],
    cal: play_curve.Calibration | None,
) -> Headline | str:
    """The real-play headline of ``contract`` for ``hand`` whose double-dummy estimate is
    ``estimate`` and whose mean scores made / failed are ``scores``; or the reason it has
    none (a string)."""
    from analyser.analysis.play_panel import family_of, in_design  # the guidelines: heavy

    if contract.kind in PRAATJE_KINDS:
        # the defenders confer with every hand open: the play is double-dummy at the table
        return "praatje play is double-dummy: its figure is the real-play figure"
    if cal is None:
        return "no real-play calibration file (data/real_play/real_play_calibration.json)"
    family = family_of(contract, ruleset.family)
    if family is None:
        return "no real-play calibration for this bid"
    mask = np.array([cards_to_mask(hand)], dtype=np.int64)
    if not bool(in_design(family, mask)[0]):
        return f"the hand is outside the {family.replace('_', ' ')} panel of the calibration"
    low, high = estimate.interval
    got = cal.estimate(family, estimate.p, low, high, int(mask[0]))
    if isinstance(got, str):
        return got
    p, lo, hi = got
    made, failed = scores

    def score(x: float) -> float:
        return x * made + (1 - x) * failed

    ends = sorted((score(lo), score(hi)))
    return Headline(REAL_PLAY, p, lo, hi, score(p), (ends[0], ends[1]), family)


def real_play(b: BidResult, analysis: HandAnalysis, cal: play_curve.Calibration | None):
    """The real-play headline of one bid of ``analysis``, or the reason it has none."""
    return real_play_of(
        b.spec.contract, analysis.ruleset, analysis.hand, b.estimate, outcome_scores(b), cal
    )


def apply_play(
    analysis: HandAnalysis, play: str = REAL_PLAY, cal: play_curve.Calibration | None = None
) -> None:
    """Set each bid's headline for the ``play`` mode (module docstring); ``cal`` defaults to
    the shipped calibration."""
    analysis.play = play
    if play == DOUBLE_DUMMY:
        return
    cal = play_curve.load() if cal is None else cal
    analysis.calibration = cal
    for b in analysis.bids:
        got = real_play(b, analysis, cal)
        if isinstance(got, str):
            b.headline_why = got
        else:
            b.headline = got
