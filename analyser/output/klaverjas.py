"""Output of ``rikken analyse --game klaverjas``: per trump P(not nat) and the expected
scores, as a table or JSON (no CSV); the JSON schema is ``docs/schemas/klaverjas.schema.json``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyser.games.klaverjas.rules import format_kj_hand
from analyser.output.format import Renderer

if TYPE_CHECKING:
    # the analysis loads the klaverjas solver (numba): imported for the type only
    from analyser.games.klaverjas.analysis import KlaverjasAnalysis

TRUMP_NAMES = ("♠ spades", "♥ hearts", "♦ diamonds", "♣ clubs")


def to_dict(a: KlaverjasAnalysis, lang: str = "en") -> dict:
    """The JSON object of a klaverjas analysis (the hand in English whatever ``lang``)."""
    del lang
    return {
        "game": "klaverjas",
        "variant": a.rules.name,
        "hand": format_kj_hand(a.hand),
        "seat": a.seat,
        "deals": a.deals,
        "seed": a.seed,
        "play": "double-dummy",
        "recommended_trump": "SHDC"[a.best],
        "trumps": [
            {
                "trump": "SHDC"[r.trump],
                "p_not_nat": round(r.not_nat.p, 4),
                "ci_low": round(r.not_nat.interval[0], 4),
                "ci_high": round(r.not_nat.interval[1], 4),
                "expected_score": round(r.score, 2),
                "expected_score_ci": [round(r.score_ci[0], 2), round(r.score_ci[1], 2)],
                "expected_points_diff": round(r.diff, 2),
                "expected_points_diff_ci": [round(r.diff_ci[0], 2), round(r.diff_ci[1], 2)],
                "exact_deals": r.exact,
                "mars_or_tegenmars_share": round(r.mars, 4),
            }
            for r in a.trumps
        ],
        "seconds": round(a.seconds, 2),
    }


def render(a: KlaverjasAnalysis, lang: str = "en") -> str:
    """The table text of a klaverjas analysis (the hand's ranks in ``lang``: nl writes
    B V H for J Q K)."""
    lines = [
        f"Klaverjas ({a.rules.name}), seat {a.seat}, hand {format_kj_hand(a.hand, lang)}; "
        f"your team plays (chooses trump), seat 1 leads; {a.deals} sampled deals, seed {a.seed}; "
        "double-dummy",
        f"{'trump':<12} {'P(not nat)':>10} {'95% CI':>13}  {'E[score]':>8} {'95% CI':>13}  "
        f"{'E[ours-theirs]':>14} {'95% CI':>15}",
    ]
    for r in a.trumps:
        lo, hi = r.not_nat.interval
        mark = "  <- choose" if r.trump == a.best else ""
        lines.append(
            f"{TRUMP_NAMES[r.trump]:<12} {100 * r.not_nat.p:>9.1f}% "
            f"{f'{100 * lo:.0f}-{100 * hi:.0f}%':>13}  {r.score:>8.1f} "
            f"{f'{r.score_ci[0]:.0f}..{r.score_ci[1]:.0f}':>13}  {r.diff:>+14.1f} "
            f"{f'{r.diff_ci[0]:+.0f}..{r.diff_ci[1]:+.0f}':>15}{mark}"
        )
    lines.append(
        f"recommended trump: {TRUMP_NAMES[a.best]} (the highest expected points difference, "
        "ours minus theirs)"
    )
    if not a.rules.forehand_must_choose and max(r.diff for r in a.trumps) < 0:
        lines.append(
            "every trump loses points on average: better not to play, where the way trump "
            "is chosen lets you pass (KJ-02)"
        )
    if a.rules.forehand_must_choose and a.seat != 1:
        lines.append(
            "note: under amsterdam seat 1 must choose trump (KJ-02); these figures suppose "
            "your team plays each trump"
        )
    lines.append(
        f"P(not nat) on all {a.deals} deals; expected scores from {a.trumps[0].exact} exactly "
        "solved deals per trump (stratified by nat / not nat); "
        f"{a.seconds:.1f} s, {a.nodes} search nodes"
    )
    return "\n".join(lines)


RENDERER = Renderer("rikken analyse --game klaverjas", to_dict, render)
