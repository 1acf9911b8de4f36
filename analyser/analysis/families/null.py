"""The null family: misère and piek in every form (closed, open, praatje).

One yes/no question per distinct (goal, leader): does the lone declarer take exactly 0
(misère) or exactly 1 (piek) trick. The score is linear in the make-probability, so the
expected score's interval is that of P(make); there is no trick distribution.
"""

from __future__ import annotations

from analyser.analysis.bids import BidSpec
from analyser.analysis.families.registry import Family, register
from analyser.analysis.families.sample import SampleView
from analyser.analysis.results import BidResult
from analyser.rules.contracts import NULL_KINDS
from analyser.stats import Estimate

FAMILY_NULL = "null"
TAG_NULL = "misere/piek"


@register
class NullFamily(Family):
    """Misère and piek (module docstring)."""

    name = FAMILY_NULL
    kinds = NULL_KINDS
    tag = TAG_NULL
    order = 30

    def evaluate(self, sample: SampleView, specs: list[BidSpec]) -> dict[str, BidResult]:
        """P(make) of each bid and the expected score it gives."""
        return {spec.id: _evaluate(sample, spec) for spec in specs}


def _evaluate(sample: SampleView, spec: BidSpec) -> BidResult:
    from analyser.solver import GOAL_MISERE, GOAL_PIEK

    goal = GOAL_MISERE if spec.contract.is_misere else GOAL_PIEK
    ok = sample.store.null_goal(sample.all, goal, spec.leader, sample.me, TAG_NULL)
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
