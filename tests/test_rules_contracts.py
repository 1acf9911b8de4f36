"""Contracts: ids, parsing, goals (docs/rules.md §0, §3)."""

import pytest

from analyser.errors import RulesError
from analyser.rules import (
    BETER_RIK,
    MALHEUR,
    MISERE,
    OPEN_PIEK_PRAATJE,
    PASS,
    PIEK,
    RIK,
    RIKKEN,
    SOLO,
    SOLO_BETER,
    TROELA,
    WIEZEN,
    Contract,
    all_contracts,
    alone,
    goal,
    made,
    parse_contract,
)

CANONICAL_IDS = [
    "pass",
    "rik",
    "beter_rik",
    *[f"alone_{n}{s}" for n in range(7, 13) for s in ("", "_beter")],
    "solo",
    "solo_beter",
    "misere",
    "piek",
    "open_misere",
    "open_piek",
    "open_misere_praatje",
    "open_piek_praatje",
    "malheur",
]


@pytest.mark.parametrize("text", CANONICAL_IDS)
def test_id_round_trip(text):
    c = parse_contract(text)
    assert c.id == text
    assert str(c) == text
    assert eval(repr(c), {"Contract": Contract}) == c


def test_all_contracts_are_distinct_and_cover_the_ids():
    ids = [c.id for c in RIKKEN.contracts]
    assert len(ids) == len(set(ids)) == len(CANONICAL_IDS) - 1  # pass is not a contract
    assert set(ids) | {"pass"} == set(CANONICAL_IDS)
    every = all_contracts()
    assert len(set(every)) == len(every)
    assert set(every) == set(RIKKEN.contracts) | set(WIEZEN.contracts)


@pytest.mark.parametrize(
    "alias, expected",
    [
        ("alone_13", SOLO),
        ("alone_13_beter", SOLO_BETER),
        ("beter_alone_9", alone(9, True)),
        ("ALONE-9-BETER", alone(9, True)),
        ("beter solo", SOLO_BETER),
        ("  Open Piek Praatje ", OPEN_PIEK_PRAATJE),
        ("rik_beter", BETER_RIK),
        ("troela", MALHEUR),
        (" Troela ", MALHEUR),
        ("TROELA", MALHEUR),
        ("troella", MALHEUR),
    ],
)
def test_aliases(alias, expected):
    assert parse_contract(alias) == expected


def test_troela_is_book_family_data():
    """troela is malheur by the book's other name, not everywhere: in the wiezen family it is
    a contract of its own, and wiezen has no malheur."""
    assert parse_contract("troela").id == "malheur"
    assert parse_contract("troela", RIKKEN) == MALHEUR
    assert parse_contract("troela", WIEZEN) == TROELA != MALHEUR
    with pytest.raises(RulesError, match="unknown contract"):
        parse_contract("malheur", WIEZEN)
    with pytest.raises(RulesError, match="unknown contract"):
        parse_contract("troel", RIKKEN)


@pytest.mark.parametrize(
    "bad",
    [
        "alone_6",
        "alone_14",
        "alone",
        "beter_misere",
        "misere_beter",
        "beter_troela",
        "troel",
        "",
        "rik_9",
        7,
    ],
)
def test_bad_ids_raise_rules_error(bad):
    with pytest.raises(RulesError):
        parse_contract(bad)


def test_constructor_validation():
    with pytest.raises(RulesError):
        Contract("alone", 13)
    with pytest.raises(RulesError):
        Contract("misere", beter=True)
    with pytest.raises(RulesError):
        Contract("rik", 8)
    with pytest.raises(RulesError):
        Contract("troel", beter=True)
    with pytest.raises(RulesError):
        Contract("no_such_kind")


def test_contracts_are_hashable_values():
    assert Contract("alone", 9, True) == alone(9, True)
    assert len({alone(9, True), parse_contract("alone_9_beter"), alone(9)}) == 2
    assert {RIK: 1}[parse_contract("rik")] == 1


@pytest.mark.parametrize(
    "c, kind, n",
    [
        (RIK, "at_least", 8),
        (BETER_RIK, "at_least", 8),
        (MALHEUR, "at_least", 8),
        (alone(7), "at_least", 7),
        (alone(12, True), "at_least", 12),
        (SOLO, "all", 13),
        (SOLO_BETER, "all", 13),
        (MISERE, "exactly", 0),
        (PIEK, "exactly", 1),
        (OPEN_PIEK_PRAATJE, "exactly", 1),
        (parse_contract("open_misere"), "exactly", 0),
    ],
)
def test_goals(c, kind, n):
    assert goal(c).kind == kind
    assert c.target == n


def test_made_per_goal_for_every_trick_count():
    for t in range(14):
        assert made(RIK, t) == (t >= 8)
        assert made(alone(10), t) == (t >= 10)
        assert made(SOLO, t) == (t == 13)
        assert made(MISERE, t) == (t == 0)
        assert made(PIEK, t) == (t == 1)


def test_made_rejects_bad_trick_counts_and_pass():
    for bad in (-1, 14, 2.0, True):
        with pytest.raises(RulesError):
            made(RIK, bad)
    with pytest.raises(RulesError):
        made(PASS, 3)


def test_classification_flags():
    assert RIK.is_partnership and MALHEUR.is_partnership and not SOLO.is_partnership
    assert alone(8).is_alone and SOLO.is_alone and not RIK.is_alone
    assert all(c.is_null for c in (MISERE, PIEK, OPEN_PIEK_PRAATJE))
    assert OPEN_PIEK_PRAATJE.is_open and OPEN_PIEK_PRAATJE.is_praatje and OPEN_PIEK_PRAATJE.is_piek
    assert not MISERE.is_open and MISERE.is_misere and not MISERE.is_piek
    assert PASS.is_pass and not RIK.is_pass
