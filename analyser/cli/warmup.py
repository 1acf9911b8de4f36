"""`rikken warm-up`: compile the solver into numba's on-disk cache ahead of use, and the
one-line notice a command prints before it has to compile.

The solver is numba code cached on disk (analyser/numba_cache.py). After an install, or an
edit to the solver, the first command that solves compiles it: minutes with nothing else to
show. :func:`warm` calls each compiled entry point once on a tiny input, so that this
happens up front (`make setup` runs it); :func:`compile_notice` tells the user of any other
command that the wait ahead is compiling, not a hang.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import click

from analyser.cli.common import user_errors

NOTICE = (
    "compiling the solver (first run after an install, about 1-4 minutes; "
    "`rikken warm-up` does this ahead)"
)
# set by the test suite: a test's captured output must not depend on the state of the cache
NO_NOTICE_ENV = "RIKKEN_NO_COMPILE_NOTICE"


def entry_points() -> list:
    """The compiled functions every solving command calls first from Python: the deal
    sampler and the solver's batch and one-position drivers. Their cache entries say
    whether the solver still has to compile."""
    from analyser import sampler
    from analyser.solver import driver

    return [sampler._fill_deals, driver.solve_range, driver.solve_position]


def solver_is_compiled() -> bool:
    """Whether numba's cache holds the solver's entry points for the current sources (a
    command will not compile for a minute first). Reads their cache index files only."""
    from analyser.numba_cache import has_cached_code

    return all(has_cached_code(d) for d in entry_points())


def compile_notice() -> None:
    """Print :data:`NOTICE` on stderr when the solver is not compiled yet. One line, shown
    with --quiet too: --quiet silences progress, and this line explains a minute or two of
    silence that would otherwise look like a hang."""
    if os.environ.get(NO_NOTICE_ENV):
        return
    if not solver_is_compiled():
        click.echo(NOTICE, err=True)


def _sampler() -> None:
    from analyser.sampler import sample_deals

    known: list[list[int]] = [list(range(13)), [], [], []]
    for parallel in (False, True):
        sample_deals(known, 10, seed=1, parallel=parallel)


def _solver() -> None:
    import numpy as np

    from analyser.solver import GOAL_GE, Solver, solve_batch

    Solver().solve([[0], [13], [26], [39]], 0, 0, [0, 2], "tricks")
    # the goal is a column like the others: one call per kernel compiles it for every goal
    solve_batch(np.array([[1, 2, 4, 8]], dtype=np.int64), 4, 0, 1, GOAL_GE, 1, -1)


def _hand_analysis() -> None:
    from analyser.analysis.evaluate import analyse_hand
    from analyser.notation import parse_hand
    from analyser.rules import get_ruleset

    # a malheur hand and a rik hand: under book a 3-ace hand is offered no rik
    for hand in ("♠A32 ♥A54 ♦A765 ♣H32", "♠HV1087 ♥A92 ♦V3 ♣H54"):
        analyse_hand(parse_hand(hand), 1, get_ruleset("book"), deals=2, seed=1)


def _play() -> None:
    from analyser.solver import card_values

    # the play API (single-dummy play), with a trick in progress
    card_values([[1, 2], [13, 14], [26, 27], [39, 40]], 0, 0, [0, 2], ">=1", trick=[])
    card_values([[2], [13, 14], [26, 27], [39, 40]], 4, 0, [1], "misere", trick=[1])


def _cut_only() -> None:
    from analyser.cards import cards_to_mask
    from analyser.deal_draw import cut_only_deals

    # --deal-model cut_only: the sessions of the unshuffled deal and the conditional draw
    cut_only_deals(cards_to_mask(list(range(0, 52, 4))), 1, 2, seed=1)


def _players() -> None:
    from analyser.single_dummy import KIND_MISERE, PlayContract, PlayOptions, play_deal

    # the single-dummy players' own compiled parts (legal runs, values in a world)
    hands = [list(range(s, 52, 4)) for s in range(4)]
    play_deal(hands, PlayContract(4, 1, 0, KIND_MISERE), PlayOptions(1, 1000), 1)


STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("deal sampler", _sampler),
    ("unshuffled deals (--deal-model cut_only)", _cut_only),
    ("double-dummy solver", _solver),
    ("hand analysis (rik, malheur)", _hand_analysis),
    ("card play (single-dummy players)", _play),
    ("single-dummy players", _players),
)


def warm(log: Callable[[str], None] | None = None) -> float:
    """Call each compiled entry point once on a tiny input (results are discarded), logging
    one line per step with its time; returns the total seconds."""
    t0 = time.perf_counter()
    for label, step in STEPS:
        t = time.perf_counter()
        step()
        if log is not None:
            log(f"  {label}: {time.perf_counter() - t:.1f} s")
    return time.perf_counter() - t0


@click.command("warm-up")
@user_errors
def command() -> None:
    """Compile the solver into numba's on-disk cache now, so that the first analysis does
    not wait for it (a few minutes after an install or an update; seconds when it is
    already compiled). `make setup` runs it."""
    from analyser.numba_cache import cache_dir
    from analyser.solver import driver

    compiled = solver_is_compiled()
    where = cache_dir(driver.solve_range)
    if compiled:
        click.echo(f"the solver is compiled already (cache in {where}); loading it:")
    else:
        click.echo(f"compiling the solver into numba's cache in {where} (about 1-4 minutes):")
    seconds = warm(log=click.echo)
    done = "loaded" if compiled else "compiled"
    click.echo(f"solver {done} in {seconds:.0f} s; `rikken analyse` starts without a wait")
