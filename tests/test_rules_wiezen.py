"""The wiezen rule set at the rules layer (docs/rules.md §7.4, W-01 .. W-18): contracts and
their names, the ladder, the auction (vragen and meegaan, alone 5, troel first), the terms of
play, the partner cards and the points table with its worked checks."""

from __future__ import annotations

import itertools

import pytest

from analyser.cards import ACE, CLUBS, DIAMONDS, HEARTS, KING, NOTRUMP, QUEEN, SPADES, card
from analyser.errors import RulesError
from analyser.rules import (
    ALONE_5,
    MALHEUR,
    MISERE,
    OPEN_MISERE,
    PASS,
    SOLO,
    SOLO_SLIM,
    TROEL,
    TROELA,
    VRAGEN,
    WIEZEN,
    AuctionState,
    Contract,
    RuleSet,
    abondance,
    contract_terms,
    declarable_contracts,
    declarer_score,
    first_leader,
    get_ruleset,
    legal_bids,
    made,
    parse_contract,
    parse_ruleset,
    payment,
    penalty_score,
    per_opponent,
    run_auction,
    score,
    switch_names,
    troel_announcement,
    troel_partner_card,
    troel_trump,
)

WIEZEN_RS = get_ruleset("wiezen")
NO_ACES = (0, 0, 0, 0)


def rungs(rs):
    return ["=".join(c.id for c in rung) for rung in rs.ladder]


# --- the rule set and its ladder (W-16) --------------------------------------------------------

WIEZEN_LADDER = [  # docs/rules.md §7.4 ranking, lowest first; turned abondance above plain
    "vragen=alone_5",
    "abondance_9",
    "abondance_9_turned",
    "abondance_10",
    "abondance_10_turned",
    "misere",
    "abondance_11",
    "abondance_11_turned",
    "abondance_12",
    "abondance_12_turned",
    "troel=troela",
    "open_misere",
    "solo",
    "solo_slim",
]


def test_wiezen_is_a_named_rule_set():
    rs = get_ruleset("wiezen")
    assert rs == parse_ruleset("wiezen") and rs.spec == "wiezen" and rs.name == "wiezen"
    assert rs.family is WIEZEN
    assert rungs(rs) == WIEZEN_LADDER
    assert rs.turned_trump and not get_ruleset("book").turned_trump  # W-01
    assert not get_ruleset("iwwa2024").turned_trump
    assert rs.troel == "obligatory" and rs.malheur == "off"  # W-03
    assert rs.all_pass == "redeal" and rs.several_declarers == "settle_all"  # W-15


def test_wiezen_ranking_chain():
    rs = WIEZEN_RS
    chain = [
        VRAGEN,
        abondance(9),
        abondance(10),
        MISERE,
        abondance(11),
        abondance(12),
        TROEL,
        OPEN_MISERE,
        SOLO,
        SOLO_SLIM,
    ]
    ranks = [rs.rank(c) for c in chain]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
    assert rs.rank(VRAGEN) == rs.rank(ALONE_5) == 1
    assert rs.rank(TROEL) == rs.rank(TROELA)
    for n in (9, 10, 11, 12):  # W-10: the turned suit beats another suit at the same level
        assert rs.rank(abondance(n)) < rs.rank(abondance(n, True))
        if n < 12:
            assert rs.rank(abondance(n, True)) < rs.rank(abondance(n + 1))
    assert not rs.allows(MALHEUR)  # 3-4 aces: troel instead
    with pytest.raises(RulesError, match="unknown contract"):
        rs.rank("piek")


def test_troel_off_variant():
    rs = get_ruleset("wiezen", troel="off")
    assert rs.spec == "wiezen:troel=off"
    assert "troel=troela" not in rungs(rs) and len(rs.ladder) == 13
    assert rs.announced == frozenset()
    assert troel_announcement(rs, (3, 1, 0, 0)) is None
    assert PASS in legal_bids(rs, AuctionState.start(0), 0, aces_held=4)


def test_wiezen_switches_are_family_data():
    names = set(switch_names("wiezen"))
    assert {"troel", "meegaan", "turned_card_exchange", "plain_may_choose_turned"} <= names
    assert "min_alone" not in names and "turned_trump" not in names
    assert "meegaan" not in switch_names("book") and "min_alone" in switch_names("book")
    assert set(switch_names()) >= names | set(switch_names("book"))
    with pytest.raises(RulesError, match="does not apply to 'wiezen'"):
        get_ruleset("wiezen", min_alone=8)
    with pytest.raises(RulesError, match="does not apply to 'wiezen'"):
        get_ruleset("wiezen", turned_trump=False)  # fixed by the family (W-01)
    with pytest.raises(RulesError, match="does not apply to 'book'"):
        get_ruleset("book", troel="obligatory")
    with pytest.raises(RulesError, match="any, next"):
        get_ruleset("wiezen", meegaan="anyone")
    with pytest.raises(RulesError, match="get_ruleset"):
        RuleSet(name="wiezen")  # the fixed switches keep the set's values
    rs = parse_ruleset("wiezen:meegaan=next,turned_card_exchange=none")
    assert rs.spec == "wiezen:meegaan=next,turned_card_exchange=none"
    assert parse_ruleset(rs.spec) == rs
    assert len({WIEZEN_RS, get_ruleset("book"), get_ruleset("wiezen")}) == 2


# --- contract ids and names -----------------------------------------------------------------

WIEZEN_IDS = [
    "pass",
    "vragen",
    "alone_5",
    *[f"abondance_{n}{s}" for n in (9, 10, 11, 12) for s in ("", "_turned")],
    "misere",
    "open_misere",
    "troel",
    "troela",
    "solo",
    "solo_slim",
]


@pytest.mark.parametrize("text", WIEZEN_IDS)
def test_wiezen_id_round_trip(text):
    c = WIEZEN_RS.parse(text)
    assert c.id == text and str(c) == text
    assert eval(repr(c), {"Contract": Contract}) == c
    assert Contract.from_id(text, "wiezen") == c


def test_wiezen_family_covers_the_ladder():
    assert {c.id for c in WIEZEN.contracts} | {"pass"} == set(WIEZEN_IDS)
    assert set(WIEZEN_RS.contracts) == set(WIEZEN.contracts)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Miserie", MISERE),
        ("miserie op tafel", OPEN_MISERE),
        ("misère-op-tafel", None),  # accents are not folded
        ("alleen", ALONE_5),
        ("meegaan", VRAGEN),
        ("abondance 9 in troef", abondance(9, True)),
        ("ABONDANCE_11_TROEF", abondance(11, True)),
        ("abondance-12", abondance(12)),
        ("solo slim", SOLO_SLIM),
        ("troela", TROELA),
        ("Troel", TROEL),
    ],
)
def test_wiezen_other_names(text, expected):
    if expected is None:
        with pytest.raises(RulesError, match="unknown contract"):
            WIEZEN_RS.parse(text)
    else:
        assert WIEZEN_RS.parse(text) == expected


@pytest.mark.parametrize(
    "bad", ["malheur", "rik", "piek", "alone_7", "solo_beter", "abondance_8", "abondance_13"]
)
def test_rikken_ids_are_not_wiezen(bad):
    with pytest.raises(RulesError, match="unknown contract"):
        WIEZEN_RS.parse(bad)


def test_troela_per_rule_set():
    """The book's troela is malheur; wiezen's troela is a contract of its own (W-05)."""
    for name in ("book", "iwwa2024"):
        assert get_ruleset(name).parse("troela") == MALHEUR
    assert WIEZEN_RS.parse("troela") == TROELA
    assert parse_contract("troela") == MALHEUR  # the module default is the rikken family
    with pytest.raises(RulesError, match="unknown contract"):
        get_ruleset("book").parse("troel")
    with pytest.raises(RulesError, match="unknown contract"):
        get_ruleset("book").parse("solo_slim")
    assert WIEZEN_RS.rank("troela") == WIEZEN_RS.rank(TROEL)
    assert get_ruleset("book").rank("troela") == 16  # malheur


def test_flemish_display_names():
    names = [WIEZEN_RS.display_name(c) for c in WIEZEN_RS.contracts]
    assert names == [
        "vragen",
        "alleen",
        "abondance 9",
        "abondance 9 in troef",
        "abondance 10",
        "abondance 10 in troef",
        "miserie",
        "abondance 11",
        "abondance 11 in troef",
        "abondance 12",
        "abondance 12 in troef",
        "troel",
        "troela",
        "miserie op tafel",
        "solo",
        "solo slim",
    ]
    assert get_ruleset("book").display_name("alone_9_beter") == "alone 9 beter"


def test_wiezen_goals():
    expected = {
        VRAGEN: ("at_least", 8),
        ALONE_5: ("at_least", 5),
        abondance(9): ("at_least", 9),
        abondance(12, True): ("at_least", 12),
        MISERE: ("exactly", 0),
        OPEN_MISERE: ("exactly", 0),
        TROEL: ("at_least", 8),
        TROELA: ("at_least", 9),
        SOLO: ("all", 13),
        SOLO_SLIM: ("all", 13),
    }
    for c, (kind, n) in expected.items():
        assert (c.goal.kind, c.target) == (kind, n), c
    assert VRAGEN.is_partnership and TROEL.is_partnership and TROELA.is_partnership
    assert ALONE_5.is_alone and abondance(10).is_alone and SOLO_SLIM.is_alone
    assert TROEL.aces_needed == (3,) and TROELA.aces_needed == (4,) and VRAGEN.aces_needed == ()
    with pytest.raises(RulesError):
        Contract("vragen", turned=True)
    with pytest.raises(RulesError):
        Contract("solo", beter=True, turned=True)


# --- terms of play: trump, partner, leader (W-01, W-04, W-05, W-07 .. W-13) --------------------


@pytest.mark.parametrize("turned", [SPADES, HEARTS, DIAMONDS, CLUBS])
def test_trump_follows_the_turned_card(turned):
    rs = WIEZEN_RS
    others = tuple(s for s in (SPADES, HEARTS, DIAMONDS, CLUBS) if s != turned)
    for c in (VRAGEN, ALONE_5, abondance(9, True), SOLO_SLIM):
        t = contract_terms(rs, c, turned=turned)
        assert (t.trump_rule, t.trump_choices) == ("turned", (turned,)), c
    assert contract_terms(rs, abondance(11), turned=turned).trump_choices == others
    assert contract_terms(rs, SOLO, turned=turned).trump_choices == others + (NOTRUMP,)
    free = get_ruleset("wiezen", plain_may_choose_turned=True, solo_notrump=False)
    assert turned in contract_terms(free, abondance(9), turned=turned).trump_choices
    assert NOTRUMP not in contract_terms(free, SOLO, turned=turned).trump_choices


def test_turned_argument_is_explicit():
    rs = WIEZEN_RS
    for c in (VRAGEN, ALONE_5, abondance(9), abondance(9, True), SOLO, SOLO_SLIM):
        with pytest.raises(RulesError, match="turned"):
            contract_terms(rs, c)
    for c in (MISERE, OPEN_MISERE, TROEL, TROELA):  # no turned card needed
        contract_terms(rs, c)
    with pytest.raises(RulesError, match="no turned trump"):
        contract_terms(get_ruleset("book"), "rik", turned=SPADES)
    with pytest.raises(RulesError, match="0..3"):
        contract_terms(rs, VRAGEN, turned=4)


def test_terms_of_the_wiezen_contracts():
    rs = WIEZEN_RS
    vr = contract_terms(rs, VRAGEN, turned=CLUBS)
    assert (vr.side, vr.partner, vr.leader, vr.target) == ("partnership", "meegaan", "forehand", 8)
    assert vr.joinable and not vr.called_card_must_be_played
    a5 = contract_terms(rs, ALONE_5, turned=CLUBS)
    assert (a5.side, a5.partner, a5.leader, a5.target) == ("lone", "none", "forehand", 5)
    ab = contract_terms(rs, abondance(10), turned=CLUBS)
    assert (ab.side, ab.trump_rule, ab.leader, ab.target) == ("lone", "declarer", "bidder", 10)
    mis = contract_terms(rs, MISERE)
    assert (mis.trump_choices, mis.side, mis.leader, mis.visibility) == (
        (NOTRUMP,),
        "each",
        "forehand",
        "closed",
    )
    assert mis.joinable and mis.ends_early
    op = contract_terms(rs, OPEN_MISERE)  # W-12: open before the first card, forehand leads
    assert (op.visibility, op.reveal_after_cards, op.leader) == ("bidder_open", 0, "forehand")
    assert op.joinable and op.trump_choices == (NOTRUMP,)
    tr = contract_terms(rs, TROEL)
    assert (tr.side, tr.partner, tr.trump_rule, tr.leader, tr.target) == (
        "partnership",
        "troel",
        "partner_card",
        "partner",
        8,
    )
    assert tr.leads_partner_card and tr.called_card_must_be_played and not tr.joinable
    ta = contract_terms(rs, TROELA)
    assert (ta.trump_choices, ta.leader, ta.target, ta.leads_partner_card) == (
        (HEARTS,),
        "partner",
        9,
        True,
    )
    solo = contract_terms(rs, SOLO, turned=HEARTS)
    assert (solo.side, solo.leader, solo.goal.kind) == ("lone", "forehand", "all")
    assert not contract_terms(get_ruleset("book"), "rik").leads_partner_card


def test_first_leader_wiezen():
    rs = WIEZEN_RS
    assert first_leader(rs, VRAGEN, (2, 3), forehand=1) == 1
    assert first_leader(rs, ALONE_5, (2,), forehand=1) == 1
    assert first_leader(rs, "abondance_11_turned", (3,), forehand=1) == 3  # W-10
    assert first_leader(rs, TROEL, (0,), forehand=1, partner=2) == 2  # W-04
    assert first_leader(rs, TROELA, (0,), forehand=1, partner=3) == 3  # W-05
    assert first_leader(rs, OPEN_MISERE, (3, 2), forehand=1) == 1
    assert (
        first_leader(get_ruleset("wiezen", open_misere_leader="bidder"), OPEN_MISERE, (3,), 1) == 3
    )
    with pytest.raises(RulesError, match="partner"):
        first_leader(rs, TROEL, (0,), forehand=1)


# --- partner cards (W-04, W-05) ---------------------------------------------------------------


def test_troel_partner_card_is_the_fourth_ace():
    h = [card(SPADES, ACE), card(HEARTS, ACE), card(CLUBS, ACE), card(DIAMONDS, KING)]
    pc = troel_partner_card(h)
    assert pc == card(DIAMONDS, ACE)
    assert troel_trump(WIEZEN_RS, TROEL, pc) == DIAMONDS


def test_troela_partner_card_is_the_heart_king_or_lower():
    aces = [card(s, ACE) for s in (SPADES, HEARTS, DIAMONDS, CLUBS)]
    assert troel_partner_card(aces) == card(HEARTS, KING)
    assert troel_partner_card(aces + [card(HEARTS, KING)]) == card(HEARTS, QUEEN)
    hearts = [card(HEARTS, r) for r in range(4, 12)]  # ♥6 .. ♥K
    assert troel_partner_card(aces + hearts) == card(HEARTS, 3)  # ♥5
    assert troel_trump(WIEZEN_RS, TROELA, card(HEARTS, KING)) == HEARTS
    with pytest.raises(RulesError, match="3 aces"):
        troel_partner_card([card(SPADES, ACE), card(HEARTS, ACE)])
    with pytest.raises(RulesError):
        troel_trump(get_ruleset("book"), "troel", card(HEARTS, ACE))
    with pytest.raises(RulesError, match="troel or troela"):
        troel_trump(WIEZEN_RS, VRAGEN, card(HEARTS, ACE))


# --- the auction (W-03, W-06 .. W-09, W-14, W-15) ---------------------------------------------

# (name, spec, forehand, aces per seat, bids in turn order (after any troel announcement),
#  expected: (contract id or None for thrown in, declarers), or ("illegal", i)).
SCENARIOS = [
    ("all pass: redeal", "wiezen", 0, NO_ACES, ["pass"] * 4, (None, ())),
    (
        "vragen and meegaan",
        "wiezen",
        0,
        NO_ACES,
        ["vragen", "vragen", "pass", "pass", "pass"],
        ("vragen", (0, 1)),
    ),
    (
        "meegaan by a later player",
        "wiezen",
        0,
        NO_ACES,
        ["vragen", "pass", "meegaan", "pass", "pass"],
        ("vragen", (0, 2)),
    ),
    (
        "meegaan=next: only the next player",
        "wiezen:meegaan=next",
        0,
        NO_ACES,
        ["vragen", "pass", "vragen"],
        ("illegal", 2),
    ),
    (
        "meegaan=next: the next player goes along",
        "wiezen:meegaan=next",
        2,
        NO_ACES,
        ["vragen", "vragen", "pass", "pass", "pass"],
        ("vragen", (2, 3)),
    ),
    ("one partner only", "wiezen", 0, NO_ACES, ["vragen", "vragen", "vragen"], ("illegal", 2)),
    (
        "after meegaan only a special game",
        "wiezen",
        0,
        NO_ACES,
        ["vragen", "vragen", "abondance_9", "pass", "pass", "pass"],
        ("abondance_9", (2,)),
    ),
    (
        "unanswered ask: alone 5",
        "wiezen",
        0,
        NO_ACES,
        ["vragen", "pass", "pass", "pass", "alone_5"],
        ("alone_5", (0,)),
    ),
    (
        "unanswered ask: the asker passes",
        "wiezen",
        1,
        NO_ACES,
        ["vragen", "pass", "pass", "pass", "pass"],
        (None, ()),
    ),
    (
        "the asker may not bid a special game instead",
        "wiezen",
        0,
        NO_ACES,
        ["vragen", "pass", "pass", "pass", "abondance_9"],
        ("illegal", 4),
    ),
    (
        "the fourth player asks: he decides at once",
        "wiezen",
        0,
        NO_ACES,
        ["pass", "pass", "pass", "vragen", "alleen"],
        ("alone_5", (3,)),
    ),
    ("alone 5 is no opening bid", "wiezen", 0, NO_ACES, ["alone_5"], ("illegal", 0)),
    ("alone 5 over an ask", "wiezen", 0, NO_ACES, ["vragen", "alone_5"], ("illegal", 1)),
    (
        "the asker comes back with a special game",
        "wiezen",
        0,
        NO_ACES,
        ["vragen", "abondance_9", "pass", "pass", "misere", "pass"],
        ("misere", (0,)),
    ),
    (
        "the one who went along comes back",
        "wiezen",
        0,
        NO_ACES,
        ["vragen", "vragen", "abondance_10", "pass", "pass", "abondance_11", "pass"],
        ("abondance_11", (1,)),
    ),
    (
        "abondance in the turned suit beats the same level",
        "wiezen",
        0,
        NO_ACES,
        ["abondance_9", "abondance_9_turned", "pass", "pass", "pass"],
        ("abondance_9_turned", (1,)),
    ),
    (
        "same abondance: the earlier bidder keeps it",
        "wiezen",
        0,
        NO_ACES,
        ["abondance_10", "abondance_10"],
        ("illegal", 1),
    ),
    (
        "turned abondance cannot be met",
        "wiezen",
        0,
        NO_ACES,
        ["abondance_9_turned", "abondance_9"],
        ("illegal", 1),
    ),
    (
        "jumps allowed",
        "wiezen",
        0,
        NO_ACES,
        ["vragen", "solo_slim", "pass", "pass", "pass"],
        ("solo_slim", (1,)),
    ),
    (
        "miserie shared",
        "wiezen",
        0,
        NO_ACES,
        ["misere", "misere", "pass", "misere", "pass", "pass"],
        ("misere", (0, 1, 3)),
    ),
    (
        "miserie op tafel shared",
        "wiezen",
        3,
        NO_ACES,
        ["open_misere", "open_misere", "pass", "pass", "pass"],
        ("open_misere", (3, 0)),
    ),
    ("same solo: the first keeps it", "wiezen", 0, NO_ACES, ["solo", "solo"], ("illegal", 1)),
    (
        "troel stands",
        "wiezen",
        0,
        (0, 0, 3, 1),
        ["pass", "pass", "pass"],  # W, N, E after South's announcement
        ("troel", (2,)),
    ),
    (
        "troela stands",
        "wiezen",
        0,
        (4, 0, 0, 0),
        ["pass", "pass", "pass"],
        ("troela", (0,)),
    ),
    (
        "troel outbid by miserie op tafel",
        "wiezen",
        0,
        (0, 3, 0, 1),
        ["open_misere", "pass", "pass", "pass"],  # S bids, W, N, E (the troel player) pass
        ("open_misere", (2,)),
    ),
    (
        "troel player joins the miserie op tafel",
        "wiezen",
        0,
        (0, 3, 0, 1),
        ["open_misere", "pass", "pass", "open_misere", "pass"],
        ("open_misere", (2, 1)),
    ),
    (
        "troel player comes back with solo slim",
        "wiezen",
        0,
        (0, 3, 0, 1),
        ["solo", "pass", "pass", "solo_slim", "pass"],
        ("solo_slim", (1,)),
    ),
    (
        "nothing below op tafel over troel",
        "wiezen",
        0,
        (3, 0, 0, 1),
        ["abondance_12"],
        ("illegal", 0),
    ),
    ("no vragen over troel", "wiezen", 0, (3, 0, 0, 1), ["vragen"], ("illegal", 0)),
    ("troel is announced, never bid", "wiezen", 0, NO_ACES, ["troel"], ("illegal", 0)),
    ("troel off: no duty", "wiezen:troel=off", 0, (4, 0, 0, 0), ["pass"] * 4, (None, ())),
]


@pytest.mark.parametrize(
    "name, spec, forehand, aces, bids, expected", SCENARIOS, ids=[s[0] for s in SCENARIOS]
)
def test_wiezen_auction_scenario(name, spec, forehand, aces, bids, expected):
    rs = parse_ruleset(spec)
    if expected[0] == "illegal":
        bad = expected[1]
        state = run_auction(rs, bids[:bad], forehand, aces)  # the prefix is legal
        assert not state.finished
        with pytest.raises(RulesError, match="not legal"):
            state.apply(rs, bids[bad], aces[state.turn])
        return
    state = run_auction(rs, bids, forehand, aces)
    contract, declarers = expected
    assert state.finished
    assert state.thrown_in == (contract is None)
    assert (state.contract.id if state.contract else None) == contract
    assert state.declarers == declarers
    assert len(state.history) == len(bids)


def test_the_asker_decides():
    rs = WIEZEN_RS
    st = run_auction(rs, ["vragen", "pass", "pass", "pass"])
    assert not st.finished and st.asker_decides and st.turn == 0
    assert legal_bids(rs, st, 0) == [PASS, ALONE_5]  # W-08
    assert not run_auction(rs, ["vragen", "vragen", "pass", "pass"]).asker_decides
    assert not run_auction(get_ruleset("book"), ["pass"] * 3).asker_decides


def test_troel_is_announced_before_the_auction():
    rs = WIEZEN_RS
    assert troel_announcement(rs, (0, 1, 3, 0)) == (2, TROEL)
    assert troel_announcement(rs, (0, 0, 0, 4)) == (3, TROELA)
    assert troel_announcement(rs, (1, 1, 2, 0)) is None
    assert troel_announcement(get_ruleset("book"), (4, 0, 0, 0)) is None  # malheur is bid
    st = AuctionState.start(0, troel_announcement(rs, (0, 1, 3, 0)))
    assert (st.current, st.declarers, st.turn, st.history) == (TROEL, (2,), 3, ())
    assert st.announcement == (2, TROEL) and not st.first_turn(2)
    # A seat with the aces and no announcement: the auction was opened the wrong way (W-03).
    with pytest.raises(RulesError, match="announced before the auction"):
        legal_bids(rs, AuctionState.start(0), 2, aces_held=3)
    with pytest.raises(RulesError, match="announced before the auction"):
        AuctionState.start(0).apply(rs, "pass", aces_held=4)
    with pytest.raises(RulesError):
        AuctionState.start(0, (5, TROEL))
    with pytest.raises(RulesError):
        troel_announcement(rs, (0, 0, 0))


def test_opening_bids_wiezen():
    rs = WIEZEN_RS
    ids = [b.id for b in legal_bids(rs, AuctionState.start(0), 0)]
    assert ids == ["pass"] + [c.id for c in rs.contracts if c not in (ALONE_5, TROEL, TROELA)]


# --- declarable contracts (W-03, W-06, W-08) -------------------------------------------------


def test_declarable_wiezen():
    rs = WIEZEN_RS
    top = ["open_misere", "solo", "solo_slim"]
    assert [c.id for c in declarable_contracts(rs, 3)] == ["troel"] + top
    assert [c.id for c in declarable_contracts(rs, 4)] == ["troela"] + top
    low = [c.id for c in declarable_contracts(rs, 2, 0)]
    assert low == [c.id for c in rs.contracts if c not in (TROEL, TROELA)]
    assert "troel" not in [
        c.id for c in declarable_contracts(get_ruleset("wiezen", troel="off"), 3)
    ]


# --- scoring (W-17, W-18) -------------------------------------------------------------------


def test_worked_checks_of_section_7_4():
    """The checks at the end of docs/rules.md §7.4, seat by seat (North declares)."""
    rs = WIEZEN_RS
    assert score(rs, ALONE_5, 7, (0,)) == (12, -4, -4, -4)  # alone with 7 tricks
    assert score(rs, ALONE_5, 3, (0,)) == (-18, 6, 6, 6)  # alone with 3 tricks
    assert score(rs, VRAGEN, 6, (0,), 2) == (-8, 8, -8, 8)  # vragen with 6 tricks
    assert score(rs, TROEL, 7, (0,), 2) == (-6, 6, -6, 6)  # troel with 7 tricks
    # Three miserie players (N, E, S); only North makes it; West defends.
    assert score(rs, MISERE, (0, 2, 1, 10), (0, 1, 2)) == (35, -21, -21, 7)


def reference_v(c, t):
    """docs/rules.md §7.4 points table, written independently of the package: the amount
    per opponent (partnerships: per partner; lone: what each opponent pays)."""
    kind, n = c.kind, c.target
    if kind == "vragen":
        if t == 13:
            return 14
        return 2 + (t - 8) if t >= 8 else -2 * (2 + (8 - t))
    if kind == "alone":
        return 2 + (t - 5) if t >= 5 else -(2 + 2 * (5 - t))
    if kind == "abondance":
        unit = {9: 5, 10: 6, 11: 8, 12: 9}[n]
        return unit if t >= n else -unit
    if kind in ("troel", "troela"):
        if t == 13:
            return 28 if kind == "troel" else 24
        return 2 * (2 + (t - n)) if t >= n else -2 * (2 + (n - t))
    unit = {"misere": 7, "open_misere": 14}.get(kind) or (30 if c.turned else 25)
    return unit if made(c, t) else -unit


@pytest.mark.parametrize("spec", ["wiezen", "wiezen:meegaan=next,solo_notrump=off"])
def test_zero_sum_and_table_for_every_contract_and_trick_count(spec):
    rs = parse_ruleset(spec)
    checked = 0
    for c in rs.contracts:
        partner = 2 if c.is_partnership else None
        for t in range(14):
            pts = score(rs, c, t, (0,), partner)
            v = per_opponent(rs, c, t)
            assert sum(pts) == 0, (c, t, pts)
            assert v == reference_v(c, t), (c, t)
            assert (v > 0) == made(c, t) and v != 0
            assert declarer_score(rs, c, t) == pts[0]
            opponents = [s for s in range(4) if s not in (0, partner)]
            assert all(pts[s] == -v for s in opponents)
            assert pts[0] == (v if c.is_partnership else 3 * v)
            if c.is_partnership:
                assert pts[2] == v
            checked += 1
    assert checked == 14 * 16


def test_spot_values_wiezen():
    rs = WIEZEN_RS
    assert score(rs, VRAGEN, 8, (0,), 1) == (2, 2, -2, -2)
    assert score(rs, VRAGEN, 13, (0,), 1) == (14, 14, -14, -14)  # all 13 tricks
    assert score(rs, VRAGEN, 12, (0,), 1) == (6, 6, -6, -6)
    assert score(rs, ALONE_5, 5, (3,)) == (-2, -2, -2, 6)
    assert score(rs, abondance(9), 13, (1,)) == (-5, 15, -5, -5)  # no overtricks
    assert score(rs, abondance(10, True), 3, (1,)) == (6, -18, 6, 6)
    assert [per_opponent(rs, abondance(n), n) for n in (9, 10, 11, 12)] == [5, 6, 8, 9]
    assert (
        score(rs, abondance(11), 11, (2,))[2] == 24 and score(rs, abondance(12), 12, (2,))[2] == 27
    )
    assert score(rs, TROEL, 13, (0,), 2) == (28, -28, 28, -28)
    assert score(rs, TROEL, 9, (0,), 2) == (6, -6, 6, -6)
    assert score(rs, TROELA, 9, (0,), 2) == (4, -4, 4, -4)
    assert score(rs, TROELA, 8, (0,), 2) == (-6, 6, -6, 6)
    assert score(rs, TROELA, 13, (0,), 2) == (24, -24, 24, -24)
    assert score(rs, SOLO, 13, (0,)) == (75, -25, -25, -25)
    assert score(rs, SOLO_SLIM, 12, (0,)) == (-90, 30, 30, 30)
    assert score(rs, MISERE, 0, (1,)) == (-7, 21, -7, -7)
    assert score(rs, OPEN_MISERE, 1, (1,)) == (14, -42, 14, 14)
    assert payment(rs, TROEL).all_tricks == 28
    assert "made" in repr(payment(get_ruleset("book"), "rik"))


@pytest.mark.parametrize("contract", [MISERE, OPEN_MISERE])
@pytest.mark.parametrize("declarers", [(0, 2), (1, 3), (0, 1, 3), (3, 2, 1, 0)])
def test_several_miserie_players_zero_sum(contract, declarers):
    rs = WIEZEN_RS
    unit = 7 if contract == MISERE else 14
    for tricks in itertools.product(range(3), repeat=4):
        pts = score(rs, contract, tricks, declarers)
        assert sum(pts) == 0
        ref = [0, 0, 0, 0]
        for d in declarers:
            v = unit if tricks[d] == 0 else -unit
            for s in range(4):
                ref[s] += 3 * v if s == d else -v
        assert pts == tuple(ref)


def test_penalties_as_data():
    rs = WIEZEN_RS
    assert penalty_score(rs, "misdeal", 3) == (1, 1, 1, -3)  # W-02: the dealer pays
    assert penalty_score(rs, "troel_not_announced", 0) == (-15, 5, 5, 5)  # W-03
    with pytest.raises(RulesError, match="valid: misdeal"):
        penalty_score(rs, "talking", 0)
    with pytest.raises(RulesError, match="valid: none"):
        penalty_score(get_ruleset("book"), "misdeal", 0)
    with pytest.raises(RulesError):
        penalty_score(rs, "misdeal", 4)


def test_wiezen_scoring_errors():
    rs = WIEZEN_RS
    with pytest.raises(RulesError, match="partner"):
        score(rs, VRAGEN, 8, (0,))
    with pytest.raises(RulesError, match="no partner"):
        score(rs, abondance(9), 9, (0,), 1)
    with pytest.raises(RulesError, match="unknown contract"):
        score(rs, "malheur", 8, (0,), 1)
    with pytest.raises(RulesError, match="not played"):
        score(get_ruleset("wiezen", troel="off"), TROEL, 8, (0,), 1)
    with pytest.raises(RulesError, match="pass"):
        payment(rs, PASS)
