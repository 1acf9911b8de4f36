"""Hand, deal, card, seat and strain notation: accepted forms, round trips, errors, fuzzing."""

from __future__ import annotations

import numpy as np
import pytest

from analyser.cards import (
    N_CARDS,
    NOTRUMP,
    RANK_CHARS_EN,
    RANK_CHARS_NL,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    card,
    cards_to_mask,
    mask_to_cards,
)
from analyser.errors import ParseError
from analyser.notation import (
    SUIT_LETTERS_NL,
    deal_masks,
    format_card,
    format_deal,
    format_hand,
    format_hand_pbn,
    format_seat,
    format_strain,
    hand_mask,
    parse_card,
    parse_deal,
    parse_hand,
    parse_seat,
    parse_strain,
    parse_suit,
)

# A full deal used by several tests: N holds ♠AKQT98 ♥T4 ♦AT ♣752; S is void in clubs, W in spades.
DEAL = "N:AKQT98.T4.AT.752 J.AKQJ9.KQJ9.K43 765432.8765.432. .32.8765.AQJT986"
DEAL_HANDS_PBN = ("AKQT98.T4.AT.752", "J.AKQJ9.KQJ9.K43", "765432.8765.432.", ".32.8765.AQJT986")


def pbn(text: str, n_cards: int | None = 13) -> str:
    return format_hand_pbn(parse_hand(text, n_cards=n_cards))


def random_deal(rng: np.random.Generator, n_cards: int = 13) -> list[list[int]]:
    """A uniform deal, cut down to the first ``n_cards`` of each hand for endings."""
    perm = rng.permutation(N_CARDS)
    return [sorted(int(c) for c in perm[13 * s : 13 * s + n_cards]) for s in range(4)]


# --------------------------------------------------------------------------- accepted forms


@pytest.mark.parametrize(
    "text, expected",
    [
        ("♠AHV1098 ♥104 ♦A10 ♣752", "AKQT98.T4.AT.752"),
        ("♠AKQT98 ♥T4 ♦AT ♣752", "AKQT98.T4.AT.752"),
        ("♠AHV1098♥104♦A10♣752", "AKQT98.T4.AT.752"),
        ("♠️AHV1098 ♥️104 ♦️A10 ♣️752", "AKQT98.T4.AT.752"),
        ("♤AHV1098 ♡104 ♢A10 ♧752", "AKQT98.T4.AT.752"),
        ("❤104 ♠AHV1098 ♣752 ♦A10", "AKQT98.T4.AT.752"),
        ("♠ A H V 10 9 8, ♥ 10 4; ♦ A 10, ♣ 7 5 2", "AKQT98.T4.AT.752"),
        ("♠:AKQT98 ♥:T4 ♦:AT ♣:752", "AKQT98.T4.AT.752"),
        ("♠ahv1098 ♥104 ♦a10 ♣752", "AKQT98.T4.AT.752"),
        ("♠AHV1098\xa0♥104\xa0♦A10\xa0♣752", "AKQT98.T4.AT.752"),
        ("S:AKQT98 H:T4 D:AT C:752", "AKQT98.T4.AT.752"),
        ("S:AHV1098 H:104 R:A10 K:752", "AKQT98.T4.AT.752"),
        ("S: AKQT98, H: T4, D: AT, C: 752", "AKQT98.T4.AT.752"),
        ("S:AKQT98H:T4D:ATC:752", "AKQT98.T4.AT.752"),
        ("S : AHV 1098 H : 104 R : A10 K : 752", "AKQT98.T4.AT.752"),
        ("s:akqt98 h:t4 d:at c:752", "AKQT98.T4.AT.752"),
        ("S:A1098765 H:104 D:A K:HV5", "AT98765.T4.A.KQ5"),
        ("S:AT98765 H:T4 D:A K:KQ5", "AT98765.T4.A.KQ5"),
        ("SAHV1098 H104 RA10 K752", "AKQT98.T4.AT.752"),
        ("SAKQT98 HT4 DAT C752", "AKQT98.T4.AT.752"),
        ("S AHV1098 H 104 R A10 K 752", "AKQT98.T4.AT.752"),
        ("sahv1098 h104 ra10 k752", "AKQT98.T4.AT.752"),
        ("H HV3 S AHVB10987 R - K 32", "AKQJT987.KQ3..32"),
        ("HKQ3 SAKQJT987 D- K32", "AKQJT987.KQ3..32"),
        ("AKQT98.T4.AT.752", "AKQT98.T4.AT.752"),
        ("AHV1098.104.A10.752", "AKQT98.T4.AT.752"),
        ("akqt98.t4.at.752", "AKQT98.T4.AT.752"),
        ("  AKQT98.T4.AT.752\n", "AKQT98.T4.AT.752"),
        ("AKQJT98765432...", "AKQJT98765432..."),
        ("AKQJT98765432.-.-.-", "AKQJT98765432..."),
        ("♠AKQJT98765432 ♥- ♦- ♣-", "AKQJT98765432..."),
        ("♠AKQJT98765432 ♥— ♦– ♣-", "AKQJT98765432..."),
        ("♠AKQJT98765432", "AKQJT98765432..."),
        ("SAKQJT98765432 H- D - C-", "AKQJT98765432..."),
        ("S:AKQJT98765432 H: D:- C:", "AKQJT98765432..."),
    ],
)
def test_accepted_hand_forms(text, expected):
    assert pbn(text) == expected


@pytest.mark.parametrize(
    "text, n_cards, expected",
    [
        ("♠AHV ♥- ♦1098 ♣5432", None, "AKQ..T98.5432"),
        ("AKQ..T98.5432", 10, "AKQ..T98.5432"),
        ("AKQ..T98.5432", None, "AKQ..T98.5432"),
        ("♦A", 1, "..A."),
        ("...", None, "..."),
        ("♠-", 0, "..."),
        ("RA10 K2", None, "..AT.2"),
    ],
)
def test_partial_hands(text, n_cards, expected):
    assert pbn(text, n_cards=n_cards) == expected


def test_formatting_examples():
    hand = parse_hand("AKQT98.T4.AT.752")
    assert format_hand(hand) == "♠AHV1098 ♥104 ♦A10 ♣752"
    assert format_hand(hand, "en") == "♠AKQT98 ♥T4 ♦AT ♣752"
    assert format_hand(hand, "nl", "letters") == "S:AHV1098 H:104 R:A10 K:752"
    assert format_hand(hand, "en", "letters") == "S:AKQT98 H:T4 D:AT C:752"
    assert format_hand_pbn(hand) == "AKQT98.T4.AT.752"
    void = parse_hand("AKQJT98765432...")
    assert format_hand(void) == "♠AHVB1098765432 ♥- ♦- ♣-"
    assert format_hand(void, "en", "letters") == "S:AKQJT98765432 H:- D:- C:-"
    assert format_card(card(2, 12)) == "♦A"
    assert format_card(card(1, 8)) == "♥10"
    assert format_card(card(1, 8), "en") == "♥T"
    assert format_card(card(0, 11)) == "♠H"
    assert format_card(card(0, 11), "en") == "♠K"
    assert format_seat(1) == "O" and format_seat(1, "en") == "E"
    assert format_strain(NOTRUMP) == "SA" and format_strain(NOTRUMP, "en") == "NT"
    assert format_strain(3) == "♣"


@pytest.mark.parametrize(
    "text",
    [
        "♠AHQ1098 ♥104 ♦A10 ♣752",  # H Dutch, Q English: A K Q or A H(=K) V?
        "♠AKV1098 ♥104 ♦A10 ♣752",
        "♠AHV1098 ♥T4 ♦A10 ♣752",  # T is English, H V Dutch
        "S:AT98765 H:T4 D:A K:HV5",
        "AKB.T4.AT.765432",
        "H HV3 S AKQJT987 R - K 32",
        "HHV3 SAKQJT987 R- K32",
    ],
)
def test_hand_mixing_rank_alphabets_is_refused(text):
    # A and 10 are shared; a hand using H/V/B and K/Q/J/T together is ambiguous
    with pytest.raises(ParseError, match="the ranks mix the English letters"):
        parse_hand(text, n_cards=None)


def test_format_rejects_programming_errors():
    with pytest.raises(ValueError):
        format_hand([0, 0])
    with pytest.raises(ValueError):
        format_hand([52])
    with pytest.raises(ValueError):
        format_hand([1], lang="de")
    with pytest.raises(ValueError):
        format_deal([[0], [0], [], []])
    with pytest.raises(ValueError):
        parse_hand("♠A", n_cards=14)


# --------------------------------------------------------------------------- round trips


def test_hand_round_trips_over_random_hands():
    rng = np.random.default_rng(20240601)
    for trial in range(400):
        size = 13 if trial % 2 == 0 else int(rng.integers(0, 14))
        hand = sorted(int(c) for c in rng.choice(N_CARDS, size=size, replace=False))
        n_cards = 13 if size == 13 else None
        texts = [format_hand_pbn(hand), format_hand_pbn(hand).lower()]
        for lang in ("nl", "en"):
            symbols = format_hand(hand, lang)
            letters = format_hand(hand, lang, "letters")
            texts += [
                symbols,
                symbols.replace(" ", ""),
                symbols.lower(),
                "".join(ch + "\ufe0f" if ch in SUIT_SYMBOLS else ch for ch in symbols),
                letters,
                letters.lower(),
                letters.replace(" ", ""),
                letters.replace(":", ""),  # group letter form, e.g. 'SAHV1098 H- ...'
                letters.replace(":", " "),  # lone suit letters, e.g. 'S AHV1098 H - ...'
            ]
        for text in texts:
            assert parse_hand(text, n_cards=n_cards) == hand, text


def test_deal_round_trips_over_random_deals():
    rng = np.random.default_rng(7)
    for trial in range(300):
        n_cards = 13 if trial % 3 else int(rng.integers(0, 14))
        deal = random_deal(rng, n_cards)
        first = trial % 4
        text = format_deal(deal, first)
        assert text[0] == "NESW"[first]
        assert parse_deal(text, n_cards=n_cards) == deal
        assert parse_deal(text, n_cards=None) == deal
        dutch = "NOZW"[first] + text[1:]
        assert parse_deal(dutch.lower(), n_cards=n_cards) == deal
        spaced = text.replace(":", " : ", 1)
        assert parse_deal(spaced, n_cards=n_cards) == deal


def test_deal_reading_and_masks():
    hands = parse_deal(DEAL)
    assert [format_hand_pbn(h) for h in hands] == list(DEAL_HANDS_PBN)
    assert format_deal(hands) == DEAL
    # Clockwise from the named seat: starting at S puts the first hand at seat 2.
    rotated = parse_deal("S:" + " ".join(DEAL_HANDS_PBN))
    assert rotated == [hands[2], hands[3], hands[0], hands[1]]
    # '-' voids are accepted in deal hands too.
    assert parse_deal(DEAL.replace("432. ", "432.- ").replace(" .32", " -.32")) == hands
    masks = deal_masks(hands)
    assert masks.dtype == np.int64 and masks.shape == (4,)
    for seat in range(4):
        assert int(masks[seat]) == hand_mask(hands[seat]) == cards_to_mask(hands[seat])
        assert mask_to_cards(int(masks[seat])) == hands[seat]
    assert np.bitwise_or.reduce(masks) == sum(int(m) for m in masks)  # disjoint hands


def test_partial_deals():
    ending = "W:AK.Q.. 32..4. ..AKQ. Q.J..2"
    hands = parse_deal(ending, n_cards=None)
    assert [len(h) for h in hands] == [3, 3, 3, 3]
    assert format_hand_pbn(hands[3]) == "AK.Q.."
    assert parse_deal(ending, n_cards=3) == hands
    predeal = "N:AK.Q.. ... ... ..."
    assert [len(h) for h in parse_deal(predeal, n_cards=None, equal_counts=False)] == [3, 0, 0, 0]


def test_cards_seats_strains():
    for c in range(N_CARDS):
        s, r = divmod(c, 13)
        for text in (
            format_card(c, "nl"),
            format_card(c, "en"),
            SUIT_LETTERS[s] + RANK_CHARS_EN[r],
            SUIT_LETTERS_NL[s] + RANK_CHARS_NL[r],
            (SUIT_LETTERS_NL[s] + RANK_CHARS_NL[r]).lower(),
            f" {SUIT_LETTERS[s]}: {RANK_CHARS_NL[r]} ",
            SUIT_SYMBOLS[s] + "\ufe0f" + RANK_CHARS_EN[r],
        ):
            assert parse_card(text) == c, text
    assert parse_card("KH") == card(3, 11)  # suit first: Dutch klaveren heer
    assert parse_card("hh") == card(1, 11)
    for seat, words in enumerate(
        [("N", "n", "north", "Noord"), ("E", "O", "east", "oost"), ("S", "Z", "South", "zuid")]
        + [("W", "w", "west", "WEST")]
    ):
        for word in words:
            assert parse_seat(word) == seat
    for strain, words in enumerate(
        [
            ("S", "♠", "♤", "spades", "schoppen", "Schop"),
            ("H", "♥️", "❤", "hearts", "harten"),
            ("D", "R", "♦", "diamond", "ruiten"),
            ("C", "K", "♧", "clubs", "klaveren"),
            ("NT", "nt", "N", "SA", "ZT", "no trump", "no-trump", "sans atout", "zonder troef"),
        ]
    ):
        for word in words:
            assert parse_strain(word) == strain, word
            if strain != NOTRUMP:
                assert parse_suit(word) == strain, word


# --------------------------------------------------------------------------- errors

FULL_N = "AKQT98.T4.AT.752"
E_, S_, W_ = DEAL_HANDS_PBN[1:]

MALFORMED = [
    # (parser, input, fragment(s) the message must contain)
    ("hand", "♠AHX1098 ♥104 ♦A10 ♣752", "unknown character 'X' at position 4"),
    ("hand", "♠AHV1098 ♥104 ♦A10 ♣75", "a full hand has 13 cards; found 12"),
    ("hand", "♠AKQJT98765432 ♥A", "a full hand has 13 cards; found 14"),
    ("hand", "♠AAHV1098 ♥104 ♦A10 ♣75", "duplicate card ♠A at positions 2 and 3"),
    ("hand", "AKQT98.T4.AT", "3 dots (spades.hearts.diamonds.clubs); found 3 suits"),
    ("hand", "AKQT98.T4.AT.752.", "a 4th '.' at position 17"),
    ("hand", "♠AH1V098 ♥104 ♦A10 ♣752", "'1' at position 4 is not followed by '0'"),
    ("hand", "♠AKQ ♥- ♥T4", "hearts (♥) given twice, at positions 6 and 9"),
    ("hand", "♠AKQT98 ♥T4 ♦AT ♣752 ♠", "spades (♠) given twice"),
    ("hand", "♠-AKQJT98765432", "void mark at position 2 but spades (♠) also has cards"),
    ("hand", "♠AKQ- ♥A", "void mark '-' at position 5 but spades (♠) also has cards"),
    ("hand", "♠AKQ ♥--", "void mark given twice for hearts, at position 8"),
    ("hand", "AKQT98 ♥T4 ♦AT ♣752", "'A' at position 1 comes before the first suit symbol"),
    ("hand", "♠AQT98 H:T4 ♦AT ♣752", "':' at position 9 does not follow a suit symbol"),
    ("hand", "♠AKQT98 ♥T4 ♦AT ♣75S", "suit letter 'S' at position 20 where a rank was expected"),
    ("hand", "AKQT98.T4.AT.75S", ("suit letter 'S' at position 16", "dotted PBN form")),
    (
        "hand",
        "S:AKQT98 HT4 D:AT C:752",
        ("duplicate card ♠K at positions 4 and 10", "'H' at position 10 was read as a rank"),
    ),
    ("hand", "S:AKQT98 H:T4 X:AT C:752", "unknown character 'X' at position 15"),
    ("hand", ":AKQ", "':' at position 1 does not follow a suit letter"),
    ("hand", "AKQ S:T4", "'A' at position 1 comes before the first suit"),
    ("hand", "AKQT98 T4 AT 752", "group 'AKQT98' at position 1 does not start with a suit letter"),
    ("hand", "SAKQ T98 HT4 DAT C752", "group 'T98' at position 6 does not start with a suit"),
    ("hand", "SAKQJT98765432 H", "suit letter 'H' at position 16 ends the hand"),
    ("hand", "S A H V", ("found 2", "'H' at position 5 was read as a suit (hearts)")),
    ("hand", "SAKQT98 HT4 DAT C75S2", "suit letter 'S' at position 20 where a rank was expected"),
    ("hand", "", "empty hand"),
    ("hand", "  \ufe0f \t", "empty hand"),
    ("hand", "♠AKQT98 ♥T4 ♦AT ♣7 5 2 x", "unknown character 'x' at position 24"),
    ("hand", "♠AKQT98 ♥T4 ♦AT ♣752\x00", "unknown character '\\x00' at position 21"),
    ("hand", "AKQT98.T4.AT.7♣52", "comes before the first suit symbol"),
    ("hand", "ſAKQT98 HT4 DAT C752", "group 'ſAKQT98' at position 1 does not start"),
    ("hand5", "♠AKQ", "expected 5 cards; found 3"),
    ("hand_any", "AKQJT98765432.AK..", "a hand has at most 13 cards; found 15"),
    ("hand", 7, "expected a hand as text, got int"),
    ("deal", FULL_N + " " + E_ + " " + S_ + " " + W_, "no ':' found"),
    ("deal", f"X:{FULL_N} {E_} {S_} {W_}", "unknown seat 'X' before ':' at position 2"),
    (
        "deal",
        f"N:{FULL_N} {E_} {S_}",
        "a deal needs 4 hands after 'N:', separated by spaces; found 3",
    ),
    ("deal", f"N:{FULL_N} {E_} {S_} {W_} ...", "found 5"),
    ("deal", f"N:{FULL_N} {E_[:-1]} {S_} {W_}", "E's hand: a full hand has 13 cards; found 12"),
    (
        "deal",
        f"N:{FULL_N} {E_.replace('J.', 'A.')} {S_} {W_}",
        "card ♠A is in both N's and E's hands",
    ),
    (
        "deal",
        f"O:{E_} {S_.replace('765432', '765422')} {W_} {FULL_N}",
        "S's hand: duplicate card ♠2 at positions",
    ),
    (
        "deal",
        f"O:{E_} {S_} {W_} {FULL_N.replace('752', '75K')}",
        "card ♣K is in both E's and N's hands",
    ),
    (
        "deal",
        f"N:{FULL_N} {E_} {S_.replace('8765', '87X5')} {W_}",
        "S's hand: unknown character 'X' at position 46",
    ),
    ("deal", f"N:♠AKQT98 {E_} {S_} {W_}", "is not a dotted PBN hand"),
    ("deal", f"N:AKQT98.T4.AT.7♣52 {E_} {S_} {W_}", "suit symbol '♣' at position 17"),
    ("deal", f"N:- {E_} {S_} {W_}", "a whole hand '-' (PBN's unknown hand) is not supported"),
    ("deal_any", "N:AK.Q.. 32..4. ..A. Q...2", "equally many cards; found N 3, E 3, S 1, W 2"),
    ("card", "AD", "unknown suit 'A' at position 1: a card is written suit first"),
    ("card", "D", "card 'D' has no rank"),
    ("card", "DX", "unknown rank 'X' at position 2"),
    ("card", "D11", "unknown rank '11'"),
    ("card", "   ", "empty card"),
    ("seat", "X", "unknown seat 'X'"),
    ("seat", "nord", "unknown seat 'nord'"),
    ("seat", float("nan"), "expected a seat as text, got float"),
    ("suit", "NT", "unknown suit 'NT'"),
    ("suit", "\u212a", "unknown suit"),  # the Kelvin sign lower-cases to 'k'
    ("strain", "XT", "unknown strain 'XT'"),
]

PARSERS = {
    "hand": parse_hand,
    "hand5": lambda t: parse_hand(t, n_cards=5),
    "hand_any": lambda t: parse_hand(t, n_cards=None),
    "deal": parse_deal,
    "deal_any": lambda t: parse_deal(t, n_cards=None),
    "card": parse_card,
    "seat": parse_seat,
    "suit": parse_suit,
    "strain": parse_strain,
}


@pytest.mark.parametrize("kind, text, fragments", MALFORMED)
def test_malformed_input_is_reported_precisely(kind, text, fragments):
    with pytest.raises(ParseError) as info:
        PARSERS[kind](text)
    message = str(info.value)
    for fragment in (fragments,) if isinstance(fragments, str) else fragments:
        assert fragment in message, message


def test_malformed_table_is_large_enough():
    assert len(MALFORMED) >= 30


# --------------------------------------------------------------------------- fuzzing

_ALPHABET = (
    "AKQJTHVBakqjthvb1098765432SHDCRKshdcrk♠♥♦♣♤♡♢♧❤\ufe0f\ufe0e \t\n\xa0.:-–—,;/()[]'\"0NOZWEnozwe"
)


def _random_char(rng: np.random.Generator) -> str:
    if rng.random() < 0.9:
        return _ALPHABET[int(rng.integers(len(_ALPHABET)))]
    return chr(int(rng.integers(0x80, 0xD000)))


def _mutate(text: str, rng: np.random.Generator) -> str:
    chars = list(text)
    for _ in range(int(rng.integers(1, 4))):
        op = rng.integers(3)
        at = int(rng.integers(len(chars) + 1))
        if op == 0:
            chars.insert(at, _random_char(rng))
        elif chars and at < len(chars):
            if op == 1:
                del chars[at]
            else:
                chars[at] = _random_char(rng)
    return "".join(chars)


def _check_hand(hand, n_cards):
    assert isinstance(hand, list) and hand == sorted(set(hand))
    assert all(isinstance(c, int) and 0 <= c < N_CARDS for c in hand)
    assert len(hand) <= 13 and (n_cards is None or len(hand) == n_cards)
    assert parse_hand(format_hand(hand), n_cards=None) == hand


def _fuzz_inputs(seed: int, count: int) -> list[str]:
    rng = np.random.default_rng(seed)
    valid = [DEAL, "♠AHV1098 ♥104 ♦A10 ♣752", "S:AKQT98 H:T4 D:AT C:752", "SAHV1098 H104 RA10 K752"]
    valid += [FULL_N, "DA", "♥10", "N", "zuid", "SA", "klaveren", "W:AK.Q.. 32..4. ..AKQ. Q.J..2"]
    out = []
    for k in range(count):
        if k % 2:
            n = int(rng.integers(0, 40))
            out.append("".join(_random_char(rng) for _ in range(n)))
        else:
            out.append(_mutate(valid[int(rng.integers(len(valid)))], rng))
    return out


def test_fuzz_only_parse_errors_escape():
    successes = 0
    for text in _fuzz_inputs(seed=12345, count=8000):
        for kind, parser in PARSERS.items():
            try:
                value = parser(text)
            except ParseError as exc:
                assert str(exc)
                continue
            successes += 1
            if kind.startswith("hand"):
                _check_hand(value, {"hand": 13, "hand5": 5, "hand_any": None}[kind])
            elif kind.startswith("deal"):
                assert len(value) == 4
                for hand in value:
                    _check_hand(hand, 13 if kind == "deal" else None)
                every = [c for hand in value for c in hand]
                assert len(every) == len(set(every))
                assert kind == "deal_any" or len(every) == N_CARDS
            elif kind == "card":
                assert 0 <= value < N_CARDS
            elif kind == "strain":
                assert 0 <= value <= NOTRUMP
            else:
                assert 0 <= value < 4
    # The mutated valid inputs must reach the success paths, not only the error paths.
    assert successes > 500
