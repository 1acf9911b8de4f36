"""Bidding models: what another player calls at his turn, as a function of his hand.

A model answers one question for many hands at once: at this point of the auction
(an :class:`~analyser.rules.AuctionState` whose turn is ``seat``), which call does a player
with this hand make? :meth:`BiddingModel.calls` takes ``int64[n]`` hand masks (the sampler's
form) and returns one contract id per hand. Since every hand gets exactly one call, the
condition a hand meets for each call is the set of hands the model gives that call; the
conditioned sampler (:mod:`analyser.auction.conditioned`) keeps a deal when every earlier
call is the one the model gives that seat's hand.

A model also says how a declarer it put in the contract plays it, where the rules leave him a
choice the auction does not show (:meth:`BiddingModel.trump` and
:meth:`BiddingModel.called_card`): the decision of :mod:`analyser.auction.decision` needs them
to score a pass that lets another seat's rik or alone bid play.

**The book model** (:class:`BookModel`, ``book``) is the book's guidelines as coded in
:mod:`analyser.guidelines`. A hand *supports* a call when:

=========================== ================================================================
call                         the hand
=========================== ================================================================
rik                          meets the rik minimum in some suit (G-RIK-01)
beter rik                    meets the rik minimum in hearts (G-RIK-01 on ♥)
N alone (7 … 12), solo       book count >= N with at most one trump risk (G-ALN-03; trump: the
                             best count, G-ALN-02)
N alone beter, solo beter    the same with hearts as trump
misère                       none of the red flags G-MIS-04 … G-MIS-06 (``misere_ok``)
piek                         a possible winner and a rest with small holes (G-PIEK-02)
open misère                  G-OPEN-03 (``open_misere_ok``)
open misère met een praatje  G-PRAAT-02 (no holes, ``praatje_ok``)
open piek (and praatje)      never: the book gives no test for it
malheur                      3 or 4 aces (R-MAL-01: the duty; also where it is optional)
=========================== ================================================================

At his turn the player makes the **lowest legal call his hand supports** (ladder order; misère
before piek on their shared rung), and **passes when his hand supports no legal call**: that
is the explicit rule for "passed". A player whose malheur duty forbids a pass (R-MAL-01)
bids malheur (or, where malheur is not legal, the lowest legal call); under V-08 the fourth
player after three passes bids the lowest call he supports, else the lowest legal one.

Where the model simplifies (stated with every figure that uses it):

* it is deterministic: two players with the same hand always call the same; real players
  differ at the margins of each guideline, and the guidelines' thresholds marked "(ours)" in
  docs/guidelines.md are the model's too;
* "lowest supported call" follows the book's advice to bid rik and raise later (G-ALN-01), so
  a hand worth 9 alone opens rik and, after another's rik, bids the lowest alone level it
  supports; it never bids a call it does not support to push the others up;
* the exceptions the book allows in words (E1, strength outside trumps) are not bids;
* open piek is never bid, and nobody bids misère or piek with a hand the guideline rejects.

The rikker's trump is G-RIK-02 and his call G-ACE-02's default policy; the lone player's trump
is the best book count (G-ALN-02), hearts for a beter bid.

A second model (for instance the analyser's own recommendation on a cheap setting) only needs
:meth:`BiddingModel.supports`; register it in :data:`MODELS`.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod

import numpy as np

from analyser.cards import ACE, HEARTS, N_SUITS, card, card_bit, mask_to_cards
from analyser.errors import RulesError
from analyser.guidelines import (
    alone_ok,
    alone_trump,
    default_call,
    misere_ok,
    open_misere_ok,
    piek_ok,
    praatje_ok,
    rik_ok,
    rik_trump,
)
from analyser.guidelines.hand import mask_holdings
from analyser.guidelines.rik import rik_ok_suit
from analyser.guidelines.vocab import suit_table
from analyser.rules import MALHEUR, PASS, AuctionState, Contract, RuleSet, legal_bids
from analyser.seats import Seat

ACE_BITS = np.array([card_bit(card(s, ACE)) for s in range(N_SUITS)], dtype=np.int64)


def aces_of(masks: np.ndarray) -> np.ndarray:
    """``int64[n]``: the aces in each of ``int64[n]`` hand masks."""
    masks = np.asarray(masks, dtype=np.int64)
    return sum(((masks & b) != 0).astype(np.int64) for b in ACE_BITS)


# The legal calls of a turn, kept: a model is asked about the same turns for many batches
# of hands (single-dummy players test every block of candidate worlds against the auction),
# and the legal calls depend only on the rules, the state, the seat and its aces.
_legal_bids = functools.lru_cache(maxsize=4096)(legal_bids)


class BiddingModel(ABC):
    """What a player calls at his turn (module docstring). Subclasses give :meth:`supports`
    (and may change the play choices); :meth:`calls` applies the turn rule."""

    name: str = ""
    description: str = ""

    @abstractmethod
    def supports(self, ruleset: RuleSet, contract: Contract, masks: np.ndarray) -> np.ndarray:
        """``bool[n]``: the hands (``int64[n]`` masks) that support bidding ``contract``."""

    def calls(
        self, ruleset: RuleSet, state: AuctionState, seat: Seat, masks: np.ndarray
    ) -> np.ndarray:
        """The contract id each hand of ``masks`` calls at ``seat``'s turn in ``state``:
        the lowest legal call it supports, else ``pass`` (when a pass is not legal: the
        lowest legal call, malheur under its duty)."""
        masks = np.asarray(masks, dtype=np.int64)
        out = np.full(masks.size, PASS.id, dtype=object)
        aces = aces_of(masks)
        for held, group in ((0, aces < 3), (3, aces >= 3)):
            if not group.any():
                continue
            legal = _legal_bids(ruleset, state, seat, held)
            open_ = group.copy()
            for c in (c for c in legal if not c.is_pass):
                if not open_.any():
                    break
                ok = np.zeros(masks.size, dtype=bool)
                ok[open_] = self.supports(ruleset, c, masks[open_])
                out[ok] = c.id
                open_ &= ~ok
            if PASS not in legal and open_.any():
                forced = MALHEUR if MALHEUR in legal else next(c for c in legal)
                out[open_] = forced.id
        return out

    def trump(self, ruleset: RuleSet, contract: Contract, masks: np.ndarray) -> np.ndarray:
        """``int64[n]``: the trump a declarer of ``contract`` (rik or alone family) names."""
        masks = np.asarray(masks, dtype=np.int64)
        if contract.beter:
            return np.full(masks.size, HEARTS, dtype=np.int64)
        if contract.kind == "rik":
            return np.asarray(rik_trump.many(masks), dtype=np.int64)
        if contract.kind in ("alone", "solo"):
            return np.asarray(alone_trump.many(masks), dtype=np.int64)
        raise RulesError(f"{contract.id} has no trump chosen by its bidder")

    def called_card(self, ruleset: RuleSet, masks: np.ndarray, trumps: np.ndarray) -> np.ndarray:
        """``int64[n]``: the card a rikker with each hand calls with the trump given."""
        return np.array(
            [
                default_call(mask_to_cards(int(m)), trump=int(t), ruleset=ruleset)
                for m, t in zip(np.asarray(masks, dtype=np.int64), trumps, strict=True)
            ],
            dtype=np.int64,
        )


_HEARTS_RIK = suit_table(rik_ok_suit, bool)


class BookModel(BiddingModel):
    """The book's guidelines as coded (the table in the module docstring)."""

    name = "book"
    description = (
        "book model: each player makes the lowest legal call his hand supports by the book's "
        "coded guidelines (rik G-RIK-01, beter rik G-RIK-01 in hearts, alone G-ALN-03, misère "
        "G-MIS-04..06, piek G-PIEK-02, open misère G-OPEN-03, praatje G-PRAAT-02, malheur "
        "with 3-4 aces R-MAL-01) and passes when it supports none; open piek is never bid"
    )

    def supports(self, ruleset: RuleSet, contract: Contract, masks: np.ndarray) -> np.ndarray:
        masks = np.asarray(masks, dtype=np.int64)
        kind = contract.kind
        if kind == "rik":
            if contract.beter:
                return _HEARTS_RIK[mask_holdings(masks)[:, HEARTS]]
            return np.asarray(rik_ok.many(masks), dtype=bool)
        if kind in ("alone", "solo"):
            n = 13 if kind == "solo" else contract.n
            trump = HEARTS if contract.beter else None
            return np.asarray(alone_ok.many(masks, n, trump=trump), dtype=bool)
        if kind == "misere":
            return np.asarray(misere_ok.many(masks), dtype=bool)
        if kind == "piek":
            return np.asarray(piek_ok.many(masks), dtype=bool)
        if kind == "open_misere":
            return np.asarray(open_misere_ok.many(masks), dtype=bool)
        if kind == "open_misere_praatje":
            return np.asarray(praatje_ok.many(masks), dtype=bool)
        if kind == "malheur":
            return aces_of(masks) >= 3
        return np.zeros(masks.size, dtype=bool)  # open piek (and praatje): no test in the book


MODELS: dict[str, BiddingModel] = {m.name: m for m in (BookModel(),)}


def get_model(name: str) -> BiddingModel:
    """The bidding model ``name``; RulesError if unknown."""
    try:
        return MODELS[name]
    except KeyError:
        raise RulesError(f"unknown bidding model {name!r}; known: {', '.join(MODELS)}") from None
