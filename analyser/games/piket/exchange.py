"""The exchange advisor behind ``rikken analyse HAND --game piket --elder|--younger``
(docs/piket.md, "What the analyser computes").

For a dealt 12-card hand it ranks every discard set the rules allow (PK-03: elder 1..5 cards,
younger 1..3) by the expected final score of the deal, elder's or younger's side as asked:
declarations (carte blanche, point, sequences, sets, repic) plus the exact trick play with
pic (:mod:`.solver`), over sampled worlds (the opponent's 12 cards and the order of the
talon, uniform over the cards we do not see). The opponent exchanges by a stated heuristic
(:func:`heuristic_discard`). The same worlds serve every candidate (a paired comparison).

Solving every one of elder's 1,585 discard sets at full depth on every world would take
too long, so the ranking runs in three stages, all on the same worlds:

1. every discard set: the declarations alone, on ``screen_worlds`` worlds;
2. the ``pool`` best of stage 1, plus the heuristic's own discard of each size (so the
   plain "throw the low cards" choice is always weighed): declarations + exact trick
   play on the first ``pool_worlds`` worlds;
3. the ``top`` best of stage 2: declarations + exact play on all ``worlds`` worlds, each
   with its 95% interval and the odds of winning each class of declaration.
"""

from __future__ import annotations

import dataclasses
import itertools
import time

import numpy as np

from analyser.errors import RikkenError
from analyser.games.piket.cards import (
    N_CARDS,
    cards_of,
    mask_of,
    rank_of,
    suit_of,
)
from analyser.games.piket.declarations import (
    S_ELDER,
    S_YOUNGER,
    W_POINT,
    W_SEQ,
    W_SET,
    carte_blanche_masks,
    score_pairs,
)
from analyser.games.piket.rules import PiketRules, get_rules
from analyser.games.piket.solver import NO_PIC, solve_batch
from analyser.progress import Progress
from analyser.stats import mean_half_width

ROLES = ("elder", "younger")
KEEP_RANK = 6  # the heuristic keeps kings and aces whatever their suit


def heuristic_keep(cards: list[int]) -> list[float]:
    """The stated opponent heuristic's keep score of each card: kings and aces are kept
    first, then cards of longer suits, then higher cards; the lowest scores are discarded."""
    length = [sum(1 for c in cards if suit_of(c) == s) for s in range(4)]
    return [
        100.0 + rank_of(c) if rank_of(c) >= KEEP_RANK else 10.0 * length[suit_of(c)] + rank_of(c)
        for c in cards
    ]


def heuristic_discard(cards: list[int], n: int) -> list[int]:
    """The ``n`` cards the heuristic discards from ``cards`` (lowest keep scores)."""
    keep = heuristic_keep(cards)
    order = sorted(range(len(cards)), key=lambda i: (keep[i], cards[i]))
    return sorted(cards[i] for i in order[:n])


@dataclasses.dataclass
class Candidate:
    """One discard set and what the sample says of it (from our side)."""

    discard: list[int]
    screen: float
    """Stage 1: expected declaration points (ours minus theirs)."""
    stage: int = 1
    n: int = 0
    mean: float = float("nan")
    ci: tuple[float, float] = (float("nan"), float("nan"))
    declarations: float = float("nan")
    play: float = float("nan")
    p_point: float = float("nan")
    p_sequence: float = float("nan")
    p_sets: float = float("nan")
    p_repic: float = float("nan")
    p_pic: float = float("nan")
    vs_best: tuple[float, float, float] | None = None
    """Stage 3: the paired difference to the best set on the same deals (mean, 95% CI)."""
    totals: np.ndarray | None = dataclasses.field(default=None, repr=False)


@dataclasses.dataclass
class PiketAnalysis:
    """What ``rikken analyse --game piket`` reports for one dealt hand."""

    hand: list[int]
    role: str
    rules: PiketRules
    seed: int
    worlds: int
    screen_worlds: int
    pool_worlds: int
    candidates: list[Candidate]
    """Every discard set, best first: the fully solved ones (stage 3, then 2) ahead of the
    rest (stage 1, by their declarations)."""
    carte_blanche: bool
    opponent_policy: str
    seconds: float
    solves: int


def _subsets(cards: list[int], lo: int, hi: int) -> list[tuple[int, ...]]:
    return [s for k in range(lo, hi + 1) for s in itertools.combinations(cards, k)]


def _worlds(hand: list[int], n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` worlds from ``seed``: the opponent's 12 cards (masks) and the talon's order."""
    unseen = np.array([c for c in range(N_CARDS) if c not in set(hand)], np.int64)
    rng = np.random.default_rng(seed)
    opp = np.zeros(n, np.int64)
    talon = np.zeros((n, N_CARDS - 2 * len(hand)), np.int64)
    for w in range(n):
        p = rng.permutation(unseen)
        opp[w] = sum(1 << int(c) for c in p[: len(hand)])
        talon[w] = p[len(hand) :]
    return opp, talon


def _prefix_masks(talon: np.ndarray) -> np.ndarray:
    """(worlds, talon + 1): the mask of the talon's first k cards."""
    n, t = talon.shape
    out = np.zeros((n, t + 1), np.int64)
    for k in range(t):
        out[:, k + 1] = out[:, k] | (np.int64(1) << talon[:, k])
    return out


class _Deal:
    """The sampled worlds and the opponent's exchange in each, for one hand and role."""

    def __init__(self, hand: list[int], role: str, rules: PiketRules, worlds: int, seed: int):
        self.hand = hand
        self.role = role
        self.rules = rules
        self.mask = mask_of(hand)
        self.opp, talon = _worlds(hand, worlds, seed)
        self.prefix = _prefix_masks(talon)
        self.cb_me = bool(carte_blanche_masks(np.array([self.mask]))[0])
        self.cb_opp = carte_blanche_masks(self.opp)
        r = rules
        # the opponent's discards: the heuristic's, as many as he may take (PK-03)
        n_opp = r.younger_max if role == "elder" else r.elder_max
        self.opp_discard = np.array(
            [mask_of(heuristic_discard(cards_of(int(m)), n_opp)) for m in self.opp], np.int64
        )
        self.n_opp = n_opp

    def finals(self, discard: int, k: int, worlds: slice) -> tuple[np.ndarray, np.ndarray]:
        """Both final hands (elder's, younger's) in ``worlds`` after we discard ``discard``
        (``k`` cards) and the opponent follows his heuristic."""
        pre = self.prefix[worlds]
        opp = self.opp[worlds] & ~self.opp_discard[worlds]
        if self.role == "elder":
            # elder draws the talon's first k, younger the next n_opp (PK-03)
            mine = (self.mask & ~discard) | pre[:, k]
            theirs = opp | (pre[:, k + self.n_opp] & ~pre[:, k])
            return mine, theirs
        theirs = opp | pre[:, self.n_opp]
        mine = (self.mask & ~discard) | (pre[:, self.n_opp + k] & ~pre[:, self.n_opp])
        return theirs, mine


def analyse_piket(
    hand: list[int],
    role: str,
    rules: str = "booklet",
    worlds: int = 40,
    seed: int = 1,
    quiet: bool = True,
    top: int = 6,
    pool: int = 18,
    screen_worlds: int = 64,
    pool_worlds: int = 8,
) -> PiketAnalysis:
    """Rank every discard set of the dealt ``hand`` (12 piket ids) for ``role`` (elder or
    younger) by its expected score, on worlds drawn from ``seed`` (module docstring)."""
    r = get_rules(rules)
    if role not in ROLES:
        raise RikkenError(f"a piket hand is played as elder or younger, not {role!r}")
    if len(set(hand)) != r.hand_cards or any(not 0 <= c < N_CARDS for c in hand):
        raise RikkenError(f"a piket hand has {r.hand_cards} different cards (PK-02)")
    if worlds < 2:
        raise RikkenError("--deals must be at least 2 for piket (an interval needs two)")
    t0 = time.perf_counter()
    hand = sorted(hand)
    pool_worlds = min(pool_worlds, worlds)  # stage 2 plays on the first worlds of stage 3
    n_all = max(worlds, screen_worlds)
    deal = _Deal(hand, role, r, n_all, seed)
    lo, hi = (r.elder_min, r.elder_max) if role == "elder" else (r.younger_min, r.younger_max)
    sets = _subsets(hand, lo, hi)
    prm = r.packed()
    # stage 1: declarations alone, every discard set
    screen = slice(0, screen_worlds)
    sign = 1 if role == "elder" else -1
    finals = [deal.finals(mask_of(s), len(s), screen) for s in sets]
    cb_e, cb_y = _blanche(deal, screen_worlds, screen)
    sc = score_pairs(
        np.concatenate([f[0] for f in finals]),
        np.concatenate([f[1] for f in finals]),
        np.tile(cb_e, len(sets)),
        np.tile(cb_y, len(sets)),
        prm,
    )  # one call for every set on every world
    diff = (sc[:, S_ELDER] - sc[:, S_YOUNGER]).reshape(len(sets), screen_worlds)
    screens = sign * diff.mean(axis=1)
    cands = [Candidate(sorted(s), float(v)) for s, v in zip(sets, screens, strict=True)]
    order = np.argsort(-screens, kind="stable")
    chosen = [int(i) for i in order[:pool]]
    mine = list(hand)
    for k in range(lo, hi + 1):  # the heuristic's own choice of each size
        i = sets.index(tuple(heuristic_discard(mine, k)))
        if i not in chosen:
            chosen.append(i)
    top = min(top, len(chosen))
    solves = len(chosen) * pool_worlds + top * max(worlds - pool_worlds, 0)
    with Progress(solves, f"piket {role} exchange", quiet=quiet) as progress:
        # stage 2: full play on the first pool_worlds worlds
        for i in chosen:
            _evaluate(deal, cands[i], sets[i], slice(0, pool_worlds), prm, progress, 2)
        best = sorted(chosen, key=lambda i: -cands[i].mean)[:top]
        # stage 3: the best on every world (the first pool_worlds already solved once more:
        # solving them again costs little next to the rest and keeps the code simple)
        for i in best:
            _evaluate(deal, cands[i], sets[i], slice(0, worlds), prm, progress, 3)
    _paired(cands, best)
    ranked = sorted(
        cands, key=lambda c: (-c.stage, -(c.mean if c.stage > 1 else c.screen), c.discard)
    )
    opp = "younger" if role == "elder" else "elder"
    n_opp = deal.n_opp
    policy = (
        f"{opp} exchanges {n_opp} cards, keeping kings and aces, then his longer suits, then "
        "higher cards"
    )
    return PiketAnalysis(
        hand=hand, role=role, rules=r, seed=seed, worlds=worlds, screen_worlds=screen_worlds,
        pool_worlds=pool_worlds, candidates=ranked, carte_blanche=deal.cb_me,
        opponent_policy=policy, seconds=time.perf_counter() - t0,
        solves=len(chosen) * pool_worlds + top * worlds,
    )  # fmt: skip


def _paired(cands: list[Candidate], best: list[int]) -> None:
    """Each stage-3 set's mean difference to the best one on the same deals, with its 95%
    interval: the paired comparison is much tighter than the two intervals side by side."""
    if not best:
        return
    top = max(best, key=lambda i: cands[i].mean)
    ref = cands[top].totals
    for i in best:
        d = cands[i].totals - ref
        half = mean_half_width(d) if len(d) > 1 else 0.0
        cands[i].vs_best = (float(d.mean()), float(d.mean()) - half, float(d.mean()) + half)


def _blanche(deal: _Deal, n: int, worlds: slice) -> tuple[np.ndarray, np.ndarray]:
    """Carte blanche of the dealt hands (elder's, younger's) in ``worlds``."""
    me = np.full(n, deal.cb_me)
    opp = deal.cb_opp[worlds]
    return (me, opp) if deal.role == "elder" else (opp, me)


def _evaluate(deal, cand, discard, worlds, prm, progress, stage) -> None:
    """Declarations and exact play of one discard set on ``worlds``, into ``cand``."""
    e, y = deal.finals(mask_of(discard), len(discard), worlds)
    cb_e, cb_y = _blanche(deal, e.shape[0], worlds)
    sc = score_pairs(e, y, cb_e, cb_y, prm)
    r = deal.rules
    pic = np.where((sc[:, S_YOUNGER] == 0) & (sc[:, S_ELDER] < r.pic_at), sc[:, S_ELDER], NO_PIC)
    play = solve_batch(e, y, r, pic)
    progress.advance(len(e))
    sign = 1 if deal.role == "elder" else -1
    decl = sign * (sc[:, S_ELDER] - sc[:, S_YOUNGER])
    total = decl + sign * play
    n = len(total)
    mean = float(total.mean())
    half = mean_half_width(total) if n > 1 else float("inf")
    cand.stage, cand.n, cand.mean, cand.ci = stage, n, mean, (mean - half, mean + half)
    cand.totals = total
    cand.declarations = float(decl.mean())
    cand.play = float((sign * play).mean())
    cand.p_point = float((sign * sc[:, W_POINT] > 0).mean())
    cand.p_sequence = float((sign * sc[:, W_SEQ] > 0).mean())
    cand.p_sets = float((sign * sc[:, W_SET] > 0).mean())
    repic = sc[:, 5] == sign
    cand.p_repic = float(repic.mean())
    # pic: the play value holds the bonus exactly when it was scored; recompute without it
    if deal.role == "elder":
        alive = pic >= 0
        if alive.any():
            plain = solve_batch(e[alive], y[alive], r)
            cand.p_pic = float((play[alive] - plain >= r.pic_bonus).sum() / n)
        else:
            cand.p_pic = 0.0
    else:
        cand.p_pic = 0.0


__all__ = ["ROLES", "PiketAnalysis", "analyse_piket", "heuristic_discard"]
