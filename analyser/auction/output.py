"""Output of ``rikken analyse HAND --seat S --auction ...``: the analysis plus the decision.

JSON: the object of ``rikken analyse`` (:func:`analyser.analysis.report_format.to_dict`, whose
``bids`` are then only the bids legal after the auction, evaluated on the conditioned deals,
and whose ``opening_legal`` means "legal now"), with these keys added:

* ``auction`` — the calls as given, in order from seat 1, as canonical ids (``["rik",
  "pass"]``); ``auction_text`` — the text given
* ``model`` — the bidding model of the other seats (``book``)
* ``acceptance`` — the share of sampled deals the auction accepted (4 decimals);
  ``acceptance_detail`` — ``{"accepted", "sampled", "ci_low", "ci_high"}`` (95 % Wilson)
* ``decision`` — one object per legal call, pass included, in ladder order: ``call`` (the
  contract id, ``pass``), ``expected_score``, ``ci_low``, ``ci_high`` (this seat's score when
  the auction ends with that call, 95 % interval), ``deals``, ``plays`` (the contract that
  then plays and its declarers), ``p_make``, ``p_ci_low``, ``p_ci_high`` (that contract's
  make-probability, null when nothing plays), ``score_is_bound``, ``note``
* ``best_call`` — the call with the highest expected score (ties: pass); the analysis's
  ``recommended_opening`` is set to it, and ``highest_competitive`` keeps its meaning among
  the bids legal now
"""

from __future__ import annotations

from analyser.analysis.report_format import METHOD, render_table, to_dict
from analyser.auction.decision import TableAnalysis
from analyser.seats import place_of


def _r(x: float) -> float:
    return round(float(x), 4)


def to_json_dict(t: TableAnalysis, lang: str = "nl") -> dict:
    """The JSON object (module docstring)."""
    out = to_dict(t.analysis, lang)
    out["auction"] = [c.id for c in t.calls]
    out["auction_text"] = t.auction
    out["model"] = t.model.name
    out["acceptance"] = _r(t.acceptance)
    out["acceptance_detail"] = {
        "accepted": t.accepted,
        "sampled": t.raw,
        "ci_low": _r(t.acceptance_ci[0]),
        "ci_high": _r(t.acceptance_ci[1]),
    }
    decision = []
    for v in t.decision:
        e = v.estimate
        low, high = e.interval if e is not None else (None, None)
        decision.append(
            {
                "call": v.call.id,
                "expected_score": _r(v.expected_score),
                "ci_low": _r(v.ci[0]),
                "ci_high": _r(v.ci[1]),
                "deals": v.deals,
                "plays": v.plays,
                "p_make": _r(e.p) if e is not None else None,
                "p_ci_low": _r(low) if e is not None else None,
                "p_ci_high": _r(high) if e is not None else None,
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
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) for i in range(len(head))]

    def fmt(r):
        cells = [r[i].ljust(widths[i]) if i < 2 else r[i].rjust(widths[i]) for i in range(7)]
        return "  ".join(cells).rstrip()

    lines += [fmt(head), "  ".join("-" * w for w in widths), *(fmt(r) for r in rows)]
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
