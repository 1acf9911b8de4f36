"""What a contract means at the table under a rule set: goal, trump, partner, lead, visibility.

Public API:

* :class:`ContractTerms` and :func:`contract_terms` ``(ruleset, contract)`` — the data a solver
  or analyser needs to set up play: the goal (``at_least`` N / ``exactly`` 0 / ``exactly`` 1 /
  ``all`` 13), who the declaring side is (``partnership`` / ``lone`` / ``each`` declarer for
  himself), who names trump and which strains he may name, the partner mechanism, who leads to
  trick 1, what is visible and from which card on, and whether play may end early.
* :func:`first_leader` ``(ruleset, contract, declarers, forehand)`` — the seat that leads to
  trick 1 (R-PLAY-01, R-OPEN-02, V-06, I-12; several open bidders: the first to bid leads).
* :func:`malheur_trump_choices` — the suits the malheur partner may name (V-04).
* :func:`visibility_label` — a short text for figure captions, e.g. ``"bidder's hand open"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyser.cards import CLUBS, DIAMONDS, HEARTS, N_CARDS, NOTRUMP, SPADES, suit_of
from analyser.errors import RulesError
from analyser.rules.contracts import Contract, Goal, parse_contract
from analyser.rules.ruleset import RuleSet
from analyser.seats import Seat

SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)

# Trump rules: who names trump once the auction is over.
TRUMP_DECLARER, TRUMP_HEARTS, TRUMP_PARTNER, TRUMP_NONE = "declarer", "hearts", "partner", "none"
# Partner mechanisms.
PARTNER_CALLED_ACE, PARTNER_MALHEUR, PARTNER_NONE = "called_ace", "malheur", "none"
# Declaring sides.
SIDE_PARTNERSHIP, SIDE_LONE, SIDE_EACH = "partnership", "lone", "each"
# Leaders of trick 1.
LEAD_FOREHAND, LEAD_BIDDER = "forehand", "bidder"
# Visibility.
CLOSED, BIDDER_OPEN, ALL_OPEN = "closed", "bidder_open", "all_open"


@dataclass(frozen=True, slots=True)
class ContractTerms:
    """The playing terms of one contract under one rule set (see the module docstring)."""

    contract: Contract
    goal: Goal
    side: str
    """``partnership`` (rik, malheur), ``lone`` (alone, solo) or ``each`` (misère/piek)."""
    trump_rule: str
    """``declarer`` names it, fixed ``hearts``, the malheur ``partner`` names it, or ``none``."""
    trump_choices: tuple[int, ...]
    """Strains the chooser may name (4 = no trump). V-04 further excludes the 4th ace's suit
    for the malheur partner (see ``RuleSet.malheur_trump_may_be_partner_suit``)."""
    partner: str
    """``called_ace`` (rik), ``malheur`` (4th ace or named king) or ``none``."""
    called_card_must_be_played: bool
    """The partner card must be played on the first lead of its suit (R-PLAY-05; V-03)."""
    leader: str
    """``forehand`` or ``bidder`` (the first declarer) leads to trick 1."""
    visibility: str
    """``closed``, ``bidder_open`` (his hand face up) or ``all_open`` (praatje)."""
    reveal_after_cards: int
    """Cards played before the open hand(s) go face up (0 = before trick 1)."""
    talk_after_cards: int | None
    """Praatje: cards played before the defenders may discuss; None = never."""
    ends_early: bool
    """Play may stop before trick 13 (misère/piek failure, R-MIS-03)."""
    joinable: bool
    """Further players may bid the same contract while it is highest (R-BID-08)."""

    @property
    def target(self) -> int:
        """Tricks in the goal (8, N, 13, 0 or 1)."""
        return self.goal.n


def contract_terms(ruleset: RuleSet, contract: Contract | str) -> ContractTerms:
    """The :class:`ContractTerms` of ``contract``; RulesError if the rule set lacks it."""
    c = parse_contract(contract)
    if c.is_pass:
        raise RulesError("'pass' is not a playable contract")
    ruleset.rank(c)  # raises if the contract is not played under this rule set

    if c.kind == "rik":
        side, partner = SIDE_PARTNERSHIP, PARTNER_CALLED_ACE
    elif c.kind == "malheur":
        side, partner = SIDE_PARTNERSHIP, PARTNER_MALHEUR
    elif c.is_alone:
        side, partner = SIDE_LONE, PARTNER_NONE
    else:
        side, partner = SIDE_EACH, PARTNER_NONE

    if c.is_null:
        trump_rule, choices = TRUMP_NONE, (NOTRUMP,)
    elif c.beter:
        trump_rule, choices = TRUMP_HEARTS, (HEARTS,)
    elif c.kind == "malheur":
        trump_rule, choices = TRUMP_PARTNER, SUITS
    elif c.kind == "rik":
        trump_rule, choices = TRUMP_DECLARER, SUITS  # the book allows hearts for plain rik
    else:
        suits = SUITS if ruleset.plain_may_choose_hearts else (SPADES, DIAMONDS, CLUBS)
        if c.kind == "solo" and ruleset.solo_notrump:
            suits = suits + (NOTRUMP,)
        trump_rule, choices = TRUMP_DECLARER, suits

    if c.kind == "rik":
        must_play = True
    elif c.kind == "malheur":
        must_play = ruleset.malheur_card_must_be_played
    else:
        must_play = False

    leader = LEAD_FOREHAND
    visibility, reveal, talk = CLOSED, 0, None
    if c.is_open:
        leader = ruleset.open_misere_leader if c.is_misere else ruleset.open_piek_leader
        if c.is_praatje:
            visibility, reveal = ALL_OPEN, ruleset.praatje_reveal_after_cards
            # Book: talk starts after the first card; iwwa: with the reveal after the 5th.
            talk = max(1, reveal)
        else:
            visibility, reveal = BIDDER_OPEN, ruleset.open_reveal_after_cards

    return ContractTerms(
        contract=c,
        goal=c.goal,
        side=side,
        trump_rule=trump_rule,
        trump_choices=tuple(choices),
        partner=partner,
        called_card_must_be_played=must_play,
        leader=leader,
        visibility=visibility,
        reveal_after_cards=reveal,
        talk_after_cards=talk,
        ends_early=c.is_null,
        joinable=c in ruleset.joinable,
    )


def first_leader(
    ruleset: RuleSet, contract: Contract | str, declarers: tuple[Seat, ...], forehand: Seat
) -> Seat:
    """The seat leading to trick 1: forehand, or the first declarer where the bidder leads."""
    terms = contract_terms(ruleset, contract)
    if terms.leader == LEAD_BIDDER:
        if not declarers:
            raise RulesError(f"{terms.contract.id} needs its declarer(s) to know who leads")
        return Seat(int(declarers[0]))
    return Seat(int(forehand))


def malheur_trump_choices(ruleset: RuleSet, partner_card: int) -> tuple[int, ...]:
    """Suits the malheur partner may name as trump (R-MAL-04): any, but under V-04
    (``malheur_trump_may_be_partner_suit=False``) not the suit of his partner card (the 4th
    ace, or the named king that takes its role when the malheur player holds all four aces)."""
    if isinstance(partner_card, bool) or not isinstance(partner_card, int):
        raise RulesError(f"a card must be an int 0..51, got {partner_card!r}")
    if not 0 <= partner_card < N_CARDS:
        raise RulesError(f"a card must be an int 0..51, got {partner_card!r}")
    if ruleset.malheur_trump_may_be_partner_suit:
        return SUITS
    return tuple(s for s in SUITS if s != suit_of(partner_card))


def visibility_label(terms: ContractTerms) -> str:
    """A short caption text for the visibility of ``terms`` (for figures and tables)."""
    if terms.visibility == CLOSED:
        return "closed"
    what = "bidder's hand open" if terms.visibility == BIDDER_OPEN else "all hands open"
    if terms.reveal_after_cards:
        return f"{what} after card {terms.reveal_after_cards}"
    return what
