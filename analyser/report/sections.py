"""One report section per study: its charts (PNG), tables (CSV) and readings.

The readings are generated from the study's own numbers (they quote them), so they cannot
contradict the figures they describe. :func:`study_section` writes the section's files into
``<report_dir>/<study name>/`` and returns the :class:`~analyser.report.model.Section`.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pandas as pd

from analyser.analysis.stats import wilson_interval
from analyser.analysis.wiezen import JOIN_MIN_COUNT, JOIN_MIN_TRUMPS
from analyser.cards import RANK_CHARS_EN
from analyser.report import charts
from analyser.report.model import Block, Section, ci, params_text, pct
from analyser.studies.common import with_interval
from analyser.studies.runner import StudyResult
from analyser.studies.wiezen_ask import MAX_TRUMPS_SHOWN as MAX_SHOWN

LEADER_LABEL = {
    "N": "N on lead (forehand)",
    "E": "E leads (N plays last)",
    "S": "S leads",
    "W": "W leads (N plays second)",
}


def _pool(df: pd.DataFrame) -> dict:
    """Pooled made/deals of the rows of a pooled table."""
    made, deals = int(df["made"].sum()), int(df["deals"].sum())
    lo, hi = wilson_interval(made, deals)
    return {
        "made": made,
        "deals": deals,
        "p": made / deals if deals else np.nan,
        "lo": lo,
        "hi": hi,
    }


def _table_block(
    title: str, df: pd.DataFrame, folder: pathlib.Path, stem: str, reading: str = ""
) -> Block:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.csv"
    df.to_csv(path, index=False)
    return Block(title=title, reading=reading, table=df, csv=path)


# --------------------------------------------------------------------------- rik


def _rik(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    t = res.tables
    hm = t["heatmap"]
    blocks = []
    inside, outside = hm[hm.g_rik_01 == "rik"], hm[hm.g_rik_01 == "pass"]
    a, b = _pool(inside), _pool(outside)
    parts = [
        f"Hands the book accepts (G-RIK-01) made 8 tricks with their partner in {ci(a)}; hands "
        f"it rejects in {ci(b)}."
    ]
    if not inside.empty:
        w = inside.loc[inside.p.idxmin()]
        parts.append(
            f"The weakest accepted cell is {int(w.length)} trumps with {int(w.high)} HIGH "
            f"({pct(w.p)}, {int(w.hands)} hands)."
        )
    if not outside.empty:
        s = outside.loc[outside.p.idxmax()]
        parts.append(
            f"The strongest rejected cell is {int(s.length)} trumps with {int(s.high)} HIGH "
            f"({pct(s.p)})."
        )
    cross = []
    for length, g in hm.groupby("length"):
        ok = g[g.p >= 0.5]
        if not ok.empty:
            cross.append(f"{length} trumps: {int(ok.high.min())} HIGH")
    if cross:
        parts.append(
            "Fewest HIGH trumps with P(make) ≥ 50% per trump length: " + "; ".join(cross) + "."
        )
    if not outside.empty and b["p"] >= 0.5:
        parts.append(
            "For a player: double-dummy, most hands below the book's minimum still make, so the "
            "minimum is on the safe side — but the double-dummy partner is found at once, which "
            "a real rikker cannot count on; treat cells near 50% as a pass."
        )
    elif not inside.empty and a["p"] >= 0.5:
        parts.append(
            "For a player: the minimum separates makeable from unmakeable riks well; stay "
            "inside the outlined region."
        )
    png = charts.heatmap(
        hm,
        folder / "rik_heatmap.png",
        x="length",
        y="high",
        boundary=hm.g_rik_01 == "rik",
        title="P(rik makes 8) by trump length and HIGH trumps (book's call)",
        xlabel="trump length (cards in the rik suit)",
        ylabel="HIGH cards (A K Q J 10) in trumps",
    )
    blocks.append(Block("G-RIK-01: rik minimum heatmap", " ".join(parts), png=png))
    blocks.append(_table_block("G-RIK-01 cells", hm, folder, "rik_heatmap"))

    tc = t["trump_choice"]
    if not tc.empty:
        tot_b = tc.made_book.sum() / tc.deals.sum()
        tot_o = tc.made_other.sum() / tc.deals.sum()
        bb, eq, ob = int(tc.book_better.sum()), int(tc.equal.sum()), int(tc.other_better.sum())
        reading = (
            f"On two-suiters, the G-RIK-02 trump (the longer suit, equal length the better "
            f"honours) made {pct(tot_b)} of {int(tc.deals.sum())} deals, the other long suit "
            f"{pct(tot_o)}. Per hand the book's suit did better on {bb}, equally on {eq} and "
            f"worse on {ob} of {bb + eq + ob} hands. "
            + (
                "For a player: follow the book and pick the longer suit."
                if tot_b >= tot_o
                else "For a player: here the other suit did better; the book's rule is not "
                "confirmed by this sample."
            )
        )
        rows = []
        for r in tc.itertuples():
            rows.append(
                {
                    "lengths": r.lengths,
                    "which": "G-RIK-02 trump",
                    "made": r.made_book,
                    "deals": r.deals,
                }
            )
            rows.append(
                {
                    "lengths": r.lengths,
                    "which": "other long suit",
                    "made": r.made_other,
                    "deals": r.deals,
                }
            )
        pts = with_interval(pd.DataFrame(rows))
        png = charts.points(
            pts,
            folder / "rik_trump_choice.png",
            x="lengths",
            hue="which",
            title="G-RIK-02: P(rik makes 8), book's trump vs the other long suit",
            xlabel="lengths of the two long suits (spades-hearts)",
        )
        blocks.append(Block("G-RIK-02: trump choice", reading, png=png))
        blocks.append(_table_block("G-RIK-02 per length pair", tc, folder, "rik_trump_choice"))

    calls = t["calls"]
    if not calls.empty:
        order = calls.sort_values("p", ascending=False).call_class.tolist()
        book_order = [c for c in ["A", "B", "C", "void"] if c in set(calls.call_class)]
        ps = dict(zip(calls.call_class, calls.p, strict=True))
        holds = all(ps[x] >= ps[y] for x, y in zip(book_order, book_order[1:], strict=False))
        reading = (
            "Over hands played with every legal call: "
            + "; ".join(f"class {r.call_class} {ci(r._asdict())}" for r in calls.itertuples())
            + f". Observed order by P(make): {' > '.join(order)}. The book's preference "
            f"{' ≥ '.join(book_order)} {'holds' if holds else 'does not hold'} in this sample. "
            "'mean_diff_vs_book' in the table is the average change in a hand's P(make) when "
            "calling that class instead of the book's call."
        )
        png = charts.points(
            calls,
            folder / "rik_calls.png",
            x="call_class",
            title="G-ACE-02: P(rik makes 8) by class of the called ace",
            xlabel="class of the called card (A singleton, B K-x, C long suit, guess, void)",
        )
        blocks.append(Block("G-ACE-02: which ace to call", reading, png=png))
        blocks.append(_table_block("G-ACE-02 per class", calls, folder, "rik_calls"))
    return blocks


# --------------------------------------------------------------------------- alone


def _alone(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    cal = res.tables["calibration"]
    exact = cal[cal.margin == 0]
    over = cal[cal.margin == -1]
    parts = []
    if not exact.empty:
        lo_r, hi_r = exact.loc[exact.p.idxmin()], exact.loc[exact.p.idxmax()]
        parts.append(
            f"Bidding exactly the book count made between {pct(lo_r.p)} (count "
            f"{int(lo_r['count'])}) and {pct(hi_r.p)} (count {int(hi_r['count'])}); over all "
            f"counts {ci(_pool(exact))}."
        )
    if not over.empty:
        parts.append(f"Bidding one trick more than the count made {ci(_pool(over))}.")
    bt = res.tables["bold_timid"]
    if bt.empty:
        parts.append(
            "No (count, level) cell is clearly too bold or too timid at the study's thresholds."
        )
    else:
        for verdict in ("too bold", "too timid"):
            g = bt[bt.verdict == verdict]
            if not g.empty:
                cells = ", ".join(
                    f"count {int(r['count'])}→{int(r.level)} ({pct(r.p)})" for _, r in g.iterrows()
                )
                parts.append(f"{verdict.capitalize()}: {cells}.")
    mean_exact = _pool(exact)["p"] if not exact.empty else np.nan
    if not np.isnan(mean_exact):
        parts.append(
            "For a player: "
            + (
                "the count is a safe guide — bid what you count (double-dummy, forehand)."
                if mean_exact >= 0.75
                else "the count alone is not enough; keep a trick in reserve."
            )
        )
    png = charts.calibration(
        cal,
        folder / "alone_calibration.png",
        margins=(1, 0, -1),
        title="Alone bids: P(make N) against the book's trick count (N on lead)",
    )
    risk = res.tables["at_count_by_risk"]
    risk_text = "; ".join(f"risk {int(r.risk)}: {ci(r._asdict())}" for r in risk.itertuples())
    return [
        Block("G-ALN-03..05: calibration of the trick count", " ".join(parts), png=png),
        _table_block(
            "Too bold / too timid cells",
            bt,
            folder,
            "alone_bold_timid",
            reading=f"Thresholds: too bold if the count reaches N and the interval lies below "
            f"{res.cfg['bold_below']:.0%}; too timid if it falls short and the interval lies "
            f"at or above {res.cfg['timid_above']:.0%}.",
        ),
        _table_block(
            "Bidding exactly the count, by trump risk (m = 3 honours)",
            risk,
            folder,
            "alone_by_risk",
            reading=f"P(make N = count) by the trump risk count: {risk_text}.",
        ),
        _table_block("Calibration table (count × level)", cal, folder, "alone_calibration"),
    ]


# --------------------------------------------------------------------------- misère


def _misere(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    t = res.tables
    blocks = []
    safe = t["absolutely_safe"]
    parts = []
    for r in safe.itertuples():
        rate = f"{r.made} of {r.deals} deals ({pct(r.p)}, {r.hands} hands)"
        if r.leader == "N":
            parts.append(f"On lead (forehand), hole-free hands made {rate}.")
        else:
            verdict = (
                "exactly as the book claims (100%)"
                if r.made == r.deals
                else f"NOT 100% — {r.deals - r.made} failures contradict the book's claim"
            )
            parts.append(
                f"Not on lead ({LEADER_LABEL.get(r.leader, r.leader)}), hole-free hands "
                f"made {rate}: {verdict}."
            )
    if res.cfg["min_holes"] > 0:
        parts.append(
            f"This run leaves out hands with fewer than {res.cfg['min_holes']} holes "
            "(key min_holes), so it cannot test the 'absolutely safe' claim."
        )
    elif safe.empty:
        parts.append("The sample has no hole-free hand.")
    blocks.append(
        _table_block(
            "G-MIS-02: 'absolutely safe' (no holes)",
            safe,
            folder,
            "misere_safe",
            reading=" ".join(parts),
        )
    )

    bh = t["by_holes"]
    cap = int(res.cfg["max_holes"])
    labels = {k: (f"{k}+" if k == cap else str(k)) for k in range(cap + 1)}

    lines = []
    for leader, g in bh.groupby("leader"):
        g = g.sort_values("hole_bucket")
        first, last = g.iloc[0], g.iloc[-1]
        lines.append(
            f"{LEADER_LABEL.get(leader, leader)}: {pct(first.p)} with "
            f"{labels[int(first.hole_bucket)]} holes, {pct(last.p)} with "
            f"{labels[int(last.hole_bucket)]}"
        )
    png = charts.points(
        bh,
        folder / "misere_holes.png",
        x="hole_bucket",
        hue="leader",
        hue_label=LEADER_LABEL,
        xticklabels=labels,
        title="Misère: P(no trick) by number of holes",
        xlabel="holes (cards with δ ≥ 1, G-MIS-02)",
        ylabel="P(misère makes)",
    )
    blocks.append(
        Block(
            "G-MIS-03: P(misère) by number of holes",
            "P(misère) falls with the number of holes — " + "; ".join(lines) + ". "
            "For a player: count your holes; each one costs, and being on lead costs "
            "more.",
            png=png,
        )
    )
    bd = t["by_max_delta"]
    png = charts.points(
        bd,
        folder / "misere_delta.png",
        x="max_delta",
        hue="leader",
        hue_label=LEADER_LABEL,
        xticklabels={8: "8+"},
        title="Misère: P(no trick) by the largest hole",
        xlabel="largest hole δ (0 = no hole)",
        ylabel="P(misère makes)",
    )
    small = bd[(bd.max_delta == 1)]
    big = bd[(bd.max_delta >= 3)]
    blocks.append(
        Block(
            "G-MIS-03: P(misère) by hole size",
            f"Hands whose largest hole has δ = 1 made {ci(_pool(small))}; hands with a hole of "
            f"δ ≥ 3 made {ci(_pool(big))} (both leaders pooled). For a player: small holes are "
            "risks, big ones are usually fatal.",
            png=png,
        )
    )

    fl = t["flags"]
    rows = []
    for flag, g in fl.groupby("flag", sort=False):
        yes, no = g[g.present], g[~g.present]
        if yes.empty or no.empty:
            continue
        rows.append(f"{flag}: {pct(_pool(yes)['p'])} with, {pct(_pool(no)['p'])} without")
    blocks.append(
        _table_block(
            "G-MIS-02..06: P(misère) with and without each flag",
            fl,
            folder,
            "misere_flags",
            reading="Both leaders pooled — " + "; ".join(rows) + ".",
        )
    )
    sg = t["by_singleton"].copy()
    if not sg.empty:
        sg["rank"] = [RANK_CHARS_EN[int(r)] for r in sg.highest_singleton]
        high = sg[sg.highest_singleton >= 9]
        low = sg[sg.highest_singleton <= 5]
        png = charts.points(
            sg,
            folder / "misere_singleton.png",
            x="highest_singleton",
            hue="leader",
            hue_label=LEADER_LABEL,
            xticklabels={i: RANK_CHARS_EN[i] for i in range(13)},
            title="Misère: P(no trick) by the rank of the highest singleton",
            xlabel="highest singleton (hands with a singleton)",
            ylabel="P(misère makes)",
        )
        blocks.append(
            Block(
                "G-MIS-04: bare cards",
                f"With a bare J or higher the misère made {ci(_pool(high))}; with a bare 7 or "
                f"lower {ci(_pool(low))}. For a player: a bare high card is the red flag the book "
                "says; a bare low card is a small risk.",
                png=png,
            )
        )
    return blocks


# --------------------------------------------------------------------------- piek


def _piek(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    t = res.tables
    bw = t["by_winners"].copy()
    bw["series"] = np.where(bw.piek_ok, "rest misère-safe (G-PIEK-02 yes)", "rest not safe")
    labels = {0: "0", 1: "1", 2: "2", 3: "3+"}
    blocks = []
    for leader, g in bw.groupby("leader"):
        png = charts.points(
            g,
            folder / f"piek_winners_{leader}.png",
            x="winners",
            hue="series",
            xticklabels=labels,
            title=f"Piek: P(exactly one trick), {LEADER_LABEL.get(leader, leader)}",
            xlabel="possible winners (aces, top honour of a 5+ suit)",
            ylabel="P(piek makes)",
        )
        yes, no = g[g.piek_ok], g[~g.piek_ok]
        one = g[(g.winners == 1) & g.piek_ok]
        two = g[(g.winners >= 2) & g.piek_ok]
        reading = (
            f"{LEADER_LABEL.get(leader, leader)}: hands G-PIEK-02 accepts made {ci(_pool(yes))}, "
            f"the others {ci(_pool(no))}. Among accepted hands, one possible winner: "
            f"{pct(_pool(one)['p'])}; two or more (G-PIEK-03): {pct(_pool(two)['p'])}."
        )
        blocks.append(
            Block(f"G-PIEK-02/03: winners and a safe rest ({leader} leads)", reading, png=png)
        )
    fb = t["fallback"]
    lines = []
    for leader, g in fb.groupby("leader"):
        d = {r.group: r for r in g.itertuples()}
        f = d.get("fallback (no rik, no misère)")
        p = d.get("G-PIEK-02 piek hand")
        if f is not None and p is not None:
            lines.append(
                f"{LEADER_LABEL.get(leader, leader)}: fallback hands {pct(f.p)} "
                f"({f.hands} hands) against {pct(p.p)} for piek hands"
            )
    warn = (
        (
            "The book's warning (G-PIEK-05) quantified — " + "; ".join(lines) + ". For a player: "
            "a hand that is merely too weak to rik and too strong for misère is no reason to piek "
            "unless it also has a winner and a safe rest."
        )
        if lines
        else "The sample has no fallback hands."
    )
    png = charts.points(
        fb,
        folder / "piek_fallback.png",
        x="group",
        hue="leader",
        hue_label=LEADER_LABEL,
        title="G-PIEK-05: P(piek) for fallback hands vs piek hands",
        xlabel="hand group",
        ylabel="P(piek makes)",
    )
    blocks.append(Block("G-PIEK-05: too weak to rik, too strong for misère", warn, png=png))
    blocks.append(_table_block("Piek by winners and rest", t["by_winners"], folder, "piek_winners"))
    blocks.append(
        _table_block("Piek by exit cards (G-PIEK-06)", t["by_exit_cards"], folder, "piek_exit")
    )
    return blocks


# --------------------------------------------------------------------------- malheur


def _malheur(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    ov = res.tables["overview"]
    d = {r.choice: r for r in ov.itertuples()}
    h = d["G-MAL-07 heuristic trump"]
    b = d["best suit per deal (upper bound)"]
    a = d["heuristic trump as good as the best"]
    reading = (
        f"Three-ace malheur hands made 8 tricks with the partner's G-MAL-07 trump in "
        f"{ci(h._asdict())}; choosing the best suit for each deal (an upper bound: it needs "
        f"every hand visible) gives {pct(b.p)}. The heuristic's suit was as good as the best on "
        f"{pct(a.p)} of deals. For a player: "
        + (
            "partner's heuristic trump leaves little on the table."
            if b.p - h.p < 0.1
            else "the trump choice matters; the heuristic misses a good share of makeable deals."
        )
    )
    png = charts.paired_bars(
        ["P(8 tricks)"],
        {
            "G-MAL-07 heuristic trump": ([h.p], [h.lo], [h.hi]),
            "best suit per deal (upper bound)": ([b.p], [b.lo], [b.hi]),
        },
        folder / "malheur.png",
        title="Malheur (3 aces, N on lead): partner's trump choice",
        xlabel="",
    )
    per_hand = res.tables["per_hand"]
    return [
        Block("Malheur: P(8 tricks), heuristic vs best trump", reading, png=png),
        _table_block("Malheur overview", ov, folder, "malheur_overview"),
        _table_block(
            "Heuristic trump is the fourth ace's suit?",
            res.tables["by_heuristic_trump_vs_ace"],
            folder,
            "malheur_by_ace_suit",
            reading=f"Per hand, P(make) with the heuristic ranges from "
            f"{pct(per_hand.p_heuristic.min())} to {pct(per_hand.p_heuristic.max())}.",
        ),
    ]


def _wiezen_ask(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    t = res.tables
    ask, part = t["ask"], t["partner"]
    worth = ask[ask.ask_score > 0]
    k_min = int(worth.asker_trumps.min()) if len(worth) else None
    lines = []
    for r in ask.itertuples():
        lines.append(
            f"{r.asker_trumps} hearts: someone goes along on {pct(r.join_share)} of deals, then "
            f"8 tricks in {pct(r.p)} (95% interval {pct(r.lo)}–{pct(r.hi)}, {r.joined} deals), "
            f"the ask averages {r.ask_score:+.1f} (95% interval {r.ask_lo:+.1f} to "
            f"{r.ask_hi:+.1f}; unanswered: {r.unanswered})"
        )
    headline = (
        f"Asking pays on average (expected score above 0) from {k_min} hearts up"
        if k_min is not None
        else "Asking never paid on average on this sample"
    )
    given_up = int(ask.exact_given_up.sum())
    reading = (
        (
            f"{given_up} exact counts reached the node budget and are left out of the scores. "
            if given_up
            else ""
        )
        + f"{headline}, with the meegaan model's partner and the fallback after an unanswered "
        "ask (alone 5 when that averages above 0 for the heart count, else pass). "
        + "; ".join(lines)
        + "."
    )
    png = charts.paired_bars(
        [str(k) for k in ask.asker_trumps],
        {
            "P(8 tricks | someone goes along)": (list(ask.p), list(ask.lo), list(ask.hi)),
            "share of deals someone goes along": (
                list(ask.join_share),
                list(ask.join_share),
                list(ask.join_share),
            ),
        },
        folder / "wiezen_ask.png",
        title="vragen (N asks, hearts turned): P(8 tricks together) by the asker's hearts",
        xlabel="asker's hearts (turned suit)",
        ylabel="share",
    )
    minimum = []
    for k, g in part.groupby("asker_trumps"):
        ok = g[(g.p >= 0.5) & (g.deals >= 10)]
        minimum.append(
            f"{k} hearts: from {int(ok.partner_trumps.min())}"
            if len(ok)
            else f"{k} hearts: no partner length"
        )
    heat = charts.heatmap(
        part,
        folder / "wiezen_partner.png",
        x="partner_trumps",
        y="asker_trumps",
        boundary=part.p >= 0.5,
        title="P(8 tricks) with one partner, by both hands' hearts (outlined: 50% or more)",
        xlabel=f"partner's hearts ({MAX_SHOWN}+ pooled)",
        ylabel="asker's hearts",
    )
    model = t["model"]
    mrows = "; ".join(f"{r.partner_kind}: {ci(r._asdict())}" for r in model.itertuples())
    return [
        Block("When to ask: P(8 tricks) and the ask's expected score", reading, png=png),
        _table_block("Asking, by the asker's hearts", ask, folder, "wiezen_ask"),
        Block(
            "When to go along: P(8 tricks) by both hands' hearts",
            "Every other player taken as the partner on every deal, whether or not he would "
            "go along. The fewest partner hearts with which the two take 8 tricks at least half "
            "the time (cells with 10 deals or more), per asker's heart count: "
            + "; ".join(minimum)
            + f". The analysis's meegaan model (>= {JOIN_MIN_TRUMPS} hearts and hearts + side "
            f"aces >= {JOIN_MIN_COUNT}) against the rest: {mrows}.",
            png=heat,
        ),
        _table_block("By both hands' hearts", part, folder, "wiezen_partner"),
        _table_block(
            "By hearts together and the partner's side aces (2 = two or more)",
            t["strength"],
            folder,
            "wiezen_strength",
        ),
        _table_block(
            "By HIGH cards (A K Q J 10) of both hands together, in bands of three",
            t["high"],
            folder,
            "wiezen_high",
        ),
        _table_block("The meegaan model's partners", model, folder, "wiezen_model"),
    ]


# --------------------------------------------------------------------------- auction


def _auction(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    t = res.tables
    bc, shift = t["by_condition"], t["shift"]
    readings = []
    labels, uniform, after = [], ([], [], []), ([], [], [])
    for scenario, g in bc.groupby("scenario", sort=False):
        u = g[g.condition == "uniform"].iloc[0]
        a = g[g.condition != "uniform"].iloc[0]
        s = shift[shift.scenario == scenario].iloc[0]
        labels.append(scenario)
        for store, row in ((uniform, u), (after, a)):
            store[0].append(row.p)
            store[1].append(row.lo)
            store[2].append(row.hi)
        readings.append(
            f"{scenario}: P(make) {ci(u)} on uniform deals, {ci(a)} "
            f"on the deals {a.condition.removeprefix('after: ')!r} leaves "
            f"({a.hands} hands; the auction accepted {pct(a.acceptance)} of the sampled "
            f"deals); per hand the auction moves it by {100 * s['shift']:+.1f} points (95% CI "
            f"{100 * s.lo:+.1f} to {100 * s.hi:+.1f}, over {s.hands} hands)"
        )
    reading = (
        "; ".join(readings) + ". Double-dummy. A shift whose interval excludes 0 is what the "
        "earlier calls tell about the other hands under the book bidding model; "
        "`rikken analyse HAND --seat S --auction ...` applies it to one hand."
    )
    png = charts.paired_bars(
        labels,
        {"uniform deals": uniform, "deals the auction accepts": after},
        folder / "auction.png",
        title="P(make) with and without the auction (book bidding model)",
        xlabel="",
    )
    return [
        Block("How much the auction changes the answer", reading, png=png),
        _table_block("P(make) by deal set", bc, folder, "auction_by_condition"),
        _table_block("Per-hand shift (auction - uniform)", shift, folder, "auction_shift"),
    ]


# --------------------------------------------------------------------------- single dummy


def _single_dummy(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    t = res.tables
    bias, cal = t["bias"], t["calibration"]
    samples = res.cfg["samples"]
    lines = []
    for r in bias.itertuples():
        lines.append(
            f"{r.family}: DD {pct(r.dd_p)} ({pct(r.dd_lo)}–{pct(r.dd_hi)}), SD {pct(r.sd_p)} "
            f"({pct(r.sd_lo)}–{pct(r.sd_hi)}), SD − DD {100 * r.diff:+.0f} points "
            f"({100 * r.diff_lo:+.0f} to {100 * r.diff_hi:+.0f}; {r.deals} deals, {r.hands} hands)"
        )
    worse = [r.family for r in bias.itertuples() if r.diff_hi < 0]
    better = [r.family for r in bias.itertuples() if r.diff_lo > 0]
    verdict = []
    if worse:
        verdict.append(f"single-dummy makes significantly less often in {', '.join(worse)}")
    if better:
        who = "" if worse else "single-dummy makes "
        verdict.append(f"{who}significantly more often in {', '.join(better)}")
    if not verdict:
        verdict.append("no family's difference excludes 0 at this sample size")
    reading = (
        "P(make) on the same deals, double-dummy (DD) and single-dummy (SD: PIMC players, "
        f"{samples} worlds per decision), with 95% Wilson intervals; the paired difference "
        "SD − DD with its 95% interval (Newcombe's paired score method; deals of one hand are "
        "treated as independent, so intervals are somewhat narrow when hands are few). "
        + "; ".join(lines)
        + ". "
        + "; ".join(verdict)[:1].upper()
        + "; ".join(verdict)[1:]
        + ". Single-dummy play is a floor for real play (no inference from the other players' "
        "cards beyond shown-out suits, strategy fusion), DD a ceiling for the declarer side at "
        "trick contracts; for misère and piek DD is the defenders' ceiling, so SD is the "
        "declarer's better estimate there."
    )
    labels = bias["family"].tolist()
    png = charts.paired_bars(
        labels,
        {
            "double-dummy": (bias.dd_p.tolist(), bias.dd_lo.tolist(), bias.dd_hi.tolist()),
            f"single-dummy ({samples} worlds)": (
                bias.sd_p.tolist(),
                bias.sd_lo.tolist(),
                bias.sd_hi.tolist(),
            ),
        },
        folder / "single_dummy.png",
        title="P(make) on the same deals: double-dummy against single-dummy",
        xlabel="",
    )
    cal_lines = []
    for r in cal.itertuples():
        a_n = f"{r.sd_given_dd_made}/{r.dd_made}" if r.a_from == "family" else r.a_from
        b_n = f"{r.sd_given_dd_failed}/{r.dd_failed}" if r.b_from == "family" else r.b_from
        cal_lines.append(
            f"{r.family}: a = {pct(r.a)} ({a_n}), b = {pct(r.b)} ({b_n})"
            + (" (pooled: a < b)" if r.pooled else "")
        )
    cal_reading = (
        "Per family a = P(SD make | DD make) and b = P(SD make | DD fail); a DD "
        "make-probability P maps to an estimated real-play P·a + (1 − P)·b, its range from the "
        "ends of both 95% intervals. `rikken analyse` shows this beside each DD figure of the "
        "families covered (from data/single_dummy_calibration.json, which this study writes). "
        + "; ".join(cal_lines)
        + ". A family with no deal in a condition (strong hands that never fail DD) borrows "
        "that rate from its group (trick contracts or null contracts, pooled). Where a sample "
        "gives a < b (noise: a deal that fails DD cannot be easier to make in real play on "
        "average) the two are pooled so the map stays monotone."
    )
    halves, bold, timid = [], [], []
    for r in cal.itertuples():
        if np.isnan(r.a) or np.isnan(r.b):
            continue
        if r.b >= 0.5:
            halves.append(f"{r.family}: every DD P")
            timid.append(r.family)
        elif r.a <= 0.5:
            halves.append(f"{r.family}: none (a ≤ 50%)")
            bold.append(r.family)
        else:
            star = (0.5 - r.b) / (r.a - r.b)
            halves.append(f"{r.family}: DD {pct(star)}")
            (bold if star > 0.5 else timid if star < 0.5 else []).append(r.family)
    relook = (
        "Where the guideline studies above read a line at a double-dummy P(make) of 50% (the "
        "outlined heatmap cells, the alone calibration's 50% line), this calibration moves "
        "it: the DD P at which the estimated real play reaches 50% is — "
        + "; ".join(halves)
        + ". "
        + (f"A line at DD 50% is too bold for real play in {', '.join(bold)}. " if bold else "")
        + (f"It is too timid in {', '.join(timid)}. " if timid else "")
        + "These are point estimates: with the default run's few deals per family (and a "
        "borrowed b where a family's panel never failed DD) they are rough; the intervals of "
        "the table above show how rough."
    )
    curve_png = charts.real_play_map(
        t["curve"],
        folder / "single_dummy_calibration.png",
        title="Estimated real play from the double-dummy P(make), per family",
    )
    return [
        Block("How much double-dummy flatters each contract", reading, png=png),
        _table_block("DD and SD make-rates per family", bias, folder, "single_dummy_bias"),
        Block("Calibration: from double-dummy to real play", cal_reading, png=curve_png),
        _table_block("Calibration per family", cal, folder, "single_dummy_calibration"),
        Block("The guideline studies in this light", relook),
    ]


BUILDERS = {
    "rik_minimum": _rik,
    "alone": _alone,
    "misere": _misere,
    "piek": _piek,
    "malheur": _malheur,
    "wiezen_ask": _wiezen_ask,
    "auction": _auction,
    "single_dummy": _single_dummy,
}

INTROS = {
    "single_dummy": "Study 8. Per contract family a panel of North hands the book would bid "
    "(rik and beter rik: G-RIK-01; alone 7-9: book count 7..9 with alone_ok; solo: book count "
    "13; misère: no red flags and at most 3 holes; open misère: G-OPEN-03; piek: G-PIEK-02; "
    "malheur: three aces), each on a few uniform deals, North declaring and on lead. Each deal "
    "is scored double-dummy by the solver and played out single-dummy by PIMC players "
    "(analyser.single_dummy: each player samples worlds from what he has seen and plays the "
    "card best on average); the open misère hand is public from trick 1. Unlike the other "
    "studies, the single-dummy column is not double-dummy.",
    "auction": "Study 7. What the calls before a seat's turn say about the other hands, under "
    "the book bidding model (each player makes the lowest legal call the coded guidelines "
    "support, and passes when none). Seat 2 (East) hands that meet the rik minimum in hearts "
    "play beter rik (the called ace by G-ACE-02) on uniform deals and on the deals on which "
    "seat 1 bid rik; seat 3 (South) hands without misère red flags and with at most 3 holes "
    "(ours) play misère on uniform deals and on those on which seats 1 and 2 passed. North "
    "leads. The conditioned deals are drawn by rejection (analyser.auction).",
    "rik_minimum": "Study 1. Hands are stratified by trump length (spades, the hand's longest "
    "suit) and the number of HIGH cards (A K Q J 10) in it; the other cards are uniform, "
    "redrawn until every side suit is shorter than the trump suit. Each hand is played with "
    "spades as trump and the book's called ace (G-ACE-02); the partner is whoever holds it on "
    "each deal. Make = rikker and partner take at least 8 tricks.",
    "alone": "Study 2. Strong hands (spade length drawn from the study's list, cards weighted "
    "toward high ranks) accepted up to a quota per book trick count, so every count is equally "
    "covered. The lone player uses the book's trump (highest count) and leads; exact tricks "
    "give P(make N) for every level N.",
    "misere": "Study 3. Hands drawn with card weights favouring low ranks and accepted up to a "
    "quota per number of holes (so hole-free hands are well represented). Each deal is played "
    "with North on lead and with East leading (North not on lead). Double-dummy, closed, open "
    "and praatje misère with the same leader coincide; the open forms (bidder leads) are scored "
    "on the North-leads rows, where the figure is exact for the praatje.",
    "piek": "Study 4. Hands with 0–3 planted aces, other cards weighted toward low ranks, "
    "accepted up to a quota per (possible winners, G-PIEK-02 verdict). Make = exactly one "
    "trick, no trump.",
    "malheur": "Study 5. North holds exactly three aces (uniform among such hands) and leads; "
    "the holder of the fourth ace is the partner and names trump. Make = 8 tricks together.",
    "wiezen_ask": "Study 6, under the wiezen rules (docs/rules.md §7.4). The turned card is ♥7, "
    "in the dealer's (West's) hand, so hearts are trump. North, the forehand, asks (vragen) "
    "with exactly k hearts, the rest of his hand uniform; every deal is solved with each other "
    "player as his partner and with North alone (alone 5). Make = 8 tricks together; scores "
    "by W-17 (a made ask +2 and +1 per overtrick for each partner, a failed one -2 x (2 + "
    "undertricks)).",
}


def _budget_block(res: StudyResult) -> Block | None:
    """What the solver's node budget left undecided (studies with a ``max_nodes`` key)."""
    budget = res.cfg.params.get("max_nodes")
    if not budget or "undecided" not in res.table:
        return None
    df = res.table
    undecided, decided, made = (int(df[c].sum()) for c in ("undecided", "deals", "made"))
    total = undecided + decided
    if undecided == 0:
        text = (
            f"Every one of the {total} solved positions was decided within the solver's node "
            f"budget (max_nodes = {budget:,}): all figures are exact double-dummy results."
        )
    else:
        text = (
            f"{undecided} of {total} positions ({pct(undecided / total)}) needed more than the "
            f"solver's node budget (max_nodes = {budget:,} per search) and were given up. They "
            "are left out of every figure below (each share is over the decided deals), so a "
            "figure could move if they were solved: over all decided deals the make rate is "
            f"{pct(made / decided if decided else np.nan)}; counting every undecided position "
            f"as made would give {pct((made + undecided) / total)}, as failed "
            f"{pct(made / total)}. Long proofs are typically hands that make despite a hole."
        )
    return Block(title="Positions left undecided by the node budget", reading=text)


def study_section(res: StudyResult, report_dir: pathlib.Path) -> Section:
    """Write one study's charts and tables under ``report_dir/<name>/``; return its section."""
    folder = report_dir / res.cfg.name
    blocks = BUILDERS[res.cfg.kind](res, folder)
    budget = _budget_block(res)
    if budget is not None:
        blocks.insert(0, budget)
    n_hands = int(res.table["hand_id"].nunique())
    return Section(
        name=res.cfg.name,
        title=res.cfg["title"],
        intro=INTROS[res.cfg.kind],
        params=params_text(res.cfg, n_hands, res.from_cache),
        blocks=blocks,
    )


def classifier_section(results: list[StudyResult], report_dir: pathlib.Path) -> Section:
    """Every classifier guideline scored: share made among 'bid' and among 'pass' hands."""
    rows = [r for res in results for r in res.classifier_rows]
    df = pd.DataFrame(rows)
    blocks = []
    if not df.empty:
        lines = []
        wide = df.pivot_table(
            index=["guideline", "contract", "seat"], columns="says", values="p", aggfunc="first"
        ).reset_index()
        for _, r in wide.iterrows():
            lines.append(
                f"{r['guideline']} ({r['contract']}, {r['seat']}): bid "
                f"{pct(r.get('bid', np.nan))} / pass {pct(r.get('pass', np.nan))}"
            )
        sep = df[df.says == "bid"].set_index(["guideline", "contract", "seat"])["p"]
        pas = df[df.says == "pass"].set_index(["guideline", "contract", "seat"])["p"]
        good = int(((sep - pas) > 0).sum())
        reading = (
            f"{good} of {len(sep)} scored guideline/contract/seat combinations make more often "
            "on the hands they say to bid than on the hands they say to pass. Shares are over "
            "each study's stratified sample, not over random hands, so compare the two columns "
            "with each other rather than with table frequencies. " + "; ".join(lines) + "."
        )
        blocks.append(
            _table_block(
                "Classifier scores", df, report_dir / "classifiers", "classifiers", reading=reading
            )
        )
    return Section(
        name="classifiers",
        title="Every classifier guideline scored",
        intro="For each guideline that says bid or pass: of the hands it says to bid, the share "
        "of deals made; of the hands it says to pass, the share that would have made — with "
        "95% Wilson intervals over deals (deals of one hand are not independent, so the "
        "intervals are somewhat narrow when hands are few; the 'hands' column shows how many).",
        params="Figures from the studies above, with their parameters. All double-dummy.",
        blocks=blocks,
    )
