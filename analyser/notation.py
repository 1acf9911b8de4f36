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

The hand reader behind :func:`parse_hand` and :func:`parse_deal` - the character tables and
one scanner per form - is :mod:`analyser.hand_text`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
from analyser.hand_text import (
    FULL_HAND,
    IGNORABLE,
    LETTER_SUITS,
    RANK_HINT,
    RANKS,
    SYMBOL_SUITS,
    VOID_MARKS,
    HandReader,
    check_n_cards,
    require_text,
    runs,
    scan_hand,
    scan_pbn,
    skip_colon,
    visible,
)
from analyser.seats import Seat

LANGS = ("nl", "en")
SUIT_LETTERS_NL = "SHRK"  # schoppen, harten, ruiten, klaveren; index = suit

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


# --------------------------------------------------------------------------- parsers


def parse_hand(text: str, n_cards: int | None = FULL_HAND) -> list[int]:
    """Read a hand in symbol, dotted PBN or letter form (module docstring) as sorted card ints.

    ``n_cards`` is the exact number of cards required (13 = a full hand); ``None`` accepts
    any number up to 13, for endings and known cards.
    """
    check_n_cards(n_cards)
    text = require_text(text, "a hand")
    if not visible(text).strip():
        raise ParseError("empty hand: give its cards, e.g. '♠AHV1098 ♥104 ♦A10 ♣752'")
    reader = HandReader(text)
    scan_hand(reader)
    return reader.check_count(n_cards)


def parse_deal(
    text: str, n_cards: int | None = FULL_HAND, equal_counts: bool = True
) -> list[list[int]]:
    """Read a PBN deal ``N:hand hand hand hand`` into four sorted card lists indexed by seat.

    The hands are dotted PBN, clockwise from the named seat (N E S W, Dutch N O Z W).
    ``n_cards`` is the number of cards every hand must hold (``None``: any up to 13); with
    ``None`` and ``equal_counts`` the hands must still hold equally many cards (an ending).
    """
    check_n_cards(n_cards)
    text = require_text(text, "a deal")
    colon = text.find(":")
    if colon < 0:
        raise ParseError(
            "a deal starts with the seat of its first hand and ':', "
            "e.g. 'N:AKQT98.T4.AT.752 ...'; no ':' found",
            text,
        )
    seat_text = visible(text[:colon]).strip()
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
    spans = runs(body, str.isspace)
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
        reader = HandReader(hand_text, colon + 1 + a, label)
        if "." not in hand_text:
            if visible(hand_text) in VOID_MARKS:
                reader.fail(
                    "a whole hand '-' (PBN's unknown hand) is not supported: give the cards "
                    "of all four hands"
                )
            reader.fail(
                f"{hand_text!r} at position {reader.pos(0)} is not a dotted PBN hand "
                "(spades.hearts.diamonds.clubs, e.g. 'AKQT98.T4.AT.752')"
            )
        scan_pbn(reader)
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


def parse_card(text: str) -> int:
    """Read one card written suit first, then rank: '♦A', 'DA', 'RA', 'HT', 'H10', 'S:Q'."""
    text = require_text(text, "a card")
    example = "e.g. '♦A', 'DA', 'RA' (Dutch ruiten), 'HT' or 'H10'"
    i = 0
    while i < len(text) and (text[i] in IGNORABLE or text[i].isspace()):
        i += 1
    if i == len(text):
        raise ParseError(f"empty card: a card is a suit then a rank, {example}")
    ch = text[i]
    suit = SYMBOL_SUITS.get(ch, LETTER_SUITS.get(ch))
    if suit is None:
        raise ParseError(
            f"unknown suit {ch!r} at position {i + 1}: a card is written suit first, "
            f"then rank, {example}",
            text,
        )
    j = skip_colon(text, i + 1)
    while j < len(text) and (text[j] in IGNORABLE or text[j].isspace()):
        j += 1
    rank_text = visible(text[j:]).rstrip()
    if rank_text == "10":
        rank = TEN
    elif len(rank_text) == 1 and rank_text in RANKS:
        rank = RANKS[rank_text]
    elif not rank_text:
        raise ParseError(f"card {text.strip()!r} has no rank after its suit; {example}", text)
    else:
        raise ParseError(
            f"unknown rank {rank_text!r} at position {j + 1}: a card is one suit then one "
            f"rank; {RANK_HINT}",
            text,
        )
    return card(suit, rank)


def _words_key(text: str) -> str:
    """Lower-case text without variation selectors, spaces, hyphens or underscores.

    Non-ASCII text other than one suit symbol gives "" (no match): some non-ASCII letters
    lower-case to ASCII ones (the Kelvin sign to 'k') and must not be read as words.
    """
    key = "".join(ch for ch in visible(text) if not (ch.isspace() or ch in "-_"))
    if key in SYMBOL_SUITS:
        return key
    return key.lower() if key.isascii() else ""


def parse_seat(text: str) -> Seat:
    """Read a seat: N E S W, Dutch N O Z W, or north/east/south/west, noord/oost/zuid/west."""
    text = require_text(text, "a seat")
    key = visible(text).strip()
    seat = _SEAT_WORDS.get(key.lower()) if key.isascii() else None
    if seat is None:
        raise ParseError(
            f"unknown seat {text.strip()!r}: seats are N E S W (Dutch N O Z W) or "
            "north east south west / noord oost zuid west"
        )
    return Seat(seat)


def parse_suit(text: str) -> int:
    """Read a suit: symbol, letter S H D C (Dutch S H R K) or name, in English or Dutch."""
    text = require_text(text, "a suit")
    key = _words_key(text)
    if key in SYMBOL_SUITS:
        return SYMBOL_SUITS[key]
    suit = _SUIT_WORDS.get(key)
    if suit is None:
        raise ParseError(
            f"unknown suit {text.strip()!r}: suits are ♠ ♥ ♦ ♣, S H D C (Dutch S H R K) "
            "or spades hearts diamonds clubs / schoppen harten ruiten klaveren"
        )
    return suit


def parse_strain(text: str) -> int:
    """Read a strain (0..3 suits, 4 no trump): a suit as in :func:`parse_suit`, or NT/SA/ZT."""
    text = require_text(text, "a strain")
    key = _words_key(text)
    if key in _NOTRUMP_WORDS:
        return NOTRUMP
    if key in SYMBOL_SUITS:
        return SYMBOL_SUITS[key]
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
