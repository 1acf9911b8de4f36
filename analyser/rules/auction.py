"""The auction: whose turn it is, which bids are legal, when it ends and who declares.

Public API:

* :class:`AuctionState` — immutable; ``AuctionState.start(forehand)`` opens an auction (the
  forehand ``F = left(dealer)`` speaks first, R-BID-01); ``state.apply(ruleset, bid, aces_held)``
  returns the state after the player on turn bids or passes (RulesError if illegal).
  ``finished``, ``thrown_in`` (four passes), ``contract`` and ``declarers`` (the first bidder of
  the final contract, then any joiners, R-BID-04 / R-BID-08) describe the outcome.
  ``AuctionState.start(forehand, announcement)`` opens a wiezen auction after a troel or
  troela announcement (W-03, :func:`troel_announcement`).
* :func:`legal_bids` ``(ruleset, state, seat, aces_held)`` — the bids open to ``seat``
  (docs/rules.md §4 pseudo-code): strictly higher than the current bid (R-BID-02), or joining a
  joinable contract (R-BID-08, R-MIS-02); alone bids only after a rik (R-BID-06; solo too under
  iwwa); beter rik only over another player's rik (R-BID-07); malheur only with 3+ aces and,
  when obligatory, forced at the first turn unless outbid (R-MAL-01/02); iwwa's one-step rule
  for alone bids (I-04); the V-08 forced bid. wiezen: going along with an ask (meegaan) joins
  it, one partner at most (W-07); an unanswered ask gives its bidder the choice between alone
  5 and giving up (W-08); troel and troela are announced, never bid (W-03). ``pass`` comes
  first, then the ladder order.
* :func:`declarable_contracts` ``(ruleset, aces_held, turn_order)`` — the contracts a player
  can bid in some auction at all: with 3-4 aces under an obligatory malheur only malheur and
  what ranks above it (R-MAL-01/02); never beter rik for the forehand (R-BID-07); wiezen: with
  3 aces troel, with 4 troela, and what ranks above them (W-03, W-06).
* :func:`troel_announcement` ``(ruleset, aces)`` — who announces troel or troela before a
  wiezen auction (W-03), or None.
* :func:`run_auction` — apply a whole sequence of bids (ids or contracts) from the start (after
  the troel announcement the aces call for).
* :func:`next_dealer` — who deals next (R-DEAL-02; V-07 after four passes).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from analyser.cards import N_SEATS, NORTH, left_of
from analyser.errors import RulesError
from analyser.rules.contracts import BETER_RIK, MALHEUR, PASS, RIK, Contract, alone
from analyser.rules.ruleset import RuleSet
from analyser.seats import Seat

# A bid is final once this many passes (skipped players included) follow it (R-BID-04).
PASSES_TO_END = N_SEATS - 1
_NORTH = Seat(NORTH)  # the default forehand


@dataclass(frozen=True)
class AuctionState:
    """The auction so far. Build with :meth:`start`; advance with :meth:`apply`."""

    forehand: Seat = _NORTH
    turn: Seat = _NORTH
    """Seat to act next (meaningless once ``finished``)."""
    current: Contract | None = None
    """The highest bid so far (None before the first bid)."""
    declarers: tuple[Seat, ...] = ()
    """Bidders of ``current`` in bidding order: the first bidder, then the joiners."""
    passed: frozenset[Seat] = frozenset()
    rik_bidders: frozenset[Seat] = frozenset()
    """Seats that bid plain rik in this auction (R-BID-06, R-BID-07)."""
    spoken: frozenset[Seat] = frozenset()
    """Seats that have had a turn (R-MAL-01 applies at a seat's first turn)."""
    passes_since_bid: int = 0
    """Consecutive passes after the last bid, passed players skipped counting as passes."""
    history: tuple[tuple[Seat, Contract], ...] = ()
    """The bids and passes made in the auction, in order (an announcement is not one)."""
    finished: bool = False
    announcement: tuple[Seat, Contract] | None = None
    """W-03: the troel or troela announced before the auction, and by whom."""

    @classmethod
    def start(
        cls, forehand: Seat = _NORTH, announcement: tuple[Seat, Contract] | None = None
    ) -> AuctionState:
        """A fresh auction in which ``forehand`` (left of the dealer) speaks first.

        With an ``announcement`` ``(seat, contract)`` (W-03: troel or troela, see
        :func:`troel_announcement`) that contract stands as the first bid of ``seat`` and the
        player left of him speaks first (W-06 UNSPECIFIED: the others get their chance to
        outbid it in turn from there)."""
        _check_seat(forehand)
        if announcement is None:
            return cls(forehand=forehand, turn=forehand)
        seat, contract = announcement
        _check_seat(seat)
        if not isinstance(contract, Contract) or contract.is_pass:
            raise RulesError(f"an announcement needs a contract, got {contract!r}")
        return cls(
            forehand=forehand,
            turn=Seat(left_of(seat)),
            current=contract,
            declarers=(Seat(seat),),
            spoken=frozenset({Seat(seat)}),
            announcement=(Seat(seat), contract),
        )

    @property
    def asker_decides(self) -> bool:
        """True when everyone else passed an ask nobody went along with: its bidder, on
        turn, plays alone (the rule set's fallback, alone 5) or passes, and then the deal
        is thrown in (W-08)."""
        return (
            not self.finished
            and self.current is not None
            and self.passes_since_bid >= PASSES_TO_END
        )

    @property
    def thrown_in(self) -> bool:
        """True when all four passed without a bid (R-BID-05)."""
        return self.finished and self.current is None

    @property
    def contract(self) -> Contract | None:
        """The final contract once the auction is over (None if thrown in or still running)."""
        return self.current if self.finished else None

    def first_turn(self, seat: Seat) -> bool:
        """True if ``seat`` has not spoken yet in this auction."""
        return seat not in self.spoken

    def legal(self, ruleset: RuleSet, aces_held: int = 0) -> list[Contract]:
        """The legal bids of the seat on turn (see :func:`legal_bids`)."""
        return legal_bids(ruleset, self, self.turn, aces_held)

    def apply(self, ruleset: RuleSet, bid: Contract | str, aces_held: int = 0) -> AuctionState:
        """The state after the seat on turn makes ``bid``; RulesError if it is illegal."""
        b = ruleset.parse(bid)
        if self.finished:
            raise RulesError("the auction is over; no more bids")
        seat = self.turn
        legal = legal_bids(ruleset, self, seat, aces_held)
        if b not in legal:
            names = ", ".join(c.id for c in legal)
            raise RulesError(f"{b.id} is not legal for seat {seat} here; legal: {names}")

        current, declarers = self.current, self.declarers
        passed, riks, count = self.passed, self.rik_bidders, self.passes_since_bid
        if b.is_pass:
            if self.asker_decides:
                current, declarers = None, ()  # W-08: the asker gives up; thrown in
            passed = passed | {seat}
            count += 1
        else:
            joining = b == current
            declarers = declarers + (seat,) if joining else (seat,)
            current, count = b, 0
            if b == RIK:
                riks = riks | {seat}

        # Move to the next seat that may still speak; skipped (passed) players count as passes.
        finished = False
        nxt = left_of(seat)
        for _ in range(N_SEATS):
            if current is None:
                finished = len(passed) == N_SEATS
                break
            if count >= PASSES_TO_END:
                finished = True
                break
            if nxt not in passed:
                break
            count += 1
            nxt = left_of(nxt)
        if finished and current in ruleset.ask_fallbacks and len(declarers) == 1:
            finished, nxt = False, declarers[0]  # W-08: nobody went along; the asker decides
        return replace(
            self,
            turn=nxt,
            current=current,
            declarers=declarers,
            passed=passed,
            rik_bidders=riks,
            spoken=self.spoken | {seat},
            passes_since_bid=count,
            history=self.history + ((seat, b),),
            finished=finished,
        )


def legal_bids(
    ruleset: RuleSet, state: AuctionState, seat: Seat, aces_held: int = 0
) -> list[Contract]:
    """Bids open to ``seat`` (holding ``aces_held`` aces) in ``state``.

    ``pass`` first, then ladder order. Empty when the auction is over or the seat has passed
    (R-BID-03). RulesError for a seat that holds the aces of a contract the rule set has
    announced before the auction when the state has no announcement (W-03).
    """
    _check_seat(seat)
    _check_aces(aces_held)
    if state.finished or seat in state.passed:
        return []
    rs = ruleset
    if state.asker_decides:
        return [PASS, rs.ask_fallbacks[state.current]]  # W-08
    for c in rs.announced:
        if aces_held in c.aces_needed and state.announcement is None:
            raise RulesError(
                f"seat {seat} holds {aces_held} aces: {c.id} is announced before the auction "
                "(W-03); start it with AuctionState.start(forehand, announcement)"
            )
    current_rank = rs.rank(state.current)
    fallbacks = set(rs.ask_fallbacks.values())
    out = [PASS]
    for b in rs.contracts:
        if b in rs.announced or b in fallbacks:
            continue  # W-03: announced, never bid; W-08: only after an unanswered ask
        higher = rs.rank(b) > current_rank
        join = (
            b in rs.joinable
            and b == state.current
            and seat not in state.declarers
            and len(state.declarers) < rs.join_limit(b)
        )
        if join and b in rs.ask_fallbacks and rs.meegaan == "next":
            join = seat == left_of(state.declarers[0])  # W-07 switch: only the next player
        if not (higher or join):
            continue
        if _needs_rik(rs, b) and not state.rik_bidders:
            continue  # R-BID-06; iwwa I-02 for solo
        if b == BETER_RIK and not (state.rik_bidders - {seat}):
            continue  # R-BID-07
        if b.aces_needed and aces_held not in b.aces_needed:
            continue  # malheur: 3 or 4 aces
        if b.is_alone and not rs.jumps and not _one_step(rs, state.current, b):
            continue  # I-04
        out.append(b)

    if (
        rs.malheur == "obligatory"
        and aces_held >= 3
        and state.first_turn(seat)
        and current_rank < rs.rank(MALHEUR)
    ):  # R-MAL-01: bid malheur now (or, by default, something higher); no pass
        floor = rs.rank(MALHEUR)
        if rs.malheur_may_overbid:
            out = [b for b in out if not b.is_pass and rs.rank(b) >= floor]
        else:
            out = [b for b in out if b == MALHEUR]
    if rs.all_pass == "forced_bid" and state.current is None and len(state.passed) == N_SEATS - 1:
        out = [b for b in out if not b.is_pass]  # V-08: the fourth player must bid
    return out


def declarable_contracts(
    ruleset: RuleSet, aces_held: int, turn_order: int | None = None
) -> list[Contract]:
    """The contracts (ladder order) a player dealt ``aces_held`` aces can bid in some auction,
    or announce before it (troel, troela).

    ``turn_order`` is the player's place in the auction, 0 = the forehand (who speaks first)
    to 3 = the dealer; None = any place (the union over the four).

    * Malheur needs 3 or 4 aces. When malheur is obligatory such a hand can bid nothing below
      it: at its first turn it must bid malheur (or, where allowed, something higher) unless a
      bid above malheur was made already (R-MAL-01), every later bid must outrank the current
      one (R-BID-02), and after a pass it may not bid again (R-BID-03).
    * A forehand obliged so bids malheur or higher before anyone else speaks, so nobody can
      bid rik in his auction: he can never bid a contract that needs an earlier rik (alone
      bids under ``alone_needs_rik``, solo under ``solo_needs_rik``, R-BID-06 / I-02).
    * The forehand can never bid beter rik, which needs another player's rik as the current
      bid (R-BID-07): nobody has bid at his first turn; once he has bid, nobody can bid rik
      (a rik can only be outbid); once he has passed he may not bid again. A forehand
      rikker may still choose hearts.

    * wiezen: a hand with 3 aces announces troel, with 4 troela, before the auction (W-03);
      troel and troela need those aces. Once announced, only what ranks above them can
      follow (W-06), and the announcer may bid it once someone has outbid him (R-BID-09).

    Every other contract of the ladder is reachable by some auction (earlier riks by other
    players, say): the tests check this against every auction :func:`legal_bids` allows."""
    _check_aces(aces_held)
    if turn_order is not None:
        _check_seat(turn_order)  # a place in the auction is 0..3 like a seat (0 = forehand)
    rs = ruleset
    out = [c for c in rs.contracts if not c.aces_needed or aces_held in c.aces_needed]
    floor = None
    if rs.malheur == "obligatory" and aces_held >= 3:
        floor = rs.rank(MALHEUR)  # R-MAL-01
    for c in rs.announced:
        if aces_held in c.aces_needed:
            floor = rs.rank(c)  # W-03
    obliged = floor is not None
    if obliged:
        out = [c for c in out if rs.rank(c) >= floor]
    if turn_order == 0:
        out = [c for c in out if c != BETER_RIK]
        if obliged:
            out = [c for c in out if not _needs_rik(ruleset, c)]
    return out


def _needs_rik(ruleset: RuleSet, contract: Contract) -> bool:
    """True if ``contract`` may only be bid after a rik in the auction (R-BID-06, I-02)."""
    if contract.kind == "alone":
        return ruleset.alone_needs_rik
    if contract.kind == "solo":
        return ruleset.solo_needs_rik
    return False


def run_auction(
    ruleset: RuleSet,
    bids: Iterable[Contract | str],
    forehand: Seat = _NORTH,
    aces: Sequence[int] = (0, 0, 0, 0),
) -> AuctionState:
    """Apply ``bids`` in turn order from a fresh auction; ``aces[seat]`` = aces that seat holds."""
    state = AuctionState.start(forehand, troel_announcement(ruleset, aces))
    for bid in bids:
        state = state.apply(ruleset, bid, aces[state.turn])
    return state


def troel_announcement(ruleset: RuleSet, aces: Sequence[int]) -> tuple[Seat, Contract] | None:
    """W-03: the seat that announces troel (3 aces) or troela (4 aces) before the auction,
    with the contract, when the rule set plays them; None when nobody does. ``aces[seat]``
    is the number of aces each seat holds."""
    if len(aces) != N_SEATS:
        raise RulesError(f"aces need one count per seat (4), got {len(aces)}")
    for a in aces:
        _check_aces(a)
    for seat, held in enumerate(aces):
        for c in sorted(ruleset.announced, key=lambda c: c.id):
            if held in c.aces_needed:
                return Seat(seat), c
    return None


def next_dealer(ruleset: RuleSet, dealer: Seat, thrown_in: bool) -> Seat:
    """The next dealer: left of ``dealer`` (R-DEAL-02), or the same one after four passes (V-07)."""
    _check_seat(dealer)
    if thrown_in and ruleset.all_pass == "redeal_same_dealer":
        return dealer
    return Seat(left_of(dealer))


def _one_step(rs: RuleSet, current: Contract | None, b: Contract) -> bool:
    """iwwa I-04: may alone bid ``b`` follow ``current`` without jumping a level?"""
    n = 13 if b.kind == "solo" else b.n
    if b.beter and current == alone(n):
        return True  # N beter over N alone
    if n == rs.min_alone:
        # The lowest level steps over rik / beter rik (or opens, where no rik is needed).
        return current is None or current.kind == "rik"
    if current is not None and current.is_alone:
        cur_n = 13 if current.kind == "solo" else current.n
        if cur_n == n - 1:
            return True  # over (N-1) alone in either colour
    # Over a special game ranked between (N-1) beter and N alone.
    if current is None:
        return False
    low = rs.rank(alone(n - 1, True))
    return low < rs.rank(current) < rs.rank(alone(n))


def _check_seat(seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < N_SEATS:
        raise RulesError(f"a seat must be an int 0..3, got {seat!r}")


def _check_aces(aces_held: int) -> None:
    if isinstance(aces_held, bool) or not isinstance(aces_held, int) or not 0 <= aces_held <= 4:
        raise RulesError(f"aces held must be 0..4, got {aces_held!r}")
