"""Should this hand bid misère? Make-probabilities and why the closed misère fails.

:func:`analyse_misere` samples the other 39 cards (seeded), solves on the same deals:

* ``misere`` — closed misère, the forehand (seat 1) leads: double-dummy is pessimistic here
  (the defenders play as if they saw the declarer's cards);
* ``open_misere`` — the bidder's hand face up, the leader as the rule set says (book: the
  bidder); pessimistic as well (the defenders do not see each other's cards at the table);
* ``open_misere_praatje`` — all hands open, the defenders confer: double-dummy is exact.

**Why it fails.** On every sampled deal where the closed misère fails, the *forced card* is the
card with which the declarer wins his first trick along this principal line, built one trick
at a time from trick 1:

1. every legal way to play the current trick is enumerated (following suit; cards of one hand
   with no other player's card of the suit between them count as one, represented by the lowest);
2. each way ends in one of three outcomes, judged by the solver at the next trick boundary:
   the declarer wins this trick (**now**), or he does not and the position that follows still
   fails against best defence (**later**), or it is a made misère (**escape**);
3. the trick is played by minimax on these outcomes — the defenders prefer now > later >
   escape, the declarer the reverse — every player, among equally good cards, playing his
   lowest (by rank, then suit ♠ ♥ ♦ ♣);
4. on "later" the next trick is played the same way; on "now" the declarer's card in that
   trick is the forced card (his lowest card among the choices, all of which win).

So the defenders force a trick as early as they can, looking one trick ahead with the solver
telling them which continuations still beat the contract; the forced card names the suit (and
rank) where the hand is caught. Beside it :func:`hole_test` gives the book's worst-case test
(G-MIS-02): ``δ(y) = #(outstanding cards of s below y) − #(own cards of s below y)``, a hole
where ``δ ≥ 1``; a suit without holes is safe whatever the distribution.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from analyser.analysis.positions import PositionStore
from analyser.analysis.results import Estimate
from analyser.cards import (
    N_SEATS,
    N_SUITS,
    SUIT_BITS,
    SUIT_MASK,
    card,
    card_bit,
    rank_of,
    suit_of,
)
from analyser.errors import RikkenError
from analyser.rules import (
    MISERE,
    OPEN_MISERE,
    OPEN_MISERE_PRAATJE,
    RuleSet,
    contract_terms,
    declarer_score,
    first_leader,
)
from analyser.seats import FOREHAND, Place, Seat, seat_of

NOW, LATER, ESCAPE = 0, 1, 2  # outcomes of a trick, in the declarer's order of preference
TAG = "misere"


@dataclass(frozen=True)
class SuitHoles:
    """The G-MIS-02 worst-case test of one suit of the hand."""

    suit: int
    cards: tuple[int, ...]
    """The hand's cards of the suit, ascending."""
    deltas: tuple[int, ...]
    """``δ(y)`` of each of those cards."""
    holes: tuple[int, ...]
    """The cards with ``δ ≥ 1``."""

    @property
    def safe(self) -> bool:
        """No hole: the suit cannot be used to force a trick, however it is distributed."""
        return not self.holes


@dataclass
class MisereAnalysis:
    """Everything ``rikken misere`` reports."""

    hand: list[int]
    seat: Place
    """Seat relative to the dealer, 1..4."""
    ruleset: RuleSet
    seed: int
    n_deals: int
    estimates: dict[str, Estimate]
    """Contract id (``misere``, ``open_misere``, ``open_misere_praatje``) → make-estimate."""
    leaders: dict[str, Seat]
    """Contract id → the seat 0..3 leading to trick 1."""
    expected: dict[str, float]
    forced: dict[int, int]
    """Forced card → number of failing deals (closed misère)."""
    forced_trick: dict[int, int]
    """Trick number (1..13) of the forced trick → number of failing deals."""
    failures: int
    unexplained: int = 0
    """Failing deals whose line ended in an escape (would mean a solver inconsistency)."""
    holes: list[SuitHoles] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def hole_test(hand: list[int]) -> list[SuitHoles]:
    """G-MIS-02 per suit ♠ ♥ ♦ ♣ (nothing played yet)."""
    from analyser.guidelines.misere import deltas

    out = []
    for s in range(N_SUITS):
        mine = sorted(c for c in hand if suit_of(c) == s)
        holding = sum(1 << rank_of(c) for c in mine)
        d = dict(deltas(holding))
        ds = tuple(d[rank_of(c)] for c in mine)
        out.append(
            SuitHoles(s, tuple(mine), ds, tuple(c for c, x in zip(mine, ds, strict=True) if x >= 1))
        )
    return out


def analyse_misere(
    hand: list[int],
    seat: Place,
    ruleset: RuleSet,
    deals: int = 1000,
    seed: int = 1,
    threads: int | None = None,
) -> MisereAnalysis:
    """Make-probabilities of the misère forms and the forced cards of the failing deals, for
    ``hand`` at ``seat`` (1..4 relative to the dealer)."""
    from analyser.sampler import sample_deals
    from analyser.solver import GOAL_MISERE

    if deals < 1:
        raise RikkenError(f"the number of deals must be at least 1, got {deals}")
    me = seat_of(seat)
    known: list[list[int]] = [[], [], [], []]
    known[me] = list(hand)
    t0 = time.perf_counter()
    store = PositionStore(
        sample_deals(known, deals, seed),
        discard_ok=ruleset.called_card_may_be_discarded,
        threads=threads,
    )
    idx = np.arange(store.n)
    estimates, leaders, expected, made = {}, {}, {}, {}
    for contract in (MISERE, OPEN_MISERE, OPEN_MISERE_PRAATJE):
        contract_terms(ruleset, contract)  # raises if the rule set lacks it
        leader = first_leader(ruleset, contract, (me,), FOREHAND)
        ok = store.null_goal(idx, GOAL_MISERE, leader, 1 << me, TAG)
        k = int(ok.sum())
        made[contract.id] = ok
        estimates[contract.id] = Estimate(k, store.n)
        leaders[contract.id] = leader
        p = k / store.n
        expected[contract.id] = p * declarer_score(ruleset, contract, 0) + (1 - p) * declarer_score(
            ruleset, contract, 1
        )
    solve_seconds = time.perf_counter() - t0
    failing = np.flatnonzero(made[MISERE.id] == 0)
    t1 = time.perf_counter()
    cards, tricks = forced_cards(store.deals[failing], leaders[MISERE.id], me, threads=threads)
    forced: dict[int, int] = {}
    forced_trick: dict[int, int] = {}
    unexplained = 0
    for c, t in zip(cards, tricks, strict=True):
        if c < 0:
            unexplained += 1
            continue
        forced[int(c)] = forced.get(int(c), 0) + 1
        forced_trick[int(t)] = forced_trick.get(int(t), 0) + 1
    return MisereAnalysis(
        hand=sorted(hand),
        seat=seat,
        ruleset=ruleset,
        seed=seed,
        n_deals=store.n,
        estimates=estimates,
        leaders=leaders,
        expected=expected,
        forced=dict(sorted(forced.items())),
        forced_trick=dict(sorted(forced_trick.items())),
        failures=int(failing.size),
        unexplained=unexplained,
        holes=hole_test(list(hand)),
        seconds={"solve": solve_seconds, "explain": time.perf_counter() - t1},
    )


# ----------------------------------------------------------------------- principal line


def _holding(mask: int, s: int) -> int:
    return (mask >> (SUIT_BITS * s)) & SUIT_MASK


def _choices(hands: list[int], seat: int, led: int | None) -> list[int]:
    """Legal cards of ``seat`` (the lowest of each run of equivalent cards), low rank first.

    Two cards of one hand are equivalent when no other hand holds a card of the suit between
    them (cards already on the table in this trick still count as held: they are in ``hands``).
    """
    mask = hands[seat]
    suits = [led] if led is not None and _holding(mask, led) else range(N_SUITS)
    others = 0
    for p in range(N_SEATS):
        if p != seat:
            others |= hands[p]
    out = []
    for s in suits:
        mine, theirs = _holding(mask, s), _holding(others, s)
        prev_mine = False
        for r in range(13):
            if mine >> r & 1:
                if not prev_mine:
                    out.append(card(s, r))
                prev_mine = True
            elif theirs >> r & 1:
                prev_mine = False
    out.sort(key=lambda c: (rank_of(c), suit_of(c)))
    return out


def _trick_lines(hands: list[int], leader: int) -> list[tuple[int, ...]]:
    """Every way (up to equivalent cards) to play one trick from ``leader``, cards in play order."""
    lines: list[tuple[int, ...]] = []

    def rec(pos: int, played: tuple[int, ...]) -> None:
        if pos == N_SEATS:
            lines.append(played)
            return
        seat = (leader + pos) % N_SEATS
        led = suit_of(played[0]) if played else None
        for c in _choices(hands, seat, led):
            rec(pos + 1, played + (c,))

    rec(0, ())
    return lines


def _winner(played: tuple[int, ...], leader: int) -> int:
    """Seat winning a no-trump trick: the highest card of the led suit."""
    led = suit_of(played[0])
    best = 0
    for i in range(1, N_SEATS):
        c = played[i]
        if suit_of(c) == led and rank_of(c) > rank_of(played[best]):
            best = i
    return (leader + best) % N_SEATS


def _after(hands: list[int], played: tuple[int, ...]) -> list[int]:
    out = list(hands)
    for c in played:
        bit = card_bit(c)
        for p in range(N_SEATS):
            if out[p] & bit:
                out[p] &= ~bit
    return out


def _minimax(lines, values, leader: int, me: int) -> tuple[int, tuple[int, ...]]:
    """The trick's value and principal line: the declarer maximises, the defenders minimise;
    ties go to the lowest card (``lines`` are generated lowest first, so the first best)."""
    tree: dict = {}
    for line, v in zip(lines, values, strict=True):
        node = tree
        for c in line[:-1]:
            node = node.setdefault(c, {})
        node[line[-1]] = v

    def rec(node, pos: int) -> tuple[int, tuple[int, ...]]:
        seat = (leader + pos) % N_SEATS
        best: tuple[int, tuple[int, ...]] | None = None
        for c, child in node.items():
            v, rest = (child, ()) if pos == N_SEATS - 1 else rec(child, pos + 1)
            if best is None or (v > best[0] if seat == me else v < best[0]):
                best = (v, (c,) + rest)
        assert best is not None
        return best

    return rec(tree, 0)


def forced_cards(
    deals: np.ndarray, leader: Seat, me: Seat, threads: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Forced card and trick number (1..13) per failing deal (see the module docstring).

    ``deals`` are ``int64[n, 4]`` positions at trick 1 in which the misère of seat ``me`` fails
    with ``leader`` on lead. A deal whose line escapes gets card -1 (cannot happen when the
    deals really fail). Solver calls are batched over all deals trick by trick.
    """
    from analyser.solver import GOAL_MISERE, solve_batch

    n = deals.shape[0]
    out_card = np.full(n, -1, dtype=np.int64)
    out_trick = np.zeros(n, dtype=np.int64)
    state = {i: ([int(x) for x in deals[i]], int(leader)) for i in range(n)}
    trick = 1
    while state:
        per_deal = {}
        queries: list[tuple[list[int], int]] = []
        for i, (hands, lead) in state.items():
            lines = _trick_lines(hands, lead)
            slots = []
            for line in lines:
                w = _winner(line, lead)
                if w == me:
                    slots.append(("v", NOW))
                    continue
                rest = _after(hands, line)
                if rest[0] == 0:
                    slots.append(("v", ESCAPE))  # last trick gone by without a trick: made
                    continue
                slots.append(("q", len(queries)))
                queries.append((rest, w))
            per_deal[i] = (lines, slots)
        if queries:
            masks = np.array([q[0] for q in queries], dtype=np.int64)
            lead_a = np.array([q[1] for q in queries], dtype=np.int64)
            res = solve_batch(masks, 4, lead_a, 1 << me, GOAL_MISERE, 0, -1, threads=threads)
        else:
            res = np.zeros(0, dtype=np.int8)
        nxt = {}
        for i, (lines, slots) in per_deal.items():
            values = [v if kind == "v" else (ESCAPE if res[v] else LATER) for kind, v in slots]
            value, line = _minimax(lines, values, state[i][1], me)
            hands, lead = state[i]
            if value == NOW:
                out_card[i] = line[(me - lead) % N_SEATS]
                out_trick[i] = trick
            elif value == LATER:
                nxt[i] = (_after(hands, line), _winner(line, lead))
        state = nxt
        trick += 1
    return out_card, out_trick


def forced_by_suit(analysis: MisereAnalysis) -> dict[int, int]:
    """Failing deals per suit of the forced card."""
    out = {s: 0 for s in range(N_SUITS)}
    for c, k in analysis.forced.items():
        out[suit_of(c)] += k
    return out
