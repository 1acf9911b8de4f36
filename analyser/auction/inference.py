"""What the players of a deal learned from its auction, as the single-dummy players use it.

Every player heard the calls. Under a bidding model (:mod:`analyser.auction.model`) each
call says something about the caller's hand: a misère bid that the hand has no red flags, a
pass that it supports no legal call. :class:`AuctionInference` answers, for the player at
``seat`` and a batch of candidate deals, which of them are consistent with every call of
the *other* seats (his own hand he knows); the single-dummy players draw their worlds among
those (:class:`analyser.single_dummy.PlayOptions`, ``inference``).

:func:`opening_auction` builds the auction behind a contract played without competition:
the places before the declarer pass, he calls the contract, and the players after him pass
until the auction ends. That is the auction the single-dummy study and ``--play
single-dummy`` assume (stated with their figures)."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from analyser.auction.calls import Turn, replay
from analyser.auction.conditioned import accepts
from analyser.auction.model import get_model
from analyser.errors import RikkenError
from analyser.rules import PASS, parse_ruleset
from analyser.seats import FOREHAND_PLACE, Place

MAX_CALLS = 12  # an uncontested auction ends within a round or two of passes


@dataclasses.dataclass(frozen=True)
class AuctionInference:
    """The calls of a deal's auction (contract ids, from the forehand on) under rule set
    ``rules`` (a spec) and bidding model ``model``. Picklable: worker processes rebuild the
    turns from it."""

    rules: str
    calls: tuple[str, ...]
    model: str = "book"

    def accepts(self, seat: int, hands: np.ndarray, public: tuple[int, ...] = ()) -> np.ndarray:
        """``bool[n]``: the deals (``int64[n, 4]`` masks of the whole 13-card hands) on
        which every call of a seat other than ``seat`` is the model's call for that hand.
        The calls of the ``public`` seats (open hands) are not tested: everyone sees those
        hands, so what their calls suggest about them is moot."""
        ruleset, model, turns = _setting(self.rules, self.calls, self.model)
        asked = [t for t in turns if t.seat not in public]
        return accepts(ruleset, model, asked, np.asarray(hands, dtype=np.int64), own_seat=seat)

    def describe(self) -> str:
        """One line: the calls and the model."""
        return f"auction {' '.join(self.calls)} ({self.model} bidding model)"


@functools.cache
def _setting(rules: str, calls: tuple[str, ...], model: str) -> tuple[object, object, list[Turn]]:
    ruleset = parse_ruleset(rules)
    turns, _ = replay(ruleset, [ruleset.parse(c) for c in calls])
    return ruleset, get_model(model), turns


def opening_auction(rules: str, contract: str, declarer: Place) -> AuctionInference:
    """The uncontested auction of ``contract`` by the player at place ``declarer`` (module
    docstring). RikkenError when the rules do not let it be called so."""
    ruleset = parse_ruleset(rules)
    bid = ruleset.parse(contract)
    calls = [PASS] * (int(declarer) - int(FOREHAND_PLACE)) + [bid]
    _, state = replay(ruleset, calls)  # RulesError (one line) when the call is not legal
    while not state.finished:
        if len(calls) >= MAX_CALLS:
            raise RikkenError(f"the auction of {bid.id} does not end after passes")
        calls.append(PASS)
        _, state = replay(ruleset, calls)
    return AuctionInference(ruleset.spec, tuple(c.id for c in calls))
