"""Output of ``rikken misere HAND``: P(misère) in its three forms, why the closed misère
fails, and with ``--with-seat`` the joined misère.

JSON (``--format json``): one object; its schema, with every field described, is
``docs/schemas/misere.schema.json``. It is stable (fields are only ever added) and carries no
timings, so the same arguments and seed give byte-identical JSON. CSV: the ``forced`` rows
(``suit,card,deals,share``). Table: the figures, the failure analysis, the hole test per
suit, then the joined misère.
"""

from __future__ import annotations

from dataclasses import dataclass

from analyser.analysis.joined import JoinedAnalysis
from analyser.analysis.misere import MisereAnalysis, forced_by_suit
from analyser.analysis.play_panel import FEATURE_LABELS
from analyser.cards import SEAT_LETTERS, SUIT_LETTERS, SUIT_SYMBOLS, rank_of, suit_of
from analyser.notation import format_card, format_hand
from analyser.output.analyse import SEAT_NOTE, calibration_source, headline_fields
from analyser.output.format import (
    METHOD,
    Renderer,
    card_code,
    estimate_range,
    given_up_counts,
    header_fields,
    pct_range,
    rounded,
)
from analyser.seats import FOREHAND_PLACE, seat_of

EXACTNESS = {
    "misere": "pessimistic",
    "open_misere": "pessimistic",
    "open_misere_praatje": "exact",
}

END_OF_PLAY_TEXT = {
    "settle_all": "each declarer is settled at his own first trick, the others play on",
    "stop_at_first_failure": "play stops at the first declarer's trick (I-06)",
}


@dataclass
class MisereResult:
    """What ``rikken misere`` prints: the misère analysis and, with ``--with-seat``, the
    joined misère (None when not asked, or stopped before its first step)."""

    misere: MisereAnalysis
    joined: JoinedAnalysis | None = None


def _forced_rows(a: MisereAnalysis) -> list[dict]:
    """The forced cards, most frequent first, with their share of the explained deals."""
    base = max(a.explained, 1)
    forced = sorted(a.forced.items(), key=lambda kv: (-kv[1], kv[0]))
    return [
        {
            "suit": SUIT_LETTERS[suit_of(c)],
            "card": card_code(c),
            "deals": k,
            "share": rounded(k / base),
        }
        for c, k in forced
    ]


def misere_dict(a: MisereAnalysis, lang: str = "nl") -> dict:
    """The JSON object of a misère analysis, without the joined misère."""
    base = max(a.explained, 1)
    by_suit = forced_by_suit(a)
    contracts = []
    for cid in a.estimates:
        e = a.estimates[cid]
        row = {
            "contract": cid,
            "leader": SEAT_LETTERS[a.leaders[cid]],
            "estimate": "double-dummy",
            **estimate_range(e),
            "expected_score": rounded(a.expected[cid]),
            "expected_score_ci": [rounded(x) for x in a.expected_ci[cid]],
            "exactness": EXACTNESS[cid],
        }
        low, high = e.interval
        row |= {
            "p_make_dd": row["p_make"],
            "ci_low_dd": rounded(low),
            "ci_high_dd": rounded(high),
            "expected_score_dd": row["expected_score"],
            "expected_score_dd_ci": row["expected_score_ci"],
            "real_play_note": a.headline_why.get(cid),
        }
        h = a.headlines.get(cid)
        if h is not None:
            row |= headline_fields(h)
        contracts.append(row)
    return {
        **header_fields(a, lang),
        "sampling": a.plan.describe(),
        "stop_reason": a.stop_reason,
        "precision": a.plan.precision if a.plan.adaptive else None,
        "node_budget": a.node_budget,
        "given_up": given_up_counts(a.given_up),
        "contracts": contracts,
        "failures": a.failures,
        "explain_limit": a.explain_limit,
        "analysed": a.analysed,
        "explained": a.explained,
        "unexplained_budget": a.unexplained_budget,
        "unexplained": a.unexplained,
        "forced": _forced_rows(a),
        "forced_trick": [[t, k] for t, k in a.forced_trick.items()],
        "holes": [
            {
                "suit": SUIT_LETTERS[h.suit],
                "cards": [card_code(c) for c in h.cards],
                "deltas": list(h.deltas),
                "holes": [card_code(c) for c in h.holes],
                "safe": h.safe,
                "forced_share": rounded(by_suit[h.suit] / base) if a.explained else 0.0,
            }
            for h in a.holes
        ],
        **({"turned": card_code(a.turned)} if a.ruleset.turned_trump else {}),
        "play": a.play,
        "real_play_calibration": calibration_source(a.calibration),
    }


def joined_dict(j: JoinedAnalysis) -> dict:
    """The JSON object of the joined misère (the ``joined`` key)."""
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
        # every search of the joined misère asks whether a declarer makes
        "given_up": given_up_counts(j.given_up, "make"),
        "declarers": [
            {
                "seat": int(place),
                "seat_compass": SEAT_LETTERS[seat],
                "me": k == 0,
                **estimate_range(e),
            }
            for k, (place, seat, e) in enumerate(
                zip((j.seat, *j.with_places), j.declarers, j.made, strict=True)
            )
        ],
        "all_make": estimate_range(j.all_made),
        "expected_score": rounded(j.expected),
        "expected_score_range": [rounded(x) for x in j.expected_range],
        "expected_score_ci": [rounded(x) for x in j.expected_ci],
    }


def to_json(result: MisereResult, lang: str = "nl") -> dict:
    """The JSON object: the misère analysis, with ``joined`` when there is one."""
    report = misere_dict(result.misere, lang)
    if result.joined is not None:
        report["joined"] = joined_dict(result.joined)
    return report


def render_csv(result: MisereResult, lang: str = "nl") -> str:
    """CSV text: the forced cards, ``suit,card,deals,share`` (``lang`` unused: cards as
    codes)."""
    del lang
    rows = _forced_rows(result.misere)
    lines = [f"{r['suit']},{r['card']},{r['deals']},{r['share']}" for r in rows]
    return "\n".join(["suit,card,deals,share", *lines]) + "\n"


def render_table(result: MisereResult, lang: str = "nl") -> str:
    """The misère table, then the joined misère's (a blank line between)."""
    text = misere_table(result.misere, lang)
    if result.joined is not None:
        text += "\n" + joined_table(result.joined)
    return text


def joined_table(j: JoinedAnalysis) -> str:
    """The joined misère: each declarer's P(make), P(all make) and the hand's score (it
    starts with a blank line)."""
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
        lines.append(f"{name:<24}{pct_range(e.p_low, e.p_high):>12}{pct_range(low, high):>13}")
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


def misere_table(a: MisereAnalysis, lang: str = "nl") -> str:
    """The misère figures, the failure analysis and the worst-case hole test per suit."""
    rank_chars = "23456789TJQKA" if lang == "en" else None
    lines = [
        f"hand   {format_hand(a.hand, lang)}",
        f"seat   {a.seat} of 4 from the dealer ({SEAT_LETTERS[seat_of(a.seat)]})",
        f"rules  {a.ruleset.spec}   deals {a.n_deals}   seed {a.seed}   method {METHOD}   "
        f"deal model {a.deal_model}",
        f"sample {a.stop_reason}",
        *(
            [f"turned {format_card(a.turned, lang)} (with the dealer, W-01)"]
            if a.turned is not None
            else []
        ),
        "",
    ]
    real = a.play != "double-dummy"
    extra = f"{'est':>6}{'DD %':>12}" if real else ""
    lines.append(
        f"{'contract':<22}{'leads':<7}{'P(make) %':>12}{'95% CI %':>13}{extra}{'E[score]':>16}  dd"
    )
    for cid in a.estimates:
        e = a.estimates[cid]
        h = a.headlines.get(cid)
        low, high = (h.low, h.high) if h is not None else e.interval
        lo_s, hi_s = (h.expected_score,) * 2 if h is not None else a.expected_range[cid]
        score = f"{lo_s:+.2f}" if lo_s == hi_s else f"{lo_s:+.1f}..{hi_s:+.1f}"
        p = f"{100 * h.p:.1f}" if h is not None else pct_range(e.p_low, e.p_high)
        shown = ""
        if real:
            shown = f"{'real' if h is not None else 'dd':>6}{pct_range(e.p_low, e.p_high):>12}"
        lines.append(
            f"{a.ruleset.display_name(cid):<22}{SEAT_LETTERS[a.leaders[cid]]:<7}"
            f"{p:>12}{pct_range(low, high):>13}{shown}{score:>16}  {EXACTNESS[cid]}"
        )
    lines += [
        "",
        "dd: exact = all hands open and the defenders confer (praatje); pessimistic = the "
        "defenders play as if they saw every card.",
    ]
    lines += _real_play_lines(a)
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
    lines += _failure_lines(a, lang)
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


def _real_play_lines(a: MisereAnalysis) -> list[str]:
    """What the real-play headline is and which forms fall back to double-dummy, and why."""
    if a.play == "double-dummy":
        return []
    lines = [
        "P(make) and E[score] (est real): the estimated real play, the double-dummy P(make) "
        "through the single-dummy calibration curve of Study 13 (its range: the curve's 95% "
        "band and the sample's interval); est dd: the double-dummy figure. DD % = "
        "double-dummy P(make)."
    ]
    cal = a.calibration
    for cid, h in a.headlines.items():
        c = cal.families[h.family]
        lines.append(
            f"{a.ruleset.display_name(cid)}: curve on {c.deals} deals of {c.hands} hands "
            f"played single-dummy (band +-{c.max_half_width:.3f})"
            + (
                f", also by the hand's {FEATURE_LABELS.get(c.feature, c.feature)}"
                if c.feature
                else ""
            )
            + ("" if cal.provenance.get("complete", True) else ", a calibration run in progress")
        )
    if a.headlines and a.seat != FOREHAND_PLACE:
        lines.append(SEAT_NOTE.format(seat=a.seat))
    for cid, why in a.headline_why.items():
        lines.append(f"{a.ruleset.display_name(cid)}: double-dummy figure: {why}")
    return lines


def _failure_lines(a: MisereAnalysis, lang: str) -> list[str]:
    """Why the closed misère fails: the cards the declarer is forced to win a trick with."""
    fails = a.failures
    if not fails:
        return ["The closed misère never fails on this sample."]
    if not a.analysed:
        return [
            f"The closed misère fails on {fails} of {a.n_deals} deals (failure analysis "
            f"skipped: {'stopped early' if a.interrupted else '--explain 0'})."
        ]
    shown = a.explained
    first = "" if a.analysed == fails else f"the first {a.analysed} in sample order, "
    lines = [
        f"Why the closed misère fails ({fails} of {a.n_deals} deals; explained on {shown} "
        f"of them, {first}shares of those): the card the declarer is forced to win his "
        "first trick with",
        "(defenders force a trick as early as they can, one trick ahead; see the docs)",
    ]
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
                f"{SUIT_SYMBOLS[c // 13]:<6}{format_card(c, lang):<7}{k:>7}{100 * k / shown:>9.1f}"
            )
        tricks = ", ".join(f"trick {t}: {k}" for t, k in a.forced_trick.items())
        lines.append(f"forced trick: {tricks}")
    return lines


RENDERER = Renderer("rikken misere", to_json, render_table, render_csv)
