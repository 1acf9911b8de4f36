"""The four written forms of a hand, read into cards: the hand reader of :mod:`analyser.notation`.

The character tables (suit symbols and letters, ranks, void marks, separators), the
:class:`HandReader` that collects one hand's cards and words its errors, and one scanner per
form: symbols, dotted PBN, colon letters, group letters. :func:`scan_hand` picks the form
from the whole text as :mod:`analyser.notation` describes it; :func:`scan_pbn` reads one
dotted PBN hand (a hand of a deal). Errors are :class:`~analyser.errors.ParseError` with the
1-based position in the text the user typed.
"""

from __future__ import annotations

from typing import NoReturn

from analyser.cards import (
    N_CARDS,
    N_SEATS,
    N_SUITS,
    RANK_CHARS_EN,
    RANK_CHARS_NL,
    SUIT_SYMBOLS,
    TEN,
    card,
    rank_of,
    suit_of,
)
from analyser.errors import ParseError

FULL_HAND = N_CARDS // N_SEATS  # 13 cards

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

SYMBOL_SUITS = {"♠": 0, "♤": 0, "♥": 1, "♡": 1, "❤": 1, "♦": 2, "♢": 2, "♣": 3, "♧": 3}
IGNORABLE = frozenset("\ufe0e\ufe0f")  # variation selectors, e.g. the emoji form '♥️'
VOID_MARKS = frozenset("-–—")
_PUNCT_SEPARATORS = frozenset(",;")
# Explicit tables rather than str.upper(): some non-ASCII letters upper-case to ASCII ones
# ('ſ' -> 'S') and must stay unknown characters.
LETTER_SUITS = {ch: s for s, letters in enumerate(("Ss", "Hh", "DdRr", "CcKk")) for ch in letters}
RANKS = {
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

RANK_HINT = "ranks are A K Q J T/10 9..2 (Dutch A H V B 10..2)"
_GROUP_FORM_HINT = (
    "in letter form each space-separated group starts with its suit letter "
    "(S H D C, Dutch S H R K), e.g. 'SAKQT98 HT4 DAT C752' or 'S AKQT98 H T4 D AT C 752', "
    "so no spaces inside a suit; or use 'S:AKQ T98 ...' or dots 'AKQT98.T4.AT.752'"
)


def _is_separator(ch: str) -> bool:
    return ch.isspace() or ch in _PUNCT_SEPARATORS


def require_text(text: object, what: str) -> str:
    """``text`` itself; a ParseError naming ``what`` when it is not a string."""
    # CSV readers hand over NaN for empty cells: that is a user's mistake, not a program bug.
    if not isinstance(text, str):
        raise ParseError(f"expected {what} as text, got {type(text).__name__} {text!r}")
    return text


def visible(text: str) -> str:
    """``text`` without the variation selectors some keyboards add to suit symbols."""
    return "".join(ch for ch in text if ch not in IGNORABLE)


def check_n_cards(n_cards: int | None) -> None:
    """ValueError (a programming error) unless ``n_cards`` is None or 0..13."""
    if n_cards is not None and not (0 <= n_cards <= FULL_HAND):
        raise ValueError(f"n_cards must be None or 0..{FULL_HAND}, not {n_cards!r}")


def _count_message(found: int, n_cards: int) -> str:
    if n_cards == FULL_HAND:
        return f"a full hand has {FULL_HAND} cards; found {found}"
    return f"expected {n_cards} cards; found {found}"


class HandReader:
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
        self.lang_at: dict[str, int] = {}  # index of the first rank letter of each alphabet

    def pos(self, i: int) -> int:
        """The 1-based position, in the text the user typed, of index ``i`` of this hand."""
        return self.offset + i + 1

    def fail(self, message: str, with_notes: bool = False) -> NoReturn:
        """Raise ParseError with ``message`` (and, ``with_notes``, how letters were read)."""
        if self.label:
            message = f"{self.label}: {message}"
        if with_notes and self.notes:
            message += "; note: " + "; ".join(self.notes[:3])
        raise ParseError(message, self.text)

    def name(self, c: int) -> str:
        """Card ``c`` as :func:`analyser.notation.format_card` writes it, in Dutch ranks only
        when every lettered rank given was Dutch (that module reads hands through this one,
        so it is not imported here)."""
        chars = RANK_CHARS_NL if self.rank_langs == {"nl"} else RANK_CHARS_EN
        return SUIT_SYMBOLS[suit_of(c)] + chars[rank_of(c)]

    def start_suit(self, suit: int, i: int) -> int:
        """Start ``suit`` at index ``i`` (an error if it was started before); returns it."""
        if suit in self.suit_at:
            self.fail(
                f"{SUIT_NAMES[suit]} ({SUIT_SYMBOLS[suit]}) given twice, at positions "
                f"{self.pos(self.suit_at[suit])} and {self.pos(i)}",
                with_notes=True,
            )
        self.suit_at[suit] = i
        return suit

    def fail_char(self, i: int, form: str) -> NoReturn:
        """Raise the ParseError of an unexpected character at ``i`` in the given form."""
        ch, p = self.text[i], self.pos(i)
        if ch in LETTER_SUITS:
            why = {
                "symbol": "in symbol form suits are written ♠ ♥ ♦ ♣",
                "pbn": "in dotted PBN form the suits are given by position "
                "(spades.hearts.diamonds.clubs)",
                "colon": "in ':' form a suit letter must be followed by ':'",
                "groups": "a suit letter names a suit only at the start of a group; "
                + _GROUP_FORM_HINT,
            }[form]
            self.fail(f"suit letter {ch!r} at position {p} where a rank was expected: {why}")
        if ch in SYMBOL_SUITS:
            self.fail(
                f"suit symbol {ch!r} at position {p} where a rank was expected: in dotted PBN "
                "form the suits are given by position (spades.hearts.diamonds.clubs)"
            )
        expected = {
            "symbol": f"expected a rank or a suit symbol ♠ ♥ ♦ ♣; {RANK_HINT}",
            "pbn": f"expected a rank or '.' between suits; {RANK_HINT}",
            "colon": f"expected a rank or a suit letter with ':'; {RANK_HINT}",
            "groups": f"expected a rank; {RANK_HINT}",
        }[form]
        self.fail(f"unknown character {ch!r} at position {p}: {expected}")

    def rank_at(self, i: int, suit: int, form: str) -> int:
        """Read the rank or void mark at ``i`` into ``suit``; return the index after it."""
        t = self.text
        ch = t[i]
        if ch in VOID_MARKS:
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
        elif ch in RANKS:
            rank, nxt = RANKS[ch], i + 1
            lang = "nl" if ch in _DUTCH_RANK_CHARS else "en" if ch in _ENGLISH_RANK_CHARS else ""
            if lang:
                self.rank_langs.add(lang)
                self.lang_at.setdefault(lang, i)
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
        """The cards read so far, sorted."""
        return sorted(self.card_at)

    def check_count(self, n_cards: int | None) -> list[int]:
        """The cards read, after checking their number (``n_cards``; None: up to 13)."""
        if len(self.lang_at) > 1:
            # 'AHQ' could be A K Q or A H(=K) V(=Q): refused rather than guessed; checked once
            # the hand is read, so that an error of its form is reported first
            nl, en = (self.text[self.lang_at[k]] for k in ("nl", "en"))
            self.fail(
                f"the ranks mix the English letters (K Q J T; {en!r} at position "
                f"{self.pos(self.lang_at['en'])}) with the Dutch ones (H V B; {nl!r} at "
                f"position {self.pos(self.lang_at['nl'])}); write all ranks of a hand in one "
                "alphabet (A and 10 are both)"
            )
        cards = self.cards()
        if n_cards is not None and len(cards) != n_cards:
            self.fail(_count_message(len(cards), n_cards), with_notes=True)
        if len(cards) > FULL_HAND:
            self.fail(f"a hand has at most {FULL_HAND} cards; found {len(cards)}", with_notes=True)
        return cards


def skip_colon(text: str, i: int) -> int:
    """Index after an optional ':' at ``i`` (spaces allowed before it); ``i`` when absent."""
    j = i
    while j < len(text) and (text[j] in IGNORABLE or text[j].isspace()):
        j += 1
    return j + 1 if j < len(text) and text[j] == ":" else i


def _scan_symbols(r: HandReader) -> None:
    t, i, suit = r.text, 0, None
    while i < len(t):
        ch = t[i]
        if ch in IGNORABLE or _is_separator(ch):
            i += 1
        elif ch in SYMBOL_SUITS:
            suit = r.start_suit(SYMBOL_SUITS[ch], i)
            i = skip_colon(t, i + 1)
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


def scan_pbn(r: HandReader) -> None:
    """Read a dotted PBN hand: four suit groups spades.hearts.diamonds.clubs."""
    t, i, suit = r.text, 0, 0
    while i < len(t):
        ch = t[i]
        if ch in IGNORABLE or _is_separator(ch):
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


def _scan_colon(r: HandReader) -> None:
    t, i, suit = r.text, 0, None
    group_start, after_marker = True, False
    while i < len(t):
        ch = t[i]
        if ch in IGNORABLE:
            i += 1
            continue
        if _is_separator(ch):
            group_start = True
            i += 1
            continue
        if ch in LETTER_SUITS:
            j = skip_colon(t, i + 1)
            if j != i + 1:
                suit = r.start_suit(LETTER_SUITS[ch], i)
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


def runs(text: str, is_separator=None) -> list[tuple[int, int]]:
    """(start, end) of the maximal runs of characters that are not separators (by default the
    hand notation's separators; ``str.isspace`` splits at white space only)."""
    split = _is_separator if is_separator is None else is_separator
    out, start = [], None
    for i, ch in enumerate(text):
        if split(ch):
            if start is not None:
                out.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        out.append((start, len(text)))
    return out


def _scan_groups(r: HandReader) -> None:
    t = r.text
    pending: tuple[int, int] | None = None  # (suit, index) of a lone suit letter
    for a, b in runs(t):
        shown = [k for k in range(a, b) if t[k] not in IGNORABLE]
        if not shown:
            continue
        if pending is not None:
            suit, first_rank = pending[0], a
            pending = None
        else:
            first = shown[0]
            ch = t[first]
            if ch not in LETTER_SUITS:
                r.fail(
                    f"group {t[a:b]!r} at position {r.pos(a)} does not start with a suit "
                    f"letter: {_GROUP_FORM_HINT}",
                    with_notes=True,
                )
            suit = r.start_suit(LETTER_SUITS[ch], first)
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
            if t[k] in IGNORABLE:
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
    if any(ch in SYMBOL_SUITS for ch in text):
        return "symbol"
    if "." in text:
        return "pbn"
    if ":" in text:
        return "colon"
    return "groups"


_SCANNERS = {
    "symbol": _scan_symbols,
    "pbn": scan_pbn,
    "colon": _scan_colon,
    "groups": _scan_groups,
}


def scan_hand(reader: HandReader) -> None:
    """Read ``reader.text`` in the form its whole text shows (:mod:`analyser.notation`)."""
    _SCANNERS[_hand_form(reader.text)](reader)
