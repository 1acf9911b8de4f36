"""Output of ``rikken analyse``: an aligned table, JSON and CSV.

JSON (``--format json``): one object per seat, with ``--seat all`` a list of them (seats
1..4); its schema, with every field described, is ``docs/schemas/analyse.schema.json``. It is
stable: fields are only ever added, and it carries no timings, so the same seed and options
give byte-identical output.

CSV (``--format csv``): a header and one row per bid with the columns of :data:`CSV_COLUMNS`
(``tricks_hist`` written as 14 counts joined by ``-``; the run's facts repeated on every row;
``bid_deals`` is the bid's own ``deals``, ``expected_score_low``/``_high`` its interval).
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from analyser.analysis.bids import EXACTNESS_TEXT, UPPER_BOUND_TEXT, schema_id
from analyser.analysis.families.registry import family_named
from analyser.analysis.play_panel import FEATURE_LABELS
from analyser.analysis.results import BidResult, HandAnalysis, Headline
from analyser.cards import SEAT_LETTERS
from analyser.notation import format_card, format_hand, format_strain
from analyser.output.format import (
    METHOD,
    Renderer,
    aligned,
    card_code,
    dump_json,
    given_up_counts,
    header_fields,
    rounded,
    strain_code,
)
from analyser.rules import RuleSet
from analyser.seats import DEALER_PLACE, FOREHAND_PLACE, seat_of
from analyser.stats import Estimate


@dataclass
class AnalyseResult:
    """What ``rikken analyse`` prints: the analysis of one seat, or with ``all_seats``
    (``--seat all``) of each seat analysed, in seat order."""

    analyses: list[HandAnalysis]
    all_seats: bool = False


CSV_COLUMNS = (
    "seat",
    "bid",
    "beter",
    "contract",
    "rank",
    "trump",
    "called",
    "p_make",
    "ci_low",
    "ci_high",
    "expected_score",
    "tricks_hist",
    "opening_legal",
    "exactness",
    "deals",
    "seed",
    "rules",
    "note",
    "bid_deals",
    "unknown",
    "p_low",
    "p_high",
    "expected_score_low",
    "expected_score_high",
    "p_make_real_est",
    "p_make_real_est_low",
    "p_make_real_est_high",
    "deal_model",
    "estimate",
    "p_make_dd",
    "ci_low_dd",
    "ci_high_dd",
    "expected_score_dd",
    "expected_score_dd_low",
    "expected_score_dd_high",
)


def _estimate(e: Estimate) -> dict:
    low, high = e.interval
    return {"p_make": rounded(e.p), "ci_low": rounded(low), "ci_high": rounded(high)}


def _range(e: Estimate) -> dict:
    """The fields a bid gained with the node budget and per-bid samples (appended)."""
    return {
        "deals": e.n,
        "unknown": e.unknown,
        "p_low": rounded(e.p_low),
        "p_high": rounded(e.p_high),
    }


def _note(b: BidResult) -> str | None:
    return "; ".join(b.notes) if b.notes else None


def _headline(b: BidResult) -> dict:
    """The headline figures (real-play where the calibration gave them, else double-dummy)
    and which they are."""
    h = b.headline
    if h is None:
        return {
            "estimate": "double-dummy",
            **_estimate(b.estimate),
            "expected_score": rounded(b.expected_score),
            "expected_score_ci": [rounded(x) for x in b.expected_score_ci],
        }
    return headline_fields(h)


def headline_fields(h: Headline) -> dict:
    """A real-play headline's JSON fields (``estimate``, ``p_make`` .. ``expected_score_ci``),
    the same in every command that shows one."""
    return {
        "estimate": h.estimate,
        "p_make": rounded(h.p),
        "ci_low": rounded(h.low),
        "ci_high": rounded(h.high),
        "expected_score": rounded(h.expected_score),
        "expected_score_ci": [rounded(x) for x in h.expected_score_ci],
    }


def _double_dummy(b: BidResult) -> dict:
    """The double-dummy figures, always present (beside a real-play headline, or equal to
    the headline), and why a real-play headline was not given."""
    low, high = b.estimate.interval
    return {
        "p_make_dd": rounded(b.estimate.p),
        "ci_low_dd": rounded(low),
        "ci_high_dd": rounded(high),
        "expected_score_dd": rounded(b.expected_score),
        "expected_score_dd_ci": [rounded(x) for x in b.expected_score_ci],
        "real_play_note": b.headline_why,
    }


def bid_record(b: BidResult, ruleset: RuleSet | None = None, hand=None) -> dict:
    """The JSON object of one bid (``docs/schemas/analyse.schema.json``, ``$defs/bid``);
    ``ruleset`` names the family whose bid ids are used (default: rikken); ``hand`` (the
    analysed hand) for the estimated real play."""
    bid, beter = schema_id(b.spec.contract, *(() if ruleset is None else (ruleset.family,)))
    out = {
        "bid": bid,
        "beter": beter,
        "contract": b.spec.id,
        "rank": b.spec.rank,
        "trump": strain_code(b.trump),
        "called": card_code(b.called),
        **_headline(b),
        "tricks_hist": b.tricks_hist,
        "opening_legal": b.opening,
        "exactness": b.spec.exactness,
        "note": _note(b),
        "alternatives": [
            {"trump": strain_code(a.trump), "called": card_code(a.called), **_estimate(a.estimate)}
            for a in b.alternatives
        ],
        "upper_bound": None,
        **_range(b.estimate),
        "tricks_hist_deals": b.tricks_hist_deals if b.tricks_hist is not None else None,
    }
    real = b.headline
    out["p_make_real_est"] = rounded(real.p) if real is not None else None
    out["p_make_real_est_ci"] = [rounded(real.low), rounded(real.high)] if real else None
    out |= _double_dummy(b)
    if b.joined is not None:
        low, high = b.joined.interval
        out["joined"] = {
            "deals": b.joined.n,
            "joined": b.joined.made,
            "p": rounded(b.joined.p),
            "ci_low": rounded(low),
            "ci_high": rounded(high),
        }
    elif ruleset is not None and ruleset.turned_trump:
        out["joined"] = None
    if b.bound is not None:
        out["upper_bound"] = {
            **_estimate(b.bound.estimate),
            "expected_score": rounded(b.bound.expected_score),
            "tricks_hist": b.bound.tricks_hist,
            **_range(b.bound.estimate),
            "expected_score_ci": [rounded(x) for x in b.bound.expected_score_ci],
        }
    return out


def to_dict(a: HandAnalysis, lang: str = "nl") -> dict:
    """The JSON object of one analysis (no timings, so equal seeds give equal output)."""
    return {
        **header_fields(a, lang),
        "stop_reason": a.stop_reason,
        "precision": a.precision,
        "min_p": a.min_p,
        "bids": [bid_record(b, a.ruleset, a.hand) for b in a.bids],
        "recommended_opening": a.recommended_opening,
        "highest_competitive": a.highest_competitive,
        "notes": list(a.notes),
        "not_offered": list(a.not_offered),
        "sampling": a.sampling,
        "node_budget": a.node_budget,
        "given_up": given_up_counts(a.given_up),
        **({"turned": card_code(a.turned)} if a.ruleset.turned_trump else {}),
        "play": a.play,
        "real_play_calibration": calibration_source(a.calibration),
    }


def calibration_source(cal) -> dict | None:
    """Where the real-play headlines come from: the calibration's provenance and, per family,
    the deals played and the widest 95 % half-width of its band (null with --play
    double-dummy or when the calibration file is missing)."""
    if cal is None:
        return None
    prov = cal.provenance
    return {
        "method": "single-dummy play (PIMC, worlds drawn consistent with the auction) against "
        "double-dummy, Study 13: a logistic curve per family from the double-dummy P(make)",
        "file": cal.path.name,
        "key": prov.get("key"),
        "version": prov.get("version"),
        "seed": prov.get("seed"),
        "samples": prov.get("samples"),
        "complete": prov.get("complete", True),
        "measured_at": "seat 1: the declarer bids first and leads to trick 1",
        "families": cal.summary(),
    }


def _analyses(result: AnalyseResult | HandAnalysis) -> AnalyseResult:
    """A lone :class:`HandAnalysis` as the result of one seat."""
    return result if isinstance(result, AnalyseResult) else AnalyseResult([result])


def to_json(result: AnalyseResult | HandAnalysis, lang: str = "nl"):
    """The JSON value: one object, or with ``all_seats`` a list of objects (``--seat all``)."""
    result = _analyses(result)
    objs = [to_dict(a, lang) for a in result.analyses]
    return objs if result.all_seats else objs[0]


def render_json(result: AnalyseResult | HandAnalysis, lang: str = "nl") -> str:
    """The JSON text (no final newline)."""
    return dump_json(to_json(result, lang))


def render_csv(result: AnalyseResult | HandAnalysis, lang: str = "nl") -> str:
    """CSV text: header and one row per bid (and per seat). ``lang`` is not used: the CSV
    writes cards as codes."""
    del lang
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for a in _analyses(result).analyses:
        for rec in (bid_record(b, a.ruleset, a.hand) for b in a.bids):
            hist = rec["tricks_hist"]
            row = {
                **rec,
                "seat": a.seat,
                "deals": a.n_deals,
                "seed": a.seed,
                "rules": a.ruleset.spec,
                "deal_model": a.deal_model,
                "tricks_hist": "-".join(str(x) for x in hist) if hist is not None else "",
                "trump": rec["trump"] or "",
                "called": rec["called"] or "",
                "note": rec["note"] or "",
                "beter": str(rec["beter"]).lower(),
                "opening_legal": str(rec["opening_legal"]).lower(),
                "bid_deals": rec["deals"],
                "expected_score_low": rec["expected_score_ci"][0],
                "expected_score_high": rec["expected_score_ci"][1],
                "expected_score_dd_low": rec["expected_score_dd_ci"][0],
                "expected_score_dd_high": rec["expected_score_dd_ci"][1],
                "p_make_real_est": _blank(rec["p_make_real_est"]),
                "p_make_real_est_low": _blank(rec["p_make_real_est_ci"], 0),
                "p_make_real_est_high": _blank(rec["p_make_real_est_ci"], 1),
            }
            w.writerow([row[c] for c in CSV_COLUMNS])
    return buf.getvalue()


def _blank(x, i: int | None = None):
    if x is None:
        return ""
    return x if i is None else x[i]


# ------------------------------------------------------------------------------ table

_MARK = {"exact": "=", "pessimistic": "-", "optimistic": "+"}
_LEFT_COLUMNS = {0, 1, 2, 9, 10}  # bid, trump, call, open, dd: words, not figures
_LEFT_COLUMNS_REAL = {0, 1, 2, 6, 11, 12}  # with the est and DD % columns


def _bid_label(b: BidResult, ruleset: RuleSet) -> str:
    """The bid's name in tables: the rule set's own (wiezen: Flemish, e.g. miserie op tafel)."""
    return ruleset.display_name(b.spec.contract)


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}"


def _p_text(e: Estimate) -> str:
    """P(make) in percent, or its range low-high where the node budget left deals unknown."""
    if not e.unknown:
        return _pct(e.p)
    return f"{_pct(e.p_low).strip()}-{_pct(e.p_high).strip()}"


def _called_text(c: int | None, lang: str) -> str:
    return format_card(c, lang) if c is not None else "-"


def _strain_text(s: int | None, lang: str) -> str:
    return format_strain(s, lang) if s is not None else "-"


def render_tables(result: AnalyseResult | HandAnalysis, lang: str = "nl") -> str:
    """The table of each seat analysed, a blank line between them."""
    return "\n\n".join(render_table(a, lang) for a in _analyses(result).analyses)


def render_table(
    a: HandAnalysis, lang: str = "nl", runners_up: int = 3, recommendation: bool = True
) -> str:
    """The human-readable report of one analysis (aligned columns, legend, recommendation;
    ``recommendation=False`` leaves the last out, for a caller that decides itself)."""
    lines = [
        f"hand   {format_hand(a.hand, lang)}",
        f"seat   {a.seat} of 4 from the dealer ({SEAT_LETTERS[seat_of(a.seat)]}"
        + (", forehand: bids first, leads trick 1" if a.seat == FOREHAND_PLACE else "")
        + (", dealer" if a.seat == DEALER_PLACE else "")
        + ")",
        f"rules  {a.ruleset.spec}   deals {a.n_deals}   seed {a.seed}   method {METHOD}   "
        f"deal model {a.deal_model}",
        f"sample {a.stop_reason}",
    ]
    if a.turned is not None:
        lines.append(
            f"turned {format_card(a.turned, lang)} (the dealer's face-up card: its suit is "
            "the turned trump, W-01)"
        )
    lines.append("")
    real = a.play != "double-dummy"
    head = ("bid", "trump", "call", "deals", "P(make) %", "95% CI %")
    head += ("est", "DD %") if real else ()
    head += ("E[score]", "95% CI", "E[tricks]", "open", "dd")
    rows = []
    for b in a.bids:
        h = b.headline
        low, high = (h.low, h.high) if h is not None else b.estimate.interval
        mean = b.mean_tricks
        e_low, e_high = b.score_headline_ci
        bound = "<=" if b.score_is_bound and h is None else ""
        row = (
            _bid_label(b, a.ruleset),
            _strain_text(b.trump, lang)
            if b.trump is not None
            else family_named(b.spec.family).no_trump_text,
            _called_text(b.called, lang),
            str(b.estimate.n),
            _pct(h.p) if h is not None else _p_text(b.estimate),
            f"{_pct(low)}-{_pct(high).strip()}",
        )
        row += ("real" if h is not None else "dd", _p_text(b.estimate)) if real else ()
        row += (
            bound + f"{b.score_headline:+.2f}",
            f"{e_low:+.2f}..{e_high:+.2f}",
            f"{mean:.2f}" if mean is not None else "-",
            "yes" if b.opening else "",
            _MARK[b.spec.exactness],
        )
        rows.append(row)
        if b.bound is not None:
            blow, bhigh = b.bound.estimate.interval
            b_low, b_high = b.bound.expected_score_ci
            row = (
                "  upper bound",
                "dd best",
                _called_text(b.called, lang),
                str(b.bound.estimate.n),
                _p_text(b.bound.estimate),
                f"{_pct(blow)}-{_pct(bhigh).strip()}",
            )
            row += ("dd", _p_text(b.bound.estimate)) if real else ()
            row += (
                f"{b.bound.expected_score:+.2f}",
                f"{b_low:+.2f}..{b_high:+.2f}",
                f"{_mean(b.bound.tricks_hist):.2f}",
                "",
                _MARK[b.spec.exactness],
            )
            rows.append(row)
    left = _LEFT_COLUMNS_REAL if real else _LEFT_COLUMNS
    lines += aligned(head, rows, left.__contains__)
    lines.append("")
    used = {b.spec.exactness for b in a.bids}
    lines.append("dd = what the double-dummy figure means for the bid:")
    for key in ("exact", "pessimistic", "optimistic"):
        if key in used:
            lines.append(f"  {_MARK[key]} {EXACTNESS_TEXT[key]}")
    if any(b.bound is not None for b in a.bids):
        lines.append(f"  {UPPER_BOUND_TEXT}")
    lines.append(
        "E[score] = the declarer's mean points under the rule set's scoring, with its 95% "
        "interval; open = legal as this seat's opening bid; deals = the sample the bid got."
    )
    if any(b.estimate.unknown for b in a.bids):
        lines.append(
            "low-high = P(make) where positions reached the node budget: their deals may go "
            "either way (see the notes)."
        )
    if any(b.score_is_bound for b in a.bids):
        lines.append("<= = an upper bound: the bid never made on the sample (see the notes).")
    lines += _real_play_lines(a)
    alt_lines = []
    for b in a.bids:
        if b.alternatives and family_named(b.spec.family).shows_runners_up:
            alts = ", ".join(
                f"{_strain_text(x.trump, lang)}/{_called_text(x.called, lang)} "
                f"{_pct(x.estimate.p).strip()}%"
                for x in b.alternatives[:runners_up]
            )
            alt_lines.append(f"  {_bid_label(b, a.ruleset)}: runners-up {alts}")
    if alt_lines:
        lines.append("")
        lines.append("trump/call chosen once per hand (highest P(make) on the sample):")
        lines += alt_lines
    notes = []
    for b in a.bids:
        for n in b.notes:
            text = (
                f"{_bid_label(b, a.ruleset)}: {n}"
                if family_named(b.spec.family).labelled_notes
                else n
            )
            if text not in notes:
                notes.append(text)
    notes += [n for n in a.notes if n not in notes]
    if notes:
        lines.append("")
        lines.append("notes:")
        lines += [f"  {n}" for n in notes]
    if not recommendation:
        return "\n".join(lines)
    lines.append("")
    lines.append(f"recommended opening bid:  {_rec(a, a.recommended_opening)}")
    lines.append(
        f"highest bid worth competing to (E[score] > 0, P(make) >= {a.min_p:g}):  "
        f"{_rec(a, a.highest_competitive)}"
    )
    return "\n".join(lines)


SEAT_NOTE = (
    "the curves were measured with the declarer at seat 1 (bidding first, on lead to trick "
    "1); at seat {seat} they are applied as measured there (the seat's effect is in the "
    "double-dummy figure they map)"
)


def _real_play_lines(a: HandAnalysis) -> list[str]:
    """What the real-play headline is, where it comes from, and which bids fall back to
    double-dummy and why (nothing with --play double-dummy)."""
    if a.play == "double-dummy":
        return []
    cal = a.calibration
    lines = [
        "P(make) and E[score] (est real): the estimated real play, the double-dummy P(make) "
        "mapped through its family's single-dummy calibration curve (Study 13); its range "
        "carries the curve's 95% band and the sample's interval, and E[score] weighs the "
        "double-dummy scores of made and failed deals by it. est dd: the double-dummy "
        "figure (no calibration for the bid, see below). DD % = double-dummy P(make)."
    ]
    used = sorted({b.headline.family for b in a.bids if b.headline is not None})
    if cal is not None and used:
        fams = cal.families
        parts = [
            f"{f.replace('_', ' ')} {fams[f].deals} deals (band +-{fams[f].max_half_width:.3f}"
            + (f"; also by the hand's {FEATURE_LABELS.get(x, x)}" if (x := fams[f].feature) else "")
            + ")"
            for f in used
        ]
        prov = cal.provenance
        seeds = [r.get("seed") for r in prov.get("runs") or [prov]]
        lines.append(
            f"calibration: {cal.path.name}, {prov.get('samples')} worlds a decision, "
            f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}: "
            + ", ".join(parts)
            + ("" if prov.get("complete", True) else " (a run still in progress)")
        )
    if used and a.seat != FOREHAND_PLACE:
        lines.append(SEAT_NOTE.format(seat=a.seat))
    why: dict[str, list[str]] = {}
    for b in a.bids:
        if b.headline is None and b.headline_why:
            why.setdefault(b.headline_why, []).append(_bid_label(b, a.ruleset))
    for reason, bids in why.items():
        lines.append(f"double-dummy figures for {', '.join(bids)}: {reason}")
    return lines


def _mean(hist: list[int]) -> float:
    n = sum(hist)
    return sum(t * k for t, k in enumerate(hist)) / n if n else 0.0


def _rec(a: HandAnalysis, contract_id: str | None) -> str:
    if contract_id is None:
        return "none"
    if contract_id == "pass":
        return "pass"
    b = a.bid(contract_id)
    kind = "" if a.play == "double-dummy" else f", {b.estimate_kind}"
    return (
        f"{_bid_label(b, a.ruleset)}  (P(make) {_pct(b.p_headline).strip()}%, "
        f"E[score] {b.score_headline:+.2f}{kind})"
    )


RENDERER = Renderer("rikken analyse", to_json, render_tables, render_csv)
