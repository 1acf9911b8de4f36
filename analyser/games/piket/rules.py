"""Piket's rules as data (docs/piket.md): every value the declarations, the trick play, the
bonuses and the exchange use, in one frozen dataclass; the code reads them from here.

The numba layers cannot take a dataclass, so :meth:`PiketRules.packed` lays the numbers
out in an int64 array whose slots are the ``P_*`` indices below.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from analyser.errors import RikkenError

# slots of PiketRules.packed() (read by declarations.py and solver.py)
P_POINT_TIE_VALUE = 0  # 1: a point-length tie is broken on the summed value (PK-05)
P_POINT_PER_CARD = 1
P_QUATORZE = 2
P_TRIO = 3
P_SET_MIN_RANK = 4  # rank index of the lowest card that forms sets (10 -> 3)
P_CARTE_BLANCHE = 5
P_SCORING_RANK = 6  # rank index from which a lead / a win scores (10 -> 3)
P_LEAD_POINT = 7
P_WIN_POINT = 8
P_LAST_TRICK = 9
P_MAJORITY = 10
P_CAPOT = 11
P_REPIC_AT = 12
P_REPIC_BONUS = 13
P_PIC_AT = 14
P_PIC_BONUS = 15
P_SEQ = 16  # slots 16..24: the value of a sequence of length 0..8 (PK-06)
N_PACKED = P_SEQ + 9


@dataclasses.dataclass(frozen=True)
class PiketRules:
    """One set of piket rules. Values the booklet states are its own; the ones it leaves
    open are the **standard** values (docs/piket.md says which is which)."""

    name: str = "booklet"
    hand_cards: int = 12  # PK-02
    talon_cards: int = 8
    # PK-03 / PK-04: the exchange limits
    elder_min: int = 1
    elder_max: int = 5
    younger_min: int = 1
    younger_max: int = 3
    # PK-05: the point, 1 per card; a length tie broken on the summed value (standard) or
    # equal lengths cancel outright (the booklet's literal words: variant 'cancel')
    point_per_card: int = 1
    point_tie_on_value: bool = True
    # PK-06: tierce .. huitième
    sequence_values: tuple[int, ...] = (0, 0, 0, 3, 4, 15, 16, 17, 18)
    # PK-07: sets of 10 and up (standard values: the booklet states none)
    quatorze: int = 14
    trio: int = 3
    set_min_rank: int = 3
    # PK-04: carte blanche
    carte_blanche: int = 10
    # PK-10 / PK-11: a lead of 10 or higher, a win of the opponent's lead with 10 or higher
    # (standard), the last trick (standard)
    scoring_rank: int = 3
    lead_point: int = 1
    win_point: int = 1
    last_trick: int = 1
    # PK-12: majority of tricks, all tricks
    majority: int = 10
    capot: int = 40
    # PK-13: repic (30 counts 90: +60) and pic (30 counts 60: +30)
    repic_at: int = 30
    repic_bonus: int = 60
    pic_at: int = 30
    pic_bonus: int = 30

    def packed(self) -> np.ndarray:
        """The numbers the numba layers read, as an int64 array (slots ``P_*``)."""
        out = np.zeros(N_PACKED, np.int64)
        out[P_POINT_TIE_VALUE] = int(self.point_tie_on_value)
        out[P_POINT_PER_CARD] = self.point_per_card
        out[P_QUATORZE] = self.quatorze
        out[P_TRIO] = self.trio
        out[P_SET_MIN_RANK] = self.set_min_rank
        out[P_CARTE_BLANCHE] = self.carte_blanche
        out[P_SCORING_RANK] = self.scoring_rank
        out[P_LEAD_POINT] = self.lead_point
        out[P_WIN_POINT] = self.win_point
        out[P_LAST_TRICK] = self.last_trick
        out[P_MAJORITY] = self.majority
        out[P_CAPOT] = self.capot
        out[P_REPIC_AT] = self.repic_at
        out[P_REPIC_BONUS] = self.repic_bonus
        out[P_PIC_AT] = self.pic_at
        out[P_PIC_BONUS] = self.pic_bonus
        out[P_SEQ : P_SEQ + 9] = self.sequence_values
        return out


RULES: dict[str, PiketRules] = {
    "booklet": PiketRules(),
    # the booklet's words taken literally for the point: equal lengths cancel (PK-05)
    "cancel": PiketRules(name="cancel", point_tie_on_value=False),
}
DEFAULT_RULES = "booklet"


def get_rules(name: str = DEFAULT_RULES) -> PiketRules:
    """The piket rules ``name``; RikkenError for an unknown one."""
    try:
        return RULES[name]
    except KeyError:
        raise RikkenError(f"unknown piket rules {name!r} (one of: {', '.join(RULES)})") from None
