"""The decision at the table: what each legal call is worth to this seat, given the auction.

:func:`analyse_at_table` samples the other three hands conditioned on the calls made so far
(:class:`~analyser.auction.conditioned.ConditionedDeals`), evaluates the bids legal now on
those deals (:func:`analyser.analysis.evaluate.analyse_hand`: P(make) with its 95 % interval,
the expected score as declarer) and adds the decision: for every legal call, pass included,
this seat's expected score **when the auction ends there** (the seats after it pass):

* **a bid** (not joining): the contract is this seat's, and its value is the bid's expected
  score as declarer from the analysis, on the same conditioned deals.
* **pass**: the standing bid plays, by whoever bid it, and this seat scores as a defender or,
  where it holds the called card, as the partner. How the declarer plays it is the bidding
  model's (:mod:`analyser.auction.model`): a rikker names trump by G-RIK-02 and calls by
  G-ACE-02 (so on a deal where this hand holds the card he calls, it is his partner); a lone
  player names the trump with his best book count (hearts for beter); a malheur partner names
  trump by G-MAL-07 (the 4th ace's holder, or with four aces the first missing king). The
  standing bid's P(make) is given with its interval. With no bid standing, a pass scores 0
  (the deal is thrown in when everyone passes; the games of V-09 / I-13 are not scored).
* **joining** a misère (or piek) form: every declarer settles with each other player on his
  own (docs/rules.md §6), so this seat's score is its own result plus its settlement with the
  declarers already in it.

Scores follow the rule set's table (:func:`analyser.rules.score`) per deal, from the
double-dummy trick count of the declaring side. As in :mod:`analyser.analysis.evaluate`, the
trick counts a score needs are made on a subsample (the first 60 deals and 15 of each stratum
made / failed / given up) and the expected score is the stratified mean with its 95 %
interval. Misère and piek declarers are each solved as the only declarer, also when several
play (the joint play of ``rikken misere --with-seat`` is not used here: a simplification,
noted). The figures are double-dummy: the defenders (and the rikker) see every card.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from analyser.analysis.adaptive import sampling_plan
from analyser.analysis.evaluate import analyse_hand
from analyser.analysis.families.sample import EXACT_PREFIX, STRATUM_MIN
from analyser.analysis.positions import NODE_BUDGET, PositionStore
from analyser.analysis.results import HandAnalysis
from analyser.auction.calls import Turn, read_auction
from analyser.auction.conditioned import ConditionedDeals
from analyser.auction.model import BiddingModel, get_model
from analyser.cards import SUIT_BITS, SUIT_MASK, masks_to_owner, suit_of
from analyser.errors import RikkenError
from analyser.guidelines.hand import masks_cards
from analyser.progress import Progress
from analyser.rules import (
    PASS,
    AuctionState,
    Contract,
    RuleSet,
    contract_terms,
    first_leader,
    legal_bids,
    malheur_partner_cards,
    malheur_trump_choices,
    score,
)
from analyser.seats import FOREHAND, Place, Seat, place_of, seat_of
from analyser.stats import Estimate, stratified_mean

TAG_STANDING = "standing bid"
DEFAULT_PASS_DEALS = 200  # a pass with nothing else to evaluate, on a fixed sample


@dataclass
class CallValue:
    """One legal call and what it is worth to this seat when the auction ends there."""

    call: Contract
    expected_score: float
    ci: tuple[float, float]
    deals: int
    plays: str
    """Which contract plays, and by whom (``rik by seat 1``, ``misere by seat 3``, ...)."""
    estimate: Estimate | None = None
    """P(make) of the contract that plays (the standing bid for a pass; none: thrown in)."""
    score_is_bound: bool = False
    notes: list[str] = field(default_factory=list)


@dataclass
class TableAnalysis:
    """``rikken analyse HAND --seat S --auction ...``: the analysis on the conditioned deals
    and the decision."""

    auction: str
    """The calls as given."""
    calls: list[Contract]
    turns: list[Turn]
    state: AuctionState
    model: BiddingModel
    analysis: HandAnalysis
    acceptance: float
    accepted: int
    raw: int
    acceptance_ci: tuple[float, float]
    decision: list[CallValue]
    best: str
    notes: list[str] = field(default_factory=list)


def analyse_at_table(
    hand: list[int],
    seat: Place,
    ruleset: RuleSet,
    auction: str,
    model: str | BiddingModel = "book",
    deals: int | None = None,
    seed: int = 1,
    precision: float | None = None,
    max_deals: int | None = None,
    min_p: float = 0.5,
    quiet: bool = True,
    threads: int | None = None,
    max_nodes: int = NODE_BUDGET,
    deal_model: str = "uniform",
) -> TableAnalysis:
    """The analysis of ``hand`` at ``seat`` (1..4 from the dealer) after ``auction`` (the
    calls from seat 1 on, up to this seat's turn), and the decision (module docstring).
    ``deal_model``: the raw deals the auction filters, ``uniform`` or ``cut_only``
    (:mod:`analyser.deal_draw`: as an unshuffled table deals them around this hand)."""
    from analyser.analysis.bids import aces_held

    if not isinstance(model, BiddingModel):
        model = get_model(model)
    me = seat_of(seat)
    aces = aces_held(list(hand))
    calls, turns, state = read_auction(ruleset, auction, me, aces)
    if state.finished:
        raise RikkenError(f"the auction '{auction}' is over: no call is left to decide")
    if state.turn != me:
        raise RikkenError(
            f"after '{auction or 'no calls'}' it is seat {place_of(state.turn)}'s turn, not "
            f"seat {seat}'s (the calls are given from seat 1 on, up to this seat's turn)"
        )
    legal = legal_bids(ruleset, state, me, aces)
    known = [[] for _ in range(4)]
    known[me] = list(hand)
    draw = None
    if deal_model != "uniform":
        from analyser.deal_draw import deal_source

        draw = deal_source(deal_model, list(hand), seat, seed)
    source = ConditionedDeals(ruleset, model, turns, known, seed, me, draw=draw)
    source.take(0, 1)  # refuses a nearly impossible auction before any solving
    analysis = analyse_hand(
        hand,
        seat,
        ruleset,
        deals=deals,
        seed=seed,
        precision=precision,
        max_deals=max_deals,
        min_p=min_p,
        quiet=quiet,
        threads=threads,
        max_nodes=max_nodes,
        deal_source=source.take,
        legal=legal,
        deal_model=deal_model,
        # the pass is valued by the other declarer's double-dummy play: the bids are weighed
        # on the same footing
        play="double-dummy",
    )
    if analysis.interrupted:
        # the decision table also needs the standing bid's figure (more solving): a run
        # stopped with Ctrl-C has no decision to report
        raise KeyboardInterrupt
    plan = sampling_plan(deals, precision, max_deals)
    n = analysis.n_deals or (plan.limit if not plan.adaptive else DEFAULT_PASS_DEALS)
    n = min(n, plan.limit)
    decision: list[CallValue] = []
    with Progress(0, f"seat {seat}: the standing bid", quiet=quiet) as progress:
        store = PositionStore(
            source.take(0, n),
            discard_ok=ruleset.called_card_may_be_discarded,
            threads=threads,
            progress=progress,
            max_nodes=max_nodes,
        )
        # a pass's figure is made on the same deals as the bids; adaptive sampling adds
        # deals while the standing bid's P(make) is wider than the precision
        while True:
            value = _play_value(store, ruleset, model, state, me, joining=False)
            e = value.estimate
            if (
                not plan.adaptive
                or e is None
                or plan.settled([e.sampling_half_width], store.n)
                or store.n >= plan.limit
            ):
                break
            size = plan.next_size(store.n, plan.deals_needed(e.p))
            store.extend(source.take(store.n, size - store.n))
        by_id = {b.spec.contract: b for b in analysis.bids}
        for call in legal:
            if call.is_pass:
                decision.append(dataclasses.replace(value, call=PASS))
            elif call == state.current:
                joined = _play_value(store, ruleset, model, state, me, joining=True)
                decision.append(dataclasses.replace(joined, call=call))
            elif call in by_id:
                b = by_id[call]
                decision.append(
                    CallValue(
                        call=call,
                        expected_score=b.expected_score,
                        ci=b.expected_score_ci,
                        deals=b.estimate.n,
                        plays=f"{ruleset.display_name(call)} by seat {seat} (this hand)",
                        estimate=b.estimate,
                        score_is_bound=b.score_is_bound,
                    )
                )
    best = max(decision, key=lambda v: (v.expected_score, v.call.is_pass)).call.id
    analysis.recommended_opening = best
    low, high = source.acceptance_interval
    result = TableAnalysis(
        auction=auction,
        calls=calls,
        turns=turns,
        state=state,
        model=model,
        analysis=analysis,
        acceptance=source.acceptance,
        accepted=source.accepted,
        raw=source.raw,
        acceptance_ci=(low, high),
        decision=decision,
        best=best,
    )
    result.notes.append(
        f"deals conditioned on the auction: {source.describe()}; {model.description}"
    )
    result.notes.append(
        "decision: each call's expected score for this seat when the auction ends there "
        "(the later seats pass); a pass lets the standing bid play"
    )
    left = [c.id for c in legal if not c.is_pass and c != state.current and c not in by_id]
    if left:
        result.notes.append("legal but never open to this hand (not evaluated): " + ", ".join(left))
    return result


def _counted(strata: np.ndarray) -> np.ndarray:
    """The deals whose trick counts are made: the first EXACT_PREFIX and STRATUM_MIN of
    every stratum (as :mod:`analyser.analysis.evaluate`)."""
    out = np.arange(strata.size) < EXACT_PREFIX
    for h in np.unique(strata):
        out[np.flatnonzero(strata == h)[:STRATUM_MIN]] = True
    return out


def _play_value(
    store: PositionStore,
    rs: RuleSet,
    model: BiddingModel,
    state: AuctionState,
    me: Seat,
    joining: bool,
) -> CallValue:
    """This seat's value when the standing bid plays (``joining``: with this seat joined)."""
    c = state.current
    n = store.n
    if c is None:
        return CallValue(
            PASS,
            0.0,
            (0.0, 0.0),
            n,
            "nothing (no bid stands: thrown in if all pass)",
            notes=[
                "a pass with no bid standing scores 0 (simplification: the later seats "
                "are assumed to pass too)"
            ],
        )
    declarers = tuple(state.declarers) + ((me,) if joining else ())
    who = ", ".join(str(place_of(d)) for d in declarers)
    plays = f"{rs.display_name(c)} by seat {who}"
    if c.is_null:
        return _null_value(store, rs, c, declarers, me, plays)
    if joining:
        raise RikkenError(f"{c.id} cannot be joined")  # pragma: no cover (legal_bids)
    return _trick_value(store, rs, model, c, declarers[0], me, plays)


def _null_value(store, rs, c, declarers, me, plays) -> CallValue:
    from analyser.solver import GOAL_MISERE, GOAL_PIEK

    n = store.n
    idx = np.arange(n)
    goal = GOAL_MISERE if c.is_misere else GOAL_PIEK
    leader = first_leader(rs, c, declarers, FOREHAND)
    terms = contract_terms(rs, c)
    low = np.zeros(n)
    high = np.zeros(n)
    first_ok = None
    strata = np.zeros(n, dtype=np.int64)
    for d in declarers:
        ok = store.null_goal(idx, goal, leader, 1 << d, TAG_STANDING)
        if first_ok is None:
            first_ok = ok
        made = score(rs, c, terms.target, (d,))[me]
        failed = score(rs, c, terms.target + 1, (d,))[me]
        low += np.where(ok == 1, made, np.where(ok == 0, failed, min(made, failed)))
        high += np.where(ok == 1, made, np.where(ok == 0, failed, max(made, failed)))
        strata = strata * 3 + (ok.astype(np.int64) + 1)
    point, a, b = stratified_mean(strata, np.ones(n, dtype=bool), low, high)
    notes = []
    if len(declarers) > 1:
        notes.append(
            "several declarers: each is solved as the only misère/piek player (the joint "
            "play is not modelled here)"
        )
    return CallValue(
        PASS, point, (a, b), n, plays, estimate=Estimate.of_answers(first_ok), notes=notes
    )


def _singleton_void(deals, partner, c: int, discard_ok: bool) -> np.ndarray:
    """The called card per deal for the solver: -1 where it is its holder's only card of the
    suit and the rule set lets it be discarded (no duty; as the evaluation does)."""
    n = deals.shape[0]
    out = np.full(n, c, dtype=np.int64) if np.ndim(c) == 0 else np.asarray(c, np.int64).copy()
    if not discard_ok:
        return out
    suits = np.array([suit_of(int(x)) for x in out], dtype=np.int64)
    held = (deals[np.arange(n), partner] >> (SUIT_BITS * suits)) & SUIT_MASK
    return np.where((held & (held - 1)) == 0, -1, out)


def _trick_value(store, rs, model, c: Contract, bidder: Seat, me: Seat, plays) -> CallValue:
    n = store.n
    deals = store.deals
    idx = np.arange(n)
    owner = masks_to_owner(deals).astype(np.int64)
    terms = contract_terms(rs, c)
    target = terms.target
    leader = first_leader(rs, c, (bidder,), FOREHAND)
    partner = np.full(n, -1, dtype=np.int64)
    called = np.full(n, -1, dtype=np.int64)
    notes: list[str] = []
    masks = deals[:, bidder]
    if c.kind == "rik":
        trump = model.trump(rs, c, masks)
        card_ = model.called_card(rs, masks, trump)
        partner = owner[idx, card_]
        called = _singleton_void(deals, partner, card_, rs.called_card_may_be_discarded)
        mine = partner == me
        notes.append(
            f"the rikker's trump G-RIK-02 and call G-ACE-02 (the book model); this hand holds "
            f"the called card on {int(mine.sum())} of {n} deals and is then his partner"
        )
    elif c.kind == "malheur":
        trump = np.zeros(n, dtype=np.int64)
        card_ = np.zeros(n, dtype=np.int64)
        from analyser.analysis.choice import malheur_partner_trump

        for i, cards in enumerate(masks_cards(masks)):
            pc = malheur_partner_cards(cards)[0]
            card_[i] = pc
            p = owner[i, pc]
            partner[i] = p
            trump[i] = malheur_partner_trump(
                deals[i : i + 1], np.array([p]), cards, malheur_trump_choices(rs, pc)
            )[0]
        if terms.called_card_must_be_played:
            called = _singleton_void(deals, partner, card_, rs.called_card_may_be_discarded)
        notes.append(
            "the malheur partner (4th ace, or the first missing king) names trump by G-MAL-07"
        )
    else:  # alone, solo
        trump = model.trump(rs, c, masks)
    decl = (1 << bidder) | np.where(partner >= 0, 1 << np.maximum(partner, 0), 0)
    ok = np.zeros(n, dtype=np.int8)
    for t in np.unique(trump):
        m = trump == t
        ok[m] = store.at_least(idx[m], int(t), leader, decl[m], called[m], target, TAG_STANDING)
    role = np.where(partner == me, 1, 0)
    strata = (ok.astype(np.int64) + 1) * 2 + role
    counted = _counted(strata)
    lo = np.zeros(n, dtype=np.int64)
    hi = np.full(n, 13, dtype=np.int64)
    for t in np.unique(trump):
        for cc in np.unique(called[trump == t]):
            m = (trump == t) & (called == cc)
            lo[m], hi[m] = store.known_range(idx[m], int(t), leader, decl[m], int(cc))
            m &= counted & (ok >= 0)
            if m.any():
                lo[m], hi[m] = store.trick_range(
                    idx[m], int(t), leader, decl[m], int(cc), TAG_STANDING
                )
    other = next(s for s in range(4) if s not in (bidder, me))
    if c.is_partnership:
        as_partner = np.array([score(rs, c, t, (bidder,), me)[me] for t in range(14)])
        as_defender = np.array([score(rs, c, t, (bidder,), other)[me] for t in range(14)])
    else:
        as_partner = as_defender = np.array([score(rs, c, t, (bidder,))[me] for t in range(14)])
    table = np.where(role[:, None] == 1, as_partner[None, :], as_defender[None, :])
    a = table[idx, np.clip(lo, 0, 13)]
    b = table[idx, np.clip(hi, 0, 13)]
    point, low, high = stratified_mean(strata, counted, np.minimum(a, b), np.maximum(a, b))
    return CallValue(
        PASS, point, (low, high), n, plays, estimate=Estimate.of_answers(ok), notes=notes
    )
