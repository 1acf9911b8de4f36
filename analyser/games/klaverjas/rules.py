"""Klaverjas rules as data (docs/klaverjas.md, KJ-01 … KJ-12), and the 32-card encoding.

A card is an int 0..31 at every boundary: ``suit * 8 + rank`` with the project's suit order
(0 spades, 1 hearts, 2 diamonds, 3 clubs) and ranks 0..7 = 7, 8, 9, 10, J, Q, K, A, the
natural order in which roem sequences are counted (KJ-05). Inside the solver a hand is an
int64 bitmask with bit ``card``: a suit's holding is ``(mask >> 8 * suit) & 0xFF``.

Everything a variant may change is a field of :class:`KlaverjasRules`; the solver receives
the fields as two flat integer arrays (:meth:`KlaverjasRules.tables`,
:meth:`KlaverjasRules.params`), so no rule is written into the search itself.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from analyser.cards import N_RANKS
from analyser.errors import RikkenError

N_KJ_CARDS = 32
KJ_RANKS = 8
RANK_NAMES_EN = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_NAMES_NL = ("7", "8", "9", "10", "B", "V", "H", "A")
SUIT_SYMBOLS = "♠♥♦♣"
LOWEST_RANK_52 = 5  # a 52-card rank index: 0 = deuce, so 5 = the seven
JACK, NINE = 4, 2

# rows of KlaverjasRules.tables()
TRUMP_POINTS, PLAIN_POINTS, TRUMP_ORDER, PLAIN_ORDER = 0, 1, 2, 3
# entries of KlaverjasRules.params()
P_PARTNER_FREES, P_LAST_TRICK, P_THREE, P_FOUR, P_STUK, P_FOUR_EQUAL, P_MARS, P_TEGENMARS = range(8)


@dataclasses.dataclass(frozen=True)
class KlaverjasRules:
    """One klaverjas variant. Tables are indexed by rank 0..7 (7, 8, 9, 10, J, Q, K, A).

    ``partner_frees``: a player void in the suit led may play any card while his partner's
    card wins the trick (Amsterdam, KJ-07); False: he must (over)trump even then
    (Rotterdam). ``forehand_must_choose``: seat 1 must name trump (Amsterdam, KJ-02).
    """

    name: str
    partner_frees: bool
    forehand_must_choose: bool
    trump_points: tuple[int, ...] = (0, 0, 14, 10, 20, 3, 4, 11)  # KJ-04
    plain_points: tuple[int, ...] = (0, 0, 0, 10, 2, 3, 4, 11)  # KJ-04
    # trick strength by rank (higher wins): trump J>9>A>10>K>Q>8>7, plain A>10>K>Q>J>9>8>7
    trump_order: tuple[int, ...] = (0, 1, 6, 4, 7, 2, 3, 5)
    plain_order: tuple[int, ...] = (0, 1, 2, 6, 3, 4, 5, 7)
    last_trick: int = 10  # KJ-04
    roem_three: int = 20  # KJ-05
    roem_four: int = 50
    roem_stuk: int = 20
    roem_four_equal: int = 100
    mars: int = 100  # KJ-09: the playing team takes all 8 tricks
    tegenmars: int = 0  # KJ-10: the opponents take all 8: simply nat, no bonus

    def tables(self) -> np.ndarray:
        """int64[4, 8]: trump points, plain points, trump order, plain order (rows 0..3, the
        solver reads them by these positions)."""
        return np.array(
            [self.trump_points, self.plain_points, self.trump_order, self.plain_order],
            dtype=np.int64,
        )

    def params(self) -> np.ndarray:
        """int64[8]: partner_frees, last_trick, roem_three, roem_four, roem_stuk,
        roem_four_equal, mars, tegenmars (the solver reads them by these positions)."""
        return np.array(
            [
                int(self.partner_frees),
                self.last_trick,
                self.roem_three,
                self.roem_four,
                self.roem_stuk,
                self.roem_four_equal,
                self.mars,
                self.tegenmars,
            ],
            dtype=np.int64,
        )

    @property
    def card_total(self) -> int:
        """Card points of the whole pack plus the last trick (162 with the standard tables)."""
        return 3 * sum(self.plain_points) + sum(self.trump_points) + self.last_trick


VARIANTS: dict[str, KlaverjasRules] = {
    "amsterdam": KlaverjasRules("amsterdam", partner_frees=True, forehand_must_choose=True),
    "rotterdam": KlaverjasRules("rotterdam", partner_frees=False, forehand_must_choose=False),
}
DEFAULT_VARIANT = "amsterdam"


def get_variant(name: str) -> KlaverjasRules:
    """The variant ``name`` (amsterdam or rotterdam); RikkenError for another."""
    try:
        return VARIANTS[str(name).lower()]
    except KeyError:
        raise RikkenError(
            f"unknown klaverjas variant {name!r} (one of: {', '.join(VARIANTS)})"
        ) from None


def kj_card(suit: int, rank: int) -> int:
    """The 32-card int of ``suit`` (0..3) and ``rank`` (0..7 = 7 .. A)."""
    return suit * KJ_RANKS + rank


def from_52(card52: int) -> int:
    """The 32-card int of a 52-card int (analyser.cards); RikkenError for a 2..6 (KJ-01)."""
    suit, rank = divmod(int(card52), N_RANKS)
    if rank < LOWEST_RANK_52:
        raise RikkenError(
            f"{SUIT_SYMBOLS[suit]}{rank + 2} is not in the 32-card klaverjas pack "
            "(7, 8, 9, 10, J, Q, K, A; KJ-01)"
        )
    return kj_card(suit, rank - LOWEST_RANK_52)


def format_kj_hand(cards, lang: str = "en") -> str:
    """A hand of 32-card ints by suit, highest first in the natural order: '♠AK10 ♥J97 …'."""
    names = RANK_NAMES_NL if lang == "nl" else RANK_NAMES_EN
    parts = []
    for s in range(4):
        ranks = sorted((c % KJ_RANKS for c in cards if c // KJ_RANKS == s), reverse=True)
        parts.append(SUIT_SYMBOLS[s] + ("".join(names[r] for r in ranks) or "-"))
    return " ".join(parts)
