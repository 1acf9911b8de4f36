"""Where does our search need more nodes than DDS? One bench deal, followed trick by trick.

`python tests/bench/dds_diff.py DEAL TARGET [--tricks 12:22:17:9/13:19:24:25]` takes deal
DEAL of the solver benchmark's 100 (the side on lead and its partner are MAX) and the
question "does MAX take TARGET tricks from here?", plays the tricks given (cards 0..51 as
in analyser/cards.py, from the leader on; tricks separated by '/'), and prints for the
position reached:

* the hands, the leader and what MAX still needs;
* ours and DDS's trick-start nodes for the question, each on an empty table;
* our nodes for each lead searched alone (solver.play.card_values) and its value: at a MAX
  node every lead counts when none reaches the goal, at a MIN node the first that refutes;
* every position one trick further, searched alone by both, the ones where we need the
  most nodes more than DDS first: the next `--tricks` step to look at.

Our subtrees and DDS's on the same positions show whether an excess is spread through the
tree (the same ratio at every depth) or sits in one node's choice of move. Both count the
same nodes: DDS's ``nodes`` are its trick starts reached (``trickNodes``), as ours are.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

from bench_solver import SEED, _dds_reset, make_deals, pbn  # noqa: E402

from analyser.solver import Solver  # noqa: E402
from analyser.solver.layout import S_TRICK_NODES  # noqa: E402
from analyser.solver.play import card_values  # noqa: E402

RANKS = "23456789TJQKA"


def show(card: int) -> str:
    """A card int 0..51 as suit letter and rank (S H D C, 2..A)."""
    return "SHDC"[card // 13] + RANKS[card % 13]


def beats(a: int, b: int, trump: int) -> bool:
    """Card ``a`` beats card ``b`` (``b`` led or winning so far)."""
    if a // 13 == b // 13:
        return a % 13 > b % 13
    return a // 13 == trump


def dds_nodes(hands: list[list[int]], trump: int, leader: int, target: int) -> int:
    """DDS's trick-start nodes for "the side on lead takes ``target`` tricks", fresh table."""
    from endplay._dds import SolveBoard, futureTricks
    from endplay.types import Deal, Denom, Player

    deal = Deal(pbn(hands))
    deal.trump = Denom(trump)
    deal.first = Player(leader)
    SolveBoard(_dds_reset()._data, -1, 1, 1, futureTricks(), 0)  # forget the last deal
    fut = futureTricks()
    SolveBoard(deal._data, target, 1, 1, fut, 0)
    return int(fut.nodes)


class Compare:
    """Ours and DDS on positions of one deal (trump, MAX side fixed)."""

    def __init__(self, trump: int, side: list[int]):
        self.trump, self.side, self.solver = trump, side, Solver()

    def ours(self, hands, leader: int, need: int) -> tuple[int, int]:
        """Our trick-start nodes and answer (1/0) for "MAX takes ``need`` more tricks"."""
        n0 = int(self.solver.stats[S_TRICK_NODES])
        r = self.solver.solve(hands, self.trump, leader, self.side, f">={need}")
        return int(self.solver.stats[S_TRICK_NODES]) - n0, r

    def dds(self, hands, leader: int, need: int) -> int:
        """DDS's nodes for the same question (asked of the side on lead)."""
        n = len(hands[0])
        return dds_nodes(hands, self.trump, leader, need if leader in self.side else n - need + 1)

    def lead_nodes(self, hands, leader: int, need: int) -> list[tuple[int, int, int]]:
        """(card, value, our nodes) of each lead searched alone."""
        goal = f">={need}"
        values = card_values(hands, self.trump, leader, self.side, goal, solver=self.solver)
        out = []
        for card in sorted(values):
            n0 = int(self.solver.stats[S_TRICK_NODES])
            card_values(hands, self.trump, leader, self.side, goal, solver=self.solver, only=[card])
            out.append((card, values[card], int(self.solver.stats[S_TRICK_NODES]) - n0))
        return out


def play_trick(hands, leader: int, trick: list[int], trump: int) -> tuple[list[list[int]], int]:
    """The hands after ``trick`` (from ``leader`` on) and its winner; ValueError when a seat
    does not hold its card or does not follow suit."""
    hands = [list(h) for h in hands]
    win = 0
    for k, card in enumerate(trick):
        hand = hands[(leader + k) % 4]
        led = trick[0] // 13
        if k and card // 13 != led and any(c // 13 == led for c in hand):
            raise ValueError(card)
        hand.remove(card)
        if k and beats(card, trick[win], trump):
            win = k
    return hands, (leader + win) % 4


def tricks_after(hands, leader: int, trump: int):
    """Every legal trick from here: (hands after it, its winner, its cards)."""
    out = []

    def extend(h, k, trick):
        if k == 4:
            out.append((*play_trick(hands, leader, trick, trump), trick))
            return
        seat = (leader + k) % 4
        cards = h[seat]
        if k:
            follow = [c for c in cards if c // 13 == trick[0] // 13]
            cards = follow or cards
        for card in cards:
            nh = [list(x) for x in h]
            nh[seat].remove(card)
            extend(nh, k + 1, trick + [card])

    extend(hands, 0, [])
    return out


def parse_tricks(text: str) -> list[list[int]]:
    """'a:b:c:d/...' as lists of four card ints."""
    tricks = [[int(c) for c in t.split(":")] for t in text.split("/") if t]
    if any(len(t) != 4 or not all(0 <= c < 52 for c in t) for t in tricks):
        raise ValueError(text)
    return tricks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("deal", type=int, help="index among the bench's 100 deals (0..99)")
    ap.add_argument("target", type=int, help="tricks the side on lead must take (1..13)")
    ap.add_argument("--tricks", default="", help="tricks to play first: a:b:c:d/e:f:g:h")
    ap.add_argument("--children", type=int, default=8, help="how many children to list")
    ap.add_argument(
        "--seed",
        type=int,
        default=SEED,
        help="deal seed (default: the bench's); another seed gives deals no tuning has seen",
    )
    args = ap.parse_args()
    try:
        tricks = parse_tricks(args.tricks)
    except ValueError:
        print(
            f"error: --tricks wants four cards 0..51 a trick, a:b:c:d/..., not {args.tricks!r}",
            file=sys.stderr,
        )
        return 2
    if not (0 <= args.deal < 100 and 1 <= args.target <= 13):
        print("error: DEAL is 0..99 and TARGET 1..13", file=sys.stderr)
        return 2
    hands, trump, leader = make_deals(100, args.seed)[args.deal]
    side = [leader, (leader + 2) % 4]
    need = args.target
    for trick in tricks:
        try:
            hands, leader = play_trick(hands, leader, trick, trump)
        except ValueError:
            print(f"error: {trick} is not a trick of these hands", file=sys.stderr)
            return 2
        need -= leader in side
    n = len(hands[0])
    if not 1 <= need <= n:
        print(f"MAX needs {need} of {n} tricks: settled without a search")
        return 0
    cmp = Compare(trump, side)
    for seat, hand in enumerate(hands):
        print("NESW"[seat], " ".join(show(c) for c in sorted(hand, reverse=True)))
    max_side = "+".join("NESW"[q] for q in side)
    print(f"trump {'SHDCN'[trump]}, {'NESW'[leader]} to lead, MAX ({max_side}) needs {need} of {n}")
    ours, answer = cmp.ours(hands, leader, need)
    print(
        f"ours {ours:,} nodes, DDS {cmp.dds(hands, leader, need):,}; MAX "
        + ("reaches it" if answer else "falls short")
    )
    for card, value, nodes in cmp.lead_nodes(hands, leader, need):
        print(
            f"  lead {show(card)}: MAX {'reaches' if value else 'falls short'}, ours alone "
            f"{nodes:,} nodes"
        )
    rows = []
    for h, winner, trick in tricks_after(hands, leader, trump):
        left = need - (winner in side)
        if 1 <= left <= n - 1:
            o, _ = cmp.ours(h, winner, left)
            rows.append((o - cmp.dds(h, winner, left), o, trick))
    dds_sum = sum(o - x for x, o, _ in rows)
    print(
        f"{len(rows)} positions a trick on, each alone: ours {sum(o for _, o, _ in rows):,} nodes, "
        f"DDS {dds_sum:,}"
    )
    for excess, o, trick in sorted(rows, key=lambda r: -r[0])[: args.children]:
        print(
            f"  {':'.join(map(str, trick))} ({' '.join(show(c) for c in trick)}): ours {o:,}, "
            f"DDS {o - excess:,}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
