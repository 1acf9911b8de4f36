"""Reading an auction as the table speaks it: call names in Dutch and English, and the replay.

``parse_calls(ruleset, "rik pas beter rik")`` reads the calls one after the other, from seat 1
(the forehand) on. Every call of the rule set's ladder has its canonical id (``beter_rik``,
``alone_8``, ``open_misere_praatje``, docs/rules.md §0) and the names a player says at the
table, which are read too:

* pass: ``pass``, ``pas``, ``past``;
* ``beter rik`` (also ``rik beter``, ``better rik``);
* the alone bids: ``8 alone``, ``8 alleen``, ``acht alleen``, ``alone 8``; the beter form with
  ``beter`` before or after (``8 alone beter``, ``beter 8 alone``); 13 alone is ``solo``;
* ``misère`` / ``misere``, ``piek``, ``open misère``, ``open piek``, and the praatje forms
  ``open misère met een praatje`` / ``open misère praatje`` (and the same for piek);
* ``malheur`` (the book also says ``troela``).

Case, accents, ``_`` and ``-`` do not matter. Calls are separated by spaces or commas. Where
the words can be read in more than one way (``rik beter rik``: "rik beter" then "rik", or rik
then "beter rik") :func:`read_auction` takes the first reading, longest names first, that the
rules allow; a comma ends a call. An unknown word is a one-line
:class:`~analyser.errors.RulesError`.

:func:`replay` applies the calls to a fresh auction (:class:`~analyser.rules.AuctionState`)
and returns the state before each call. The other seats' aces are unknown, so a call is
replayed as the seat holding no aces when that is legal and with three aces otherwise (only
malheur and its duty depend on aces, R-MAL-01); an illegal call is a one-line RulesError
naming the call, its seat and the legal calls there.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from analyser.errors import RulesError
from analyser.rules import PASS, AuctionState, Contract, RuleSet, legal_bids
from analyser.seats import FOREHAND, Seat, place_of

DUTCH_NUMBERS = {
    "zeven": 7,
    "acht": 8,
    "negen": 9,
    "tien": 10,
    "elf": 11,
    "twaalf": 12,
    "dertien": 13,
}
PASS_WORDS = ("pass", "pas", "past", "passe")
ALONE_WORDS = ("alone", "alleen")
BETER_WORDS = ("beter", "better")
MAX_PHRASE = 6  # words in the longest name ("open misere met een praatje" + "beter" ...)
# An auction is read recursively, one call per level: a longer text is refused before it can
# exhaust the stack. Far above any real auction (every bid must raise the last one).
MAX_AUCTION_WORDS = 200


def _plain(text: str) -> str:
    """Lower case, accents dropped, ``_`` and ``-`` as spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.lower().replace("_", " ").replace("-", " ")


def _null_names(kind: str) -> list[tuple[str, ...]]:
    """Names of a misère/piek form, e.g. ``open_misere_praatje`` (kind without accents)."""
    base = "misere" if "misere" in kind else "piek"
    if kind in ("misere", "piek"):
        return [(base,)]
    if kind.startswith("open") and kind.endswith("praatje"):
        return [
            ("open", base, "met", "een", "praatje"),
            ("open", base, "praatje"),
            (base, "met", "een", "praatje"),
            (base, "praatje"),
            ("praatje", base),
            tuple(kind.split("_")),
        ]
    return [("open", base), (base, "open")]


def call_names(contract: Contract) -> list[tuple[str, ...]]:
    """The word sequences read as ``contract`` (see the module docstring)."""
    names: list[tuple[str, ...]] = [tuple(contract.id.split("_"))]
    kind = contract.kind
    if contract.is_pass:
        names += [(w,) for w in PASS_WORDS]
    elif kind == "rik":
        if contract.beter:
            names += [(b, "rik") for b in BETER_WORDS] + [("rik", b) for b in BETER_WORDS]
        else:
            names.append(("rik",))
    elif kind in ("alone", "solo"):
        n = 13 if kind == "solo" else contract.n
        numbers = [str(n)] + [w for w, v in DUTCH_NUMBERS.items() if v == n]
        plain: list[tuple[str, ...]] = []
        for num in numbers:
            for a in ALONE_WORDS:
                plain += [(num, a), (a, num)]
        if kind == "solo":
            plain.append(("solo",))
        if contract.beter:
            for p in plain:
                for b in BETER_WORDS:
                    names += [(b, *p), (*p, b)]
        else:
            names += plain
    elif kind == "malheur":
        names += [("troela",), ("troella",)]
    elif contract.is_null:
        names += _null_names(kind)
    return names


def _vocabulary(ruleset: RuleSet) -> dict[tuple[str, ...], Contract]:
    vocab: dict[tuple[str, ...], Contract] = {}
    for c in (PASS, *ruleset.contracts):
        for name in call_names(c):
            vocab.setdefault(name, c)
    return vocab


def _unknown(word: str, k: int) -> RulesError:
    return RulesError(
        f"unknown call {word!r} in the auction (call {k}); calls are pass/pas, rik, beter "
        "rik, N alone/alleen (beter), solo, misère, piek, open misère/piek (met een "
        "praatje), malheur"
    )


def readings(ruleset: RuleSet, text: str, limit: int = 64) -> list[list[Contract]]:
    """Every way (at most ``limit``) to read ``text`` as a sequence of calls, the longest
    name first at every step (so the first reading is :func:`parse_calls`'s). RulesError for
    a word that starts no call of ``ruleset``."""
    if ruleset.family.name != "rikken":
        raise RulesError(
            f"--auction reads the calls of the book and iwwa2024 rule sets; {ruleset.name} "
            "is not supported yet"
        )
    vocab = _vocabulary(ruleset)
    pieces = re.split(r"[,;/]", _plain(text))
    parts = [p.split() for p in pieces]
    if len(parts) > 1:
        for k, p in enumerate(parts, 1):
            if not p:
                raise RulesError(
                    f"empty call (piece {k}) in the auction {text.strip()!r}: give a call "
                    "between every two commas"
                )
    words = [w for p in parts for w in p]
    if len(words) > MAX_AUCTION_WORDS:
        raise RulesError(
            f"the auction has {len(words)} words; at most {MAX_AUCTION_WORDS} are read "
            "(no legal auction is that long)"
        )
    ends = set()  # a comma ends a call: no name runs across it
    pos = 0
    for p in parts:
        pos += len(p)
        ends.add(pos)
    out: list[list[Contract]] = []
    stuck = [0, ""]  # the furthest word no reading got past

    dead: set[int] = set()  # word positions from which no reading reaches the end

    def walk(i: int, sofar: list[Contract]) -> None:
        if len(out) >= limit or i in dead:
            return
        if i == len(words):
            out.append(list(sofar))
            return
        found_before = len(out)
        limit_end = min(e for e in ends if e > i)
        matched = False
        for size in range(min(MAX_PHRASE, limit_end - i), 0, -1):
            found = vocab.get(tuple(words[i : i + size]))
            if found is not None:
                matched = True
                walk(i + size, [*sofar, found])
        if not matched and i >= stuck[0]:
            stuck[0], stuck[1] = i, (words[i], len(sofar) + 1)
        if len(out) == found_before:
            # without this, a text that fails at its end is tried in exponentially many ways
            dead.add(i)

    walk(0, [])
    if not out:
        raise _unknown(*stuck[1])
    return out


def parse_calls(ruleset: RuleSet, text: str) -> list[Contract]:
    """The calls named in ``text`` in order, the longest name first (module docstring);
    RulesError for a word that starts no call of ``ruleset``. An empty text is an auction
    with no calls yet. :func:`read_auction` also uses the rules to choose between readings."""
    return readings(ruleset, text)[0]


def read_auction(
    ruleset: RuleSet, text: str, own_seat: Seat | None = None, own_aces: int = 0
) -> tuple[list[Contract], list[Turn], AuctionState]:
    """The calls of ``text`` (the first reading the rules allow, e.g. ``rik beter rik`` is
    rik then beter rik, not "rik beter" then rik), their turns and the state after them
    (:func:`replay`). RulesError (the first reading's) when no reading is legal."""
    options = readings(ruleset, text)
    first_error: RulesError | None = None
    for calls in options:
        try:
            turns, state = replay(ruleset, calls, own_seat, own_aces)
        except RulesError as exc:
            first_error = first_error or exc
            continue
        return calls, turns, state
    assert first_error is not None
    raise first_error


@dataclass(frozen=True)
class Turn:
    """One call of the auction: who made it, what it was, and the state before it."""

    seat: Seat
    call: Contract
    before: AuctionState


def replay(
    ruleset: RuleSet, calls: Sequence[Contract], own_seat: Seat | None = None, own_aces: int = 0
) -> tuple[list[Turn], AuctionState]:
    """Apply ``calls`` from a fresh auction (the forehand, seat 1, first). Returns every turn
    and the state after the last call. ``own_seat`` makes its calls with ``own_aces``; other
    seats with no aces where that is legal, else three (module docstring)."""
    state = AuctionState.start(FOREHAND)
    turns: list[Turn] = []
    for k, call in enumerate(calls, 1):
        if state.finished:
            raise RulesError(
                f"the auction is over after call {k - 1} ({_describe(state)}); "
                f"call {k} ({call.id}) cannot follow"
            )
        seat = state.turn
        tries = [own_aces] if seat == own_seat else [0, 3]
        legal = legal_bids(ruleset, state, seat, tries[0])
        for aces in tries:
            if call in legal_bids(ruleset, state, seat, aces):
                turns.append(Turn(seat, call, state))
                state = state.apply(ruleset, call, aces)
                break
        else:
            names = ", ".join(c.id for c in legal) or "none"
            if len(tries) > 1 and ruleset.malheur_played:
                names += " (with 3-4 aces: malheur)"
            raise RulesError(
                f"call {k} ({call.id}) is not legal for seat {place_of(seat)} after "
                f"'{' '.join(c.id for c in calls[: k - 1]) or 'no calls'}'; legal: {names}"
            )
    return turns, state


def _describe(state: AuctionState) -> str:
    if state.thrown_in:
        return "four passes"
    decl = ", ".join(str(place_of(s)) for s in state.declarers)
    return f"{state.contract.id} by seat {decl}"
