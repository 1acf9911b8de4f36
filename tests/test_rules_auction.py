"""Auction legality, outcome (docs/rules.md §4, R-MAL-01/02, I-02, I-04, I-05, V-01, V-08, V-12)."""

import pytest

from analyser.errors import RulesError
from analyser.rules import (
    BETER_RIK,
    MALHEUR,
    MISERE,
    PASS,
    PIEK,
    RIK,
    SOLO,
    SOLO_BETER,
    AuctionState,
    alone,
    first_leader,
    get_ruleset,
    legal_bids,
    next_dealer,
    parse_contract,
    parse_ruleset,
    run_auction,
)

NO_ACES = (0, 0, 0, 0)

# (name, rule set, forehand, aces per seat, bids in turn order,
#  expected: (contract id or None for thrown in, declarers) when the auction finishes,
#  or ("illegal", i) when bid number i (0-based) must be refused).
SCENARIOS = [
    ("four passes", "book", 0, NO_ACES, ["pass"] * 4, (None, ())),
    ("four passes from S", "book", 2, NO_ACES, ["pass"] * 4, (None, ())),
    ("rik stands", "book", 0, NO_ACES, ["rik", "pass", "pass", "pass"], ("rik", (0,))),
    ("rik by the 4th", "book", 1, NO_ACES, ["pass", "pass", "pass", "rik"], ("rik", (0,))),
    ("alone opening", "book", 0, NO_ACES, ["alone_8"], ("illegal", 0)),
    ("alone beter opening", "book", 0, NO_ACES, ["alone_12_beter"], ("illegal", 0)),
    (
        "alone after rik",
        "book",
        0,
        NO_ACES,
        ["rik", "alone_7", "pass", "pass", "pass"],
        ("alone_7", (1,)),
    ),
    (
        "rikker goes alone himself",
        "book",
        0,
        NO_ACES,
        ["rik", "misere", "pass", "pass", "alone_9", "pass"],
        ("alone_9", (0,)),
    ),
    ("beter rik opening", "book", 0, NO_ACES, ["beter_rik"], ("illegal", 0)),
    (
        "beter rik over another's rik",
        "book",
        0,
        NO_ACES,
        ["rik", "beter_rik", "pass", "pass", "pass"],
        ("beter_rik", (1,)),
    ),
    ("rik over rik", "book", 0, NO_ACES, ["rik", "rik"], ("illegal", 1)),
    (
        "joining misère",
        "book",
        0,
        NO_ACES,
        ["misere", "misere", "pass", "misere", "pass", "pass"],
        ("misere", (0, 1, 3)),
    ),
    ("piek does not join misère", "book", 0, NO_ACES, ["misere", "piek"], ("illegal", 1)),
    ("misère does not overbid piek", "book", 0, NO_ACES, ["piek", "misere"], ("illegal", 1)),
    (
        "joining piek (default)",
        "book",
        0,
        NO_ACES,
        ["piek", "pass", "piek", "pass", "pass"],
        ("piek", (0, 2)),
    ),
    ("no piek joining", "book:join_all_forms=off", 0, NO_ACES, ["piek", "piek"], ("illegal", 1)),
    (
        "joining open misère",
        "book",
        3,
        NO_ACES,
        ["open_misere", "open_misere", "pass", "pass", "pass"],
        ("open_misere", (3, 0)),
    ),
    (
        "overbid resets the joiners",
        "book",
        0,
        NO_ACES,
        ["rik", "misere", "misere", "open_misere", "pass", "pass", "pass"],
        ("open_misere", (3,)),
    ),
    (
        "passed players are skipped",
        "book",
        0,
        NO_ACES,
        ["rik", "pass", "alone_8", "pass", "pass"],
        ("alone_8", (2,)),
    ),
    (
        "raise again over later bids",
        "book",
        0,
        NO_ACES,
        ["rik", "alone_8", "pass", "pass", "alone_9", "alone_10", "pass"],
        ("alone_10", (1,)),
    ),
    (
        "jumps allowed in the book",
        "book",
        0,
        NO_ACES,
        ["rik", "alone_12", "pass", "pass", "pass"],
        ("alone_12", (1,)),
    ),
    ("solo opens (book)", "book", 0, NO_ACES, ["solo", "pass", "pass", "pass"], ("solo", (0,))),
    (
        "solo beter opens (book)",
        "book",
        0,
        NO_ACES,
        ["pass", "solo_beter", "pass", "pass"],
        ("solo_beter", (1,)),
    ),
    (
        "malheur obligatory at first turn",
        "book",
        0,
        (0, 3, 0, 0),
        ["rik", "malheur", "pass", "pass", "pass"],
        ("malheur", (1,)),
    ),
    ("malheur holder may not pass", "book", 0, (0, 3, 0, 0), ["rik", "pass"], ("illegal", 1)),
    (
        "malheur holder may overbid",
        "book",
        0,
        (4, 0, 0, 0),
        ["open_piek", "pass", "pass", "pass"],
        ("open_piek", (0,)),
    ),
    (
        "no duty when outbid (R-MAL-02)",
        "book",
        0,
        (0, 3, 0, 0),
        ["open_misere", "pass", "pass", "pass"],
        ("open_misere", (0,)),
    ),
    ("malheur needs 3 aces", "book", 0, (2, 0, 0, 0), ["malheur"], ("illegal", 0)),
    (
        "malheur overbid only by 17+",
        "book",
        0,
        (3, 0, 0, 0),
        ["malheur", "alone_12_beter"],
        ("illegal", 1),
    ),
    (
        "malheur optional (V-02)",
        "book:malheur=optional",
        0,
        (3, 0, 0, 0),
        ["pass", "pass", "pass", "pass"],
        (None, ()),
    ),
    ("malheur off (V-02)", "book:malheur=off", 0, (3, 0, 0, 0), ["malheur"], ("illegal", 0)),
    ("iwwa: no malheur duty", "iwwa2024", 0, (4, 0, 0, 0), ["pass"] * 4, (None, ())),
    ("iwwa: jump refused", "iwwa2024", 0, NO_ACES, ["rik", "alone_9"], ("illegal", 1)),
    (
        "iwwa: one step at a time",
        "iwwa2024",
        0,
        NO_ACES,
        ["rik", "alone_8", "alone_8_beter", "alone_9", "pass", "pass", "pass"],
        ("alone_9", (3,)),
    ),
    (
        "iwwa: 10 alone is the step over misère",
        "iwwa2024",
        0,
        NO_ACES,
        ["rik", "misere", "alone_10", "pass", "pass", "pass"],
        ("alone_10", (2,)),
    ),
    (
        "iwwa: 11 over misère jumps",
        "iwwa2024",
        0,
        NO_ACES,
        ["rik", "misere", "alone_11"],
        ("illegal", 2),
    ),
    (
        "iwwa: 9 alone beter over piek",
        "iwwa2024",
        0,
        NO_ACES,
        ["rik", "piek", "alone_9_beter", "pass", "pass", "pass"],
        ("alone_9_beter", (2,)),
    ),
    (
        "iwwa: misère over piek",
        "iwwa2024",
        0,
        NO_ACES,
        ["piek", "misere", "pass", "pass", "pass"],
        ("misere", (1,)),
    ),
    ("iwwa: piek below misère", "iwwa2024", 0, NO_ACES, ["misere", "piek"], ("illegal", 1)),
    ("iwwa: solo needs a rik", "iwwa2024", 0, NO_ACES, ["solo"], ("illegal", 0)),
    (
        "iwwa: 13 over open misère praatje",
        "iwwa2024",
        0,
        NO_ACES,
        ["rik", "open_misere_praatje", "solo", "pass", "pass", "pass"],
        ("solo", (2,)),
    ),
    (
        "iwwa: joining open piek",
        "iwwa2024",
        0,
        NO_ACES,
        ["open_piek", "pass", "open_piek", "open_piek", "pass", "pass"],
        ("open_piek", (0, 2, 3)),
    ),
    ("V-01: no 7 alone", "book:min_alone=8", 0, NO_ACES, ["rik", "alone_7"], ("illegal", 1)),
    ("V-12: no piek", "book:piek=off", 0, NO_ACES, ["piek"], ("illegal", 0)),
    ("V-08: forced 4th bid", "book:all_pass=forced_bid", 0, NO_ACES, ["pass"] * 4, ("illegal", 3)),
    (
        "V-08: forced rik",
        "book:all_pass=forced_bid",
        0,
        NO_ACES,
        ["pass", "pass", "pass", "rik"],
        ("rik", (3,)),
    ),
]


@pytest.mark.parametrize(
    "name, spec, forehand, aces, bids, expected", SCENARIOS, ids=[s[0] for s in SCENARIOS]
)
def test_auction_scenario(name, spec, forehand, aces, bids, expected):
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
    with pytest.raises(RulesError, match="over"):
        state.apply(rs, "pass")


def test_scenario_count():
    assert len(SCENARIOS) >= 25


def test_turn_order_and_skipping():
    rs = get_ruleset()
    st = AuctionState.start(1)
    assert st.turn == 1
    st = st.apply(rs, "rik")  # E
    st = st.apply(rs, "pass")  # S
    st = st.apply(rs, "misere")  # W
    assert st.turn == 0
    st = st.apply(rs, "pass")  # N
    assert st.turn == 1 and st.passes_since_bid == 1
    st = st.apply(rs, "pass")  # E; S (passed) is skipped and counts: three passes
    assert st.finished and st.contract == MISERE and st.declarers == (3,)
    assert [s for s, _ in st.history] == [1, 2, 3, 0, 1]


def test_passed_player_has_no_bids_and_declarer_cannot_join_himself():
    rs = get_ruleset()
    st = run_auction(rs, ["misere", "pass"])
    assert legal_bids(rs, st, 1) == []
    assert MISERE in legal_bids(rs, st, 2)
    assert MISERE not in legal_bids(rs, st, 0)  # already a declarer of it
    assert PIEK not in legal_bids(rs, st, 2)  # same rank, no join across


def test_beter_rik_only_over_another_players_rik():
    rs = get_ruleset()
    st = run_auction(rs, ["rik"])
    assert BETER_RIK in legal_bids(rs, st, 1)
    assert BETER_RIK not in legal_bids(rs, st, 0)  # his own rik does not count
    assert BETER_RIK not in legal_bids(rs, AuctionState.start(0), 0)


def test_opening_bids_book():
    rs = get_ruleset()
    ids = [b.id for b in legal_bids(rs, AuctionState.start(0), 0)]
    assert ids == [
        "pass",
        "rik",
        "misere",
        "piek",
        "open_misere",
        "open_piek",
        "open_misere_praatje",
        "open_piek_praatje",
        "solo",
        "solo_beter",
    ]
    ids3 = [b.id for b in legal_bids(rs, AuctionState.start(0), 0, aces_held=3)]
    assert ids3[0] == "malheur" and "pass" not in ids3 and "rik" not in ids3


def test_opening_bids_iwwa():
    rs = get_ruleset("iwwa2024")
    ids = [b.id for b in legal_bids(rs, AuctionState.start(0), 0, aces_held=4)]
    assert ids == [
        "pass",
        "rik",
        "piek",
        "misere",
        "open_piek",
        "open_misere",
        "open_piek_praatje",
        "open_misere_praatje",
    ]


def test_alone_bids_after_rik_book_all_levels():
    rs = get_ruleset()
    legal = legal_bids(rs, run_auction(rs, ["rik"]), 1)
    for n in range(7, 13):
        assert alone(n) in legal and alone(n, True) in legal
    assert MALHEUR not in legal  # no aces


def test_iwwa_step_rule_bid_sets():
    rs = get_ruleset("iwwa2024")
    after = {
        ("rik",): ["alone_8", "alone_8_beter"],
        ("rik", "alone_8"): ["alone_8_beter", "alone_9", "alone_9_beter"],
        ("rik", "alone_8", "alone_9_beter"): ["alone_10", "alone_10_beter"],
        ("rik", "alone_8", "alone_9", "alone_10", "alone_11", "alone_12"): [
            "alone_12_beter",
            "solo",
            "solo_beter",
        ],
        ("rik", "open_misere_praatje", "solo"): ["solo_beter"],
        ("rik", "open_piek"): ["solo", "solo_beter"],
        ("rik", "piek"): ["alone_9", "alone_9_beter"],
    }
    for bids, expected in after.items():
        st = run_auction(rs, bids)
        legal = [b.id for b in legal_bids(rs, st, st.turn) if b.is_alone]
        assert legal == expected, bids


def test_malheur_without_the_overbid_default():
    rs = get_ruleset("book", malheur_may_overbid=False)
    assert legal_bids(rs, run_auction(rs, ["rik"]), 1, aces_held=3) == [MALHEUR]
    book = get_ruleset()
    over = [b.id for b in legal_bids(book, run_auction(book, ["rik"]), 1, aces_held=3)]
    assert over == [
        "malheur",
        "open_misere",
        "open_piek",
        "open_misere_praatje",
        "open_piek_praatje",
        "solo",
        "solo_beter",
    ]


def test_malheur_duty_only_at_the_first_turn():
    rs = get_ruleset()
    # North (3 aces) opened with open misère at his first turn; East overbids with praatje.
    st = run_auction(rs, ["open_misere", "open_misere_praatje", "pass", "pass"], aces=(3, 0, 0, 0))
    assert st.turn == 0 and not st.first_turn(0)
    assert PASS in legal_bids(rs, st, 0, aces_held=3)  # no duty any more


def test_malheur_first_turn_only_once():
    rs = get_ruleset("book", malheur="optional")
    st = run_auction(rs, ["rik", "pass", "pass"], aces=(3, 0, 0, 0))
    # Optional: the ace holder may pass or bid malheur on a later turn too.
    legal = legal_bids(rs, st, 3, aces_held=3)
    assert PASS in legal and MALHEUR in legal


def test_forced_bid_excludes_alone_and_keeps_solo():
    rs = get_ruleset("book", all_pass="forced_bid")
    st = run_auction(rs, ["pass", "pass", "pass"])
    legal = legal_bids(rs, st, 3)
    assert PASS not in legal and RIK in legal and SOLO in legal and SOLO_BETER in legal
    assert not any(b.kind == "alone" for b in legal)


def test_alone_without_rik_switch():
    rs = get_ruleset("book", alone_needs_rik=False)
    st = run_auction(rs, ["misere"])
    legal = legal_bids(rs, st, 1)
    assert alone(7) not in legal  # ranks below misère
    assert alone(9) in legal


def test_open_leader_from_auction():
    rs = get_ruleset()
    st = run_auction(rs, ["pass", "open_piek", "pass", "open_piek", "pass"], forehand=0)
    assert st.finished and st.declarers == (1, 3)
    assert first_leader(rs, st.contract, st.declarers, st.forehand) == 1


def test_errors():
    rs = get_ruleset()
    with pytest.raises(RulesError):
        legal_bids(rs, AuctionState.start(0), 4)
    with pytest.raises(RulesError):
        legal_bids(rs, AuctionState.start(0), 0, aces_held=5)
    with pytest.raises(RulesError):
        AuctionState.start(7)
    with pytest.raises(RulesError):
        run_auction(rs, ["rik"], aces=(0, 0))
    with pytest.raises(RulesError, match="unknown contract"):
        run_auction(rs, ["troel"])
    with pytest.raises(RulesError, match="not legal"):
        run_auction(get_ruleset("iwwa2024"), ["rik", "malheur"], aces=(0, 4, 0, 0))


def test_next_dealer():
    assert next_dealer(get_ruleset(), 3, thrown_in=True) == 0
    assert next_dealer(get_ruleset(), 1, thrown_in=False) == 2
    same = get_ruleset("book", all_pass="redeal_same_dealer")
    assert next_dealer(same, 1, thrown_in=True) == 1
    assert next_dealer(same, 1, thrown_in=False) == 2


def test_troela_is_bid_as_malheur():
    """The book's other name for malheur is read wherever a bid is (here: the auction)."""
    st = run_auction(get_ruleset(), ["rik", "troela", "pass", "pass", "pass"], aces=(0, 3, 0, 0))
    assert st.contract == MALHEUR and st.declarers == (1,)
    with pytest.raises(RulesError, match="not legal"):
        run_auction(get_ruleset("iwwa2024"), ["rik", "Troela"], aces=(0, 4, 0, 0))


def test_parse_contract_accepted_by_apply():
    rs = get_ruleset()
    st = AuctionState.start(0).apply(rs, parse_contract("rik"))
    assert st.current == RIK and st.rik_bidders == frozenset({0})
