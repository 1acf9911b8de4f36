"""Output of ``rikken analyse HAND --seat S --auction ...``: the analysis plus the decision.

JSON: the object of ``rikken analyse`` (whose ``bids`` are then only the bids legal after the
auction, evaluated on the conditioned deals, and whose ``opening_legal`` means "legal now"),
with the auction, the acceptance and the decision table added; its schema is
``docs/schemas/analyse-auction.schema.json``. CSV: the bid rows of ``rikken analyse``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyser.output.analyse import render_csv, render_table, to_dict
from analyser.output.format import METHOD, Renderer, aligned, rounded
from analyser.seats import place_of

if TYPE_CHECKING:
    # the auction loads the solvers (numba): imported for the types only, so that importing
    # the output layer stays light
    from analyser.auction.decision import TableAnalysis


def to_json_dict(t: TableAnalysis, lang: str = "nl") -> dict:
    """The JSON object (module docstring)."""
    out = to_dict(t.analysis, lang)
    out["auction"] = [c.id for c in t.calls]
    out["auction_text"] = t.auction
    out["model"] = t.model.name
    out["acceptance"] = rounded(t.acceptance)
    out["acceptance_detail"] = {
        "accepted": t.accepted,
        "sampled": t.raw,
        "ci_low": rounded(t.acceptance_ci[0]),
        "ci_high": rounded(t.acceptance_ci[1]),
    }
    decision = []
    for v in t.decision:
        e = v.estimate
        low, high = e.interval if e is not None else (None, None)
        decision.append(
            {
                "call": v.call.id,
                "expected_score": rounded(v.expected_score),
                "ci_low": rounded(v.ci[0]),
                "ci_high": rounded(v.ci[1]),
                "deals": v.deals,
                "plays": v.plays,
                "p_make": rounded(e.p) if e is not None else None,
                "p_ci_low": rounded(low) if e is not None else None,
                "p_ci_high": rounded(high) if e is not None else None,
                "score_is_bound": v.score_is_bound,
                "note": "; ".join(v.notes) if v.notes else None,
            }
        )
    out["decision"] = decision
    out["best_call"] = t.best
    out["notes"] = list(out["notes"]) + [n for n in t.notes if n not in out["notes"]]
    return out


def render_auction_table(t: TableAnalysis, lang: str = "nl") -> str:
    """The analysis table, then the auction and the decision."""
    rs = t.analysis.ruleset
    said = "  ".join(f"{place_of(x.seat)}: {rs.display_name(x.call)}" for x in t.turns)
    low, high = t.acceptance_ci
    lines = [
        render_table(t.analysis, lang, recommendation=False),
        "",
        f"auction  {said or '(no calls yet)'}  -> seat {t.analysis.seat} to call",
        f"model    {t.model.name}: {t.accepted:,} of {t.raw:,} sampled deals accept the "
        f"auction ({100 * t.acceptance:.2f}%, 95% CI {100 * low:.2f}-{100 * high:.2f}%); "
        "the figures above are on those deals (open = legal now)",
        "",
        f"decision ({METHOD}): this seat's expected score when the auction ends with the call",
    ]
    head = ("call", "then plays", "P(make) %", "95% CI %", "E[score]", "95% CI", "deals")
    rows = []
    for v in t.decision:
        e = v.estimate
        if e is not None:
            a, b = e.interval
            p, ci = f"{100 * e.p:.1f}", f"{100 * a:.1f}-{100 * b:.1f}"
        else:
            p, ci = "-", "-"
        rows.append(
            (
                rs.display_name(v.call),
                v.plays,
                p,
                ci,
                ("<=" if v.score_is_bound else "") + f"{v.expected_score:+.2f}",
                f"{v.ci[0]:+.2f}..{v.ci[1]:+.2f}",
                str(v.deals),
            )
        )
    lines += aligned(head, rows, lambda i: i < 2)  # the call and the contract: words
    notes = [n for v in t.decision for n in v.notes]
    notes = [n for i, n in enumerate(notes) if n not in notes[:i]] + t.notes
    lines += ["", "notes:", *(f"  {n}" for n in notes)]
    best = next(v for v in t.decision if v.call.id == t.best)
    lines += [
        "",
        f"best call after the auction:  {rs.display_name(best.call)}  "
        f"(E[score] {best.expected_score:+.2f}, 95% CI {best.ci[0]:+.2f}..{best.ci[1]:+.2f})",
    ]
    return "\n".join(lines)


def render_auction_csv(t: TableAnalysis, lang: str = "nl") -> str:
    """The CSV of ``rikken analyse`` for the analysis on the deals the auction accepts."""
    return render_csv(t.analysis, lang)


RENDERER = Renderer(
    "rikken analyse --auction", to_json_dict, render_auction_table, render_auction_csv
)
