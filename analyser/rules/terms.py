"""What a contract means at the table under a rule set: goal, trump, partner, lead, visibility.

Public API:

* :class:`ContractTerms` and :func:`contract_terms` ``(ruleset, contract, turned=None)`` — the
  data a solver or analyser needs to set up play: the goal (``at_least`` N / ``exactly`` 0 /
  ``exactly`` 1 / ``all`` 13), who the declaring side is (``partnership`` / ``lone`` /
  ``each`` declarer for himself), who names trump and which strains he may name, the partner
  mechanism, who leads to trick 1, what is visible and from which card on, and whether play
  may end early. ``turned`` is the suit of the turned card (wiezen, W-01): required where a
  contract's trump depends on it (vragen, alone 5, abondance, solo, solo slim), refused by a
  rule set without a turned trump.
* :func:`first_leader` ``(ruleset, contract, declarers, forehand, partner=None)`` — the seat
  that leads to trick 1 (R-PLAY-01, R-OPEN-02, V-06, I-12; several open bidders: the first to
  bid leads; wiezen: the abondance player, W-10, and the troel partner, W-04/W-05).
* :func:`malheur_trump_choices` — the suits the malheur partner may name (V-04).
* :func:`troel_trump` — the trump of troel (the partner card's suit) and troela (hearts).
* :func:`visibility_label` — a short text for figure captions, e.g. ``"bidder's hand open"``.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyser.cards import CLUBS, DIAMONDS, HEARTS, N_CARDS, N_SUITS, NOTRUMP, SPADES, suit_of
from analyser.errors import RulesError
from analyser.rules.contracts import NULL_KINDS, Contract, Goal
from analyser.rules.ruleset import RuleSet
from analyser.seats import Seat

SUITS = (SPADES, HEARTS, DIAMONDS, CLUBS)

# Trump rules: who names trump once the auction is over, or what fixes it.
TRUMP_DECLARER, TRUMP_HEARTS, TRUMP_PARTNER, TRUMP_NONE = "declarer", "hearts", "partner", "none"
TRUMP_TURNED = "turned"  # W-01: the suit of the turned card
TRUMP_PARTNER_CARD = "partner_card"  # W-04: the suit of the troel partner card (the 4th ace)
# Partner mechanisms.
PARTNER_CALLED_ACE, PARTNER_MALHEUR, PARTNER_NONE = "called_ace", "malheur", "none"
PARTNER_MEEGAAN = "meegaan"  # W-07: the player who went along with the ask
PARTNER_TROEL = "troel"  # W-04/W-05: the holder of the 4th ace, or of the troela heart
# Declaring sides.
SIDE_PARTNERSHIP, SIDE_LONE, SIDE_EACH = "partnership", "lone", "each"
# Leaders of trick 1.
LEAD_FOREHAND, LEAD_BIDDER, LEAD_PARTNER = "forehand", "bidder", "partner"
# Visibility.
CLOSED, BIDDER_OPEN, ALL_OPEN = "closed", "bidder_open", "all_open"

# Per kind: the declaring side, the partner mechanism and the leader to trick 1. Misère and
# piek in every form are (each, none, forehand); their open forms take the rule set's leader.
KIND_ROLES: dict[str, tuple[str, str, str]] = {
    "rik": (SIDE_PARTNERSHIP, PARTNER_CALLED_ACE, LEAD_FOREHAND),  # R-PLAY-01
    "malheur": (SIDE_PARTNERSHIP, PARTNER_MALHEUR, LEAD_FOREHAND),  # R-MAL-04
    "alone": (SIDE_LONE, PARTNER_NONE, LEAD_FOREHAND),  # R-PLAY-01; wiezen alone 5 as well
    "solo": (SIDE_LONE, PARTNER_NONE, LEAD_FOREHAND),  # wiezen W-13: UNSPECIFIED -> forehand
    "vragen": (SIDE_PARTNERSHIP, PARTNER_MEEGAAN, LEAD_FOREHAND),  # W-07
    "abondance": (SIDE_LONE, PARTNER_NONE, LEAD_BIDDER),  # W-10: the declarer leads
    "troel": (SIDE_PARTNERSHIP, PARTNER_TROEL, LEAD_PARTNER),  # W-04: he leads the 4th ace
    "troela": (SIDE_PARTNERSHIP, PARTNER_TROEL, LEAD_PARTNER),  # W-05: he leads his heart
}
_NULL_ROLES = (SIDE_EACH, PARTNER_NONE, LEAD_FOREHAND)
# Under a rule set with a turned trump these kinds are played in it (W-07, W-08); the turned
# forms of abondance and solo (``Contract.turned``) are too (W-10, W-13).
TURNED_TRUMP_KINDS = frozenset({"vragen", "alone"})
# Kinds whose trump is one fixed suit or comes from the partner card.
FIXED_TRUMP: dict[str, tuple[str, tuple[int, ...]]] = {
    "malheur": (TRUMP_PARTNER, SUITS),  # R-MAL-04: the partner names any suit (V-04 below)
    "troel": (TRUMP_PARTNER_CARD, SUITS),  # W-04: the suit of the 4th ace, one of the four
    "troela": (TRUMP_HEARTS, (HEARTS,)),  # W-05
    "rik": (TRUMP_DECLARER, SUITS),  # the book allows hearts for plain rik
}


@dataclass(frozen=True, slots=True)
class ContractTerms:
    """The playing terms of one contract under one rule set (see the module docstring)."""

    contract: Contract
    goal: Goal
    side: str
    """``partnership`` (rik, malheur, vragen, troel, troela), ``lone`` (alone, solo,
    abondance) or ``each`` (misère/piek)."""
    trump_rule: str
    """``declarer`` names it, fixed ``hearts``, the malheur ``partner`` names it, the
    ``turned`` suit (W-01), the suit of the troel ``partner_card`` (W-04), or ``none``."""
    trump_choices: tuple[int, ...]
    """Strains the chooser may name (4 = no trump); the one turned suit for ``turned``; the
    four suits for ``partner_card`` (the deal decides which, :func:`troel_trump`). V-04
    further excludes the 4th ace's suit for the malheur partner (see
    ``RuleSet.malheur_trump_may_be_partner_suit``)."""
    partner: str
    """``called_ace`` (rik), ``malheur`` (4th ace or named king), ``meegaan`` (the player
    who went along with the ask), ``troel`` (4th ace or troela heart) or ``none``."""
    called_card_must_be_played: bool
    """The partner card must be played on the first lead of its suit (R-PLAY-05; V-03)."""
    leads_partner_card: bool
    """The partner leads his partner card to trick 1 (troel, troela: W-04, W-05)."""
    leader: str
    """``forehand``, ``bidder`` (the first declarer) or ``partner`` leads to trick 1."""
    visibility: str
    """``closed``, ``bidder_open`` (his hand face up) or ``all_open`` (praatje)."""
    reveal_after_cards: int
    """Cards played before the open hand(s) go face up (0 = before trick 1)."""
    talk_after_cards: int | None
    """Praatje: cards played before the defenders may discuss; None = never."""
    ends_early: bool
    """Play may stop before trick 13 (misère/piek failure, R-MIS-03)."""
    joinable: bool
    """Further players may bid the same contract while it is highest (R-BID-08, W-07)."""

    @property
    def target(self) -> int:
        """Tricks in the goal (8, 9, N, 13, 0 or 1)."""
        return self.goal.n


def contract_terms(
    ruleset: RuleSet, contract: Contract | str, turned: int | None = None
) -> ContractTerms:
    """The :class:`ContractTerms` of ``contract``; RulesError if the rule set lacks it, if
    its trump depends on the turned card and ``turned`` (its suit, 0..3) is missing, or if
    ``turned`` is given to a rule set without a turned trump (W-01)."""
    c = ruleset.parse(contract)
    if c.is_pass:
        raise RulesError("'pass' is not a playable contract")
    ruleset.rank(c)  # raises if the contract is not played under this rule set
    _check_turned(ruleset, turned)
    side, partner, leader = _roles(ruleset, c)
    trump_rule, choices = _trump(ruleset, c, turned)

    if c.kind == "rik":
        must_play = True
    elif c.kind == "malheur":
        must_play = ruleset.malheur_card_must_be_played
    else:
        must_play = partner == PARTNER_TROEL  # led to trick 1 (W-04, W-05)

    visibility, reveal, talk = CLOSED, 0, None
    if c.is_open:
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
        leads_partner_card=leader == LEAD_PARTNER,
        leader=leader,
        visibility=visibility,
        reveal_after_cards=reveal,
        talk_after_cards=talk,
        ends_early=c.is_null,
        joinable=c in ruleset.joinable,
    )


def first_leader(
    ruleset: RuleSet,
    contract: Contract | str,
    declarers: tuple[Seat, ...],
    forehand: Seat,
    partner: Seat | None = None,
) -> Seat:
    """The seat leading to trick 1: the forehand, the first declarer where the bidder leads,
    or the ``partner`` (the holder of the troel partner card, W-04/W-05)."""
    c = ruleset.parse(contract)
    if c.is_pass:
        raise RulesError("'pass' is not a playable contract")
    ruleset.rank(c)
    leader = _roles(ruleset, c)[2]
    if leader == LEAD_BIDDER:
        if not declarers:
            raise RulesError(f"{c.id} needs its declarer(s) to know who leads")
        return Seat(int(declarers[0]))
    if leader == LEAD_PARTNER:
        if partner is None:
            raise RulesError(f"{c.id} is led by the partner: give his seat (partner=...)")
        return Seat(int(partner))
    return Seat(int(forehand))


def troel_trump(ruleset: RuleSet, contract: Contract | str, partner_card: int) -> int:
    """The trump of troel, the suit of the partner card (the 4th ace, W-04), or of troela,
    hearts (W-05); ``partner_card`` from :func:`~analyser.rules.called_card.troel_partner_card`."""
    _check_card(partner_card)
    c = ruleset.parse(contract)
    ruleset.rank(c)  # raises if the rule set does not play it
    if c.kind == "troel":
        return suit_of(partner_card)
    if c.kind == "troela":
        return HEARTS
    raise RulesError(f"{c.id} is not troel or troela")


def _roles(ruleset: RuleSet, c: Contract) -> tuple[str, str, str]:
    """(side, partner mechanism, leader rule) of ``c`` (:data:`KIND_ROLES`; open forms:
    R-OPEN-02, V-06, I-12, W-12)."""
    if c.kind in NULL_KINDS:
        side, partner, leader = _NULL_ROLES
        if c.is_open:
            leader = ruleset.open_misere_leader if c.is_misere else ruleset.open_piek_leader
        return side, partner, leader
    return KIND_ROLES[c.kind]


def _trump(ruleset: RuleSet, c: Contract, turned: int | None) -> tuple[str, tuple[int, ...]]:
    """(trump rule, strains) of ``c`` (§3, R-MIS-01, W-01, W-04/W-05, W-10, W-13)."""
    if c.is_null:
        return TRUMP_NONE, (NOTRUMP,)
    if c.beter:
        return TRUMP_HEARTS, (HEARTS,)
    if c.turned or (ruleset.turned_trump and c.kind in TURNED_TRUMP_KINDS):
        return TRUMP_TURNED, (_need_turned(ruleset, c, turned),)
    if c.kind in FIXED_TRUMP:
        return FIXED_TRUMP[c.kind]
    # The plain lone bids (alone, solo, abondance): the declarer names trump.
    suits = SUITS if ruleset.plain_may_choose_hearts else (SPADES, DIAMONDS, CLUBS)
    if ruleset.turned_trump and not ruleset.plain_may_choose_turned:
        t = _need_turned(ruleset, c, turned)
        suits = tuple(s for s in suits if s != t)  # the turned suit is the turned form
    if c.kind == "solo" and ruleset.solo_notrump:
        suits = suits + (NOTRUMP,)
    return TRUMP_DECLARER, suits


def _need_turned(ruleset: RuleSet, c: Contract, turned: int | None) -> int:
    if turned is None:
        raise RulesError(
            f"the trump of {c.id} under {ruleset.spec!r} depends on the turned card: "
            "give its suit (turned=0..3)"
        )
    return turned


def _check_turned(ruleset: RuleSet, turned: int | None) -> None:
    if turned is None:
        return
    if not ruleset.turned_trump:
        raise RulesError(f"{ruleset.spec!r} has no turned trump; turned={turned!r} is not valid")
    if isinstance(turned, bool) or not isinstance(turned, int) or not 0 <= turned < N_SUITS:
        raise RulesError(f"the turned suit must be an int 0..3, got {turned!r}")


def _check_card(c: int) -> None:
    if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < N_CARDS:
        raise RulesError(f"a card must be an int 0..51, got {c!r}")


def malheur_trump_choices(ruleset: RuleSet, partner_card: int) -> tuple[int, ...]:
    """Suits the malheur partner may name as trump (R-MAL-04): any, but under V-04
    (``malheur_trump_may_be_partner_suit=False``) not the suit of his partner card (the 4th
    ace, or the named king that takes its role when the malheur player holds all four aces)."""
    _check_card(partner_card)
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
