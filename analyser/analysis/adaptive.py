"""How many deals to sample: a fixed sample, or sampling until the figures are precise enough.

The default of ``rikken analyse`` and ``rikken misere`` is adaptive: deals are added in steps
(:data:`STEPS`: 20, 50, 100, 200, 350, 550, 800, 1000) until every reported make-probability has a
95 % interval half-width of at most :data:`TARGET_HALF_WIDTH` (``--precision``), at most
:data:`MAX_DEALS` deals (``--max-deals``). A question already settled stops taking new deals:
a bid that makes on all of the first 50 deals has a half-width of 0.036 and needs no more,
while one near 50 % needs about 385. ``--deals N`` asks for exactly N deals instead.

:class:`SamplePlan` is the rule; the callers decide what a "question" is (a contract family
of ``rikken analyse``, the misère forms of ``rikken misere``) and report the half-widths.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from analyser.errors import RikkenError
from analyser.stats import Z95

TARGET_HALF_WIDTH = 0.05
MAX_DEALS = 1000
FIRST_STEP = 20
STEPS = (20, 50, 100, 200, 350, 550, 800, 1000)


@dataclass(frozen=True)
class SamplePlan:
    """Fixed (``deals``) or adaptive (``precision``, at most ``max_deals``) sampling."""

    deals: int | None = None
    """A fixed sample size, or None for adaptive sampling."""
    precision: float = TARGET_HALF_WIDTH
    """Adaptive: the largest 95 % half-width a reported probability may keep."""
    max_deals: int = MAX_DEALS
    """Adaptive: the most deals any question gets."""

    def __post_init__(self) -> None:
        if self.deals is not None and self.deals < 1:
            raise RikkenError(f"the number of deals must be at least 1, got {self.deals}")
        if not 0 < self.precision < 0.5:
            raise RikkenError(f"--precision must be between 0 and 0.5, got {self.precision}")
        if self.max_deals < 1:
            raise RikkenError(f"--max-deals must be at least 1, got {self.max_deals}")

    @property
    def adaptive(self) -> bool:
        """True when sampling stops on precision rather than at a fixed size."""
        return self.deals is None

    @property
    def limit(self) -> int:
        """The most deals the run may sample."""
        return self.deals if self.deals is not None else self.max_deals

    def first(self) -> int:
        """Deals of the first step."""
        return self.limit if not self.adaptive else min(FIRST_STEP, self.limit)

    def first_step(self) -> int:
        """Deals of the first step of a sample solved in steps even when it is fixed (``rikken
        analyse`` and ``rikken misere``: every answer is per deal, so the steps give the
        figures of one step): a run stopped with Ctrl-C keeps the steps it finished."""
        return min(FIRST_STEP, self.limit)

    def next_size(self, n: int, needed: int | None = None) -> int:
        """The sample size after ``n`` deals when a question is still open: the next of
        :data:`STEPS`, or - when the open questions' estimate ``needed`` (deals_needed) is
        known - a step to just past it (at least an eighth more deals, at most the next step)."""
        step = next((x for x in STEPS if x > n), max(n + n // 2, n + 1))
        if needed is not None and n >= STEPS[2]:
            step = min(step, max(n + max(FIRST_STEP, n // 8), needed + needed // 20))
        return min(step, self.limit)

    def settled(self, half_widths: list[float], n: int) -> bool:
        """True when a question with these half-widths after ``n`` deals takes no more deals:
        every half-width is within the precision, or the limit is reached."""
        if not self.adaptive:
            return n >= self.limit
        return n >= self.limit or all(h <= self.precision for h in half_widths)

    def deals_needed(self, p: float) -> int:
        """About how many deals a proportion near ``p`` needs to reach the precision (for
        the progress line's estimate of the time left), at most the limit."""
        p = min(max(p, 0.02), 0.98)
        need = math.ceil(Z95 * Z95 * p * (1 - p) / self.precision**2)
        return min(self.limit, max(FIRST_STEP, need))

    def describe(self) -> str:
        """One line for the output: how the sample size was chosen."""
        if not self.adaptive:
            return f"fixed sample of {self.deals} deals (--deals)"
        return (
            f"adaptive: each question sampled until its 95% half-width <= {self.precision:g} "
            f"(at most {self.max_deals} deals)"
        )


def sampling_plan(deals: int | None, precision: float | None, max_deals: int | None) -> SamplePlan:
    """The sampling plan of the options ``--deals`` / ``--precision`` / ``--max-deals`` of
    ``rikken analyse`` and ``rikken misere``: ``deals`` alone is a fixed sample; otherwise
    adaptive to ``precision`` (default :data:`TARGET_HALF_WIDTH`) with at most ``max_deals``
    deals (or ``deals``; default :data:`MAX_DEALS`). RikkenError (one line) for options that
    do not go together."""
    if deals is not None and deals < 1:
        raise RikkenError(f"the number of deals must be at least 1, got {deals}")
    if deals is not None and max_deals is not None:
        raise RikkenError(
            "--max-deals bounds the adaptive sample; --deals N fixes it (use one of them)"
        )
    if deals is not None and precision is None:
        return SamplePlan(deals=deals)
    kwargs: dict = {}
    if precision is not None:
        kwargs["precision"] = precision
    if max_deals is not None:
        kwargs["max_deals"] = max_deals
    elif deals is not None:
        kwargs["max_deals"] = deals
    return SamplePlan(**kwargs)


INTERRUPTED = "stopped early (Ctrl-C)"
"""How ``stop_reason`` begins when a run was stopped with Ctrl-C: its figures are those of
the deals of the steps finished before the stop."""


def interrupted_reason(n: int, plan: SamplePlan) -> str:
    """``stop_reason`` of a run stopped with Ctrl-C after ``n`` deals."""
    return f"{INTERRUPTED} after {n} of at most {plan.limit} deals; figures on those {n}"
