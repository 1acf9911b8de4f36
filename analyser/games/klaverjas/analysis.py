"""`rikken analyse HAND --game klaverjas`: per trump, P(not nat) and the expected score
(docs/klaverjas.md, "What rikken analyse --game klaverjas computes").

The other 24 cards are dealt uniformly (deal ``i`` from ``numpy.random.default_rng([seed,
i])``, so a deal depends only on the seed and its index). The hand's team is the playing
team under each trump in turn, seat 1 leads (KJ-03), and every deal is solved double-dummy:
a null-window test of D > 0 (not nat, KJ-10) on every deal, and the exact value with the
scores of one optimal line on the first ``exact_deals`` deals (plus the first deal of each
nat / not-nat stratum), from which the expected scores are estimated by stratified
two-phase sampling (analyser.stats.stratified_mean), as the rikken analysis does for its
expected scores.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

from analyser.errors import RikkenError
from analyser.games.klaverjas import solver
from analyser.games.klaverjas.rules import (
    DEFAULT_VARIANT,
    KJ_RANKS,
    N_KJ_CARDS,
    KlaverjasRules,
    from_52,
    get_variant,
)
from analyser.progress import Progress
from analyser.stats import Estimate, stratified_mean

HAND_SIZE = 8


def hand_from_52(cards52: list[int]) -> list[int]:
    """A parsed hand (52-card ints) as 32-card ints: exactly 8 cards, each 7..A (KJ-01)."""
    if len(cards52) != HAND_SIZE:
        raise RikkenError(f"a klaverjas hand has 8 cards, got {len(cards52)} (KJ-01)")
    return sorted(from_52(c) for c in cards52)


def sample_klaverjas_deals(hand: list[int], seat: int, n: int, seed: int, start: int = 0):
    """``int64[n, 4]`` hand masks: ``hand`` at ``seat`` (0..3, 0 = seat 1) and the other 24
    cards dealt uniformly to the other seats; deal ``start + i`` comes from the generator
    seeded with ``[seed, start + i]``."""
    mine = 0
    for c in hand:
        mine |= 1 << int(c)
    rest = np.array([c for c in range(N_KJ_CARDS) if not (mine >> c) & 1], dtype=np.int64)
    others = [s for s in range(4) if s != seat]
    out = np.zeros((n, 4), dtype=np.int64)
    for i in range(n):
        perm = np.random.default_rng([seed, start + i]).permutation(rest)
        out[i, seat] = mine
        for j, s in enumerate(others):
            m = 0
            for c in perm[8 * j : 8 * j + 8]:
                m |= 1 << int(c)
            out[i, s] = m
    return out


@dataclasses.dataclass
class TrumpResult:
    """One trump's figures (all double-dummy, the hand's team playing)."""

    trump: int
    not_nat: Estimate
    score: float
    score_ci: tuple[float, float]
    """The playing team's expected points (0 when nat), and its 95% interval."""
    diff: float
    diff_ci: tuple[float, float]
    """Expected points of the playing team minus the opponents'."""
    mars: float
    """Share of the exactly solved deals on which one side took every trick."""
    exact: int
    """Deals solved exactly (the expected scores' subsample)."""


@dataclasses.dataclass
class KlaverjasAnalysis:
    """What ``rikken analyse --game klaverjas`` reports for one hand."""

    hand: list[int]
    seat: int
    rules: KlaverjasRules
    seed: int
    deals: int
    trumps: list[TrumpResult]
    best: int
    """The recommended trump: the highest expected point difference."""
    seconds: float
    nodes: int


def analyse_klaverjas(
    hand: list[int],
    seat: int,
    variant: str = DEFAULT_VARIANT,
    deals: int = 100,
    seed: int = 1,
    exact_deals: int = 16,
    quiet: bool = True,
) -> KlaverjasAnalysis:
    """Analyse ``hand`` (8 cards, 32-card ints) at ``seat`` (1..4, 1 = left of the dealer,
    leads trick 1) under ``variant``, on ``deals`` deals sampled from ``seed``."""
    rules = get_variant(variant)
    if len(set(hand)) != HAND_SIZE or not all(0 <= c < N_KJ_CARDS for c in hand):
        raise RikkenError("a klaverjas hand has 8 different cards of the 32-card pack (KJ-01)")
    if not 1 <= int(seat) <= 4:
        raise RikkenError(f"--seat is 1..4 for klaverjas, got {seat}")
    if deals < 1:
        raise RikkenError("--deals must be at least 1")
    me = int(seat) - 1
    team = me & 1
    t0 = time.perf_counter()
    masks = sample_klaverjas_deals(hand, me, deals, seed)
    m = min(exact_deals, deals)
    work = (rules, solver.workspace())
    with Progress(4 * deals, "klaverjas solves", quiet=quiet) as progress:
        results = [_one_trump(trump, masks, m, team, work, progress) for trump in range(4)]
    best = max(results, key=lambda r: r.diff).trump
    return KlaverjasAnalysis(
        hand=sorted(hand),
        seat=int(seat),
        rules=rules,
        seed=seed,
        deals=deals,
        trumps=results,
        best=best,
        seconds=time.perf_counter() - t0,
        nodes=int(work[1][2][0]),
    )


def _one_trump(trump: int, masks: np.ndarray, m: int, team: int, work, progress) -> TrumpResult:
    """One trump's figures: the first ``m`` deals (and, if needed, the first deal of each
    nat / not-nat stratum) solved exactly along an optimal line, the others tested for nat."""
    rules, (tt, moves, stats) = work
    tables, params = rules.tables(), rules.params()
    deals = masks.shape[0]
    not_nat = np.zeros(deals, np.int8)
    counted = np.zeros(deals, bool)
    score = np.zeros(deals)
    diff = np.zeros(deals)
    mars = 0
    out = np.zeros(solver.R_NODES + 1, np.int64)
    trick = np.zeros(4, np.int64)

    def exact(i: int) -> None:
        nonlocal mars
        out[:] = 0
        solver.solve_line(masks[i], 0, 0, trump, team, tables, params, tt, moves, stats, out)
        not_nat[i] = out[solver.R_D] > 0
        counted[i] = True
        score[i], diff[i] = scores(out, rules)
        mars += int(out[solver.R_MARS])
        progress.advance()

    for i in range(m):  # the exact subsample: its nat verdicts come with it
        exact(i)
    for i in range(m, deals):
        g = solver.search_window(
            masks[i], trick, 0, 0, 0, trump, team, 0, 1, tables, params, tt, moves, stats
        )
        not_nat[i] = g > 0
        progress.advance()
    for flag in (0, 1):  # every non-empty stratum needs one exact deal
        idx = np.flatnonzero(not_nat == flag)
        if idx.size and not counted[idx].any():
            exact(int(idx[0]))
    n_exact = int(counted.sum())
    s, slo, shi = stratified_mean(not_nat, counted, score, score)
    d, dlo, dhi = stratified_mean(not_nat, counted, diff, diff)
    # a score is never negative: the normal interval's lower end is cut at 0
    return TrumpResult(
        trump,
        Estimate.of_answers(not_nat),
        s,
        (max(0.0, slo), shi),
        d,
        (dlo, dhi),
        mars / n_exact,
        n_exact,
    )


def scores(line: np.ndarray, rules: KlaverjasRules) -> tuple[int, int]:
    """The playing team's score and its score minus the opponents' from one solved line
    (solver.solve_line's columns), under KJ-10: not nat, each side scores its own points;
    nat, the playing team 0 and the opponents every card point and all roem."""
    if line[solver.R_D] > 0:
        return int(line[solver.R_OWN]), int(line[solver.R_OWN] - line[solver.R_OPP])
    against = (
        rules.card_total + int(line[solver.R_ROEM]) + int(rules.tegenmars * line[solver.R_MARS])
    )
    return 0, -against


__all__ = ["KJ_RANKS", "analyse_klaverjas", "hand_from_52"]
