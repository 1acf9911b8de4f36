"""The family's other games: one hand analysis per game at its defaults, and each exact
solver's time per full deal, against a yardstick measured in the same run.

The yardstick is the Rikken solver's exact count on 20 seeded bridge-shaped deals (one
thread): every game's figures are also printed as multiples of it, so runs on a loaded or a
quiet machine compare. The hands are fixed and every draw comes from SEED.

* whist: ``rikken analyse '♠AHV4 ♥H10985 ♦A2 ♣73' --game whist --turned ♥7 --seat 1``
  (200 deals, double-dummy);
* klaverjas: ``rikken analyse '♠B9A ♥A10 ♦H ♣A7' --game klaverjas --seat 1`` (its default
  deals, every trump), and the solver's exact line (the value D and the points of both
  teams) on 100 seeded full deals per variant, with its nodes;
* piket: ``rikken analyse '♠AHVB10 ♥A98 ♦H87 ♣7' --game piket --elder`` and the same cards
  ``--younger`` (defaults), and the solver's exact play on 100 seeded random deals of 12
  cards each.
"""

from __future__ import annotations

import random
import statistics
import time

import numpy as np

SEED = 20261127
WHIST_HAND = "♠AHV4 ♥H10985 ♦A2 ♣73"
PIKET_HAND = "♠AHVB10 ♥A98 ♦H87 ♣7"
KLAVERJAS_HAND = "♠B9A ♥A10 ♦H ♣A7"


def _yardstick() -> float:
    """Seconds for the Rikken solver's exact count on 20 seeded bridge deals, one thread."""
    from bench_solver import make_deals

    from analyser.solver import Solver

    solver = Solver()
    deals = make_deals(20, SEED)
    t0 = time.perf_counter()
    for hands, trump, leader in deals:
        solver.solve(hands, trump, leader, [leader, (leader + 2) % 4], "tricks")
    return time.perf_counter() - t0


def _line(name: str, seconds: float, unit: float, extra: str = "") -> None:
    print(f"   {name:<44} {seconds:8.2f} s  = {seconds / unit:6.2f} yardsticks{extra}", flush=True)


def _times(label: str, ms: list[float], unit: float) -> None:
    print(
        f"   {label:<44} mean {statistics.mean(ms):7.1f} ms  median "
        f"{statistics.median(ms):7.1f} ms  max {max(ms):7.1f} ms  "
        f"(max = {max(ms) / 1000 / unit:.2f} yardsticks)",
        flush=True,
    )


def whist(unit: float) -> None:
    """One whist analysis at the defaults."""
    from analyser.games.whist import analyse_whist
    from analyser.notation import parse_card, parse_hand
    from analyser.seats import Place

    hand, turned = parse_hand(WHIST_HAND), parse_card("♥7")
    analyse_whist(hand, Place(1), turned, deals=2, seed=SEED)  # numba's cache loads here
    t0 = time.perf_counter()
    analyse_whist(hand, Place(1), turned, deals=200, seed=SEED)
    _line("whist analysis, 200 deals", time.perf_counter() - t0, unit)


def piket(unit: float) -> None:
    """Both piket analyses at the defaults, and the solver on 100 full deals."""
    from analyser.games.piket.cards import parse_piket_hand
    from analyser.games.piket.exchange import analyse_piket
    from analyser.games.piket.rules import get_rules
    from analyser.games.piket.solver import solve

    hand = parse_piket_hand(PIKET_HAND)
    analyse_piket(hand, "younger", worlds=2, seed=SEED)  # numba's cache loads here
    for role in ("elder", "younger"):
        t0 = time.perf_counter()
        analyse_piket(hand, role, seed=SEED)
        _line(f"piket analysis, {role}, defaults", time.perf_counter() - t0, unit)
    rules = get_rules()
    rng = random.Random(SEED)
    ms = []
    for _ in range(100):
        pack = list(range(32))
        rng.shuffle(pack)
        t0 = time.perf_counter()
        solve(pack[:12], pack[12:24], rules)
        ms.append((time.perf_counter() - t0) * 1000)
    _times("piket solver, 100 full deals (12 tricks)", ms, unit)


def klaverjas(unit: float) -> None:
    """One klaverjas analysis at the defaults, and the solver on 100 full deals per variant."""
    from analyser.games.klaverjas.analysis import analyse_klaverjas, hand_from_52
    from analyser.games.klaverjas.rules import get_variant
    from analyser.games.klaverjas.solver import R_NODES, solve_deals, workspace
    from analyser.notation import parse_hand

    hand = hand_from_52(parse_hand(KLAVERJAS_HAND, None))
    analyse_klaverjas(hand, 1, deals=2, exact_deals=2, seed=SEED)  # numba's cache loads here
    t0 = time.perf_counter()
    analyse_klaverjas(hand, 1, seed=SEED)
    _line("klaverjas analysis, seat 1, defaults", time.perf_counter() - t0, unit)
    rng = np.random.default_rng(SEED)
    deals = np.zeros((100, 4), np.int64)
    for i in range(100):
        pack = rng.permutation(32)
        for s in range(4):
            deals[i, s] = sum(1 << int(c) for c in pack[8 * s : 8 * s + 8])
    for variant in ("amsterdam", "rotterdam"):
        rules = get_variant(variant)
        tables, params = rules.tables(), rules.params()
        tt, moves, stats = workspace()
        ms, nodes = [], []
        for i in range(deals.shape[0]):
            out = np.zeros((1, 6), np.int64)
            t0 = time.perf_counter()
            solve_deals(deals[i : i + 1], i % 4, 0, tables, params, tt, moves, stats, out)
            ms.append((time.perf_counter() - t0) * 1000)
            nodes.append(int(out[0, R_NODES]))
        _times(f"klaverjas solver, {variant}, 100 full deals", ms, unit)
        print(f"   {'':<44} nodes: mean {statistics.mean(nodes):,.0f}  max {max(nodes):,}")


def main() -> None:
    _yardstick()  # the first call loads numba's cache: time the second
    unit = _yardstick()
    print(
        f"   yardstick: the Rikken solver's exact count on 20 bridge deals, one thread: "
        f"{unit:.2f} s",
        flush=True,
    )
    whist(unit)
    klaverjas(unit)
    piket(unit)
