"""Deals consistent with one known hand under the ``cut_only`` deal model (R-DEAL-06).

:mod:`analyser.deal_model` produces *sequences* of unshuffled deals; an analysis needs the
other 39 cards *given* 13 known cards at one seat. Exact conditioning on 13 cards by
rejection is hopeless (one deal in about 6e11 holds them), so the draw conditions on what
carries the model's effect, the hand's suit lengths, and then puts the given cards in place:

1. **A session at the table.** Attempt ``k`` of deal ``i`` starts a sequence with a uniform
   deal and plays, gathers, cuts and deals :data:`BURN_IN` times (the model of
   :mod:`analyser.deal_model`: the simple play policy, a trump drawn per game, a uniform
   cut, the family's packets). The deal it arrives at is dealt by seat ``BURN_IN % 4``.
2. **Rejection on the shape.** The attempt is kept when the hand at the analysed place
   (relative to that deal's dealer) has the given hand's suit lengths up to the order of
   the suits; otherwise attempt ``k + 1`` starts afresh. Every kept deal is thus an exact
   draw of the model's deal number ``BURN_IN + 1`` of a session conditioned on the sorted
   shape at the place, and the deals of an analysis are independent of each other.
3. **Suits renamed.** The suits are renamed (one permutation for the whole deal, uniform
   among those that give the place the given suit lengths) so that the place holds the given
   length in every suit. Approximation: the model is symmetric in the suits except for its
   play policy's tie-breaks (longest suit ties go to the higher suit index).
4. **The given cards exchanged in.** In each suit the place gives up the cards it holds
   that the hand lacks and takes the hand's cards from whoever holds them, lowest with
   lowest (``honours="swap"``). The place then holds exactly the given cards and every hand
   keeps its suit lengths. Approximation: the other hands' honours lie as in a deal whose
   place held other cards of the suit. Measured against rejection on one exact suit
   (docs/deal_model.md): the model puts the card next below the place's honours with its
   right-hand opponent more often (43% against 32%) than either placement does;
   ``honours="relabel"`` (each suit's ranks mapped in order: the place's onto the given
   cards, the others' onto the rest) is kept for that comparison and for the panel.

Reproducible by construction: deal ``i`` depends only on (seed, hand's shape and cards,
place, family, ``i``). Its attempts use the SplitMix64 stream keyed on word ``i`` of the
seed's draw stream (distinct from the uniform sampler's): attempt ``k``'s first deal is the
sampler's deal ``2k`` of that key, its trumps, cuts and renaming draws the words of block
``2k + 1``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from analyser.cards import N_RANKS, N_SEATS, SUIT_MASK, card_bit, cards_to_mask
from analyser.deal_model import MIN_CUT, MODELS, PACKETS
from analyser.errors import RikkenError
from analyser.numba_cache import key_cache_on_sources
from analyser.sampler import (
    _DEAL_WORDS_LOG2,
    _MASK32,
    _bounded,
    _seed_key,
    _shuffle_prefix,
    _word,
)
from analyser.seats import seat_of

# Deals of a session before the one that is used: the first deal is uniform and the shape
# statistics settle after a few (tests/test_deal_draw.py measures deal 1..12 of sequences).
BURN_IN = 4
# attempts per deal before the draw gives up: a shape rarer than about 1 in MAX_ATTEMPTS
# cut_only hands cannot be sampled in reasonable time
MAX_ATTEMPTS = 2_000_000
HONOURS = ("swap", "relabel")
# kept apart from the uniform sampler's stream of the same seed
_STREAM = np.uint64(0xC07_0E1E_D0A1_5EED)
_ALL_BITS = np.array([card_bit(c) for c in range(4 * N_RANKS)], dtype=np.int64)


@njit(cache=True)
def _suit_len(h, s):
    """Cards of suit ``s`` in hand mask ``h``."""
    x = (h >> (16 * s)) & SUIT_MASK
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _longest(h):
    """The longest suit of ``h`` (ties: the higher suit index), as the simple policy picks."""
    best = -1
    length = -1
    for s in range(4):
        n = _suit_len(h, s)
        if n >= length:
            length = n
            best = s
    return best


@njit(cache=True)
def _low_above(h, s, r0):
    """The lowest rank of suit ``s`` in ``h`` above ``r0`` (-1 for any), or -1."""
    for r in range(r0 + 1, N_RANKS):
        if (h >> (16 * s + r)) & 1:
            return r
    return -1


@njit(cache=True)
def _high(h, s):
    """The highest rank of suit ``s`` in ``h``, or -1."""
    for r in range(N_RANKS - 1, -1, -1):
        if (h >> (16 * s + r)) & 1:
            return r
    return -1


@njit(cache=True)
def next_deal(hands, trump, dealer, c, packets, out):
    """The deal after ``hands`` (int64[4] masks, dealt by ``dealer``) under cut_only: played
    by the simple policy of :mod:`analyser.deal_model` with ``trump`` (0..3, 4 = none),
    gathered for the next dealer, cut at ``c`` and dealt in ``packets``; written to ``out``.
    The same deal as :func:`analyser.deal_model.deal_sequences` makes (tested)."""
    held = hands.copy()
    piles = np.empty((N_SEATS, 52), np.int64)
    n_pile = np.zeros(N_SEATS, np.int64)
    trick = np.empty(N_SEATS, np.int64)
    leader = (dealer + 1) % N_SEATS
    for _ in range(N_RANKS):
        seat = leader
        bs = -1
        br = -1
        lead = -1
        winner = leader
        for k in range(N_SEATS):
            h = held[seat]
            if k == 0:
                s = _longest(h)
                r = _high(h, s)
                lead = s
            elif _suit_len(h, lead) > 0:
                s = lead
                r = _low_above(h, lead, br) if bs == lead else -1
                if r < 0:
                    r = _low_above(h, lead, -1)
            else:
                r = -1
                s = trump
                if trump < 4:
                    r = _low_above(h, trump, br if bs == trump else -1)
                if r < 0:
                    s = _longest(h)
                    r = _low_above(h, s, -1)
            if k == 0 or (s == bs and r > br) or (s != bs and s == trump):
                bs = s
                br = r
                winner = seat
            held[seat] &= ~(np.int64(1) << (16 * s + r))
            trick[k] = s * N_RANKS + r
            seat = (seat + 1) % N_SEATS
        for k in range(N_SEATS):
            piles[winner, n_pile[winner]] = trick[k]
            n_pile[winner] += 1
        leader = winner
    new_dealer = (dealer + 1) % N_SEATS
    pack = np.empty(52, np.int64)
    at = 0
    for k in range(1, N_SEATS + 1):
        p = (new_dealer + k) % N_SEATS
        for j in range(n_pile[p]):
            pack[at] = piles[p, j]
            at += 1
    for s in range(N_SEATS):
        out[s] = 0
    at = c  # the cut: dealing starts at card c and wraps round
    for size in packets:
        for k in range(1, N_SEATS + 1):
            seat = (new_dealer + k) % N_SEATS
            for _ in range(size):
                card = pack[at % 52]
                out[seat] |= np.int64(1) << (16 * (card // N_RANKS) + card % N_RANKS)
                at += 1


@njit(cache=True)
def _draw(key, block, t, r):
    """Draw ``t[0]`` (advanced) of block ``block`` of stream ``key``: uniform in [0, r)."""
    base = np.uint64(block) << _DEAL_WORDS_LOG2
    ru = np.uint64(r)
    while True:
        word = _word(key, base + (np.uint64(t[0]) >> np.uint64(1)))
        x = word >> np.uint64(32) if t[0] % 2 == 0 else word & _MASK32
        t[0] += 1
        accepted, value = _bounded(x, ru)
        if accepted:
            return np.int64(value)


@njit(cache=True)
def _sorted_lengths(h):
    """The four suit lengths of ``h``, longest first."""
    out = np.empty(4, np.int64)
    for s in range(4):
        out[s] = _suit_len(h, s)
    return np.sort(out)[::-1]


@njit(cache=True)
def rename_suits(deal, perm, out):
    """``out``: ``deal`` with suit ``s`` renamed ``perm[s]``."""
    for p in range(N_SEATS):
        h = np.int64(0)
        for s in range(4):
            h |= ((deal[p] >> (16 * s)) & SUIT_MASK) << (16 * perm[s])
        out[p] = h


@njit(cache=True)
def place_cards(deal, seat, given, honours):
    """Make ``deal[seat]`` exactly ``given`` (same suit lengths), in place: ``honours`` 0 =
    exchange the differing cards in rank order, 1 = the monotone relabelling of each suit."""
    for s in range(4):
        a = (deal[seat] >> (16 * s)) & SUIT_MASK
        g = (given >> (16 * s)) & SUIT_MASK
        if a == g:
            continue
        # rank map of this suit: old rank -> new rank
        new_rank = np.arange(N_RANKS)
        if honours == 1:
            ia = 0
            ig = 0
            oa = 0
            og = 0
            src_in = np.empty(N_RANKS, np.int64)
            dst_in = np.empty(N_RANKS, np.int64)
            src_out = np.empty(N_RANKS, np.int64)
            dst_out = np.empty(N_RANKS, np.int64)
            for r in range(N_RANKS):
                if (a >> r) & 1:
                    src_in[ia] = r
                    ia += 1
                else:
                    src_out[oa] = r
                    oa += 1
                if (g >> r) & 1:
                    dst_in[ig] = r
                    ig += 1
                else:
                    dst_out[og] = r
                    og += 1
            for j in range(ia):
                new_rank[src_in[j]] = dst_in[j]
            for j in range(oa):
                new_rank[src_out[j]] = dst_out[j]
        else:
            # a card the seat must give up, paired in rank order with a given card it lacks
            lose = a & ~g
            gain = g & ~a
            while lose:
                rl = _low_above(lose, 0, -1)
                rg = _low_above(gain, 0, -1)
                new_rank[rl] = rg
                new_rank[rg] = rl
                lose &= ~(np.int64(1) << rl)
                gain &= ~(np.int64(1) << rg)
        for p in range(N_SEATS):
            old = (deal[p] >> (16 * s)) & SUIT_MASK
            h = np.int64(0)
            for r in range(N_RANKS):
                if (old >> r) & 1:
                    h |= np.int64(1) << new_rank[r]
            deal[p] = (deal[p] & ~(np.int64(SUIT_MASK) << (16 * s))) | (h << (16 * s))


PERMS = np.array(
    [
        [a, b, c, d]
        for a in range(4)
        for b in range(4)
        for c in range(4)
        for d in range(4)
        if len({a, b, c, d}) == 4
    ],
    dtype=np.int64,
)


@njit(cache=True)
def _session(deal, nxt, key, k, t, burn_in, lo, hi, packets, buf, all_bits):
    """Attempt ``k`` of stream ``key``: its uniform first deal played, gathered, cut and
    dealt ``burn_in`` times; the deal arrived at (dealt by ``burn_in % 4``) in ``deal``."""
    for j in range(52):
        buf[j] = all_bits[j]
    _shuffle_prefix(buf, 39, key, np.uint64(2 * k))
    for p in range(N_SEATS):
        h = np.int64(0)
        for j in range(13 * p, 13 * p + 13):
            h |= buf[j]
        deal[p] = h
    t[0] = 0
    for j in range(burn_in):
        trump = _draw(key, 2 * k + 1, t, 4)
        c = lo + _draw(key, 2 * k + 1, t, hi - lo + 1)
        next_deal(deal, trump, j % N_SEATS, c, packets, nxt)
        deal[:] = nxt


@njit(cache=True)
def _fill_sessions(out, key, start, burn_in, lo, hi, packets, rotate, all_bits):
    """Unconditioned session deals ``start ..`` (attempts of stream ``key``) into ``out``."""
    buf = np.empty(52, np.int64)
    deal = np.empty(N_SEATS, np.int64)
    nxt = np.empty(N_SEATS, np.int64)
    t = np.zeros(1, np.int64)
    dealer = burn_in % N_SEATS
    for d in range(out.shape[0]):
        _session(deal, nxt, key, start + d, t, burn_in, lo, hi, packets, buf, all_bits)
        for q in range(1, N_SEATS + 1):
            out[d, rotate[q]] = deal[(dealer + q) % N_SEATS]


@njit(cache=True)
def _draw_one(key, place, given, burn_in, lo, hi, packets, rotate, honours, max_attempts, perms,
              all_bits, out):  # fmt: skip
    """One conditional deal into ``out`` (analysis seats); returns the attempts it took, or
    -1 when ``max_attempts`` were not enough. ``rotate[q]``: the analysis seat of place q."""
    target = _sorted_lengths(given)
    glen = np.empty(4, np.int64)
    for s in range(4):
        glen[s] = _suit_len(given, s)
    buf = np.empty(52, np.int64)
    deal = np.empty(N_SEATS, np.int64)
    nxt = np.empty(N_SEATS, np.int64)
    t = np.zeros(1, np.int64)
    for k in range(max_attempts):
        _session(deal, nxt, key, k, t, burn_in, lo, hi, packets, buf, all_bits)
        dealer = burn_in % N_SEATS
        seat = (dealer + place) % N_SEATS
        if not np.array_equal(_sorted_lengths(deal[seat]), target):
            continue
        # the suit renamings that give the place the given lengths; one uniformly
        n_ok = 0
        ok = np.empty(perms.shape[0], np.int64)
        for q in range(perms.shape[0]):
            good = True
            for s in range(4):
                if _suit_len(deal[seat], s) != glen[perms[q, s]]:
                    good = False
            if good:
                ok[n_ok] = q
                n_ok += 1
        perm = perms[ok[_draw(key, 2 * k + 1, t, n_ok)]]
        rename_suits(deal, perm, nxt)
        place_cards(nxt, seat, given, honours)
        for q in range(1, N_SEATS + 1):
            out[rotate[q]] = nxt[(dealer + q) % N_SEATS]
        return k + 1
    return -1


@njit(cache=True)
def _fill(out, attempts, base_key, start, place, given, burn_in, lo, hi, packets, rotate,
          honours, max_attempts, perms, all_bits):  # fmt: skip
    """Deals ``start .. start + len(out) - 1`` into ``out``; the attempts of each (or -1)."""
    for d in range(out.shape[0]):
        key = _word(base_key, np.uint64(start + d))
        attempts[d] = _draw_one(key, place, given, burn_in, lo, hi, packets, rotate, honours,
                                max_attempts, perms, all_bits, out[d])  # fmt: skip
        if attempts[d] < 0:
            return


def cut_only_deals(
    hand_mask: int,
    place: int,
    n: int,
    seed: int,
    start: int = 0,
    *,
    family: str = "book",
    burn_in: int = BURN_IN,
    honours: str = "swap",
    max_attempts: int = MAX_ATTEMPTS,
) -> np.ndarray:
    """Deals ``start .. start + n - 1`` (``int64[n, 4]`` masks, N E S W with the dealer at
    West as :mod:`analyser.seats` places him) under cut_only, the hand at ``place`` (1..4,
    relative to the dealer) exactly ``hand_mask``: the module docstring's draw. Raises
    RikkenError when the hand's shape is too rare under the model to be drawn."""
    if family not in PACKETS:
        raise RikkenError(f"unknown deal family {family!r} (one of: {', '.join(PACKETS)})")
    if honours not in HONOURS:
        raise RikkenError(f"unknown honours placement {honours!r} (one of: {', '.join(HONOURS)})")
    if sum(_suit_len_py(hand_mask, s) for s in range(4)) != N_RANKS:
        raise RikkenError("the conditional draw needs the whole hand: 13 cards")
    if not 1 <= place <= N_SEATS or n < 0 or start < 0 or burn_in < 0:
        raise RikkenError("place must be 1..4, n, start and burn_in >= 0")
    # numba boxes a uint64 result as a Python int: re-wrapped so the kernels type it uint64
    base_key = np.uint64(_word(np.uint64(_seed_key(np.uint64(seed))) ^ _STREAM, np.uint64(0)))
    rotate = _rotation()
    lo = MIN_CUT[family]
    out = np.zeros((n, N_SEATS), np.int64)
    attempts = np.zeros(n, np.int64)
    _fill(out, attempts, base_key, start, place, np.int64(hand_mask), burn_in, lo, 52 - lo,
          np.array(PACKETS[family], np.int64), rotate, HONOURS.index(honours), max_attempts,
          PERMS, _ALL_BITS)  # fmt: skip
    if n and attempts.min() < 0:
        lengths = "-".join(str(x) for x in sorted((_suit_len_py(hand_mask, s) for s in range(4)),
                                                   reverse=True))  # fmt: skip
        raise RikkenError(
            f"a {lengths} hand is too rare under --deal-model cut_only to be drawn "
            f"(no such hand in {max_attempts:,} sessions); use --deal-model uniform"
        )
    if np.any(out[:, seat_of(place)] != hand_mask):  # the draw's invariant, checked always
        raise AssertionError("the cut_only draw changed the given hand")
    return out


def place_hand(deal: np.ndarray, hand_mask: int, seat: int, *, honours: str = "swap") -> np.ndarray:
    """``deal`` (``int64[4]`` masks) with the hand at ``seat`` made exactly ``hand_mask`` by
    steps 3 and 4 of the draw: the suits renamed (the first renaming, in :data:`PERMS`'
    order, that gives ``seat`` the hand's length in every suit) and the given cards
    exchanged in. The deal's hand at ``seat`` must have the hand's sorted suit lengths
    (RikkenError otherwise). For pools of model deals drawn some other way (the double-dummy
    play policy of :mod:`analyser.studies.play_policy`)."""
    if honours not in HONOURS:
        raise RikkenError(f"unknown honours placement {honours!r} (one of: {', '.join(HONOURS)})")
    deal = np.asarray(deal, np.int64)
    have = [_suit_len_py(int(deal[seat]), s) for s in range(4)]
    want = [_suit_len_py(int(hand_mask), s) for s in range(4)]
    perm = next((p for p in PERMS if all(have[s] == want[p[s]] for s in range(4))), None)
    if perm is None:
        raise RikkenError("the deal's hand at that seat does not have the hand's suit lengths")
    out = np.zeros(N_SEATS, np.int64)
    rename_suits(deal, perm, out)
    place_cards(out, seat, np.int64(hand_mask), HONOURS.index(honours))
    return out


def deal_source(
    model: str,
    hand: list[int],
    place: int,
    seed: int,
    known: list[list[int]] | None = None,
    *,
    turned: bool = False,
) -> Callable[[int, int], np.ndarray]:
    """The deals an analysis of ``hand`` (card ints) at ``place`` (1..4 from the dealer) is
    solved on, as ``source(start, n)`` -> deals ``start .. start + n - 1``: under
    ``uniform`` the sampler's deals around ``known`` (four card lists; default: the hand at
    its seat), exactly as before the deal model was an option; under ``cut_only`` this
    module's conditional draw. RikkenError for an unknown model, and for ``cut_only`` with a
    turned trump (wiezen: the draw conditions on one hand, not on the dealer's turned card)."""
    from analyser.sampler import sample_deals

    if model not in MODELS:
        raise RikkenError(f"unknown deal model {model!r} (one of: {', '.join(MODELS)})")
    if known is None:
        known = [[], [], [], []]
        known[seat_of(place)] = list(hand)
    if model == "uniform":
        return lambda start, n: sample_deals(known, n, seed, start=start)
    if turned:
        raise RikkenError(
            "--deal-model cut_only is not supported with a turned trump (wiezen) yet: the "
            "conditional draw fixes one hand, not the dealer's turned card"
        )
    mask = cards_to_mask(hand)
    return lambda start, n: cut_only_deals(mask, place, n, seed, start)


def session_deals(
    n: int, seed: int, start: int = 0, *, family: str = "book", burn_in: int = BURN_IN
) -> np.ndarray:
    """The model's deals without conditioning: deal ``burn_in`` of sessions ``start .. start
    + n - 1`` (each from its own uniform first deal), as ``int64[n, 4]`` masks in the analysis
    seats (the dealer at West). The reference the conditional draw is tested against."""
    if family not in PACKETS:
        raise RikkenError(f"unknown deal family {family!r} (one of: {', '.join(PACKETS)})")
    key = np.uint64(_word(np.uint64(_seed_key(np.uint64(seed))) ^ _STREAM, np.uint64(1)))
    lo = MIN_CUT[family]
    out = np.zeros((n, N_SEATS), np.int64)
    _fill_sessions(out, key, start, burn_in, lo, 52 - lo, np.array(PACKETS[family], np.int64),
                   _rotation(), _ALL_BITS)  # fmt: skip
    return out


def _rotation() -> np.ndarray:
    """``rotate[q]``: the analysis seat of place q (1..4; the dealer at West)."""
    rotate = np.zeros(N_SEATS + 1, np.int64)
    for q in range(1, N_SEATS + 1):
        rotate[q] = seat_of(q)
    return rotate


def _suit_len_py(h: int, s: int) -> int:
    """Cards of suit ``s`` in hand mask ``h`` (Python ints)."""
    return bin((int(h) >> (16 * s)) & SUIT_MASK).count("1")


# numba's cache follows every source the kernels are compiled from (analyser/numba_cache.py)
DEAL_DRAW_SOURCES = ("deal_draw.py", "sampler.py", "cards.py", "numba_cache.py")
key_cache_on_sources(globals(), DEAL_DRAW_SOURCES)
