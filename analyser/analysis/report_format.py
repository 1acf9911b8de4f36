"""Output of ``rikken analyse``: an aligned table, JSON and CSV.

JSON schema (``--format json``; stable: fields are only ever added). One object per seat; with
``--seat all`` a list of four such objects (seats 1..4). Keys in this order:

* ``hand`` — the hand in the chosen notation (``--lang``), e.g. ``"♠AHV1098 ♥104 ♦A10 ♣752"``;
  ``pbn`` — the same hand in dotted PBN (English ranks), language-neutral
* ``seat`` — 1..4 relative to the dealer (1 = forehand: bids first, leads trick 1);
  ``seat_compass`` — the seat used for it, ``N`` ``E`` ``S`` ``W`` (the dealer sits at W)
* ``deals`` — deals in the sample (the most any bid used; each bid's own count is its
  ``deals``); ``seed`` — the sampling seed (same seed, same options, same output);
  ``rules`` — the rule set and every switch that differs from it, e.g. ``book:min_alone=8``
* ``method`` — always ``"double-dummy"``; ``stop_reason`` — why sampling stopped;
  ``precision`` — the ``--precision`` target or null; ``min_p`` — the ``--min-p`` value
* ``bids`` — one object per bid the rule set offers this hand, in ladder order:

  * ``bid`` — ``rik``, ``beter_rik``, ``alone_7`` .. ``alone_13`` (13 = solo), ``misere``,
    ``piek``, ``open_misere``, ``open_piek``, ``open_misere_praatje``, ``open_piek_praatje``,
    ``malheur``; wiezen: the contract ids ``vragen``, ``alone_5``, ``abondance_9`` ..
    ``abondance_12`` (``abondance_N_turned`` in the turned suit), ``misere``,
    ``open_misere``, ``troel``, ``troela``, ``solo``, ``solo_slim``; ``beter`` — hearts
    are trump by the bid (true for ``beter_rik``; always false under wiezen)
  * ``contract`` — the canonical contract id (``alone_9_beter``, ``solo``, ``solo_beter``),
    unique per row; ``rank`` — the rung on the rule set's ladder
  * ``trump`` — ``"S"`` ``"H"`` ``"D"`` ``"C"`` chosen once for the hand, null for misère/piek
    and for malheur (the partner names it per deal)
  * ``called`` — the called card (rik: the called ace or king; malheur: the 4th ace or the
    named king) as suit letter + English rank (``"HA"``, ``"SK"``, ``"DT"``), else null
  * ``p_make``, ``ci_low``, ``ci_high`` — make-probability over the bid's deals and its 95 %
    Wilson interval (4 decimals); where positions were given up at the node budget,
    ``p_make`` is the middle of the range ``p_low``..``p_high`` and the interval spans it
  * ``expected_score`` — the declarer's mean score under the rule set's scoring (4 decimals):
    exact counts on a subsample (the first 60 deals and 15 of each stratum made / failed /
    given up), weighted by each stratum's share of all the bid's deals
  * ``tricks_hist`` — 14 counts: deals on which the declarer side took 0..13 tricks, among
    the first 60 deals of the sample (``tricks_hist_deals`` of them); null
    for misère/piek, and for an alone bid whose strain never reached the lowest alone level
    on the sample (no counts are made; ``expected_score`` is then an upper bound, see
    ``note``)
  * ``opening_legal`` — the bid is legal as this seat's opening bid (all earlier seats passed)
  * ``exactness`` — what the double-dummy figure means: ``exact`` (praatje: all hands open,
    defenders confer), ``pessimistic`` (closed and open misère/piek: the defenders play as if
    they saw every card), ``optimistic`` (trick-taking bids: both sides see everything, the
    rikker knows his partner)
  * ``note`` — free text (how trump/partner were chosen, skipped strains), or null
  * ``alternatives`` — runners-up of the trump / called-card choice, best first: objects with
    ``trump``, ``called``, ``p_make``, ``ci_low``, ``ci_high``
  * ``upper_bound`` — malheur only (else null): the same figures (``p_make``, ``ci_low``,
    ``ci_high``, ``expected_score``, ``tricks_hist``) when the partner names the double-dummy
    best trump on every deal, which he cannot know
* ``recommended_opening`` — canonical contract id of the best legal opening bid, ``"pass"``,
  or null; ``highest_competitive`` — canonical id of the highest bid worth competing to, or null
* ``notes`` — list of free-text remarks
* ``not_offered`` — canonical ids of the rule set's contracts this hand can never bid at its
  seat, which are therefore not in ``bids``: ``beter_rik`` for seat 1, the forehand
  (R-BID-07), and with 3-4 aces under an obligatory malheur every bid below malheur
  (R-MAL-01); else an empty list. JSON only: the CSV has one row per element of ``bids``
* appended with the node budget and adaptive sampling:

  * per bid (and in ``upper_bound``): ``deals`` — the deals this bid was evaluated on (a
    question settled early keeps fewer); ``unknown`` — of those, deals whose answer was
    given up at the node budget; ``p_low``, ``p_high`` — the make-probability if none / all
    of them made (equal to ``p_make`` when ``unknown`` is 0); ``expected_score_ci`` —
    ``[low, high]``, the expected score's 95 % interval (sampling, the subsample of exact
    counts and the given-up positions); ``tricks_hist_deals`` — deals ``tricks_hist``
    counts (null with it)
  * ``sampling`` — how the sample size was chosen (fixed ``--deals``, or adaptive with its
    precision and maximum); ``node_budget`` — nodes per search before a position is given
    up; ``given_up`` — positions given up per contract family (``rik``, ``alone/solo``,
    ``misere/piek``, ``malheur``; wiezen also ``vragen`` and ``troel`` when asked)
* appended with the wiezen rule set: ``turned`` — the turned card (``"H7"``), which lies
  with the dealer in every sampled deal; per bid ``joined`` — vragen only (else null):
  ``{"deals", "joined", "p", "ci_low", "ci_high"}``, the deals on which someone goes along
  under the meegaan model (``p_make`` is over those deals)

* appended with the single-dummy calibration (:mod:`analyser.analysis.real_play`; when
  ``data/single_dummy_calibration.json`` is missing these are null): per bid
  ``p_make_real_est`` — the estimated real-play make-probability of the families Study 8
  covers (rik, beter rik, alone 7-9, solo, misère, open misère, piek, malheur), ``p·a +
  (1-p)·b``, for a hand of the kind the study's panel holds for that family (else null);
  ``p_make_real_est_ci`` — ``[low, high]``, its 95 % range (calibration and sample); at the
  end ``real_play_calibration`` — ``{"method", "file", "samples", "deals",
  "seed"}``

CSV (``--format csv``): a header and one row per bid with the columns of :data:`CSV_COLUMNS`
(``tricks_hist`` written as 14 counts joined by ``-``; the run's facts repeated on every row;
``bid_deals`` is the bid's own ``deals``, ``expected_score_low``/``_high`` its interval).
"""

from __future__ import annotations

import csv
import io
import json

from analyser.analysis import real_play
from analyser.analysis.bids import (
    EXACTNESS_TEXT,
    FAMILY_MALHEUR,
    FAMILY_RIK,
    FAMILY_TROEL,
    FAMILY_VRAGEN,
    UPPER_BOUND_TEXT,
    schema_id,
)
from analyser.analysis.results import BidResult, HandAnalysis
from analyser.cards import RANK_CHARS_EN, SEAT_LETTERS, SUIT_LETTERS, rank_of, suit_of
from analyser.notation import format_card, format_hand, format_hand_pbn, format_strain
from analyser.rules import RuleSet
from analyser.seats import DEALER_PLACE, FOREHAND_PLACE, seat_of
from analyser.stats import Estimate

# families whose notes name their bid in the table's notes (their notes are about one bid)
LABELLED_NOTES = (FAMILY_MALHEUR, FAMILY_RIK, FAMILY_VRAGEN, FAMILY_TROEL)

METHOD = "double-dummy"
DECIMALS = 4

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
)


def card_code(c: int | None) -> str | None:
    """A card as suit letter + English rank (``"HA"``, ``"DT"``) for JSON/CSV; None stays None."""
    if c is None:
        return None
    return SUIT_LETTERS[suit_of(c)] + RANK_CHARS_EN[rank_of(c)]


def _strain_code(strain: int | None) -> str | None:
    if strain is None or strain >= len(SUIT_LETTERS):
        return None
    return SUIT_LETTERS[strain]


def _r(x: float) -> float:
    return round(float(x), DECIMALS)


def _estimate(e: Estimate) -> dict:
    low, high = e.interval
    return {"p_make": _r(e.p), "ci_low": _r(low), "ci_high": _r(high)}


def _range(e: Estimate) -> dict:
    """The fields a bid gained with the node budget and per-bid samples (appended)."""
    return {
        "deals": e.n,
        "unknown": e.unknown,
        "p_low": _r(e.p_low),
        "p_high": _r(e.p_high),
    }


def _note(b: BidResult) -> str | None:
    return "; ".join(b.notes) if b.notes else None


def real_estimate(b: BidResult, ruleset: RuleSet | None = None, hand=None):
    """``(p, lo, hi)`` estimated real play of the bid from the single-dummy calibration
    (:mod:`analyser.analysis.real_play`); None when the file is missing, the family is not
    covered, or ``hand`` (None: unknown) is not of the kind the study calibrated it on."""
    cal = real_play.load()
    if cal is None or hand is None:
        return None
    family = real_play.family_of(b.spec.contract, *(() if ruleset is None else (ruleset.family,)))
    if family is None or not real_play.in_panel(family, hand):
        return None
    low, high = b.estimate.interval
    return cal.estimate_range(family, b.estimate.p, low, high)


def bid_record(b: BidResult, ruleset: RuleSet | None = None, hand=None) -> dict:
    """The JSON object of one bid (see the module docstring); ``ruleset`` names the family
    whose bid ids are used (default: rikken); ``hand`` (the analysed hand) for the estimated
    real play."""
    bid, beter = schema_id(b.spec.contract, *(() if ruleset is None else (ruleset.family,)))
    out = {
        "bid": bid,
        "beter": beter,
        "contract": b.spec.id,
        "rank": b.spec.rank,
        "trump": _strain_code(b.trump),
        "called": card_code(b.called),
        **_estimate(b.estimate),
        "expected_score": _r(b.expected_score),
        "tricks_hist": b.tricks_hist,
        "opening_legal": b.opening,
        "exactness": b.spec.exactness,
        "note": _note(b),
        "alternatives": [
            {"trump": _strain_code(a.trump), "called": card_code(a.called), **_estimate(a.estimate)}
            for a in b.alternatives
        ],
        "upper_bound": None,
        **_range(b.estimate),
        "expected_score_ci": [_r(x) for x in b.expected_score_ci],
        "tricks_hist_deals": b.tricks_hist_deals if b.tricks_hist is not None else None,
    }
    est = real_estimate(b, ruleset, hand)
    out["p_make_real_est"] = _r(est[0]) if est is not None else None
    out["p_make_real_est_ci"] = [_r(est[1]), _r(est[2])] if est is not None else None
    if b.joined is not None:
        low, high = b.joined.interval
        out["joined"] = {
            "deals": b.joined.n,
            "joined": b.joined.made,
            "p": _r(b.joined.p),
            "ci_low": _r(low),
            "ci_high": _r(high),
        }
    elif ruleset is not None and ruleset.turned_trump:
        out["joined"] = None
    if b.bound is not None:
        out["upper_bound"] = {
            **_estimate(b.bound.estimate),
            "expected_score": _r(b.bound.expected_score),
            "tricks_hist": b.bound.tricks_hist,
            **_range(b.bound.estimate),
            "expected_score_ci": [_r(x) for x in b.bound.expected_score_ci],
        }
    return out


def header_fields(a, lang: str = "nl") -> dict:
    """The leading JSON keys of `rikken analyse` and `rikken misere`: hand, seat, sample, rules
    (``a`` is a :class:`HandAnalysis` or a misère analysis; both carry these attributes)."""
    return {
        "hand": format_hand(a.hand, lang),
        "pbn": format_hand_pbn(a.hand),
        "seat": a.seat,
        "seat_compass": SEAT_LETTERS[seat_of(a.seat)],
        "deals": a.n_deals,
        "seed": a.seed,
        "rules": a.ruleset.spec,
        "method": METHOD,
    }


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
        "given_up": dict(a.given_up),
        **({"turned": card_code(a.turned)} if a.ruleset.turned_trump else {}),
        "real_play_calibration": _calibration_source(),
    }


def _calibration_source() -> dict | None:
    """Where ``p_make_real_est`` comes from (null when the calibration file is missing)."""
    cal = real_play.load()
    if cal is None:
        return None
    return {
        "method": "single-dummy (PIMC) against double-dummy, Study 8",
        "file": cal.path.name,
        "samples": cal.samples,
        "deals": cal.deals,
        "seed": cal.seed,
    }


def render_json(analyses: list[HandAnalysis], lang: str = "nl", many: bool = False) -> str:
    """JSON text: one object, or with ``many`` a list of objects (``--seat all``)."""
    objs = [to_dict(a, lang) for a in analyses]
    return json.dumps(objs if many else objs[0], indent=2, ensure_ascii=False)


def render_csv(analyses: list[HandAnalysis]) -> str:
    """CSV text: header and one row per bid (and per seat)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for a in analyses:
        for rec in (bid_record(b, a.ruleset, a.hand) for b in a.bids):
            hist = rec["tricks_hist"]
            row = {
                **rec,
                "seat": a.seat,
                "deals": a.n_deals,
                "seed": a.seed,
                "rules": a.ruleset.spec,
                "tricks_hist": "-".join(str(x) for x in hist) if hist is not None else "",
                "trump": rec["trump"] or "",
                "called": rec["called"] or "",
                "note": rec["note"] or "",
                "beter": str(rec["beter"]).lower(),
                "opening_legal": str(rec["opening_legal"]).lower(),
                "bid_deals": rec["deals"],
                "expected_score_low": rec["expected_score_ci"][0],
                "expected_score_high": rec["expected_score_ci"][1],
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
        f"rules  {a.ruleset.spec}   deals {a.n_deals}   seed {a.seed}   method {METHOD}",
        f"sample {a.stop_reason}",
    ]
    if a.turned is not None:
        lines.append(
            f"turned {format_card(a.turned, lang)} (the dealer's face-up card: its suit is "
            "the turned trump, W-01)"
        )
    lines.append("")
    head = (
        "bid",
        "trump",
        "call",
        "deals",
        "P(make) %",
        "95% CI %",
        "E[score]",
        "95% CI",
        "E[tricks]",
        "open",
        "dd",
    )
    rows = []
    for b in a.bids:
        low, high = b.estimate.interval
        mean = b.mean_tricks
        e_low, e_high = b.expected_score_ci
        rows.append(
            (
                _bid_label(b, a.ruleset),
                _strain_text(b.trump, lang)
                if b.trump is not None
                else ("partner" if b.spec.family == FAMILY_MALHEUR else "-"),
                _called_text(b.called, lang),
                str(b.estimate.n),
                _p_text(b.estimate),
                f"{_pct(low)}-{_pct(high).strip()}",
                ("<=" if b.score_is_bound else "") + f"{b.expected_score:+.2f}",
                f"{e_low:+.2f}..{e_high:+.2f}",
                f"{mean:.2f}" if mean is not None else "-",
                "yes" if b.opening else "",
                _MARK[b.spec.exactness],
            )
        )
        if b.bound is not None:
            blow, bhigh = b.bound.estimate.interval
            b_low, b_high = b.bound.expected_score_ci
            rows.append(
                (
                    "  upper bound",
                    "dd best",
                    _called_text(b.called, lang),
                    str(b.bound.estimate.n),
                    _p_text(b.bound.estimate),
                    f"{_pct(blow)}-{_pct(bhigh).strip()}",
                    f"{b.bound.expected_score:+.2f}",
                    f"{b_low:+.2f}..{b_high:+.2f}",
                    f"{_mean(b.bound.tricks_hist):.2f}",
                    "",
                    _MARK[b.spec.exactness],
                )
            )
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) for i in range(len(head))]
    left = {0, 1, 2, 9, 10}

    def fmt(r):
        cells = [
            r[i].ljust(widths[i]) if i in left else r[i].rjust(widths[i]) for i in range(len(r))
        ]
        return "  ".join(cells).rstrip()

    lines.append(fmt(head))
    lines.append("  ".join("-" * w for w in widths))
    lines += [fmt(r) for r in rows]
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
        if b.alternatives and b.spec.family == FAMILY_RIK:
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
            text = f"{_bid_label(b, a.ruleset)}: {n}" if b.spec.family in LABELLED_NOTES else n
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


def _real_play_lines(a: HandAnalysis) -> list[str]:
    """'estimated real play' per covered bid, from the single-dummy calibration (none when the
    calibration file is missing)."""
    cal = real_play.load()
    if cal is None:
        return []
    parts = []
    for b in a.bids:
        est = real_estimate(b, a.ruleset, a.hand)
        if est is not None:
            parts.append(
                f"{_bid_label(b, a.ruleset)} {_pct(est[0]).strip()}% "
                f"({_pct(est[1]).strip()}-{_pct(est[2]).strip()})"
            )
    if not parts:
        return []
    return [
        f"estimated real play P(make) % (95% range), from the DD figure by the single-dummy "
        f"calibration of Study 8 (PIMC players, {cal.samples} worlds per decision, "
        f"{cal.deals} deals; `rikken study run sims/single_dummy.toml`), for the bids whose "
        "hand fits the study's panel (G-RIK-01 for rik, no misère red flags, ...): "
        + ", ".join(parts)
    ]


def _mean(hist: list[int]) -> float:
    n = sum(hist)
    return sum(t * k for t, k in enumerate(hist)) / n if n else 0.0


def _rec(a: HandAnalysis, contract_id: str | None) -> str:
    if contract_id is None:
        return "none"
    if contract_id == "pass":
        return "pass"
    b = a.bid(contract_id)
    return (
        f"{_bid_label(b, a.ruleset)}  (P(make) {_pct(b.estimate.p).strip()}%, "
        f"E[score] {b.expected_score:+.2f})"
    )
