"""Rule sets: ladders (docs/rules.md §5, V-01, V-02, V-12, I-03), switches, terms, leads."""

import pytest

from analyser.cards import ACE, CLUBS, HEARTS, KING, NOTRUMP, card
from analyser.errors import RulesError
from analyser.rules import (
    MALHEUR,
    MISERE,
    OPEN_MISERE,
    OPEN_MISERE_PRAATJE,
    OPEN_PIEK,
    OPEN_PIEK_PRAATJE,
    PIEK,
    RIK,
    SOLO,
    RuleSet,
    alone,
    contract_terms,
    first_leader,
    get_ruleset,
    malheur_trump_choices,
    parse_ruleset,
    switch_names,
    visibility_label,
)


def rungs(rs):
    return ["=".join(c.id for c in rung) for rung in rs.ladder]


BOOK_LADDER = [  # docs/rules.md §5, ranks 1..20
    "rik",
    "beter_rik",
    "alone_7",
    "alone_7_beter",
    "alone_8",
    "alone_8_beter",
    "misere=piek",
    "alone_9",
    "alone_9_beter",
    "alone_10",
    "alone_10_beter",
    "alone_11",
    "alone_11_beter",
    "alone_12",
    "alone_12_beter",
    "malheur",
    "open_misere=open_piek",
    "open_misere_praatje=open_piek_praatje",
    "solo",
    "solo_beter",
]

IWWA_LADDER = [  # docs/rules.md I-03 default ladder
    "rik",
    "beter_rik",
    "alone_8",
    "alone_8_beter",
    "piek",
    "alone_9",
    "alone_9_beter",
    "misere",
    "alone_10",
    "alone_10_beter",
    "alone_11",
    "alone_11_beter",
    "alone_12",
    "alone_12_beter",
    "open_piek",
    "open_misere",
    "open_piek_praatje",
    "open_misere_praatje",
    "solo",
    "solo_beter",
]


def test_book_ladder_matches_the_table():
    rs = get_ruleset()
    assert rs.name == "book" and rs == RuleSet()
    assert rungs(rs) == BOOK_LADDER
    assert rs.rank(MISERE) == rs.rank(PIEK) == 7
    assert rs.rank(MALHEUR) == 16
    assert rs.rank(OPEN_MISERE) == rs.rank(OPEN_PIEK) == 17
    assert rs.rank("solo_beter") == 20
    assert rs.rank(None) == rs.rank("pass") == 0


def test_iwwa_ladder_matches_the_default_reading():
    rs = get_ruleset("iwwa2024")
    assert rungs(rs) == IWWA_LADDER
    assert not rs.allows(MALHEUR) and not rs.allows(alone(7))
    assert rs.rank(PIEK) < rs.rank(alone(9)) < rs.rank(MISERE) < rs.rank(alone(10))
    assert rs.rank(OPEN_PIEK) < rs.rank(OPEN_MISERE) < rs.rank(OPEN_PIEK_PRAATJE)
    assert rs.rank(OPEN_PIEK_PRAATJE) < rs.rank(OPEN_MISERE_PRAATJE) < rs.rank(SOLO)


@pytest.mark.parametrize("min_alone, above", [(8, "alone_9_beter"), (9, "alone_10_beter")])
def test_v01_min_alone_moves_misere_up(min_alone, above):
    rs = get_ruleset("book", min_alone=min_alone)
    names = rungs(rs)
    assert names[0:3] == ["rik", "beter_rik", f"alone_{min_alone}"]
    assert names[names.index(above) + 1] == "misere=piek"
    assert not rs.allows(alone(min_alone - 1)) and not rs.allows(alone(min_alone - 1, True))
    # Malheur, open forms, praatje and solo keep their top places.
    assert names[-5:] == BOOK_LADDER[-5:]


def test_v02_v12_remove_rungs():
    rs = get_ruleset("book", malheur="off", piek="off")
    assert "malheur" not in rungs(rs)
    assert "misere" in rungs(rs) and "open_misere" in rungs(rs)
    assert not any(c.is_piek for c in rs.contracts)
    assert len(rs.ladder) == 19
    with pytest.raises(RulesError, match="not played"):
        rs.rank(PIEK)
    assert get_ruleset("book", malheur="optional").allows(MALHEUR)


def test_unknown_name_switch_and_value_list_the_valid_ones():
    with pytest.raises(RulesError, match="book, iwwa2024, wiezen"):
        get_ruleset("klaverjassen")
    with pytest.raises(RulesError, match="min_alone"):
        get_ruleset("book", no_such_switch=1)
    with pytest.raises(RulesError, match="obligatory, optional, off"):
        get_ruleset("book", malheur="sometimes")
    with pytest.raises(RulesError, match="7..11"):
        get_ruleset("book", min_alone=6)
    with pytest.raises(RulesError, match="on/off"):
        get_ruleset("book", piek="maybe")
    with pytest.raises(RulesError):
        RuleSet(fail_mode="double")
    with pytest.raises(RulesError, match="book, iwwa2024, wiezen"):
        RuleSet(name="whist")


def test_switch_names_cover_the_variants():
    names = set(switch_names())
    required = {
        "min_alone",
        "malheur",
        "malheur_card_must_be_played",  # V-03
        "malheur_trump_may_be_partner_suit",  # V-04
        "open_after_tricks",  # V-05
        "open_leader",  # V-06
        "piek",  # V-12
        "called_card_may_be_discarded",
        "fail_mode",
    }
    assert required <= names


def test_parse_ruleset_and_spec_round_trip():
    rs = parse_ruleset("book: min_alone=8, malheur=optional, piek=off, fail_mode=base_only")
    assert (rs.min_alone, rs.malheur, rs.piek, rs.fail_mode) == (8, "optional", False, "base_only")
    assert rs.spec == "book:min_alone=8,piek=off,malheur=optional,fail_mode=base_only"
    assert parse_ruleset(rs.spec) == rs
    assert get_ruleset("iwwa2024").spec == "iwwa2024"
    assert parse_ruleset("iwwa2024:jumps=on").spec == "iwwa2024:jumps=on"
    with pytest.raises(RulesError, match="name=value"):
        parse_ruleset("book:piek")


def test_iwwa_switches_as_data():
    rs = get_ruleset("iwwa2024")
    assert rs.failed_rik_payer == "rikker"  # I-09
    assert rs.several_declarers == "stop_at_first_failure"  # I-06
    assert rs.jumps is False and rs.solo_needs_rik is True  # I-04, I-02
    assert rs.blind_call is True and rs.all_pass == "dealer_choice"  # I-08, I-13
    book = get_ruleset()
    assert book.failed_rik_payer == "both" and book.several_declarers == "settle_all"
    assert book.called_card_may_be_discarded is True and book.fail_mode == "undertricks"


def test_rulesets_are_hashable_and_equal_by_value():
    assert get_ruleset("book", min_alone=8) == parse_ruleset("book:min_alone=8")
    assert len({get_ruleset(), get_ruleset(), get_ruleset("iwwa2024")}) == 2


# --- contract terms -------------------------------------------------------------------------


def test_terms_rik_and_malheur():
    book = get_ruleset()
    rik = contract_terms(book, "rik")
    assert (rik.side, rik.partner, rik.trump_rule, rik.leader) == (
        "partnership",
        "called_ace",
        "declarer",
        "forehand",
    )
    assert rik.trump_choices == (0, 1, 2, 3) and rik.called_card_must_be_played
    assert contract_terms(book, "beter_rik").trump_choices == (HEARTS,)
    mal = contract_terms(book, MALHEUR)
    assert (mal.partner, mal.trump_rule, mal.target) == ("malheur", "partner", 8)
    assert mal.called_card_must_be_played
    v03 = get_ruleset("book", malheur_card_must_be_played=False)
    assert not contract_terms(v03, MALHEUR).called_card_must_be_played
    with pytest.raises(RulesError):
        contract_terms(get_ruleset("iwwa2024"), MALHEUR)


def test_terms_alone_solo_trump_choices():
    book = get_ruleset()
    assert contract_terms(book, "alone_9").trump_choices == (0, 1, 2, 3)
    assert contract_terms(book, "alone_9_beter").trump_choices == (HEARTS,)
    assert NOTRUMP not in contract_terms(book, SOLO).trump_choices
    no_hearts = get_ruleset("book", plain_may_choose_hearts=False)
    assert contract_terms(no_hearts, "alone_9").trump_choices == (0, 2, 3)
    nt = get_ruleset("book", solo_notrump=True)
    assert NOTRUMP in contract_terms(nt, SOLO).trump_choices
    t = contract_terms(book, "solo_beter")
    assert (t.side, t.goal.kind, t.partner, t.visibility) == ("lone", "all", "none", "closed")


def test_terms_misere_piek_forms_book():
    book = get_ruleset()
    closed = contract_terms(book, MISERE)
    assert closed.trump_choices == (NOTRUMP,) and closed.ends_early and closed.joinable
    assert (closed.leader, closed.visibility, closed.side) == ("forehand", "closed", "each")
    op = contract_terms(book, OPEN_PIEK)
    assert (op.leader, op.visibility, op.reveal_after_cards) == ("bidder", "bidder_open", 0)
    pr = contract_terms(book, OPEN_MISERE_PRAATJE)
    assert (pr.leader, pr.visibility, pr.reveal_after_cards) == ("bidder", "all_open", 0)
    assert pr.talk_after_cards == 1 and op.talk_after_cards is None
    assert visibility_label(op) == "bidder's hand open"
    assert visibility_label(closed) == "closed"


def test_terms_open_forms_iwwa_and_variants():
    iwwa = get_ruleset("iwwa2024")
    om = contract_terms(iwwa, OPEN_MISERE)
    op = contract_terms(iwwa, OPEN_PIEK)
    assert (om.leader, op.leader) == ("forehand", "bidder")  # I-12
    assert om.reveal_after_cards == op.reveal_after_cards == 5
    pr = contract_terms(iwwa, OPEN_PIEK_PRAATJE)
    assert (pr.leader, pr.visibility, pr.talk_after_cards) == ("bidder", "all_open", 5)
    assert visibility_label(om) == "bidder's hand open after card 5"
    v05 = get_ruleset("book", open_after_tricks=3)
    assert contract_terms(v05, OPEN_MISERE).reveal_after_cards == 12
    assert contract_terms(v05, OPEN_MISERE_PRAATJE).reveal_after_cards == 0
    v06 = get_ruleset("book", open_leader="forehand")
    assert contract_terms(v06, OPEN_MISERE).leader == "forehand"
    assert contract_terms(v06, OPEN_PIEK_PRAATJE).leader == "forehand"
    only_misere = get_ruleset("book", join_all_forms=False)
    assert not contract_terms(only_misere, PIEK).joinable
    assert contract_terms(only_misere, MISERE).joinable


def test_first_leader():
    book, iwwa = get_ruleset(), get_ruleset("iwwa2024")
    assert first_leader(book, RIK, (2,), forehand=1) == 1
    assert first_leader(book, MISERE, (2, 3), forehand=1) == 1
    assert first_leader(book, OPEN_MISERE, (3, 0), forehand=1) == 3  # first open bidder leads
    assert first_leader(iwwa, OPEN_MISERE, (3,), forehand=1) == 1
    assert first_leader(iwwa, OPEN_PIEK, (3,), forehand=1) == 3
    with pytest.raises(RulesError):
        first_leader(book, OPEN_PIEK, (), forehand=0)


def test_malheur_trump_choices_v04():
    book = get_ruleset()
    assert malheur_trump_choices(book, card(CLUBS, ACE)) == (0, 1, 2, 3)
    v04 = get_ruleset("book", malheur_trump_may_be_partner_suit=False)
    assert malheur_trump_choices(v04, card(CLUBS, ACE)) == (0, 1, 2)
    assert malheur_trump_choices(v04, card(HEARTS, KING)) == (0, 2, 3)
    with pytest.raises(RulesError):
        malheur_trump_choices(book, 52)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("book:malheur=optional,malheur=obligatory", "'malheur' given twice"),
        ("book:min_alone=8,,malheur=optional", "empty rule switch"),
        ("book:min_alone=8,", "empty rule switch"),
        ("book:open_leader=declarer,open_piek_leader=declarer", "both given"),
    ],
)
def test_an_ambiguous_rule_spec_is_refused(spec, message):
    # which value was meant cannot be told: never the last one silently
    with pytest.raises(RulesError, match=message):
        parse_ruleset(spec)
