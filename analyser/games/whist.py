"""Whist (docs/whist.md, WH-01 … WH-07): its scoring forms as data, and the hand analysis.

The play is Rikken's with partners opposite and the turned suit trump, so the double-dummy
solver serves unchanged; what is new is the scoring: tricks over six and honours, in five
forms (WH-06). :func:`analyse_whist` samples the other three hands (the turned card with the
dealer, WH-02), solves every deal for the hand's partnership with seat 1 on lead (WH-03), and
reports the trick distribution, the chance of winning the game in this one deal from
love-all, the expected point difference and the honours odds.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from analyser.cards import N_RANKS, N_SEATS
from analyser.errors import RikkenError
from analyser.notation import format_card
from analyser.progress import Progress
from analyser.seats import DEALER, DEALER_PLACE, FOREHAND, Place, seat_of
from analyser.stats import Estimate, stratified_mean

HONOUR_RANKS = (12, 11, 10, 9)  # A K Q J (WH-05)


@dataclasses.dataclass(frozen=True)
class WhistForm:
    """One scoring form of WH-06: points to win a game, the value of a trick over six, the
    honours for four and for three held (``each_honour``: one point per honour held, both
    sides scoring theirs), and the score from which honours no longer count (None: always)."""

    name: str
    target: int
    trick_value: int
    honours_4: int
    honours_3: int
    each_honour: bool = False
    honours_until: int | None = None

    def points(self, tricks: int, honours: int, score: int = 0) -> int:
        """A side's points from one deal: its ``tricks`` (WH-04) and the ``honours`` it
        holds (0..4, WH-05), its score before the deal being ``score``."""
        pts = max(0, tricks - 6) * self.trick_value
        if self.honours_until is not None and score >= self.honours_until:
            return pts
        if self.each_honour:
            return pts + honours
        if honours == 4:
            return pts + self.honours_4
        if honours == 3:
            return pts + self.honours_3
        return pts


FORMS: dict[str, WhistForm] = {
    "10": WhistForm("10 points", 10, 2, 4, 2),
    "7": WhistForm("7 points", 7, 1, 0, 0, each_honour=True, honours_until=6),
    "6": WhistForm("6 points", 6, 1, 4, 2, honours_until=5),
    "5": WhistForm("5 points", 5, 1, 4, 2, honours_until=4),
    "4": WhistForm("4 points", 4, 1, 0, 0),
}
DEFAULT_FORM = "5"


def get_form(name: str) -> WhistForm:
    """The form ``name`` (10, 7, 6, 5 or 4); RikkenError for another."""
    try:
        return FORMS[str(name)]
    except KeyError:
        raise RikkenError(
            f"unknown whist form {name!r} (one of: {', '.join(FORMS)} points)"
        ) from None


@dataclasses.dataclass
class WhistAnalysis:
    """What ``rikken analyse --game whist`` reports for one hand (every figure
    double-dummy)."""

    hand: list[int]
    seat: Place
    turned: int
    form: WhistForm
    seed: int
    deals: int
    tricks_hist: list[int]
    """Deals on which the hand's partnership took 0..13 tricks."""
    game: Estimate
    """Our points from this deal reach the target (from love-all)."""
    expected_diff: float
    expected_diff_ci: tuple[float, float]
    """Our points minus theirs per deal, and its 95% interval."""
    honours: list[int]
    """Deals on which our partnership held 0..4 honours."""
    seconds: float


def analyse_whist(
    hand: list[int],
    seat: Place,
    turned: int,
    form: str = DEFAULT_FORM,
    deals: int = 200,
    seed: int = 1,
    quiet: bool = True,
) -> WhistAnalysis:
    """Analyse ``hand`` at ``seat`` (1..4, 4 = the dealer) with the ``turned`` card under the
    scoring ``form``, on ``deals`` deals sampled from ``seed``."""
    from analyser.sampler import sample_deals, with_turned_card
    from analyser.solver import GOAL_TRICKS, solve_batch

    f = get_form(form)
    if len(set(hand)) != N_RANKS:
        raise RikkenError("a whist hand has 13 different cards")
    if deals < 1:
        raise RikkenError("--deals must be at least 1")
    me = seat_of(seat)
    name = format_card(turned, "en")
    if (me == DEALER) != (turned in hand):
        where = "is not in" if me == DEALER else "is in"
        raise RikkenError(
            f"the turned card {name} {where} this hand, but it lies with the dealer (seat "
            f"{DEALER_PLACE}) (WH-02)"
        )
    known: list[list[int]] = [[], [], [], []]
    known[me] = list(hand)
    owner = with_turned_card(known, turned, DEALER)
    trump = turned // N_RANKS
    t0 = time.perf_counter()
    with Progress(deals, "whist deals", quiet=quiet) as progress:
        masks = sample_deals(owner, deals, seed)
        side = (1 << me) | (1 << ((me + 2) % N_SEATS))
        tricks = solve_batch(
            masks, trump, FOREHAND, side, GOAL_TRICKS, on_done=progress.advance
        ).astype(np.int64)
    honours = _honours(masks, trump, me)
    ours = np.array([f.points(int(t), int(h)) for t, h in zip(tricks, honours, strict=True)])
    theirs = np.array(
        [f.points(N_RANKS - int(t), 4 - int(h)) for t, h in zip(tricks, honours, strict=True)]
    )
    diff = ours - theirs
    everything = np.ones(deals, bool)
    _, lo, hi = stratified_mean(np.zeros(deals, np.int64), everything, diff, diff)
    return WhistAnalysis(
        hand=sorted(hand),
        seat=seat,
        turned=turned,
        form=f,
        seed=seed,
        deals=deals,
        tricks_hist=np.bincount(tricks, minlength=N_RANKS + 1).tolist(),
        game=Estimate.of_answers((ours >= f.target).astype(np.int8)),
        expected_diff=float(diff.mean()),
        expected_diff_ci=(lo, hi),
        honours=np.bincount(honours, minlength=5).tolist(),
        seconds=time.perf_counter() - t0,
    )


def _honours(masks: np.ndarray, trump: int, me: int) -> np.ndarray:
    """Per deal, the trump honours (A K Q J) held by seat ``me`` and his partner."""
    ours = masks[:, me] | masks[:, (me + 2) % N_SEATS]
    out = np.zeros(masks.shape[0], np.int64)
    for r in HONOUR_RANKS:
        out += (ours >> (16 * trump + r)) & 1
    return out
