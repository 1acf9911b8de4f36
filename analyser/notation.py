"""Reading and writing hands, deals, cards, seats and strains as players write them.

Every parser raises :class:`analyser.errors.ParseError` for bad input, with a message that
names the problem and, where there is one, the 1-based character position in the text given.

Ranks
    One alphabet for every form, upper or lower case: ``A``; king ``K`` or Dutch ``H`` (heer);
    queen ``Q`` or Dutch ``V`` (vrouw); jack ``J`` or Dutch ``B`` (boer); ten ``T`` or ``10``;
    ``9`` .. ``2``. The letters never clash (English has no rank H, V or B, Dutch no K, Q or J),
    so languages may even be mixed. A ``1`` must be followed directly by ``0``.

Suits
    Symbols ``♠ ♥ ♦ ♣``, their white variants ``♤ ♡ ♢ ♧`` and ``❤``; the variation selectors
    U+FE0E/U+FE0F that some keyboards add (``♥️``) are ignored everywhere. Letters: English
    ``S H D C`` and Dutch ``S H R K`` (schoppen, harten, ruiten, klaveren), either case. ``H``
    and ``K`` are also ranks, so *where* a letter stands decides what it is (see below); case
    never decides anything, so lower case is accepted everywhere.

Void
    A suit given as ``-`` (also en/em dash ``–``/``—``) or with nothing in it. In the symbol and
    letter forms a suit that is not mentioned at all is void too.

Separators
    Whitespace (any Unicode space), ``,`` and ``;``.

A hand is read in exactly one of four forms, chosen from the whole text in this order:

1. **Symbol form** — the text holds a suit symbol: ``♠AHV1098 ♥104 ♦A10 ♣752``. Each suit
   starts at its symbol (an optional ``:`` may follow it); every letter is a rank; separators
   are ignored, so ``♠AKQ♥T4`` and ``♠ A K Q`` are fine. Never ambiguous.
2. **Dotted PBN form** — else, the text holds a ``.``: ``AKQT98.T4.AT.752``, exactly four suit
   groups in the order spades.hearts.diamonds.clubs; every letter is a rank; separators are
   ignored. Never ambiguous.
3. **Colon letter form** — else, the text holds a ``:``: ``S:AKQT98 H:T4 D:AT C:752`` or Dutch
   ``S:AHV1098 H:104 R:A10 K:752``. A suit letter followed by ``:`` (only spaces may come
   between them) starts a suit; every other letter is a rank, so ``K:HV5`` is clubs
   king-queen-five and in ``S:AKQ HT4`` the ``H`` is a king. Separators are ignored.
4. **Group letter form** — otherwise: ``SAKQT98 HT4 DAT C752`` or ``S AHV1098 H 104 R A10 K 752``.
   The text is split into groups at separators. The first character of a group is always its
   suit letter and the rest of the group are ranks; a group that is a lone suit letter takes
   the *next* group as its cards, whatever that group starts with (``H HV3`` is hearts
   king-queen-three). So no spaces inside a suit's ranks, and a void is written ``S-`` or
   ``S -``. When such input goes wrong, the message says which letters were read as suits.

A partial hand (an ending, known cards) uses the same forms; ``n_cards`` says how many cards
are required (13 by default, ``None`` for any number up to 13).

A deal is PBN: ``N:hand hand hand hand`` — the seat of the first hand (``N E S W``, Dutch
``N O Z W``, either case, spaces allowed around the ``:``), then four dotted PBN hands
separated by whitespace, clockwise from that seat. Voids are empty or ``-``. PBN's ``-`` for a
whole unknown hand is not supported.

A card is a suit (symbol or letter) then a rank, optionally with ``:`` or spaces between:
``♦A``, ``DA``, ``RA`` (Dutch ruiten), ``HT``, ``H10``, ``hh`` (hearts king). Note that the
suit always comes first, so ``KH`` is the king of clubs in Dutch letters, not the king of hearts.

Seats: ``N E S W``, Dutch ``N O Z W`` (noord, oost, zuid, west) and the words north, east,
south, west, noord, oost, zuid; any case.

Strains: the suits as symbols, letters ``S H D C`` / Dutch ``S H R K`` or words (spades,
hearts, diamonds, clubs and singulars; schoppen, harten, ruiten, klaveren, schop, hart, ruit,
klaver); no trump as ``NT``, ``N``, ``SA`` (sans atout), ``ZT`` (zonder troef), ``notrump``,
``no trump``, ``sans atout``, ``zonder troef``; any case, spaces/hyphens inside words ignored.

Writing: :func:`format_hand` gives ``♠AHV1098 ♥104 ♦A10 ♣752`` (``lang="nl"``, the default) or
``♠AKQT98 ♥T4 ♦AT ♣752`` (``"en"``), a void as ``♠-``; ``style="letters"`` gives the colon
letter form. :func:`format_hand_pbn` always uses English letters and an empty group for a void.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NoReturn

import numpy as np

from analyser.cards import (
    N_CARDS,
    N_SEATS,
    N_SUITS,
    NOTRUMP,
    RANK_CHARS_EN,
    RANK_CHARS_NL,
    SEAT_LETTERS,
    SEAT_LETTERS_NL,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    TEN,
    card,
    cards_to_mask,
    rank_of,
    suit_of,
)
from analyser.errors import ParseError
from analyser.seats import Seat

LANGS = ("nl", "en")
FULL_HAND = 13

SUIT_LETTERS_NL = "SHRK"  # schoppen, harten, ruiten, klaveren; index = suit
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

_SYMBOL_SUITS = {"♠": 0, "♤": 0, "♥": 1, "♡": 1, "❤": 1, "♦": 2, "♢": 2, "♣": 3, "♧": 3}
_IGNORABLE = frozenset("\ufe0e\ufe0f")  # variation selectors, e.g. the emoji form '♥️'
_VOID_MARKS = frozenset("-–—")
_PUNCT_SEPARATORS = frozenset(",;")
# Explicit tables rather than str.upper(): some non-ASCII letters upper-case to ASCII ones
# ('ſ' -> 'S') and must stay unknown characters.
_LETTER_SUITS = {ch: s for s, letters in enumerate(("Ss", "Hh", "DdRr", "CcKk")) for ch in letters}
_RANKS = {
    **{str(d): d - 2 for d in range(2, 10)},
    **{
        ch: rank
        for chars, rank in (("Tt", 8), ("JjBb", 9), ("QqVv", 10), ("KkHh", 11), ("Aa", 12))
        for ch in chars
    },
}
_DUTCH_RANK_CHARS = frozenset("HhVvBb")
_ENGLISH_RANK_CHARS = frozenset("KkQqJjTt")
_RANK_AND_SUIT_LETTERS = frozenset("HhKk")  # the letters whose role depends on position

_RANK_HINT = "ranks are A K Q J T/10 9..2 (Dutch A H V B 10..2)"
_GROUP_FORM_HINT = (
    "in letter form each space-separated group starts with its suit letter "
    "(S H D C, Dutch S H R K), e.g. 'SAKQT98 HT4 DAT C752' or 'S AKQT98 H T4 D AT C 752', "
    "so no spaces inside a suit; or use 'S:AKQ T98 ...' or dots 'AKQT98.T4.AT.752'"
)

_SEAT_WORDS = {
    **{w: 0 for w in ("n", "north", "noord")},
    **{w: 1 for w in ("e", "o", "east", "oost")},
    **{w: 2 for w in ("s", "z", "south", "zuid")},
    **{w: 3 for w in ("w", "west")},
}
_SUIT_WORDS = {
    **{w: 0 for w in ("s", "spade", "spades", "schop", "schoppen")},
    **{w: 1 for w in ("h", "heart", "hearts", "hart", "harten")},
    **{w: 2 for w in ("d", "r", "diamond", "diamonds", "ruit", "ruiten")},
    **{w: 3 for w in ("c", "k", "club", "clubs", "klaver", "klaveren")},
}
_NOTRUMP_WORDS = frozenset(
    ("nt", "n", "sa", "zt", "notrump", "notrumps", "sansatout", "zondertroef")
)


# --------------------------------------------------------------------------- small helpers


def _is_separator(ch: str) -> bool:
    return ch.isspace() or ch in _PUNCT_SEPARATORS


def _require_text(text: object, what: str) -> str:
    # CSV readers hand over NaN for empty cells: that is a user's mistake, not a program bug.
    if not isinstance(text, str):
        raise ParseError(f"expected {what} as text, got {type(text).__name__} {text!r}")
    return text


def _visible(text: str) -> str:
    return "".join(ch for ch in text if ch not in _IGNORABLE)


def _check_lang(lang: str) -> None:
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")


def _rank_chars(lang: str) -> Sequence[str]:
    _check_lang(lang)
    return RANK_CHARS_NL if lang == "nl" else RANK_CHARS_EN


def _checked_cards(cards: Iterable[int]) -> list[int]:
    """Validate a programmer-supplied card collection (ints 0..51, no repeats)."""
    out = [int(c) for c in cards]
    if any(c < 0 or c >= N_CARDS for c in out):
        raise ValueError(f"card ints must be 0..{N_CARDS - 1}: {out}")
    if len(set(out)) != len(out):
        raise ValueError(f"a hand holds each card once: {out}")
    return sorted(out)


def _check_n_cards(n_cards: int | None) -> None:
    if n_cards is not None and not (0 <= n_cards <= FULL_HAND):
        raise ValueError(f"n_cards must be None or 0..{FULL_HAND}, not {n_cards!r}")


def _count_message(found: int, n_cards: int) -> str:
    if n_cards == FULL_HAND:
        return f"a full hand has {FULL_HAND} cards; found {found}"
    return f"expected {n_cards} cards; found {found}"


# --------------------------------------------------------------------------- hand reader


class _HandReader:
    """Collects one hand's cards while a form-specific scanner walks its text."""

    def __init__(self, text: str, offset: int = 0, label: str = ""):
        self.text = text
        self.offset = offset  # where the hand starts in the string the user typed
        self.label = label  # e.g. "E's hand" inside a deal
        self.card_at: dict[int, int] = {}
        self.suit_at: dict[int, int] = {}
        self.void_at: dict[int, int] = {}
        self.notes: list[str] = []
        self.rank_langs: set[str] = set()  # which alphabet the ranks came from, for messages

    def pos(self, i: int) -> int:
        return self.offset + i + 1

    def fail(self, message: str, with_notes: bool = False) -> NoReturn:
        if self.label:
            message = f"{self.label}: {message}"
        if with_notes and self.notes:
            message += "; note: " + "; ".join(self.notes[:3])
        raise ParseError(message, self.text)

    def name(self, c: int) -> str:
        return format_card(c, "nl" if self.rank_langs == {"nl"} else "en")

    def start_suit(self, suit: int, i: int) -> int:
        if suit in self.suit_at:
            self.fail(
                f"{SUIT_NAMES[suit]} ({SUIT_SYMBOLS[suit]}) given twice, at positions "
                f"{self.pos(self.suit_at[suit])} and {self.pos(i)}",
                with_notes=True,
            )
        self.suit_at[suit] = i
        return suit

    def fail_char(self, i: int, form: str) -> NoReturn:
        ch, p = self.text[i], self.pos(i)
        if ch in _LETTER_SUITS:
            why = {
                "symbol": "in symbol form suits are written ♠ ♥ ♦ ♣",
                "pbn": "in dotted PBN form the suits are given by position "
                "(spades.hearts.diamonds.clubs)",
                "colon": "in ':' form a suit letter must be followed by ':'",
                "groups": "a suit letter names a suit only at the start of a group; "
                + _GROUP_FORM_HINT,
            }[form]
            self.fail(f"suit letter {ch!r} at position {p} where a rank was expected: {why}")
        if ch in _SYMBOL_SUITS:
            self.fail(
                f"suit symbol {ch!r} at position {p} where a rank was expected: in dotted PBN "
                "form the suits are given by position (spades.hearts.diamonds.clubs)"
            )
        expected = {
            "symbol": f"expected a rank or a suit symbol ♠ ♥ ♦ ♣; {_RANK_HINT}",
            "pbn": f"expected a rank or '.' between suits; {_RANK_HINT}",
            "colon": f"expected a rank or a suit letter with ':'; {_RANK_HINT}",
            "groups": f"expected a rank; {_RANK_HINT}",
        }[form]
        self.fail(f"unknown character {ch!r} at position {p}: {expected}")

    def rank_at(self, i: int, suit: int, form: str) -> int:
        """Read the rank or void mark at ``i`` into ``suit``; return the index after it."""
        t = self.text
        ch = t[i]
        if ch in _VOID_MARKS:
            if suit in self.void_at:
                self.fail(
                    f"void mark given twice for {SUIT_NAMES[suit]}, at position {self.pos(i)}"
                )
            if any(suit_of(c) == suit for c in self.card_at):
                self.fail(
                    f"void mark {ch!r} at position {self.pos(i)} but {SUIT_NAMES[suit]} "
                    f"({SUIT_SYMBOLS[suit]}) also has cards"
                )
            self.void_at[suit] = i
            return i + 1
        if ch == "1":
            if i + 1 >= len(t) or t[i + 1] != "0":
                self.fail(
                    f"'1' at position {self.pos(i)} is not followed by '0' "
                    "(a ten is written 10 or T)"
                )
            rank, nxt = TEN, i + 2
        elif ch in _RANKS:
            rank, nxt = _RANKS[ch], i + 1
            if ch in _DUTCH_RANK_CHARS:
                self.rank_langs.add("nl")
            elif ch in _ENGLISH_RANK_CHARS:
                self.rank_langs.add("en")
        else:
            self.fail_char(i, form)
        if suit in self.void_at:
            self.fail(
                f"void mark at position {self.pos(self.void_at[suit])} but "
                f"{SUIT_NAMES[suit]} ({SUIT_SYMBOLS[suit]}) also has cards"
            )
        c = card(suit, rank)
        if c in self.card_at:
            self.fail(
                f"duplicate card {self.name(c)} at positions {self.pos(self.card_at[c])} "
                f"and {self.pos(i)}",
                with_notes=True,
            )
        self.card_at[c] = i
        return nxt

    def cards(self) -> list[int]:
        return sorted(self.card_at)

    def check_count(self, n_cards: int | None) -> list[int]:
        cards = self.cards()
        if n_cards is not None and len(cards) != n_cards:
            self.fail(_count_message(len(cards), n_cards), with_notes=True)
        if len(cards) > FULL_HAND:
            self.fail(f"a hand has at most {FULL_HAND} cards; found {len(cards)}", with_notes=True)
        return cards


def _skip_colon(text: str, i: int) -> int:
    """Index after an optional ':' at ``i`` (spaces allowed before it); ``i`` when absent."""
    j = i
    while j < len(text) and (text[j] in _IGNORABLE or text[j].isspace()):
        j += 1
    return j + 1 if j < len(text) and text[j] == ":" else i


def _scan_symbols(r: _HandReader) -> None:
    t, i, suit = r.text, 0, None
    while i < len(t):
        ch = t[i]
        if ch in _IGNORABLE or _is_separator(ch):
            i += 1
        elif ch in _SYMBOL_SUITS:
            suit = r.start_suit(_SYMBOL_SUITS[ch], i)
            i = _skip_colon(t, i + 1)
        elif ch == ":":
            r.fail(
                f"':' at position {r.pos(i)} does not follow a suit symbol "
                "(do not mix suit symbols and suit letters)"
            )
        elif suit is None:
            r.fail(
                f"{ch!r} at position {r.pos(i)} comes before the first suit symbol: "
                "in symbol form every suit starts with ♠ ♥ ♦ or ♣"
            )
        else:
            i = r.rank_at(i, suit, "symbol")


def _scan_pbn(r: _HandReader) -> None:
    t, i, suit = r.text, 0, 0
    while i < len(t):
        ch = t[i]
        if ch in _IGNORABLE or _is_separator(ch):
            i += 1
        elif ch == ".":
            if suit == N_SUITS - 1:
                r.fail(
                    f"a 4th '.' at position {r.pos(i)}: a dotted PBN hand has exactly 4 suits "
                    "(spades.hearts.diamonds.clubs)"
                )
            suit += 1
            i += 1
        else:
            i = r.rank_at(i, suit, "pbn")
    if suit != N_SUITS - 1:
        r.fail(
            f"a dotted PBN hand has 4 suits separated by 3 dots (spades.hearts.diamonds.clubs); "
            f"found {suit + 1} suit{'s' if suit else ''}"
        )


def _scan_colon(r: _HandReader) -> None:
    t, i, suit = r.text, 0, None
    group_start, after_marker = True, False
    while i < len(t):
        ch = t[i]
        if ch in _IGNORABLE:
            i += 1
            continue
        if _is_separator(ch):
            group_start = True
            i += 1
            continue
        if ch in _LETTER_SUITS:
            j = _skip_colon(t, i + 1)
            if j != i + 1:
                suit = r.start_suit(_LETTER_SUITS[ch], i)
                i, group_start, after_marker = j, False, True
                continue
        if ch == ":":
            r.fail(
                f"':' at position {r.pos(i)} does not follow a suit letter (S H D C, Dutch S H R K)"
            )
        if suit is None:
            r.fail(
                f"{ch!r} at position {r.pos(i)} comes before the first suit: in ':' form every "
                "suit starts with its letter and ':', e.g. 'S:AKQT98 H:T4 D:AT C:752'"
            )
        if group_start and not after_marker and ch in _RANK_AND_SUIT_LETTERS:
            r.notes.append(
                f"{ch!r} at position {r.pos(i)} was read as a rank (king) because in ':' form "
                "only a letter followed by ':' names a suit"
            )
        i = r.rank_at(i, suit, "colon")
        group_start = after_marker = False


def _groups(text: str) -> list[tuple[int, int]]:
    """(start, end) of the maximal runs of non-separator characters."""
    out, start = [], None
    for i, ch in enumerate(text):
        if _is_separator(ch):
            if start is not None:
                out.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        out.append((start, len(text)))
    return out


def _scan_groups(r: _HandReader) -> None:
    t = r.text
    pending: tuple[int, int] | None = None  # (suit, index) of a lone suit letter
    for a, b in _groups(t):
        shown = [k for k in range(a, b) if t[k] not in _IGNORABLE]
        if not shown:
            continue
        if pending is not None:
            suit, first_rank = pending[0], a
            pending = None
        else:
            first = shown[0]
            ch = t[first]
            if ch not in _LETTER_SUITS:
                r.fail(
                    f"group {t[a:b]!r} at position {r.pos(a)} does not start with a suit "
                    f"letter: {_GROUP_FORM_HINT}",
                    with_notes=True,
                )
            suit = r.start_suit(_LETTER_SUITS[ch], first)
            if ch in _RANK_AND_SUIT_LETTERS:
                r.notes.append(
                    f"{ch!r} at position {r.pos(first)} was read as a suit "
                    f"({SUIT_NAMES[suit]}) because it starts a group"
                )
            if len(shown) == 1:
                pending = (suit, first)
                continue
            first_rank = first + 1
        k = first_rank
        while k < b:
            if t[k] in _IGNORABLE:
                k += 1
            else:
                k = r.rank_at(k, suit, "groups")
    if pending is not None:
        ch = t[pending[1]]
        r.fail(
            f"suit letter {ch!r} at position {r.pos(pending[1])} ends the hand: a lone suit "
            "letter takes the next group as its cards; write a void as '-'",
            with_notes=True,
        )


def _hand_form(text: str) -> str:
    if any(ch in _SYMBOL_SUITS for ch in text):
        return "symbol"
    if "." in text:
        return "pbn"
    if ":" in text:
        return "colon"
    return "groups"


_SCANNERS = {
    "symbol": _scan_symbols,
    "pbn": _scan_pbn,
    "colon": _scan_colon,
    "groups": _scan_groups,
}


# --------------------------------------------------------------------------- parsers


def parse_hand(text: str, n_cards: int | None = FULL_HAND) -> list[int]:
    """Read a hand in symbol, dotted PBN or letter form (module docstring) as sorted card ints.

    ``n_cards`` is the exact number of cards required (13 = a full hand); ``None`` accepts
    any number up to 13, for endings and known cards.
    """
    _check_n_cards(n_cards)
    text = _require_text(text, "a hand")
    if not _visible(text).strip():
        raise ParseError("empty hand: give its cards, e.g. '♠AHV1098 ♥104 ♦A10 ♣752'")
    reader = _HandReader(text)
    _SCANNERS[_hand_form(text)](reader)
    return reader.check_count(n_cards)


def parse_deal(
    text: str, n_cards: int | None = FULL_HAND, equal_counts: bool = True
) -> list[list[int]]:
    """Read a PBN deal ``N:hand hand hand hand`` into four sorted card lists indexed by seat.

    The hands are dotted PBN, clockwise from the named seat (N E S W, Dutch N O Z W).
    ``n_cards`` is the number of cards every hand must hold (``None``: any up to 13); with
    ``None`` and ``equal_counts`` the hands must still hold equally many cards (an ending).
    """
    _check_n_cards(n_cards)
    text = _require_text(text, "a deal")
    colon = text.find(":")
    if colon < 0:
        raise ParseError(
            "a deal starts with the seat of its first hand and ':', "
            "e.g. 'N:AKQT98.T4.AT.752 ...'; no ':' found",
            text,
        )
    seat_text = _visible(text[:colon]).strip()
    # Only the letters here, as in PBN; the single-letter keys are exactly N E S W O Z.
    one_letter = len(seat_text) == 1 and seat_text.isascii()
    first = _SEAT_WORDS.get(seat_text.lower()) if one_letter else None
    if first is None:
        raise ParseError(
            f"unknown seat {seat_text!r} before ':' at position {colon + 1}: the first hand's "
            "seat is N E S W (Dutch N O Z W)",
            text,
        )
    body = text[colon + 1 :]
    spans = _groups_by_space(body)
    if len(spans) != N_SEATS:
        raise ParseError(
            f"a deal needs 4 hands after '{seat_text}:', separated by spaces; found {len(spans)}",
            text,
        )
    hands: list[list[int]] = [[] for _ in range(N_SEATS)]
    owner: dict[int, int] = {}
    for k, (a, b) in enumerate(spans):
        seat = (first + k) % N_SEATS
        hand_text = body[a:b]
        label = f"{SEAT_LETTERS[seat]}'s hand"
        reader = _HandReader(hand_text, colon + 1 + a, label)
        if "." not in hand_text:
            if _visible(hand_text) in _VOID_MARKS:
                reader.fail(
                    "a whole hand '-' (PBN's unknown hand) is not supported: give the cards "
                    "of all four hands"
                )
            reader.fail(
                f"{hand_text!r} at position {reader.pos(0)} is not a dotted PBN hand "
                "(spades.hearts.diamonds.clubs, e.g. 'AKQT98.T4.AT.752')"
            )
        _scan_pbn(reader)
        cards = reader.check_count(n_cards)
        for c in cards:
            if c in owner:
                raise ParseError(
                    f"card {format_card(c, 'en')} is in both {SEAT_LETTERS[owner[c]]}'s and "
                    f"{SEAT_LETTERS[seat]}'s hands",
                    text,
                )
            owner[c] = seat
        hands[seat] = cards
    counts = [len(h) for h in hands]
    if n_cards is None and equal_counts and len(set(counts)) > 1:
        found = ", ".join(f"{SEAT_LETTERS[s]} {counts[s]}" for s in range(N_SEATS))
        raise ParseError(
            f"the hands of a partial deal must hold equally many cards; found {found}", text
        )
    return hands


def _groups_by_space(text: str) -> list[tuple[int, int]]:
    out, start = [], None
    for i, ch in enumerate(text):
        if ch.isspace():
            if start is not None:
                out.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        out.append((start, len(text)))
    return out


def parse_card(text: str) -> int:
    """Read one card written suit first, then rank: '♦A', 'DA', 'RA', 'HT', 'H10', 'S:Q'."""
    text = _require_text(text, "a card")
    example = "e.g. '♦A', 'DA', 'RA' (Dutch ruiten), 'HT' or 'H10'"
    i = 0
    while i < len(text) and (text[i] in _IGNORABLE or text[i].isspace()):
        i += 1
    if i == len(text):
        raise ParseError(f"empty card: a card is a suit then a rank, {example}")
    ch = text[i]
    suit = _SYMBOL_SUITS.get(ch, _LETTER_SUITS.get(ch))
    if suit is None:
        raise ParseError(
            f"unknown suit {ch!r} at position {i + 1}: a card is written suit first, "
            f"then rank, {example}",
            text,
        )
    j = _skip_colon(text, i + 1)
    while j < len(text) and (text[j] in _IGNORABLE or text[j].isspace()):
        j += 1
    rank_text = _visible(text[j:]).rstrip()
    if rank_text == "10":
        rank = TEN
    elif len(rank_text) == 1 and rank_text in _RANKS:
        rank = _RANKS[rank_text]
    elif not rank_text:
        raise ParseError(f"card {text.strip()!r} has no rank after its suit; {example}", text)
    else:
        raise ParseError(
            f"unknown rank {rank_text!r} at position {j + 1}: a card is one suit then one "
            f"rank; {_RANK_HINT}",
            text,
        )
    return card(suit, rank)


def _words_key(text: str) -> str:
    """Lower-case text without variation selectors, spaces, hyphens or underscores.

    Non-ASCII text other than one suit symbol gives "" (no match): some non-ASCII letters
    lower-case to ASCII ones (the Kelvin sign to 'k') and must not be read as words.
    """
    key = "".join(ch for ch in _visible(text) if not (ch.isspace() or ch in "-_"))
    if key in _SYMBOL_SUITS:
        return key
    return key.lower() if key.isascii() else ""


def parse_seat(text: str) -> Seat:
    """Read a seat: N E S W, Dutch N O Z W, or north/east/south/west, noord/oost/zuid/west."""
    text = _require_text(text, "a seat")
    key = _visible(text).strip()
    seat = _SEAT_WORDS.get(key.lower()) if key.isascii() else None
    if seat is None:
        raise ParseError(
            f"unknown seat {text.strip()!r}: seats are N E S W (Dutch N O Z W) or "
            "north east south west / noord oost zuid west"
        )
    return Seat(seat)


def parse_suit(text: str) -> int:
    """Read a suit: symbol, letter S H D C (Dutch S H R K) or name, in English or Dutch."""
    text = _require_text(text, "a suit")
    key = _words_key(text)
    if key in _SYMBOL_SUITS:
        return _SYMBOL_SUITS[key]
    suit = _SUIT_WORDS.get(key)
    if suit is None:
        raise ParseError(
            f"unknown suit {text.strip()!r}: suits are ♠ ♥ ♦ ♣, S H D C (Dutch S H R K) "
            "or spades hearts diamonds clubs / schoppen harten ruiten klaveren"
        )
    return suit


def parse_strain(text: str) -> int:
    """Read a strain (0..3 suits, 4 no trump): a suit as in :func:`parse_suit`, or NT/SA/ZT."""
    text = _require_text(text, "a strain")
    key = _words_key(text)
    if key in _NOTRUMP_WORDS:
        return NOTRUMP
    if key in _SYMBOL_SUITS:
        return _SYMBOL_SUITS[key]
    suit = _SUIT_WORDS.get(key)
    if suit is None:
        raise ParseError(
            f"unknown strain {text.strip()!r}: strains are ♠ ♥ ♦ ♣, S H D C NT "
            "(Dutch S H R K SA/ZT) or the suit names, notrump, sans atout, zonder troef"
        )
    return suit


# --------------------------------------------------------------------------- formatting


def format_card(c: int, lang: str = "nl") -> str:
    """A card as suit symbol then rank: '♦A', '♥10' (nl) / '♥T' (en), '♠H' (nl) / '♠K' (en)."""
    (c,) = _checked_cards([c])
    return SUIT_SYMBOLS[suit_of(c)] + _rank_chars(lang)[rank_of(c)]


def _suit_ranks(cards: list[int], suit: int, rank_chars: Sequence[str]) -> str:
    ranks = sorted((rank_of(c) for c in cards if suit_of(c) == suit), reverse=True)
    return "".join(rank_chars[r] for r in ranks)


def format_hand(cards: Iterable[int], lang: str = "nl", style: str = "symbols") -> str:
    """A hand as '♠AHV1098 ♥104 ♦A10 ♣752' (nl) or '♠AKQT98 ♥T4 ♦AT ♣752' (en); void '♠-'.

    ``style="letters"`` writes the colon letter form instead: 'S:AHV1098 H:104 R:A10 K:752'
    (nl, Dutch suit letters) or 'S:AKQT98 H:T4 D:AT C:752' (en).
    """
    hand = _checked_cards(cards)
    chars = _rank_chars(lang)
    if style == "symbols":
        marks = SUIT_SYMBOLS
    elif style == "letters":
        marks = [f"{letter}:" for letter in (SUIT_LETTERS_NL if lang == "nl" else SUIT_LETTERS)]
    else:
        raise ValueError(f"style must be 'symbols' or 'letters', not {style!r}")
    return " ".join(marks[s] + (_suit_ranks(hand, s, chars) or "-") for s in range(N_SUITS))


def format_hand_pbn(cards: Iterable[int]) -> str:
    """A hand in dotted PBN order spades.hearts.diamonds.clubs, English ranks, void empty."""
    hand = _checked_cards(cards)
    return ".".join(_suit_ranks(hand, s, RANK_CHARS_EN) for s in range(N_SUITS))


def format_deal(deal: Sequence[Iterable[int]], first: int = 0) -> str:
    """A deal (four hands indexed by seat) as PBN 'N:hand hand hand hand' from seat ``first``."""
    if len(deal) != N_SEATS or not 0 <= first < N_SEATS:
        raise ValueError("a deal is four hands indexed by seat, and first is a seat 0..3")
    hands = [_checked_cards(h) for h in deal]
    every = [c for h in hands for c in h]
    if len(set(every)) != len(every):
        raise ValueError("a card appears in two hands of the deal")
    order = [(first + k) % N_SEATS for k in range(N_SEATS)]
    return SEAT_LETTERS[first] + ":" + " ".join(format_hand_pbn(hands[s]) for s in order)


def format_seat(seat: Seat, lang: str = "nl") -> str:
    """A seat letter: N O Z W (nl) or N E S W (en)."""
    _check_lang(lang)
    if not 0 <= seat < N_SEATS:
        raise ValueError(f"seat must be 0..3, not {seat!r}")
    return (SEAT_LETTERS_NL if lang == "nl" else SEAT_LETTERS)[seat]


def format_strain(strain: int, lang: str = "nl") -> str:
    """A strain: the suit symbol, or 'SA' (nl, sans atout) / 'NT' (en) for no trump."""
    _check_lang(lang)
    if strain == NOTRUMP:
        return "SA" if lang == "nl" else "NT"
    if not 0 <= strain < N_SUITS:
        raise ValueError(f"strain must be 0..4, not {strain!r}")
    return SUIT_SYMBOLS[strain]


# --------------------------------------------------------------------------- masks


def hand_mask(cards: Iterable[int]) -> int:
    """The int64 bitmask (16 bits per suit, see analyser.cards) of a hand."""
    return cards_to_mask(_checked_cards(cards))


def deal_masks(deal: Sequence[Iterable[int]]) -> np.ndarray:
    """``int64[4]`` bitmasks of a deal's hands, indexed by seat."""
    if len(deal) != N_SEATS:
        raise ValueError("a deal is four hands indexed by seat")
    return np.array([hand_mask(h) for h in deal], dtype=np.int64)
