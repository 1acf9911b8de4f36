"""`rikken misere HAND`: P(misère) in its three forms and why the closed misère fails.

JSON output (``--format json``), stable keys: ``hand``, ``pbn``, ``seat``, ``seat_compass``,
``deals``, ``seed``, ``rules``, ``method`` (``"double-dummy"``); ``contracts``: one object per
form (``misere``, ``open_misere``, ``open_misere_praatje``) with ``leader`` (N E S W),
``p_make``, ``ci_low``, ``ci_high``, ``expected_score`` and ``exactness`` (``pessimistic`` for
closed and open, ``exact`` for praatje); ``failures`` (failing deals of the closed misère);
``forced``: objects ``{"suit", "card", "deals", "share"}`` (the card with which the declarer is
forced to win his first trick, see :mod:`analyser.analysis.misere`; share of the failures),
most frequent first; ``forced_trick``: ``{"trick": deals}`` as a list of pairs; ``holes``: per
suit ♠ ♥ ♦ ♣ ``{"suit", "cards", "deltas", "holes", "safe", "forced_share"}`` (G-MIS-02).
CSV output: the ``forced`` rows (``suit,card,deals,share``).
"""

from __future__ import annotations

import click

from analyser.cli.common import common_options, emit_json, new_seed, user_errors
from analyser.seats import PLACES, Place

FORMS = ("misere", "open_misere", "open_misere_praatje")
EXACTNESS = {
    "misere": "pessimistic",
    "open_misere": "pessimistic",
    "open_misere_praatje": "exact",
}


def _report(a, lang: str) -> dict:
    from analyser.analysis.misere import forced_by_suit
    from analyser.analysis.report_format import card_code, header_fields
    from analyser.cards import SEAT_LETTERS, SUIT_LETTERS, suit_of

    fails = max(a.failures, 1)
    by_suit = forced_by_suit(a)
    forced = sorted(a.forced.items(), key=lambda kv: (-kv[1], kv[0]))
    contracts = []
    for cid in FORMS:
        e = a.estimates[cid]
        low, high = e.interval
        contracts.append(
            {
                "contract": cid,
                "leader": SEAT_LETTERS[a.leaders[cid]],
                "p_make": round(e.p, 4),
                "ci_low": round(low, 4),
                "ci_high": round(high, 4),
                "expected_score": round(a.expected[cid], 4),
                "exactness": EXACTNESS[cid],
            }
        )
    return {
        **header_fields(a, lang),
        "contracts": contracts,
        "failures": a.failures,
        "forced": [
            {
                "suit": SUIT_LETTERS[suit_of(c)],
                "card": card_code(c),
                "deals": k,
                "share": round(k / fails, 4),
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
                "forced_share": round(by_suit[h.suit] / fails, 4) if a.failures else 0.0,
            }
            for h in a.holes
        ],
    }


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
        "",
        f"{'contract':<22}{'leads':<7}{'P(make) %':>10}{'95% CI %':>14}{'E[score]':>10}  dd",
    ]
    for cid in FORMS:
        e = a.estimates[cid]
        low, high = e.interval
        lines.append(
            f"{cid.replace('_', ' '):<22}{SEAT_LETTERS[a.leaders[cid]]:<7}{100 * e.p:>10.1f}"
            f"{f'{100 * low:.1f}-{100 * high:.1f}':>14}{a.expected[cid]:>+10.2f}  {EXACTNESS[cid]}"
        )
    lines += [
        "",
        "dd: exact = all hands open and the defenders confer (praatje); pessimistic = the "
        "defenders play as if they saw every card.",
        "",
    ]
    fails = a.failures
    if not fails:
        lines.append("The closed misère never fails on this sample.")
    else:
        lines.append(
            f"Why the closed misère fails ({fails} of {a.n_deals} deals): the card the declarer "
            "is forced to win his first trick with"
        )
        lines.append(
            "(defenders force a trick as early as they can, one trick ahead; see the docs)"
        )
        lines.append(f"{'suit':<6}{'card':<7}{'deals':>7}{'share %':>9}")
        for c, k in sorted(a.forced.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(
                f"{SUIT_SYMBOLS[c // 13]:<6}{format_card(c, lang):<7}{k:>7}{100 * k / fails:>9.1f}"
            )
        if a.unexplained:
            lines.append(f"(unexplained: {a.unexplained})")
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
        share = f"{100 * by_suit[h.suit] / fails:.1f}" if fails else "-"
        lines.append(
            f"{SUIT_SYMBOLS[h.suit]:<6}{cells:<34}{holes:<14}{'yes' if h.safe else 'no':<6}"
            f"{share:>9}"
        )
    if all(h.safe for h in a.holes):
        lines.append("No holes: absolutely safe when not on lead (G-MIS-02).")
    return "\n".join(lines)


@click.command("misere")
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--seat",
    type=click.IntRange(PLACES[0], PLACES[-1]),
    default=PLACES[0],
    show_default=True,
    help="Seat relative to the dealer: 1 = left of the dealer (leads trick 1), 4 = the dealer.",
)
@click.option(
    "--deals",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Deals of the other 39 cards to sample.",
)
@common_options
@user_errors
def command(
    hand: tuple[str, ...], seat: int, deals: int, seed: int | None, ruleset, lang: str, fmt: str
) -> None:
    """Should HAND bid misère? P(misère), P(open misère), P(praatje) and why it fails.

    For the failing deals of the closed misère it lists the card the declarer is forced to win
    his first trick with (suit, card, share of the failures), beside the book's worst-case hole
    test per suit. All figures are double-dummy on the same sampled deals.
    """
    # imported here so that `rikken --help` does not load numba
    from analyser.analysis.misere import analyse_misere
    from analyser.notation import parse_hand

    cards = parse_hand(" ".join(hand))
    if seed is None:
        seed = new_seed()
    result = analyse_misere(cards, Place(seat), ruleset, deals=deals, seed=seed)
    if fmt == "json":
        emit_json(_report(result, lang))
    elif fmt == "csv":
        rows = _report(result, lang)["forced"]
        click.echo("suit,card,deals,share")
        for r in rows:
            click.echo(f"{r['suit']},{r['card']},{r['deals']},{r['share']}")
    else:
        click.echo(_table(result, lang))
