"""Output of ``rikken analyse --game piket``: every discard set ranked, as a table (the best
ten) or JSON (all of them; no CSV); the JSON schema is ``docs/schemas/piket.schema.json``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from analyser.games.piket.cards import format_card, format_hand
from analyser.output.format import Renderer

if TYPE_CHECKING:
    # the exchange advisor loads the piket solver (numba): imported for the types only
    from analyser.games.piket.exchange import Candidate, PiketAnalysis

SHOWN = 10  # discard sets in the table


def _vs(c: Candidate) -> str:
    if c.vs_best is None:
        return "-"
    m, lo, hi = c.vs_best
    return "best" if lo == hi == m == 0 else f"{m:+.1f} ({lo:+.1f}..{hi:+.1f})"


def _cards(cards: list[int]) -> str:
    return " ".join(format_card(c) for c in cards)


def to_dict(a: PiketAnalysis, lang: str = "en") -> dict:
    """The JSON object of a piket exchange analysis (cards in English whatever ``lang``)."""
    del lang
    rows = []
    for c in a.candidates:
        row = {"discard": _cards(c.discard), "cards": len(c.discard), "stage": c.stage,
               "declarations_screen": round(c.screen, 3)}  # fmt: skip
        if c.stage > 1:
            row.update(
                deals=c.n,
                expected_score=round(c.mean, 3),
                ci=[round(c.ci[0], 3), round(c.ci[1], 3)],
                expected_declarations=round(c.declarations, 3),
                expected_play=round(c.play, 3),
                p_win_point=round(c.p_point, 4),
                p_win_sequence=round(c.p_sequence, 4),
                p_win_sets=round(c.p_sets, 4),
                p_repic=round(c.p_repic, 4),
                p_pic=round(c.p_pic, 4),
            )
        if c.vs_best is not None:
            row["vs_best"] = [round(v, 3) for v in c.vs_best]
        rows.append(row)
    return {
        "game": "piket",
        "hand": format_hand(a.hand),
        "role": a.role,
        "rules": a.rules.name,
        "seed": a.seed,
        "deals": a.worlds,
        "screen_deals": a.screen_worlds,
        "pool_deals": a.pool_worlds,
        "play": "exact (both hands open)",
        "score": f"{a.role}'s points minus the opponent's",
        "opponent_policy": a.opponent_policy,
        "carte_blanche": a.carte_blanche,
        "discard_sets": len(a.candidates),
        "candidates": rows,
    }


def render(a: PiketAnalysis, lang: str = "en", shown: int = SHOWN) -> str:
    """The table text of a piket exchange analysis: the ``shown`` best discard sets (cards in
    English whatever ``lang``)."""
    del lang
    solved = [c for c in a.candidates if c.stage == 3]
    screened = [c for c in a.candidates if c.stage == 2]
    lines = [
        f"Piket, {a.role} hand {format_hand(a.hand)} (rules {a.rules.name}); seed {a.seed}",
        f"{len(a.candidates)} discard sets: all ranked on their declarations over "
        f"{a.screen_worlds} sampled deals, {len(solved) + len(screened)} played out exactly on "
        f"{a.pool_worlds}, the best {len(solved)} on {a.worlds} (same deals for every set).",
        f"Opponent's exchange (stated heuristic): {a.opponent_policy}.",
        "Score: the deal's final points, ours minus theirs (declarations, repic/pic, exact "
        "trick play with both hands open).",
    ]
    if a.carte_blanche:
        lines.append("Carte blanche: this hand scores 10 before the exchange (PK-04).")
    lines.append("")
    header = (
        f"{'discard':<22} {'E[score]':>8} {'95% CI':>15} {'n':>3} {'vs best (paired)':>19} "
        f"{'decl':>6} {'play':>6} {'point':>6} {'seq':>5} {'sets':>5} {'repic':>5} {'pic':>5}"
    )
    lines.append(header)
    for c in solved + screened[: max(0, shown - len(solved))]:
        lines.append(
            f"{_cards(c.discard):<22} {c.mean:>+8.2f} {c.ci[0]:>+7.1f}..{c.ci[1]:<+6.1f} "
            f"{c.n:>3} {_vs(c):>19} {c.declarations:>+6.1f} {c.play:>+6.1f} "
            f"{100 * c.p_point:>5.0f}% "
            f"{100 * c.p_sequence:>4.0f}% {100 * c.p_sets:>4.0f}% {100 * c.p_repic:>4.0f}% "
            f"{100 * c.p_pic:>4.0f}%"
        )
    best = solved[0] if solved else None
    if best is not None:
        lines += [
            "",
            f"best discard: {_cards(best.discard)}  (E[score] {best.mean:+.2f}, "
            f"95% CI {best.ci[0]:+.1f}..{best.ci[1]:+.1f}, {best.n} deals)",
            f"declarations it is likely to win: point {100 * best.p_point:.0f}%, "
            f"sequence {100 * best.p_sequence:.0f}%, quatorze/trio {100 * best.p_sets:.0f}%",
        ]
    lines.append(
        f"({len(a.candidates) - len(solved) - len(screened)} more discard sets ranked on "
        "their declarations only: --format json lists them all)"
    )
    return "\n".join(lines)


RENDERER = Renderer("rikken analyse --game piket", to_dict, render)
