"""`rikken misere HAND`: P(misère) in its three forms and why the closed misère fails.

JSON output (``--format json``; stable: fields are only ever added). Keys in this order:

* ``hand``, ``pbn``, ``seat``, ``seat_compass``, ``deals`` (deals sampled), ``seed``,
  ``rules``, ``method`` (``"double-dummy"``) — as in ``rikken analyse``
* ``sampling`` — how the sample size was chosen (fixed, or adaptive with its precision and
  maximum); ``stop_reason`` — why sampling stopped; ``precision`` — the adaptive target or
  null for a fixed sample
* ``node_budget`` — nodes per search before a position is given up; ``given_up`` —
  positions given up there, ``{"make": k, "explain": m}`` (the make-probabilities, the
  failure analysis): they were bounded rather than solved exactly
* ``contracts`` — one object per form the rule set plays (``misere``, ``open_misere``,
  ``open_misere_praatje``; wiezen: no praatje):
  ``contract``, ``leader`` (N E S W), ``p_make`` (the middle of ``p_low`` .. ``p_high``),
  ``p_low`` / ``p_high`` (the proportion if none / all of the ``unknown`` deals made),
  ``unknown`` (deals whose position was given up at the node budget), ``ci_low``,
  ``ci_high`` (95 % Wilson interval, widened over the unknown deals), ``expected_score``
  (the declarer's score at ``p_make``), ``expected_score_ci`` (``[low, high]``: the score
  over the 95 % interval, so the given-up deals and the sampling error together),
  ``exactness`` (``pessimistic`` for closed and open, ``exact`` for praatje)
* ``failures`` — deals on which the closed misère fails; ``explain_limit`` — the most
  failing deals the failure analysis runs on (``--explain``); ``analysed`` — the failing
  deals it ran on (the first in sample order); ``explained`` — those with a forced card;
  ``unexplained_budget`` — those whose line needed a position given up at the node budget;
  ``unexplained`` — those whose line escaped (a solver inconsistency; should be 0)
* ``forced`` — objects ``{"suit", "card", "deals", "share"}``, most frequent first: the card
  with which the declarer is forced to win his first trick (see
  :mod:`analyser.analysis.misere`), ``share`` of the explained deals
* ``forced_trick`` — ``[trick, deals]`` pairs over the explained deals
* ``holes`` — per suit ♠ ♥ ♦ ♣ ``{"suit", "cards", "deltas", "holes", "safe",
  "forced_share"}`` (G-MIS-02; ``forced_share``: share of the explained deals forced in it)

* ``joined`` — only with ``--with-seat``: the joined misère (see
  :mod:`analyser.analysis.joined`): ``contract``, ``leader``, ``end_of_play``
  (``settle_all`` / ``stop_at_first_failure``), ``model`` (``duck``), ``deals``,
  ``sampling``, ``stop_reason``, ``node_budget``, ``searches``, ``given_up`` (searches
  given up at the budget), ``declarers`` (one object per declarer, the hand first:
  ``seat``, ``seat_compass``, ``me``, and ``p_make``, ``p_low``, ``p_high``, ``unknown``,
  ``ci_low``, ``ci_high`` as for the contracts), ``all_make`` (the same fields: every
  declarer makes), ``expected_score`` (the hand's), ``expected_score_range`` and
  ``expected_score_ci`` (``[low, high]``)

Appended under the wiezen rule set: ``turned`` — the turned card (``"H7"``), which lies with
the dealer in every sampled deal.

No timings, so the same arguments and seed give byte-identical JSON. CSV output: the
``forced`` rows (``suit,card,deals,share``).
"""

from __future__ import annotations

import click

from analyser.cli.common import (
    SEAT,
    ShownDefault,
    applies_only,
    common_options,
    emit_json,
    new_seed,
    on,
    sampling_options,
    stopped_early,
    turned_option,
    user_errors,
    was_given,
)
from analyser.seats import PLACES, Place

EXACTNESS = {
    "misere": "pessimistic",
    "open_misere": "pessimistic",
    "open_misere_praatje": "exact",
}


def _r(x: float) -> float:
    return round(float(x), 4)


def _report(a, lang: str) -> dict:
    from analyser.analysis.misere import forced_by_suit
    from analyser.analysis.report_format import card_code, header_fields
    from analyser.cards import SEAT_LETTERS, SUIT_LETTERS, suit_of

    base = max(a.explained, 1)
    by_suit = forced_by_suit(a)
    forced = sorted(a.forced.items(), key=lambda kv: (-kv[1], kv[0]))
    contracts = []
    for cid in a.estimates:
        e = a.estimates[cid]
        low, high = e.interval
        contracts.append(
            {
                "contract": cid,
                "leader": SEAT_LETTERS[a.leaders[cid]],
                "p_make": _r(e.p),
                "p_low": _r(e.p_low),
                "p_high": _r(e.p_high),
                "unknown": e.unknown,
                "ci_low": _r(low),
                "ci_high": _r(high),
                "expected_score": _r(a.expected[cid]),
                "expected_score_ci": [_r(x) for x in a.expected_ci[cid]],
                "exactness": EXACTNESS[cid],
            }
        )
    return {
        **header_fields(a, lang),
        "sampling": a.plan.describe(),
        "stop_reason": a.stop_reason,
        "precision": a.plan.precision if a.plan.adaptive else None,
        "node_budget": a.node_budget,
        "given_up": dict(a.given_up),
        "contracts": contracts,
        "failures": a.failures,
        "explain_limit": a.explain_limit,
        "analysed": a.analysed,
        "explained": a.explained,
        "unexplained_budget": a.unexplained_budget,
        "unexplained": a.unexplained,
        "forced": [
            {
                "suit": SUIT_LETTERS[suit_of(c)],
                "card": card_code(c),
                "deals": k,
                "share": _r(k / base),
            }
            for c, k in forced
        ],
        "forced_trick": [[t, k] for t, k in a.forced_trick.items()],
        "holes": [
            {
                "suit": SUIT_LETTERS[h.suit],
                "cards": [card_code(c) for c in h.cards],
                "deltas": list(h.deltas),
                "holes": [card_code(c) for c in h.holes],
                "safe": h.safe,
                "forced_share": _r(by_suit[h.suit] / base) if a.explained else 0.0,
            }
            for h in a.holes
        ],
        **({"turned": card_code(a.turned)} if a.ruleset.turned_trump else {}),
    }


def _estimate_fields(e) -> dict:
    low, high = e.interval
    return {
        "p_make": _r(e.p),
        "p_low": _r(e.p_low),
        "p_high": _r(e.p_high),
        "unknown": e.unknown,
        "ci_low": _r(low),
        "ci_high": _r(high),
    }


def _joined_report(j) -> dict:
    from analyser.cards import SEAT_LETTERS

    return {
        "contract": "misere",
        "leader": SEAT_LETTERS[j.leader],
        "end_of_play": j.end_of_play,
        "model": j.model,
        "deals": j.n_deals,
        "sampling": j.plan.describe(),
        "stop_reason": j.stop_reason,
        "node_budget": j.node_budget,
        "searches": j.searches,
        "given_up": j.given_up,
        "declarers": [
            {
                "seat": int(place),
                "seat_compass": SEAT_LETTERS[seat],
                "me": k == 0,
                **_estimate_fields(e),
            }
            for k, (place, seat, e) in enumerate(
                zip((j.seat, *j.with_places), j.declarers, j.made, strict=True)
            )
        ],
        "all_make": _estimate_fields(j.all_made),
        "expected_score": _r(j.expected),
        "expected_score_range": [_r(x) for x in j.expected_range],
        "expected_score_ci": [_r(x) for x in j.expected_ci],
    }


END_OF_PLAY_TEXT = {
    "settle_all": "each declarer is settled at his own first trick, the others play on",
    "stop_at_first_failure": "play stops at the first declarer's trick (I-06)",
}


def _joined_table(j) -> str:
    from analyser.cards import SEAT_LETTERS

    names = [f"you, seat {j.seat} ({SEAT_LETTERS[j.declarers[0]]})"] + [
        f"seat {p} ({SEAT_LETTERS[s]})" for p, s in zip(j.with_places, j.declarers[1:], strict=True)
    ]
    lo, hi = j.expected_range
    score = f"{lo:+.2f}" if lo == hi else f"{lo:+.2f}..{hi:+.2f}"
    ci_lo, ci_hi = j.expected_ci
    lines = [
        "",
        f"Joined misère: {' + '.join(names)}; {SEAT_LETTERS[j.leader]} leads",
        f"end of play: {j.end_of_play} ({END_OF_PLAY_TEXT[j.end_of_play]})",
        f"model: {j.model} (each declarer against all three others; a co-declarer plays under "
        "when the trick would sink him and he can)",
        f"sample {j.stop_reason}",
        f"{'declarer':<24}{'P(make) %':>12}{'95% CI %':>13}",
    ]
    for name, e in (*zip(names, j.made, strict=True), ("all make", j.all_made)):
        low, high = e.interval
        lines.append(f"{name:<24}{_pct_range(e.p_low, e.p_high):>12}{_pct_range(low, high):>13}")
    lines.append(
        f"E[score] you {score} (95% CI {ci_lo:+.2f}..{ci_hi:+.2f}) over {j.n_deals} deals, "
        f"scored by the {j.ruleset.name} table for several misère players"
    )
    if j.given_up:
        lines.append(
            f"bounded: {j.given_up} of {j.searches} searches given up at the node budget "
            f"({j.node_budget:,} nodes per search): those results count as made or failed, so "
            "P(make) and E[score] are ranges."
        )
    else:
        lines.append(
            f"exact: all {j.searches} searches solved within the node budget "
            f"({j.node_budget:,} nodes per search)."
        )
    return "\n".join(lines)


def _pct_range(low: float, high: float) -> str:
    return f"{100 * low:.1f}" if high == low else f"{100 * low:.1f}-{100 * high:.1f}"


def _table(a, lang: str) -> str:
    from analyser.analysis.misere import forced_by_suit
    from analyser.analysis.report_format import METHOD
    from analyser.cards import SEAT_LETTERS, SUIT_SYMBOLS, rank_of
    from analyser.notation import format_card, format_hand
    from analyser.seats import seat_of

    rank_chars = "23456789TJQKA" if lang == "en" else None
    lines = [
        f"hand   {format_hand(a.hand, lang)}",
        f"seat   {a.seat} of 4 from the dealer ({SEAT_LETTERS[seat_of(a.seat)]})",
        f"rules  {a.ruleset.spec}   deals {a.n_deals}   seed {a.seed}   method {METHOD}",
        f"sample {a.stop_reason}",
        *(
            [f"turned {format_card(a.turned, lang)} (with the dealer, W-01)"]
            if a.turned is not None
            else []
        ),
        "",
        f"{'contract':<22}{'leads':<7}{'P(make) %':>12}{'95% CI %':>13}{'E[score]':>16}  dd",
    ]
    for cid in a.estimates:
        e = a.estimates[cid]
        low, high = e.interval
        lo_s, hi_s = a.expected_range[cid]
        score = f"{lo_s:+.2f}" if lo_s == hi_s else f"{lo_s:+.1f}..{hi_s:+.1f}"
        lines.append(
            f"{a.ruleset.display_name(cid):<22}{SEAT_LETTERS[a.leaders[cid]]:<7}"
            f"{_pct_range(e.p_low, e.p_high):>12}{_pct_range(low, high):>13}{score:>16}  "
            f"{EXACTNESS[cid]}"
        )
    lines += [
        "",
        "dd: exact = all hands open and the defenders confer (praatje); pessimistic = the "
        "defenders play as if they saw every card.",
    ]
    bounded = sum(a.given_up.values())
    if bounded:
        lines.append(
            f"bounded: {bounded} position(s) given up at the node budget ({a.node_budget:,} "
            f"nodes per search) rather than solved: {a.given_up.get('make', 0)} for P(make) "
            "(their deals count as made or failed, so P(make) and E[score] are ranges), "
            f"{a.given_up.get('explain', 0)} in the failure analysis."
        )
    else:
        lines.append(
            f"exact: every position solved within the node budget ({a.node_budget:,} nodes "
            "per search)."
        )
    lines.append("")
    fails = a.failures
    if not fails:
        lines.append("The closed misère never fails on this sample.")
    elif not a.analysed:
        lines.append(
            f"The closed misère fails on {fails} of {a.n_deals} deals (failure analysis "
            f"skipped: {'stopped early' if a.interrupted else '--explain 0'})."
        )
    else:
        shown = a.explained
        first = "" if a.analysed == fails else f"the first {a.analysed} in sample order, "
        lines.append(
            f"Why the closed misère fails ({fails} of {a.n_deals} deals; explained on {shown} "
            f"of them, {first}shares of those): the card the declarer is forced to win his "
            "first trick with"
        )
        lines.append(
            "(defenders force a trick as early as they can, one trick ahead; see the docs)"
        )
        if a.unexplained_budget:
            lines.append(
                f"(unexplained (budget): {a.unexplained_budget}: their line needs a position "
                "given up at the node budget)"
            )
        if a.unexplained:
            lines.append(f"(unexplained: {a.unexplained}: the line escaped, a solver fault)")
        if shown:
            lines.append(f"{'suit':<6}{'card':<7}{'deals':>7}{'share %':>9}")
            for c, k in sorted(a.forced.items(), key=lambda kv: (-kv[1], kv[0])):
                lines.append(
                    f"{SUIT_SYMBOLS[c // 13]:<6}{format_card(c, lang):<7}{k:>7}"
                    f"{100 * k / shown:>9.1f}"
                )
            tricks = ", ".join(f"trick {t}: {k}" for t, k in a.forced_trick.items())
            lines.append(f"forced trick: {tricks}")
    lines += [
        "",
        "Worst-case hole test per suit (G-MIS-02: δ(y) = outstanding cards below y minus own "
        "cards below y; hole if δ >= 1)",
        f"{'suit':<6}{'cards (δ)':<34}{'holes':<14}{'safe':<6}{'forced %':>9}",
    ]
    by_suit = forced_by_suit(a)
    for h in a.holes:
        if rank_chars is None:
            names = [format_card(c, lang)[1:] for c in h.cards]
        else:
            names = [rank_chars[rank_of(c)] for c in h.cards]
        cells = " ".join(f"{n}({d:+d})" for n, d in zip(names, h.deltas, strict=True)) or "-"
        holes = " ".join(format_card(c, lang)[1:] for c in h.holes) or "-"
        share = f"{100 * by_suit[h.suit] / a.explained:.1f}" if a.explained else "-"
        lines.append(
            f"{SUIT_SYMBOLS[h.suit]:<6}{cells:<34}{holes:<14}{'yes' if h.safe else 'no':<6}"
            f"{share:>9}"
        )
    if all(h.safe for h in a.holes):
        lines.append("No holes: absolutely safe when not on lead (G-MIS-02).")
    return "\n".join(lines)


def _explain_max() -> str:
    from analyser.analysis.misere import EXPLAIN_MAX

    return str(EXPLAIN_MAX)


# where an option applies (analyser.cli.common.refuse_ignored): the CSV rows (the forced
# cards) name no card in a language
APPLIES = {"--lang": [on("--format", "table", "json")]}


@click.command("misere")
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--seat",
    type=SEAT,
    default=PLACES[0],
    show_default=True,
    help="Seat relative to the dealer: 1 = left of the dealer (leads trick 1), 4 = the dealer.",
)
@sampling_options()
@click.option(
    "--explain",
    cls=ShownDefault,
    type=click.IntRange(min=0),
    default=None,
    shown=_explain_max,
    help="Explain at most N failing deals, the first in sample order (0 = skip the failure "
    "analysis).",
)
@turned_option
@click.option(
    "--with-seat",
    "with_seat",
    type=SEAT,
    multiple=True,
    help="And if the player at this seat (1..4) plays misère too? Adds the joined misère: "
    "P(make) of each declarer, P(all make) and your expected score by the rule set's "
    "table. Give it twice for three declarers.",
)
@click.option("--quiet", is_flag=True, help="No progress line on stderr.")
@common_options()
@user_errors
@applies_only(APPLIES)
def command(
    hand: tuple[str, ...],
    seat: int,
    with_seat: tuple[int, ...],
    deals: int | None,
    precision: float | None,
    max_deals: int | None,
    explain: int | None,
    turned: int | None,
    quiet: bool,
    seed: int | None,
    ruleset,
    lang: str,
    fmt: str,
) -> None:
    """Should HAND bid misère? P(misère), P(open misère), P(praatje) and why it fails.

    The other 39 cards are sampled (uniformly, seeded) and all three forms are solved
    double-dummy on the same deals. By default the sample grows until every probability is
    known to within ±0.05 (95%), at most 1000 deals; --deals N fixes it. Ctrl-C prints the
    figures of the deals of the steps finished (20, 50, 100, ...; exit code 130). For the
    failing deals of the closed misère (the first 100, --explain) it lists the card the
    declarer is forced to win his first trick with (suit, card, share of the deals
    explained), beside the book's worst-case hole test per suit (G-MIS-02).

    Every search runs under a node budget (2,000,000 nodes): a position that needs more is
    given up, and the figures it touches become ranges (P(make) low-high, E[score] low..high;
    the output counts these positions). A progress line (stderr, terminals only) shows the
    deals done and the time left; --quiet hides it. The same seed gives the same output.

    Under --rules wiezen --turned CARD is required (the dealer's face-up card, which lies
    with the dealer, seat 4, in every deal); the forms are miserie and miserie op tafel.

    \b
    Examples:
      rikken misere '♠B62 ♥9742 ♦853 ♣642' --seat 2 --seed 1
      rikken misere '♠B62 ♥9742 ♦853 ♣642' --seat 2 --deals 200 --format json
      rikken misere '♠B62 ♥9742 ♦853 ♣642' --seat 2 --with-seat 3 --seed 1

    --with-seat T (once or twice) adds the joined misère: the players at T play misère too.
    Each declarer is solved against the three others (a co-declarer plays under when the
    trick would sink him and he can); the end of play follows the rule set (book: each is
    settled at his own trick; iwwa2024: play stops at the first failure).
    """
    # imported here so that `rikken --help` does not load numba
    from analyser.analysis.misere import EXPLAIN_MAX, analyse_misere
    from analyser.notation import parse_hand

    cards = parse_hand(" ".join(hand))
    joined_asked = was_given("with_seat")
    if joined_asked:
        from analyser.analysis.joined import check_with_places

        check_with_places(Place(seat), with_seat)  # bad seats fail before the sampling
    if not was_given("seed"):
        seed = new_seed()
    result = analyse_misere(
        cards,
        Place(seat),
        ruleset,
        deals=deals,
        seed=seed,
        precision=precision,
        max_deals=max_deals,
        explain=explain if was_given("explain") else EXPLAIN_MAX,
        quiet=quiet,
        turned=turned,
    )
    joined = None
    if joined_asked and not result.interrupted:
        from analyser.analysis.joined import analyse_joined

        joined = _joined_or_none(
            analyse_joined,
            cards,
            Place(seat),
            with_seat,
            ruleset,
            deals=deals,
            seed=seed,
            precision=precision,
            max_deals=max_deals,
            quiet=quiet,
            turned=turned,
        )
    if fmt == "json":
        report = _report(result, lang)
        if joined is not None:
            report["joined"] = _joined_report(joined)
        emit_json(report)
    elif fmt == "csv":
        rows = _report(result, lang)["forced"]
        click.echo("suit,card,deals,share")
        for r in rows:
            click.echo(f"{r['suit']},{r['card']},{r['deals']},{r['share']}")
    else:
        click.echo(_table(result, lang))
        if joined is not None:
            click.echo(_joined_table(joined))
    # a joined question stopped before its first step leaves only the misère figures
    missing = "the joined misère was stopped before its first step" if joined_asked else ""
    stopped_early(result, joined, missing=missing if joined is None else "")


def _joined_or_none(analyse, *args, **kwargs):
    """The joined analysis, or None when Ctrl-C stopped it before its first step."""
    try:
        return analyse(*args, **kwargs)
    except KeyboardInterrupt:
        return None
