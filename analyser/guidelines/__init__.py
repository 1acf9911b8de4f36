"""The book's bidding guidelines (docs/guidelines.md) as predicates and estimators on a hand.

A hand is given as card ints (:mod:`analyser.cards`); every hand-level guideline also has a
``.many`` form on ``int64[n]`` hand masks (the sampler's output) for population studies — see
:mod:`analyser.guidelines.hand`. Suit-level functions take a 13-bit holding.

Modules, by section of docs/guidelines.md:

* :mod:`~analyser.guidelines.vocab` — §0: ``n_s``, ``hi_s``, ``m(c)``, the guard rule,
  ``p_guard``, the trump-loser vocabulary, ``WL``.
* :mod:`~analyser.guidelines.rik` — §1: G-RIK-01/02, G-ACE-01/02.
* :mod:`~analyser.guidelines.malheur` — §2: G-MAL-07.
* :mod:`~analyser.guidelines.alone` — §3: G-ALN-03 .. 06.
* :mod:`~analyser.guidelines.misere` — §4: G-MIS-02 .. 08.
* :mod:`~analyser.guidelines.piek` — §5: G-PIEK-02 .. 06.
* :mod:`~analyser.guidelines.open_misere` — §6: G-OPEN-03, G-PRAAT-02.
* :mod:`~analyser.guidelines.registry` — id → function, kind, description and predicted bid,
  for the studies; :func:`features` builds a table of many guidelines on many hands.

Typical use::

    from analyser.notation import parse_hand
    from analyser.guidelines import rik_ok, rik_trump, book_count, GUIDELINES

    h = parse_hand("♠AHV1098 ♥104 ♦A10 ♣752")
    rik_ok(h), rik_trump(h), book_count(h)        # True, 0 (spades), 7
    GUIDELINES["G-RIK-01"].advice(masks)           # says "bid rik" for each of many hands
"""

from analyser.guidelines.alone import (
    alone_ok,
    alone_trump,
    book_count,
    expected_trump_losers,
    ruff_risk,
    side_winners,
    trump_el,
    trump_l,
    trump_losers,
    trump_risk,
    trump_risks,
    trump_tricks,
    trump_tt,
    trump_wl,
)
from analyser.guidelines.hand import HandFunction, hand_holdings, mask_holdings, ranks_holding
from analyser.guidelines.malheur import effective_holding, malheur_trump
from analyser.guidelines.misere import (
    absolutely_safe,
    bare_high_card,
    best_lead,
    big_hole_suits,
    cover,
    cover_miss_probability,
    delta,
    hole_count,
    hole_measures,
    hole_suits,
    holes,
    lead_cost,
    long_suit_without_two,
    max_delta,
    misere_follow,
    misere_ok,
    safe_suit,
    three_big_holes,
)
from analyser.guidelines.open_misere import open_misere_ok, praatje_ok
from analyser.guidelines.piek import (
    exit_cards,
    exit_count,
    piek_fallback,
    piek_ok,
    piek_rest_ok,
    second_winner,
    winner_count,
    winners,
)
from analyser.guidelines.registry import GUIDELINES, Guideline, features, get_guideline
from analyser.guidelines.rik import (
    call_class,
    call_classes,
    default_call,
    legal_calls,
    rik_e1,
    rik_marginal,
    rik_ok,
    rik_ok_suit,
    rik_trump,
    rik_verdict,
)
from analyser.guidelines.vocab import (
    guard_rule_wins,
    loser_class,
    m_above,
    p_guard,
    trump_vocabulary,
    worst_case_trump_losers,
)

__all__ = [
    "GUIDELINES",
    "Guideline",
    "HandFunction",
    "absolutely_safe",
    "alone_ok",
    "alone_trump",
    "bare_high_card",
    "best_lead",
    "big_hole_suits",
    "book_count",
    "call_class",
    "call_classes",
    "cover",
    "cover_miss_probability",
    "default_call",
    "delta",
    "effective_holding",
    "exit_cards",
    "exit_count",
    "expected_trump_losers",
    "features",
    "get_guideline",
    "guard_rule_wins",
    "hand_holdings",
    "hole_count",
    "hole_measures",
    "hole_suits",
    "holes",
    "lead_cost",
    "legal_calls",
    "long_suit_without_two",
    "loser_class",
    "m_above",
    "malheur_trump",
    "mask_holdings",
    "max_delta",
    "misere_follow",
    "misere_ok",
    "open_misere_ok",
    "p_guard",
    "piek_fallback",
    "piek_ok",
    "piek_rest_ok",
    "praatje_ok",
    "ranks_holding",
    "rik_e1",
    "rik_marginal",
    "rik_ok",
    "rik_ok_suit",
    "rik_trump",
    "rik_verdict",
    "ruff_risk",
    "safe_suit",
    "second_winner",
    "side_winners",
    "three_big_holes",
    "trump_el",
    "trump_l",
    "trump_losers",
    "trump_risk",
    "trump_risks",
    "trump_tricks",
    "trump_tt",
    "trump_vocabulary",
    "trump_wl",
    "winner_count",
    "winners",
    "worst_case_trump_losers",
]
