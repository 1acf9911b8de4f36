"""The rules of Rikken as data (docs/rules.md §3-§7): contracts, rule sets, auction, scoring.

Rule sets ``book`` (default), ``iwwa2024`` and ``wiezen`` (the Belgian club rules, §7.4; its
turned card is placed by the sampler, :func:`analyser.sampler.with_turned_card`, and
analysed by :mod:`analyser.analysis.wiezen`).

Modules:

* :mod:`~analyser.rules.contracts` — :class:`Contract` ``(kind, n, beter, turned)``, ids such
  as ``alone_9_beter`` or ``abondance_10_turned``, goals (at least N / exactly 0 / exactly 1 /
  all 13), :func:`made`; the families :data:`RIKKEN` and :data:`WIEZEN` that name them.
* :mod:`~analyser.rules.ruleset` — :class:`RuleSet` (ladder, legality, lead, visibility and
  scoring switches), :func:`get_ruleset` for ``book`` (default), ``iwwa2024`` and ``wiezen``.
* :mod:`~analyser.rules.terms` — :func:`contract_terms`: trump rule, partner mechanism, first
  leader, visibility of a contract under a rule set (``turned``: the turned suit, wiezen);
  :func:`first_leader`, :func:`troel_trump`.
* :mod:`~analyser.rules.auction` — :class:`AuctionState`, :func:`legal_bids`, :func:`run_auction`,
  :func:`troel_announcement`.
* :mod:`~analyser.rules.called_card` — :func:`called_card`, :func:`malheur_partner_cards`,
  :func:`troel_partner_card`.
* :mod:`~analyser.rules.scoring` — :func:`score` (zero-sum, per seat), :func:`declarer_score`,
  :func:`per_opponent`, :func:`payment`, :func:`penalty_score`.
* :mod:`~analyser.rules.all_pass` — the games after four passes (V-09, iwwa I-13).

Typical use::

    rs = get_ruleset("book", min_alone=8)
    st = run_auction(rs, ["rik", "pass", "alone_9", "pass", "pass"])  # East skipped
    st.contract, st.declarers            # alone_9 by seat 2 (South)
    score(rs, st.contract, 10, st.declarers)   # (-2, -2, 6, -2)
"""

from analyser.rules.all_pass import all_pass_games, score_one_of_five, score_schoppen_mie
from analyser.rules.auction import (
    AuctionState,
    declarable_contracts,
    legal_bids,
    next_dealer,
    run_auction,
    troel_announcement,
)
from analyser.rules.called_card import called_card, malheur_partner_cards, troel_partner_card
from analyser.rules.contracts import (
    ALONE_5,
    BETER_RIK,
    FAMILIES,
    MALHEUR,
    MALHEUR_TARGET,
    MISERE,
    OPEN_MISERE,
    OPEN_MISERE_PRAATJE,
    OPEN_PIEK,
    OPEN_PIEK_PRAATJE,
    PASS,
    PIEK,
    RIK,
    RIK_TARGET,
    RIKKEN,
    SOLO,
    SOLO_BETER,
    SOLO_SLIM,
    TROEL,
    TROELA,
    VRAGEN,
    WIEZEN,
    Contract,
    ContractFamily,
    Goal,
    abondance,
    all_contracts,
    alone,
    goal,
    made,
    parse_contract,
)
from analyser.rules.ruleset import (
    RULESET_NAMES,
    RuleSet,
    get_ruleset,
    parse_ruleset,
    switch_names,
)
from analyser.rules.scoring import (
    Payment,
    declarer_score,
    payment,
    penalty_score,
    per_opponent,
    score,
)
from analyser.rules.terms import (
    ContractTerms,
    contract_terms,
    first_leader,
    malheur_trump_choices,
    troel_trump,
    visibility_label,
)

__all__ = [
    "ALONE_5",
    "AuctionState",
    "BETER_RIK",
    "Contract",
    "ContractFamily",
    "ContractTerms",
    "FAMILIES",
    "Goal",
    "MALHEUR",
    "MALHEUR_TARGET",
    "MISERE",
    "OPEN_MISERE",
    "OPEN_MISERE_PRAATJE",
    "OPEN_PIEK",
    "OPEN_PIEK_PRAATJE",
    "PASS",
    "PIEK",
    "Payment",
    "RIK",
    "RIKKEN",
    "RIK_TARGET",
    "RULESET_NAMES",
    "RuleSet",
    "SOLO",
    "SOLO_BETER",
    "SOLO_SLIM",
    "TROEL",
    "TROELA",
    "VRAGEN",
    "WIEZEN",
    "abondance",
    "all_contracts",
    "all_pass_games",
    "alone",
    "called_card",
    "contract_terms",
    "declarable_contracts",
    "declarer_score",
    "first_leader",
    "get_ruleset",
    "goal",
    "legal_bids",
    "made",
    "malheur_partner_cards",
    "malheur_trump_choices",
    "next_dealer",
    "parse_contract",
    "parse_ruleset",
    "payment",
    "penalty_score",
    "per_opponent",
    "run_auction",
    "score",
    "score_one_of_five",
    "score_schoppen_mie",
    "switch_names",
    "troel_announcement",
    "troel_partner_card",
    "troel_trump",
    "visibility_label",
]
