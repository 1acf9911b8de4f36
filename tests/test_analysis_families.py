"""The registry of contract families: every contract the analysis plays has one family."""

from __future__ import annotations

import pytest

from analyser.analysis.families.registry import Family, families, family_of, register
from analyser.rules import get_ruleset

RULESETS = ("book", "iwwa2024", "wiezen")


@pytest.mark.parametrize("name", RULESETS)
def test_every_contract_of_an_analysed_rule_set_has_one_family(name):
    for contract in get_ruleset(name).contracts:
        if not contract.is_pass:
            assert contract.kind in family_of(contract).kinds


def test_families_have_distinct_names_tags_and_order():
    fams = families()
    for attr in ("name", "tag", "order"):
        values = [getattr(f, attr) for f in fams]
        assert len(set(values)) == len(values), attr
    # the reports list the always-reported tags first, in this order
    assert [f.tag for f in fams] == [
        "rik",
        "alone/solo",
        "misere/piek",
        "malheur",
        "vragen",
        "troel",
    ]
    assert [f.always_reported for f in fams] == [True] * 4 + [False] * 2


def test_a_kind_is_claimed_by_one_family_only():
    class Again(Family):
        name = "again"
        kinds = ("rik",)
        tag = "again"
        order = 999

        def evaluate(self, sample, specs):  # never called: registration is refused first
            return {}

    with pytest.raises(RuntimeError, match="already have a family"):
        register(Again)
    assert "again" not in [f.name for f in families()]
