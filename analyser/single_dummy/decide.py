"""One single-dummy decision: the card the seat to move plays, from the worlds he can draw.

The card is the one with the best count of worlds in which his side reaches its goal (ties:
the count for one trick more at trick contracts, then the lowest card; see
:mod:`analyser.single_dummy`). What makes it cheap, each shortcut leaving that choice as it
was on the same worlds:

* **no search where the choice cannot matter**: the legal cards fall into runs of cards
  equivalent among the cards still in play, the same runs in every world
  (:func:`analyser.solver.legal_runs`); with a single run the lowest card is played at once,
  and otherwise only one card of each run is valued;
* **worlds in sequence, cards dropped when they cannot win**: after each world a card whose
  count, even with every remaining world, stays below the leader's is out; once one card is
  left the decision is made and no further world is drawn;
* **the yes/no question first**: at a trick contract each world first answers "does the side
  still reach its target?" (one null window per card); the tie-break count for one trick more
  is searched only for the cards still tied at the end, on the same worlds;
* **one table kept warm**: the searches of a deal share the solver's table (a generation per
  declarer side, :class:`WarmTable`), so a position proved in one world or at one decision
  serves the next;
* **every layout when few remain**: with no more layouts than worlds per decision, each is
  valued once (exact for what the player knows) instead of drawing a sample;
* **a node budget per decision**: the searches of one decision share ``decision_nodes``,
  one world at most a quarter of it (a world over its share is left out); a decision that
  leaves out a world or runs out plays the best card on the worlds it finished (the lowest
  legal card if none) and is counted as *limited*, so no deal can run away. A player who
  knows the whole deal (one world: every hand open) searches without a budget: his card is
  the double-dummy one.
"""

from __future__ import annotations

import dataclasses
from typing import Protocol

import numpy as np

from analyser.cards import N_RANKS, N_SEATS, card_bit, cards_to_mask
from analyser.errors import RikkenError
from analyser.single_dummy.contract import (
    KIND_GE,
    PlayContract,
    goal_from_here,
    holder_of,
    public_cards,
    side_of,
    trick_pairs,
)
from analyser.solver import Solver, legal_runs, parse_goal
from analyser.solver.layout import S_NODES, S_RX_NODES
from analyser.solver.play import Query, world_values
from analyser.solver.table import next_generation
from analyser.worlds import all_worlds, knowledge_after, sample_worlds

# The node budget of one decision (all its worlds and cards). On the closed misère of the
# holes hand (spades J62, hearts 9742, diamonds 853, clubs 642) at 16 worlds, 1% of the
# searches took 70% of the time; decisions of the first two tricks above this budget are
# those runaway proofs.
DEFAULT_DECISION_NODES = 400_000
# One world may spend at most this share of a decision's budget: a world whose proof needs
# more is left out and the next one drawn, so that one runaway world cannot use up the budget
# of the decision (its card then rests on the worlds that could be valued).
WORLD_SHARE = 4


class Inference(Protocol):
    """What the players learned before the play (the auction): which candidate deals are
    consistent with it for the player at ``seat`` (e.g.
    :class:`analyser.auction.inference.AuctionInference`). Must be picklable."""

    def accepts(self, seat: int, hands: np.ndarray, public: tuple[int, ...] = ()) -> np.ndarray:
        """``bool[n]`` for the deals ``int64[n, 4]`` (masks of the whole dealt hands); the
        calls of the ``public`` seats (open hands) are not tested."""
        ...


@dataclasses.dataclass(frozen=True)
class PlayOptions:
    """How the players decide: at most ``samples`` worlds per decision, ``decision_nodes``
    solver nodes per decision (0 = no budget), the called-card rule switch, ``enumerate``
    (value every layout when there are no more than ``samples``) and ``inference`` (worlds
    drawn among the deals consistent with what the auction told the player; None: every
    deal consistent with the play)."""

    samples: int
    decision_nodes: int = DEFAULT_DECISION_NODES
    called_card_may_be_discarded: bool = True
    enumerate: bool = True
    inference: Inference | None = None

    def __post_init__(self):
        if self.samples < 1:
            raise RikkenError("single-dummy play needs at least one world per decision")
        if self.decision_nodes < 0:
            raise RikkenError("the node budget per decision must be 0 (none) or positive")


@dataclasses.dataclass(frozen=True)
class Turn:
    """Where the play stands: the seat to move, the cards played (in order), the current
    trick's (seat, card) pairs, the seats that won the tricks so far, the turn number."""

    seat: int
    played: list[int]
    trick: list[tuple[int, int]]
    winners: list[int]
    turn: int


@dataclasses.dataclass(frozen=True)
class Choice:
    """A decision's card, whether it needed a search, whether it ran out of its budget,
    the nodes it searched, and whether the auction's inference had to be dropped (no
    candidate world agreed with it: ``uninformed``) or gave fewer worlds than asked
    (``thin``)."""

    card: int
    searched: bool
    limited: bool
    nodes: int
    uninformed: bool = False
    thin: bool = False


class WarmTable:
    """The solver's table kept across the searches of one deal: one generation per declarer
    side (entries hold bounds for a side's tricks and do not record the side), taken fresh
    at the start of the deal so that a deal plays the same whatever the worker played
    before."""

    # generations one deal may take (one per declarer side: alone, or with any of 3
    # partners); taken from a fresh run of the table's generation bytes
    PER_DEAL = 4

    def __init__(self, solver: Solver):
        self.solver = solver
        tb = solver.tables.tb
        gen = solver.gen
        # past every generation an earlier deal may have used (the caller leaves solver.gen
        # at the last one, :meth:`close`), and past a wrap of the generation byte whenever
        # the deal's generations would cross one: a wrap clears the table, which must not
        # happen in the middle of a deal at a point that depends on the deals played before
        gen = next_generation(tb, gen)
        while (gen % 127) + self.PER_DEAL >= 127:
            gen = next_generation(tb, gen)
        self.base = gen
        solver.gen = gen
        self.gens: dict[tuple[int, ...], int] = {}
        self.top = gen - 1

    def use(self, side: tuple[int, ...]) -> None:
        """Search for declarer side ``side`` from now on."""
        key = tuple(sorted(side))
        g = self.gens.get(key)
        if g is None:
            self.top += 1
            g = self.gens[key] = self.top
        self.solver.gen = g

    def close(self) -> None:
        """Leave the solver at the deal's last generation, so that its next search (of any
        caller) takes a new one."""
        self.solver.gen = max(self.solver.gen, self.top)


def _counters(solver: Solver) -> tuple[int, int]:
    s = solver.tables.stats
    return int(s[S_NODES]), int(s[S_RX_NODES])


def choose(
    deal: list[list[int]],
    contract: PlayContract,
    at: Turn,
    options: PlayOptions,
    stream: int,
    solver: Solver,
    table: WarmTable,
) -> Choice:
    """The card the seat to move plays (module docstring), from the true ``deal`` (the four
    dealt hands, card ints) and what he knows of it."""
    seat = at.seat
    called = contract.called if contract.called >= 0 else None
    may_discard = options.called_card_may_be_discarded
    played = set(at.played)
    now = [[c for c in h if c not in played] for h in deal]
    leader = at.trick[0][0] if at.trick else seat
    on_table = [c for _, c in at.trick]
    runs = legal_runs(now, leader, on_table, called, called_card_may_be_discarded=may_discard)
    if len(runs) == 1:
        return Choice(runs[0][0], False, False, 0)
    reps = sorted(r[0] for r in runs)
    k = knowledge_after(
        seat, deal[seat], contract.trump, contract.leader, at.played,
        public_cards(deal, contract, seat), called,
    )  # fmt: skip
    worlds, uninformed, thin = _worlds(k, deal, contract, at, options, stream)
    fell = -1  # the seat that played the called card, once it has fallen
    if called is not None and called in at.played:
        fell = trick_pairs(contract, at.played)[at.played.index(called)][0]
    left = len(now[(leader + len(on_table)) % N_SEATS])
    # one world: the player knows the deal (every hand open), and his card is exact
    budget = options.decision_nodes if len(worlds) > 1 else 0
    start = _counters(solver)
    limited = False

    def spent() -> int:
        # as the search counts its budget: its own nodes and half of the smaller misère
        # game's, from this decision's start (differences only: the totals' history must
        # not matter)
        n, rx = _counters(solver)
        return n - start[0] + (rx - start[1]) // 2

    def world_setup(w):
        holder = fell if fell >= 0 else (holder_of(w, called) if called is not None else -1)
        side = side_of(contract, holder)
        won = sum(x in side for x in at.winners)
        return side, won, np.asarray(w, dtype=np.int64)

    trick_bits = np.zeros(3, np.int64)
    for i, c in enumerate(on_table):
        trick_bits[i] = 16 * (c // N_RANKS) + c % N_RANKS

    def values(hands, side, goal, cards) -> dict[int, int] | None:
        """{card: 0/1} for ``cards`` in one world; None when the world's share of the
        budget ran out (the world is then left out)."""
        nonlocal limited
        max_nodes = 0
        if budget:
            max_nodes = min(budget - spent(), budget // WORLD_SHARE)
            if max_nodes <= 0:
                limited = True
                return None
        table.use(side)
        bits = [card_bit(c).bit_length() - 1 for c in cards]  # world_values is by bit index
        only = cards_to_mask(cards)
        decl = 0
        for x in side:
            decl |= 1 << x
        code, target = parse_goal(goal)
        query = Query(
            hands, int(contract.trump), int(leader), decl, int(code), int(target),
            -1 if called is None else int(called), trick_bits, len(on_table), bool(may_discard),
        )  # fmt: skip
        v = world_values(query, max_nodes, only, solver)
        out = {c: int(v[b]) for c, b in zip(cards, bits, strict=True)}
        if any(x < 0 for x in out.values()):
            limited = True
            return None
        return out

    n = len(reps)
    first = np.zeros(n, np.int64)
    alive = np.ones(n, bool)
    done: list[int] = []  # the worlds valued in full, by index
    for wi, w in enumerate(worlds):
        if budget and spent() >= budget:
            limited = True
            break
        side, won, hands = world_setup(w)
        mine = seat in side
        cards = [reps[i] for i in np.flatnonzero(alive)]
        if contract.kind == KIND_GE:
            need = contract.target - won
            if need <= 0 or need > left:
                # settled in this world already (its partner is not the true one)
                got = dict.fromkeys(cards, int(need <= 0))
            else:
                got = values(hands, side, f">={need}", cards)
        else:
            got = values(hands, side, goal_from_here(contract, won), cards)
        if got is None:
            continue  # a world too hard for its share: left out, the decision goes on
        for i in np.flatnonzero(alive):
            a = got[reps[i]]
            # the player's side's view: a defender wants the declarer side to fail
            first[i] += a if mine else 1 - a
        done.append(wi)
        rest = len(worlds) - wi - 1
        alive &= first + rest >= first[alive].max()
        if alive.sum() == 1:
            break
    if not done:
        # out of budget before one world was valued: the lowest legal card (module docstring)
        low = min(reps, key=lambda c: (c % N_RANKS, c))
        return Choice(low, True, True, spent(), uninformed, thin)
    top = first[alive].max()
    tied = [i for i in np.flatnonzero(alive) if first[i] == top]
    second = np.zeros(n, np.int64)
    if len(tied) > 1 and contract.kind == KIND_GE:
        # the tie-break: one trick more for the declarer side (one fewer for the defenders),
        # on the same worlds, for the tied cards only
        cards = [reps[i] for i in tied]
        for wi in done:
            side, won, hands = world_setup(worlds[wi])
            mine = seat in side
            need = contract.target - won
            if need <= 0 or need > left:
                got = dict.fromkeys(cards, int(need <= 0))
            elif need + 1 > left:
                got = dict.fromkeys(cards, 0)
            else:
                got = values(hands, side, f">={need + 1}", cards)
                if got is None:
                    break
            for i in tied:
                b = got[reps[i]]
                second[i] += b if mine else 1 - b
    best = max(tied, key=lambda i: (second[i], -(reps[i] % N_RANKS), -i))
    return Choice(reps[best], True, limited, spent(), uninformed, thin)


# With an inference, candidate worlds are drawn in blocks of BLOCK_WORLDS * ``samples``
# until ``samples`` agree with it, at most INFERENCE_BLOCKS * ``samples`` in all (the
# knowledge of the play makes some auctions rare among the worlds: a misère declarer's hand
# for a defender at trick 1). Large blocks: the bidding model is cheap per hand but not per
# call.
INFERENCE_BLOCKS = 32
BLOCK_WORLDS = 4


def _worlds(k, deal, contract, at: Turn, options: PlayOptions, stream: int):
    """The worlds of a decision: ``(int64[m, 4] masks of the cards still held,
    uninformed, thin)`` (:class:`Choice`)."""
    s = options.samples
    if options.inference is None:
        worlds = all_worlds(k, s) if options.enumerate else None
        if worlds is None:
            worlds = sample_worlds(k, s, stream, start=at.turn * s)
        return worlds, False, False
    seat = at.seat
    gone = np.zeros(N_SEATS, np.int64)  # the cards each seat has played, as masks
    for who, c in trick_pairs(contract, at.played):
        gone[who] |= card_bit(c)

    def consistent(w: np.ndarray) -> np.ndarray:
        public = tuple(x for x in contract.open if x != seat)
        return w[options.inference.accepts(seat, w | gone, public)] if len(w) else w

    every = all_worlds(k, s * INFERENCE_BLOCKS) if options.enumerate else None
    if every is not None:
        kept = consistent(every)
        if 0 < len(kept) <= s:
            return kept, False, False  # every layout the auction allows: exact
        if len(kept) == 0:
            if len(every) <= s:
                return every, True, False
            return sample_worlds(k, s, stream, start=at.turn * s), True, False
    # blocks of the stream of this turn, apart from the worlds drawn without inference
    base = (at.turn * INFERENCE_BLOCKS) * s
    kept_parts = []
    n_kept = 0
    for b in range(INFERENCE_BLOCKS // BLOCK_WORLDS):
        m = BLOCK_WORLDS * s
        cand = sample_worlds(k, m, stream ^ 0x5A5A5A5A5A5A5A5A, start=base + b * m)
        ok = consistent(cand)
        kept_parts.append(ok)
        n_kept += len(ok)
        if n_kept >= s:
            break
    if n_kept == 0:
        return sample_worlds(k, s, stream, start=at.turn * s), True, False
    return np.concatenate(kept_parts)[:s], False, n_kept < s
