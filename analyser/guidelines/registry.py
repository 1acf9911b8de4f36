"""Registry of the guidelines as code: id → function, kind, one-line description, bid.

The studies look guidelines up here. Kinds:

* ``classifier`` — a yes/no verdict on *bidding a contract*. ``bid`` names the contract (a
  contract id of :mod:`analyser.rules.contracts`; ``alone_{n}`` takes the ``n`` parameter),
  ``makes`` says what making it means, and ``bids_when`` which predicate value means "bid"
  (red flags such as a bare high card mean "pass": ``bids_when=False``). A study scores it:
  of the hands it says to bid, what share make it; of those it says to pass, what share would
  have made it. :meth:`Guideline.advice` gives "says bid" directly.
* ``predicate`` — a yes/no property used to select or stratify hands (E1, the marginal rik,
  the ruff-risk flag, G-PIEK-05's fallback hands).
* ``estimator`` — a number (the book's trick count, hole counts, ``WL`` ...).
* ``choice`` — a suit or card the guideline picks (trump, called ace).
* ``label`` — a category (``"yes"``/``"maybe"``/``"no"``).

Every entry's function takes a hand as card ints; ``.many`` takes ``int64[n]`` hand masks (see
:mod:`analyser.guidelines.hand`). ``params`` lists each keyword parameter with its default,
``ours`` those docs/guidelines.md marks "(ours)" (thresholds to estimate, not facts), and
``required`` the arguments without a default (``n`` of ``alone_ok``, ``forehand`` of
``ruff_risk``). :func:`features` evaluates several entries on many hands into one table.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analyser.errors import RulesError
from analyser.guidelines import alone, malheur, misere, open_misere, piek, rik
from analyser.guidelines.hand import HandFunction

CLASSIFIER, PREDICATE, ESTIMATOR, CHOICE, LABEL = (
    "classifier",
    "predicate",
    "estimator",
    "choice",
    "label",
)
KINDS = (CLASSIFIER, PREDICATE, ESTIMATOR, CHOICE, LABEL)

RIK_MAKES = "the rikker and the called-ace holder take >= 8 tricks (trump G-RIK-02, call G-ACE-02)"
ALONE_MAKES = "the lone player takes >= n tricks (trump: alone_trump, the best book count)"
MISERE_MAKES = "the misère player takes no trick"
PIEK_MAKES = "the piek player takes exactly one trick"


@dataclass(frozen=True)
class Guideline:
    """One registered guideline (see the module docstring for the fields' meaning)."""

    id: str
    kind: str
    fn: HandFunction
    description: str
    bid: str | None = None
    makes: str | None = None
    bids_when: bool = True
    ours: tuple[str, ...] = ()
    params: Mapping[str, Any] = field(init=False)
    required: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind {self.kind!r}")
        if self.kind == CLASSIFIER and not (self.bid and self.makes):
            raise ValueError(f"classifier {self.id} needs a bid and what making it means")
        sig = inspect.signature(getattr(self.fn, "fn", self.fn.core))
        names = list(sig.parameters)[1:]  # the first parameter is the hand
        params = {n: sig.parameters[n].default for n in names}
        object.__setattr__(self, "params", {n: d for n, d in params.items() if d is not _EMPTY})
        object.__setattr__(self, "required", tuple(n for n, d in params.items() if d is _EMPTY))
        unknown = set(self.ours) - set(self.params)
        if unknown:
            raise ValueError(f"{self.id}: 'ours' names unknown parameters {sorted(unknown)}")

    def __call__(self, hand: Iterable[int], **params: Any) -> Any:
        """The guideline on one hand (card ints)."""
        return self.fn(hand, **self._check(params))

    def many(self, masks: np.ndarray | Sequence[int], **params: Any) -> np.ndarray:
        """The guideline on ``int64[n]`` hand masks."""
        return self.fn.many(masks, **self._check(params))

    def advice(self, masks: np.ndarray | Sequence[int], **params: Any) -> np.ndarray:
        """For a classifier: ``bool[n]``, True where the guideline says to bid :meth:`contract`."""
        if self.kind != CLASSIFIER:
            raise RulesError(f"{self.id} is a {self.kind}, not a classifier")
        return self.many(masks, **params).astype(bool) == self.bids_when

    def contract(self, **params: Any) -> str | None:
        """The contract id a classifier predicts, with ``alone_{n}`` filled in from ``n``."""
        if self.bid is None or "{" not in self.bid:
            return self.bid
        return self.bid.format(**self._check(params))

    def _check(self, params: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(params) - set(self.params) - set(self.required)
        if unknown:
            raise RulesError(f"{self.id} has no parameter {', '.join(sorted(unknown))}")
        missing = [n for n in self.required if n not in params]
        if missing:
            raise RulesError(f"{self.id} needs {', '.join(missing)}")
        return dict(params)


_EMPTY = inspect.Parameter.empty


def _entries() -> list[Guideline]:
    G = Guideline
    return [
        # §1 rik
        G(
            "G-RIK-01",
            CLASSIFIER,
            rik.rik_ok,
            "rik minimum: 6 cards with 2 HIGH, 7 with 1, 8 with none",
            bid="rik",
            makes=RIK_MAKES,
        ),
        G(
            "G-RIK-01:E1",
            PREDICATE,
            rik.rik_e1,
            "E1: a suit of exactly A K Q J 10 (the book's 'maybe')",
            bid="rik",
            makes=RIK_MAKES,
        ),
        G(
            "G-RIK-01:marginal",
            PREDICATE,
            rik.rik_marginal,
            "marginal rik: 8+ trumps, no HIGH card anywhere",
            bid="rik",
            makes=RIK_MAKES,
        ),
        G("G-RIK-01:verdict", LABEL, rik.rik_verdict, "rik verdict yes / maybe (E1) / no"),
        G(
            "G-RIK-02",
            CHOICE,
            rik.rik_trump,
            "rik trump: a G-RIK-01 suit, longer first, then better honours",
        ),
        G(
            "G-ACE-02",
            CHOICE,
            rik.default_call,
            "called card: class A, B, C, guess, void in that order",
            ours=("b_max_length", "c_min_length"),
        ),
        # §2 malheur
        G(
            "G-MAL-07",
            CHOICE,
            malheur.malheur_trump,
            "malheur partner's trump, counting the malheur player's aces",
            ours=("shown_penalty",),
        ),
        # §3 alone
        G(
            "G-ALN-03",
            CLASSIFIER,
            alone.alone_ok,
            "alone n: book count >= n and at most one risk in trumps",
            bid="alone_{n}",
            makes=ALONE_MAKES,
            ours=("max_risk",),
        ),
        G(
            "G-ALN-03:count",
            ESTIMATOR,
            alone.book_count,
            "book trick count TT(trump) + side winners SW",
        ),
        G("G-ALN-03:trump", CHOICE, alone.alone_trump, "trump with the highest book count"),
        G("G-ALN-03:L", ESTIMATOR, alone.trump_l, "vocabulary trump losers L (m <= 2)"),
        G("G-ALN-03:TT", ESTIMATOR, alone.trump_tt, "book trump tricks TT = n - L"),
        G("G-ALN-03:risk", ESTIMATOR, alone.trump_risk, "trump risks (m == 3)"),
        G("G-ALN-03:EL", ESTIMATOR, alone.trump_el, "expected trump losers from p_guard"),
        G(
            "G-ALN-04:WL",
            ESTIMATOR,
            alone.trump_wl,
            "worst-case trump losers, all outstanding trumps in one hand",
        ),
        G(
            "G-ALN-06",
            PREDICATE,
            alone.ruff_risk,
            "ruff risk: not forehand and a side ace in a 3+ card suit",
            ours=("min_length",),
        ),
        # §4 misère
        G(
            "G-MIS-02",
            CLASSIFIER,
            misere.absolutely_safe,
            "absolutely safe: no hole in any suit (100 % when not on lead)",
            bid="misere",
            makes=MISERE_MAKES,
        ),
        G("G-MIS-03:holes", ESTIMATOR, misere.hole_count, "number of holes (delta >= 1)"),
        G("G-MIS-03:hole_suits", ESTIMATOR, misere.hole_suits, "number of suits with a hole"),
        G("G-MIS-03:max_delta", ESTIMATOR, misere.max_delta, "largest hole delta (0: none)"),
        G(
            "G-MIS-04",
            CLASSIFIER,
            misere.bare_high_card,
            "bare high card (singleton J or higher): no misère",
            bid="misere",
            makes=MISERE_MAKES,
            bids_when=False,
        ),
        G(
            "G-MIS-05",
            CLASSIFIER,
            misere.long_suit_without_two,
            "long suit without its 2: great risk",
            bid="misere",
            makes=MISERE_MAKES,
            bids_when=False,
            ours=("min_length",),
        ),
        G(
            "G-MIS-06",
            CLASSIFIER,
            misere.three_big_holes,
            "big holes in three suits: no misère",
            bid="misere",
            makes=MISERE_MAKES,
            bids_when=False,
            ours=("min_rank", "min_delta", "min_suits"),
        ),
        G(
            "G-MIS-06:suits",
            ESTIMATOR,
            misere.big_hole_suits,
            "suits with a big hole",
            ours=("min_rank", "min_delta"),
        ),
        G(
            "G-MIS-04..06",
            CLASSIFIER,
            misere.misere_ok,
            "misère: none of the red flags G-MIS-04, -05, -06",
            bid="misere",
            makes=MISERE_MAKES,
            ours=("long_min_length", "big_min_rank", "big_min_delta", "big_min_suits"),
        ),
        # §5 piek
        G(
            "G-PIEK-02",
            CLASSIFIER,
            piek.piek_ok,
            "piek: a possible winner and a rest with small holes",
            bid="piek",
            makes=PIEK_MAKES,
            ours=("long_min", "honour_min_rank", "max_holes", "max_delta"),
        ),
        G(
            "G-PIEK-03",
            PREDICATE,
            piek.second_winner,
            "a second possible winner",
            ours=("long_min", "honour_min_rank"),
        ),
        G(
            "G-PIEK-03:winners",
            ESTIMATOR,
            piek.winner_count,
            "number of possible winners",
            ours=("long_min", "honour_min_rank"),
        ),
        G(
            "G-PIEK-05",
            PREDICATE,
            piek.piek_fallback,
            "too weak to rik, too strong for misère (no reason to piek)",
            bid="piek",
            makes=PIEK_MAKES,
        ),
        G("G-PIEK-06", ESTIMATOR, piek.exit_count, "exit cards (delta <= 0)"),
        # §6 open misère, praatje
        G(
            "G-OPEN-03",
            CLASSIFIER,
            open_misere.open_misere_ok,
            "open misère: holes in one suit at most, all delta 1, and a safe lead",
            bid="open_misere",
            makes=MISERE_MAKES,
            ours=("max_hole_suits", "max_delta", "max_lead_cost", "max_lead_win"),
        ),
        G(
            "G-PRAAT-02",
            CLASSIFIER,
            open_misere.praatje_ok,
            "misère with a praatje: no holes",
            bid="open_misere_praatje",
            makes=MISERE_MAKES,
            ours=("max_holes",),
        ),
    ]


GUIDELINES: dict[str, Guideline] = {g.id: g for g in _entries()}


def get_guideline(gid: str) -> Guideline:
    """The registered guideline ``gid`` (e.g. ``"G-RIK-01"``, ``"G-ALN-03:count"``)."""
    try:
        return GUIDELINES[gid]
    except KeyError:
        raise RulesError(f"unknown guideline {gid!r}; known: {', '.join(GUIDELINES)}") from None


def classifiers() -> list[Guideline]:
    """The registered classifiers, in registry order."""
    return [g for g in GUIDELINES.values() if g.kind == CLASSIFIER]


def features(
    masks: np.ndarray | Sequence[int],
    ids: Iterable[str] | None = None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> pd.DataFrame:
    """One column per guideline id, one row per hand of ``int64[n]`` masks.

    ``ids`` defaults to every entry that needs no argument; ``params`` maps an id to its
    keyword arguments (required ones included, e.g. ``{"G-ALN-03": {"n": 9}}``)."""
    params = dict(params or {})
    if ids is None:
        ids = [g.id for g in GUIDELINES.values() if not g.required or g.id in params]
    masks = np.asarray(masks, dtype=np.int64)
    columns = {gid: get_guideline(gid).many(masks, **params.get(gid, {})) for gid in ids}
    return pd.DataFrame(columns)
