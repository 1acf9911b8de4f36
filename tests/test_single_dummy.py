"""Single-dummy play (analyser.single_dummy): with every hand open it is double-dummy play,
players only play legal cards, hands that cannot fail make, and a deal plays the same way from
the same seed."""

from __future__ import annotations

import random

import pytest
from oracle import legal_cards

from analyser.cards import N_RANKS
from analyser.errors import RikkenError
from analyser.single_dummy import (
    KIND_GE,
    KIND_MISERE,
    KIND_PIEK,
    PlayContract,
    PlayOptions,
    misere_claim,
    play_deal,
)
from analyser.solver import Solver, solve
from analyser.worlds import trick_winner

ALL_OPEN = (0, 1, 2, 3)


def _deal(rng: random.Random) -> list[list[int]]:
    deck = list(range(52))
    rng.shuffle(deck)
    return [sorted(deck[13 * k : 13 * k + 13]) for k in range(4)]


def _contracts(rng: random.Random, hands):
    """One contract of each family on this deal: partners opposite and adjacent with a known
    partner, a rik with a called card, a lone declarer, misère and piek (no trump)."""
    d = rng.randrange(4)
    trump, leader = rng.randrange(4), rng.randrange(4)
    outside = [c for c in range(52) if c not in hands[d] and c % N_RANKS == 12]
    called = outside[0] if outside else -1
    return [
        PlayContract(trump, leader, d, KIND_GE, 7, partner=(d + 2) % 4),
        PlayContract(trump, leader, d, KIND_GE, 8, partner=(d + 1) % 4),
        PlayContract(trump, leader, d, KIND_GE, 8, called=called),
        PlayContract(trump, leader, d, KIND_GE, rng.choice((5, 6, 7))),
        PlayContract(4, leader, d, KIND_MISERE),
        PlayContract(4, leader, d, KIND_PIEK),
    ]


def _dd(hands, c: PlayContract) -> int:
    if c.kind == KIND_GE:
        side = [c.declarer] + ([c.partner] if c.partner >= 0 else [])
        return solve(
            hands, c.trump, c.leader, side, f">={c.target}", None if c.called < 0 else c.called
        )
    return solve(hands, c.trump, c.leader, [c.declarer], c.kind)


def _open(c: PlayContract) -> PlayContract:
    return PlayContract(
        c.trump, c.leader, c.declarer, c.kind, c.target, c.called, c.partner, ALL_OPEN
    )


@pytest.mark.parametrize("deals", [3, pytest.param(20, marks=pytest.mark.slow)])
def test_all_hands_open_with_one_world_is_double_dummy(deals):
    rng = random.Random(51)
    solver = Solver()
    for i in range(deals):
        hands = _deal(rng)
        for c in _contracts(rng, hands):
            if c.kind == KIND_GE and c.partner < 0 and c.called >= 0:
                side = [c.declarer, next(s for s in range(4) if c.called in hands[s])]
                want = solve(hands, c.trump, c.leader, side, f">={c.target}", c.called)
            else:
                want = _dd(hands, c)
            got = play_deal(hands, _open(c), 1, 9, i, solver=solver)
            assert int(got.made) == want, (hands, c)


def _check_legal(hands, c: PlayContract, cards):
    """Replay ``cards``: every card is legal for the seat that played it (R-PLAY-02/05)."""
    held = [set(h) for h in hands]
    seat, trick, pending = c.leader, [], c.called >= 0
    for card in cards:
        mask = sum(1 << x for x in held[seat])
        called = c.called if c.called >= 0 else None
        assert card in legal_cards(mask, tuple(x for _, x in trick), called, pending, True)
        held[seat].remove(card)
        trick.append((seat, card))
        if len(trick) == 4:
            if called is not None and trick[0][1] // N_RANKS == called // N_RANKS:
                pending = False
            seat, trick = trick_winner(trick, c.trump), []
        else:
            seat = (seat + 1) % 4


def test_single_dummy_players_play_legal_cards_and_repeat_from_the_seed():
    rng = random.Random(53)
    solver = Solver()
    hands = _deal(rng)
    for c in _contracts(rng, hands)[2:5]:
        got = play_deal(hands, c, 4, 17, 0, solver=solver)
        _check_legal(hands, c, got.cards)
        again = play_deal(hands, c, 4, 17, 0, solver=solver)
        assert again == got
        # whatever the solver searched before (a worker's earlier deals), node for node
        assert play_deal(hands, c, 4, 17, 0, solver=Solver()) == got


def test_hands_that_cannot_fail_make_single_dummy():
    rng = random.Random(55)
    rest = list(range(13, 52))
    rng.shuffle(rest)
    spades = list(range(13))  # thirteen trumps: 13 alone
    hands = [spades] + [sorted(rest[13 * k : 13 * k + 13]) for k in range(3)]
    got = play_deal(hands, PlayContract(0, 1, 0, KIND_GE, 13), 3, 1)
    assert got.made and got.tricks == 13
    # the lowest cards of every suit, no trump: no defence can give this hand a trick
    low = [s * 13 + r for s in range(4) for r in range(3)] + [3]
    others = [c for c in range(52) if c not in low]
    rng.shuffle(others)
    hands = [sorted(low)] + [sorted(others[13 * k : 13 * k + 13]) for k in range(3)]
    for leader in range(4):
        got = play_deal(hands, PlayContract(4, leader, 0, KIND_MISERE), 3, 2)
        assert got.made and got.tricks == 0


def test_bad_contracts_are_refused():
    with pytest.raises(RikkenError, match="kind"):
        PlayContract(0, 0, 0, "slam")
    with pytest.raises(RikkenError, match="alone"):
        PlayContract(4, 0, 0, KIND_MISERE, called=12)
    with pytest.raises(RikkenError, match="at least one world"):
        play_deal(_deal(random.Random(1)), PlayContract(0, 0, 0), 0, 1)


def _reference():
    """Today's player before its shortcuts (tests/bench/sd_reference.py): the bench's
    yardstick for the speed-up, and here the judge of what the shortcuts may not change."""
    import pathlib
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).parent / "bench"))
    import sd_reference

    return sd_reference


@pytest.mark.parametrize("seed", [61, pytest.param(62, marks=pytest.mark.slow)])
def test_the_shortcuts_play_the_cards_the_full_search_plays(seed):
    # equivalent cards, worlds in sequence with cards dropped, the tie-break only on ties,
    # the warm table and the claim: without a budget and with sampled worlds (no
    # enumeration), every card is the one the player without shortcuts plays
    ref = _reference()
    rng = random.Random(seed)
    solver, ref_solver = Solver(), Solver()
    exact = PlayOptions(3, decision_nodes=0, enumerate=False)
    for i in range(2):
        hands = _deal(rng)
        for c in _contracts(rng, hands)[2:]:
            got = play_deal(hands, c, exact, 5, i, solver=solver)
            rc = ref.PlayContract(c.trump, c.leader, c.declarer, c.kind, c.target, c.called)
            want = ref.play_deal(hands, rc, 3, 5, i, solver=ref_solver)
            assert got.made == want.made, (hands, c)
            assert got.cards == want.cards[: len(got.cards)], (hands, c)
            assert got.claimed or got.cards == want.cards


def test_a_decision_stays_within_its_node_budget():
    rng = random.Random(63)
    hands = _deal(rng)
    c = PlayContract(4, 1, 0, KIND_MISERE)
    budget = 3000
    got = play_deal(hands, c, PlayOptions(8, decision_nodes=budget), 3, 0)
    _check_legal(hands, c, got.cards)
    assert got.decisions > 0 and got.limited > 0
    # a search stops once past its share: the overshoot is a few nodes per search
    assert got.nodes <= got.decisions * budget * 1.2


def test_a_claimed_misere_cannot_be_beaten():
    # misere_claim says no trick can reach the declarer whatever anyone plays: then the
    # solver finds the misère made (the defenders' best play cannot beat it either)
    rng = random.Random(65)
    checked = 0
    solver = Solver()
    for _ in range(400):
        n = rng.randrange(2, 7)
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sorted(deck[n * k : n * k + n]) for k in range(4)]
        # make the declarer's hand low: his n lowest of a random pick of 2n cards
        pool = sorted(deck[4 * n : 6 * n], key=lambda x: x % N_RANKS)
        hands[0] = sorted(pool[:n])
        used = set(hands[0])
        rest = [x for x in deck if x not in used][: 3 * n]
        hands[1:] = [sorted(rest[n * k : n * k + n]) for k in range(3)]
        if misere_claim(hands, 0):
            checked += 1
            for leader in (1, 2, 3):
                assert solver.solve(hands, 4, leader, [0], "misere") == 1, hands
    assert checked >= 20


def _auction_deal(inference, seed: int):
    """A deal on which every call of the auction is the bidding model's call."""
    import numpy as np

    from analyser.cards import mask_to_cards
    from analyser.sampler import sample_deals

    deals = sample_deals(np.full(52, -1, np.int64), 4000, seed)
    ok = inference.accepts(-1, deals)
    return [mask_to_cards(int(m)) for m in deals[np.flatnonzero(ok)[0]]]


def _after(hands, c: PlayContract, n_cards: int):
    """The cards played and the turn after ``n_cards`` cards of each seat's lowest legal
    card (a position late enough to enumerate)."""
    from analyser.single_dummy.decide import Turn

    held = [list(h) for h in hands]
    played, winners, trick, seat = [], [], [], c.leader
    for _ in range(n_cards):
        follow = [x for x in held[seat] if trick and x // 13 == trick[0][1] // 13]
        card = min(follow or held[seat])
        held[seat].remove(card)
        played.append(card)
        trick.append((seat, card))
        if len(trick) == 4:
            seat = trick_winner(trick, c.trump)
            winners.append(seat)
            trick = []
        else:
            seat = (seat + 1) % 4
    return Turn(seat, played, trick, winners, n_cards)


@pytest.mark.parametrize("cards_played", [44, 28])
def test_worlds_drawn_with_the_auction_never_contradict_it(cards_played):
    # 44 cards played: few layouts, all enumerated; 28: sampled in blocks. Every world the
    # player gets agrees with every other seat's call under the bidding model, and with
    # enumeration they are exactly the layouts that agree (checked against all of them)
    import numpy as np

    from analyser.auction.inference import opening_auction
    from analyser.single_dummy.contract import public_cards, trick_pairs
    from analyser.single_dummy.decide import _worlds
    from analyser.worlds import all_worlds, knowledge_after

    inference = opening_auction("book", "misere", 1)
    hands = _auction_deal(inference, 71)
    c = PlayContract(4, 0, 0, KIND_MISERE)
    at = _after(hands, c, cards_played)
    k = knowledge_after(at.seat, hands[at.seat], 4, 0, at.played, public_cards(hands, c, at.seat))
    options = PlayOptions(8 if cards_played == 28 else 64, inference=inference)
    worlds, uninformed, _ = _worlds(k, hands, c, at, options, 99)
    assert not uninformed and len(worlds) > 0
    gone = np.zeros(4, np.int64)
    for who, card in trick_pairs(c, at.played):
        gone[who] |= 1 << (16 * (card // 13) + card % 13)
    assert inference.accepts(at.seat, worlds | gone).all()
    every = all_worlds(k, 10**5)
    if cards_played == 28:
        assert every is None  # too many layouts: these worlds were sampled
        return
    agree = every[inference.accepts(at.seat, every | gone)]
    assert len(agree) <= options.samples  # so the player got every one of them
    assert {tuple(w) for w in worlds.tolist()} == {tuple(w) for w in agree.tolist()}
    assert len(agree) < len(every)  # the auction does tell the player something here


def test_an_open_hand_is_not_read_through_the_auction():
    # everyone sees an open misère hand: whether the book would have bid it does not narrow
    # the worlds (a hand the model would not bid open misère still gives worlds)
    import numpy as np

    from analyser.auction.inference import opening_auction
    from analyser.guidelines import open_misere_ok
    from analyser.single_dummy.contract import public_cards
    from analyser.single_dummy.decide import Turn, _worlds
    from analyser.worlds import knowledge_after

    inference = opening_auction("book", "open_misere", 1)
    rng = random.Random(73)
    while True:
        hands = _deal(rng)
        north = sum(1 << (16 * (c // 13) + c % 13) for c in hands[0])
        if not open_misere_ok.many(np.array([north], dtype=np.int64))[0]:
            break
    c = PlayContract(4, 0, 0, KIND_MISERE, open=(0,))
    at = Turn(1, [hands[0][0]], [(0, hands[0][0])], [], 1)
    k = knowledge_after(1, hands[1], 4, 0, at.played, public_cards(hands, c, 1))
    worlds, uninformed, _ = _worlds(k, hands, c, at, PlayOptions(8, inference=inference), 5)
    assert not uninformed and len(worlds) > 0
