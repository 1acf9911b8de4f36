"""Output of ``rikken analyse --play single-dummy``: the analysis, and the bids played out by
single-dummy players beside the double-dummy figure on the same deals.

JSON: the object of ``rikken analyse`` with ``"play": "single-dummy"``; each bid gains
``play`` and, when it was played out, the single-dummy figures as its headline (``estimate``
``single-dummy``; ``p_make_dd`` the double-dummy figure on the same deals), the whole
sample's double-dummy figures under ``double_dummy_sample``
(``docs/schemas/analyse.schema.json``). A bid not played out keeps its real-play or
double-dummy headline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from analyser.analysis.headline import outcome_scores
from analyser.output.analyse import render_table, to_dict
from analyser.output.format import Renderer, rounded

if TYPE_CHECKING:
    from analyser.analysis.results import HandAnalysis
    from analyser.analysis.single_dummy_run import PlayedBid


@dataclass
class SingleDummyResult:
    """What ``rikken analyse --play single-dummy`` prints: the double-dummy analysis of one
    seat and the bids it played out."""

    analysis: HandAnalysis
    played: list[PlayedBid]


def played_records(played: Sequence[PlayedBid]) -> dict[str, dict]:
    """JSON fields per bid id: ``p_make`` (single-dummy) with its interval, ``p_make_dd``
    (double-dummy on the same deals) with its interval, the deals, worlds per decision."""
    out = {}
    for p in played:
        lo, hi = p.sd.interval
        dlo, dhi = p.dd.interval
        out[p.bid_id] = {
            "play": "single-dummy",
            "estimate": "single-dummy",
            "p_make": round(p.sd.p, 4),
            "ci_low": round(lo, 4),
            "ci_high": round(hi, 4),
            "p_make_dd": round(p.dd.p, 4),
            "ci_low_dd": round(dlo, 4),
            "ci_high_dd": round(dhi, 4),
            "played_deals": p.sd.n,
            "made_both": p.both,
            "samples": p.samples,
            "decisions": p.decisions,
            "limited_decisions": p.limited,
            "decision_nodes": p.decision_nodes,
        }
    return out


def to_json(result: SingleDummyResult, lang: str = "nl") -> dict:
    """The JSON object: the analysis's, with the played bids' figures (module docstring)."""
    obj = to_dict(result.analysis, lang)
    obj["play"] = "single-dummy"
    extra = played_records(result.played)
    for rec in obj["bids"]:
        sd = extra.get(rec["contract"])
        if sd is None:
            rec["play"] = "double-dummy"
            continue
        # the whole sample's double-dummy figures stay, under their own key
        rec["double_dummy_sample"] = {
            "p_make": rec["p_make_dd"],
            "ci_low": rec["ci_low_dd"],
            "ci_high": rec["ci_high_dd"],
            "deals": rec["deals"],
            "expected_score": rec["expected_score_dd"],
            "expected_score_ci": rec["expected_score_dd_ci"],
        }
        rec.update(sd)
        # the expected score of the played figure: the made and failed deals' double-dummy
        # mean scores weighted by the single-dummy P(make) (analysis.headline)
        made, failed = outcome_scores(result.analysis.bid(rec["contract"]))

        def score(x: float, made: float = made, failed: float = failed) -> float:
            return rounded(x * made + (1 - x) * failed)

        rec["expected_score"] = score(sd["p_make"])
        rec["expected_score_ci"] = sorted(score(x) for x in (sd["ci_low"], sd["ci_high"]))
        # the *_dd figures of a played bid are on the played deals, as its p_make_dd
        rec["expected_score_dd"] = score(sd["p_make_dd"])
        rec["expected_score_dd_ci"] = sorted(score(x) for x in (sd["ci_low_dd"], sd["ci_high_dd"]))
    return obj


def render_played(played: Sequence[PlayedBid], seed: int) -> str:
    """The table of single-dummy against double-dummy make-rates."""
    if not played:
        return "single-dummy play: no bid within reach to play (give --bids)"
    n = played[0].sd.n
    lines = [
        f"Single-dummy play: {n} deals of the sample (seed {seed}), {played[0].samples} worlds "
        "per decision; double-dummy on the same deals",
        f"{'bid':<22}{'single-dummy %':>16}{'95% CI':>14}{'double-dummy %':>17}{'95% CI':>14}"
        f"{'s/deal':>8}",
    ]
    for p in played:
        lo, hi = p.sd.interval
        dlo, dhi = p.dd.interval
        lines.append(
            f"{p.bid_id:<22}{100 * p.sd.p:>16.1f}{f'{100 * lo:.1f}-{100 * hi:.1f}':>14}"
            f"{100 * p.dd.p:>17.1f}{f'{100 * dlo:.1f}-{100 * dhi:.1f}':>14}"
            f"{p.seconds / max(p.sd.n, 1):>8.1f}"
        )
    lines.append(
        "single-dummy: every player sees only his own hand, the cards played and the open "
        "hands, and plays the card that does best over sampled worlds (PIMC; no signals)"
    )
    for p in played:
        if p.limited:
            lines.append(
                f"{p.bid_id}: {p.limited} of {p.decisions} decisions reached the node budget "
                f"({p.decision_nodes:,} nodes a decision, a quarter of it a world) and played "
                "the best card on the worlds they could value"
            )
    return "\n".join(lines)


def render_table_played(result: SingleDummyResult, lang: str = "nl") -> str:
    """The analysis table, then the table of the bids played out."""
    a = result.analysis
    return render_table(a, lang) + "\n\n" + render_played(result.played, a.seed)


RENDERER = Renderer("rikken analyse --play single-dummy", to_json, render_table_played)
