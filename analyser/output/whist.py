"""Output of ``rikken analyse --game whist``: a short table or JSON (no CSV); the JSON
schema is ``docs/schemas/whist.schema.json``."""

from __future__ import annotations

from analyser.cards import N_RANKS
from analyser.games.whist import WhistAnalysis
from analyser.notation import format_card
from analyser.output.format import Renderer


def to_dict(a: WhistAnalysis, lang: str = "en") -> dict:
    """The JSON object of a whist analysis (cards in English whatever ``lang``)."""
    del lang
    lo, hi = a.game.interval
    return {
        "game": "whist",
        "hand": " ".join(format_card(c, "en") for c in a.hand),
        "seat": int(a.seat),
        "turned": format_card(a.turned, "en"),
        "form": a.form.name,
        "deals": a.deals,
        "seed": a.seed,
        "play": "double-dummy",
        "tricks_hist": a.tricks_hist,
        "mean_tricks": round(sum(t * k for t, k in enumerate(a.tricks_hist)) / a.deals, 3),
        "p_game": round(a.game.p, 4),
        "ci_low": round(lo, 4),
        "ci_high": round(hi, 4),
        "expected_points_diff": round(a.expected_diff, 4),
        "expected_points_diff_ci": [
            round(a.expected_diff_ci[0], 4),
            round(a.expected_diff_ci[1], 4),
        ],
        "honours_held": a.honours,
    }


def render(a: WhistAnalysis, lang: str = "en") -> str:
    """The table text of a whist analysis (cards in English whatever ``lang``)."""
    del lang
    lo, hi = a.game.interval
    n = a.deals
    mean = sum(t * k for t, k in enumerate(a.tricks_hist)) / n
    h = a.honours
    lines = [
        f"Whist ({a.form.name}), seat {a.seat}, turned {format_card(a.turned, 'en')} "
        f"(trump {'SHDC'[a.turned // N_RANKS]}); {n} sampled deals, seed {a.seed}; "
        "double-dummy, seat 1 leads",
        f"our tricks: mean {mean:.2f}; "
        + ", ".join(f"{t}: {100 * k / n:.0f}%" for t, k in enumerate(a.tricks_hist) if k),
        f"P(game in this deal, from love-all): {100 * a.game.p:.1f}% "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)",
        f"E[our points - theirs] per deal: {a.expected_diff:+.2f} "
        f"(95% CI {a.expected_diff_ci[0]:+.2f}..{a.expected_diff_ci[1]:+.2f})",
        f"honours (A K Q J of trump): we hold 4 {100 * h[4] / n:.0f}%, 3 {100 * h[3] / n:.0f}%, "
        f"2-2 {100 * h[2] / n:.0f}%, they hold 3 {100 * h[1] / n:.0f}%, "
        f"4 {100 * h[0] / n:.0f}%",
    ]
    return "\n".join(lines)


RENDERER = Renderer("rikken analyse --game whist", to_dict, render)
