"""Study 9, single-dummy against double-dummy: how much the solver's all-seeing play flatters
each contract family.

Every other study scores a contract double-dummy (DD): every player sees all four hands, so
declarer never misguesses and the defence never lets a contract through by not knowing where
a card is. Real players see their own hand and the cards played. This study plays the same
deals both ways — DD with the solver, single-dummy (SD) with the PIMC players of
:mod:`analyser.single_dummy` drawing ``samples`` worlds per decision — and measures per
family the make-rate each way, their paired difference and a calibration from one to the
other.

**Panel.** For each family a seeded panel of North hands that the book would bid, each
played on ``deals_per_hand`` deals (the other 39 cards uniform, from the hand's deal seed),
North the declarer and on lead (forehand):

=============  ====================================================  ===========================
family         hands (drawn, then kept when they pass)                contract played
=============  ====================================================  ===========================
rik            uniform hands passing G-RIK-01                         G-RIK-02 trump, G-ACE-02
                                                                      called card, 8 with partner
beter rik      uniform hands passing G-RIK-01 in hearts               hearts trump, G-ACE-02 card
alone 7-9      strong hands (as Study 2) with book count 7..9 and     K = the book count alone,
               G-ALN-03 ``alone_ok`` at that count                    the book's trump
solo           strong hands with book count 13                        13 alone, the book's trump
misère         low-weighted hands without red flags (G-MIS-04..06)    no trick, no trump
               and at most ``MISERE_MAX_HOLES`` (3) holes
open misère    low-weighted hands passing G-OPEN-03                   as misère, North's hand
                                                                      public from the start
piek           Study 4's planted-ace hands passing G-PIEK-02          exactly one trick
malheur        three-ace hands (uniform)                              8 with the fourth ace's
                                                                      holder, his G-MAL-07 trump
=============  ====================================================  ===========================

At rik the partner is whoever holds the called card on that deal; single-dummy, the others
learn who he is only when it falls. At malheur the partner names trump, so he is known from
the start (``PlayContract.partner``, so every player's worlds give him the fourth ace); the
fourth ace is passed as the called card in both, as in Study 5. The open forms are treated
as open from trick 1 (the book shows the hand after trick 1). A DD position over the node
budget ``max_nodes`` is left out (``dd_made = -1``); the single-dummy players decide within
their own node budget per decision (:data:`~analyser.single_dummy.DEFAULT_DECISION_NODES`),
and each row counts the decisions that reached it (``sd_limited``).

Result: one row per (hand, deal) with ``dd_made`` and ``sd_made`` (0/1), the SD tricks and
the seconds the play took. :func:`calibration` turns the pairs into, per family,
``a = P(SD make | DD make)`` and ``b = P(SD make | DD fail)``, so that a DD make-probability
``P`` maps to an estimated real-play ``P·a + (1-P)·b`` (the panel filter, the rows and the
map are :mod:`analyser.analysis.calibration`'s); a family without deals in a condition
borrows that rate from its group (trick or null contracts pooled).
:func:`summarise` writes it to ``<data_dir>/<name>_calibration.json``, read by ``rikken
analyse`` (:mod:`analyser.analysis.real_play`).

Caveats: the panels are small in the default run (a few hands, a few deals each: deals of one
hand are not independent); PIMC players are weaker than good humans (strategy fusion, no
inference from the others' choice of card).
"""

from __future__ import annotations

import json
import math
import time
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.analysis.calibration import SOLO_COUNT, calibration_row, qualifies, real_play
from analyser.cards import ACE, HEARTS, N_RANKS, N_SUITS, NOTRUMP, card, mask_to_cards
from analyser.files import write_text_atomic
from analyser.guidelines import (
    alone_trump,
    book_count,
    default_call,
    malheur_trump,
    rik_trump,
)
from analyser.progress import Progress
from analyser.rules import MALHEUR_TARGET, RIK_TARGET, malheur_trump_choices, parse_ruleset
from analyser.single_dummy import (
    KIND_GE,
    KIND_MISERE,
    KIND_PIEK,
    PlayContract,
    PlayOptions,
    play_deal,
)
from analyser.stats import Z95, wilson_interval
from analyser.studies import hands as gen
from analyser.studies.alone import strong_hands
from analyser.studies.common import hand_frame, renumber
from analyser.studies.config import StudyConfig, int_in
from analyser.studies.piek import piek_candidates
from analyser.studies.solve import deals_for_hand, solve_positions

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

# family key -> label shown in the report and in `rikken analyse`
FAMILIES: dict[str, str] = {
    "rik": "rik",
    "beter_rik": "beter rik",
    "alone": "alone 7-9",
    "solo": "solo",
    "misere": "misère",
    "open_misere": "open misère",
    "piek": "piek",
    "malheur": "malheur",
}


def _family_counts(v) -> str | None:
    """The check of ``hands_per_family``: a table of family = hands."""
    if not isinstance(v, dict) or not v:
        return f"must be a table of family = hands, got {v!r}"
    for k, n in v.items():
        if k not in FAMILIES:
            return f"has unknown family {k!r} (known: {', '.join(FAMILIES)})"
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 1_000_000:
            return f"item {k!r} must be an integer in 0..1000000, got {n!r}"
    if not any(v.values()):
        return "must ask for at least one hand"
    return None


# why deal_model = "cut_only" does not apply (docs/deal_model.md)
CUT_ONLY = (
    "it writes the single-dummy calibration that rikken analyse applies, measured on "
    "uniform deals (one calibration, applied whatever the deal model: docs/deal_model.md)"
)
# the study's own parameters (besides config.COMMON_KEYS), each with its check
KEYS = {
    "hands_per_family": _family_counts,
    "samples": int_in(1, 1000),
    "max_nodes": int_in(0, 10**12),
}
DECLARER = 0  # North declares and leads trick 1 (forehand)
BATCH = 4096
MAX_BATCHES = 400


# --------------------------------------------------------------------------- the panel


def _uniform(rng: np.random.Generator, n: int) -> np.ndarray:
    return gen.weighted_hands(rng, n, 0.0)


def _low(rng: np.random.Generator, n: int) -> np.ndarray:
    return gen.weighted_hands(rng, n, rng.uniform(0.0, 1.0, size=n))


def _candidates(family: str, rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` candidate hands of the family's design (module docstring)."""
    if family in ("rik", "beter_rik"):
        return _uniform(rng, n)
    if family == "alone":
        return strong_hands(rng, n, [5, 6, 7, 8], 1.5)
    if family == "solo":
        return strong_hands(rng, n, [7, 8, 9, 10], 3.0)
    if family in ("misere", "open_misere"):
        return _low(rng, n)
    if family == "piek":
        return piek_candidates(rng, n, 1.0, 1)
    if family == "malheur":
        return gen.three_ace_hands(rng, n)
    raise ValueError(f"unknown family {family!r}")


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """Per family (in :data:`FAMILIES` order) the first ``hands_per_family[family]``
    candidates that qualify, from the family's own seeded stream."""
    frames = []
    wanted = cfg["hands_per_family"]
    for k, family in enumerate(FAMILIES):
        n = int(wanted.get(family, 0))
        if n == 0:
            continue
        picked: list[int] = []
        for b in range(MAX_BATCHES):
            cand = _candidates(family, gen.stream(cfg["seed"], 8, k, b), BATCH)
            picked += cand[qualifies(family, cand)].tolist()
            if len(picked) >= n:
                break
        masks = np.array(picked[:n], dtype=np.int64)
        frames.append(hand_frame(masks, cfg["seed"], 0, family=family))
    return renumber(frames, cfg["seed"])


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One single-dummy play (and one DD solve) per deal."""
    return len(hands) * cfg["deals_per_hand"]


# --------------------------------------------------------------------------- the contracts


def contract_for(family: str, deal: np.ndarray, rules: str) -> PlayContract:
    """The contract North plays on ``deal`` (``int64[4]`` masks) in ``family``."""
    rs = parse_ruleset(rules)
    hand = mask_to_cards(int(deal[DECLARER]))
    if family in ("rik", "beter_rik"):
        trump = HEARTS if family == "beter_rik" else int(rik_trump.many(deal[:1])[0])
        called = int(default_call(hand, trump=trump, ruleset=rs))
        return PlayContract(trump, DECLARER, DECLARER, KIND_GE, RIK_TARGET, called=called)
    if family in ("alone", "solo"):
        trump = int(alone_trump.many(deal[:1])[0])
        target = SOLO_COUNT if family == "solo" else int(book_count.many(deal[:1])[0])
        return PlayContract(trump, DECLARER, DECLARER, KIND_GE, target)
    if family in ("misere", "open_misere"):
        shown = (DECLARER,) if family == "open_misere" else ()
        return PlayContract(NOTRUMP, DECLARER, DECLARER, KIND_MISERE, open=shown)
    if family == "piek":
        return PlayContract(NOTRUMP, DECLARER, DECLARER, KIND_PIEK)
    if family == "malheur":
        ace = next(card(s, ACE) for s in range(N_SUITS) if card(s, ACE) not in hand)
        partner = next(s for s in range(4) if int(deal[s]) >> (16 * (ace // N_RANKS) + ACE) & 1)
        allowed = malheur_trump_choices(rs, ace)
        trump = int(malheur_trump(mask_to_cards(int(deal[partner])), allowed=allowed))
        return PlayContract(
            trump, DECLARER, DECLARER, KIND_GE, MALHEUR_TARGET, called=ace, partner=partner
        )
    raise ValueError(f"unknown family {family!r}")


def double_dummy(contract: PlayContract, deals: np.ndarray, rules: str, max_nodes: int = 0):
    """``int8[n]``: the DD answer (1 made, 0 failed, -1 over the budget) of ``contract`` on
    each deal; the declarer side at rik is the called card's holder on that deal."""
    from analyser.solver import GOAL_GE, GOAL_MISERE, GOAL_PIEK

    rs = parse_ruleset(rules)
    deals = np.asarray(deals, dtype=np.int64).reshape(-1, 4)
    side = np.full(len(deals), 1 << contract.declarer, dtype=np.int64)
    if contract.partner >= 0:
        side |= 1 << contract.partner
    elif contract.called >= 0:
        c = contract.called
        bit = 1 << (16 * (c // N_RANKS) + c % N_RANKS)
        holder = np.argmax((deals & bit) != 0, axis=1)
        side |= np.left_shift(1, holder)
    goal = {KIND_GE: GOAL_GE, KIND_MISERE: GOAL_MISERE, KIND_PIEK: GOAL_PIEK}[contract.kind]
    return solve_positions(
        deals,
        contract.trump,
        contract.leader,
        side,
        goal,
        contract.target if contract.kind == KIND_GE else 0,
        contract.called,
        discard_ok=rs.called_card_may_be_discarded,
        max_nodes=max_nodes,
    )


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per (hand, deal): the DD answer and the single-dummy outcome of the same contract."""
    from analyser.solver import Solver

    rs = parse_ruleset(cfg["rules"])
    solver = Solver()
    n = cfg["deals_per_hand"]
    options = PlayOptions(
        cfg["samples"], called_card_may_be_discarded=rs.called_card_may_be_discarded
    )
    rows = []
    for r in hands.itertuples():
        deals = deals_for_hand(int(r.mask), n, int(r.deal_seed))
        for i in range(n):
            contract = contract_for(r.family, deals[i], cfg["rules"])
            dd = int(double_dummy(contract, deals[i : i + 1], cfg["rules"], cfg["max_nodes"])[0])
            t0 = time.perf_counter()
            sd = play_deal(
                [mask_to_cards(int(m)) for m in deals[i]],
                contract,
                options,
                int(r.deal_seed),
                i,
                solver=solver,
            )
            rows.append(
                {
                    "hand_id": r.hand_id,
                    "hand": r.hand,
                    "mask": r.mask,
                    "deal_seed": r.deal_seed,
                    "family": r.family,
                    "deal": i,
                    **{f"seat{s}": int(deals[i, s]) for s in range(4)},
                    "trump": contract.trump,
                    "target": contract.target if contract.kind == KIND_GE else 0,
                    "called": contract.called,
                    "partner": sd.partner if contract.partner < 0 else contract.partner,
                    "dd_made": dd,
                    "sd_made": int(sd.made),
                    "sd_tricks": sd.tricks,
                    "sd_decisions": sd.decisions,
                    "sd_limited": sd.limited,
                    "seconds": time.perf_counter() - t0,
                }
            )
            if progress is not None:
                progress.advance(1)
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- statistics


def paired_difference(n11: int, n10: int, n01: int, n00: int, z: float = Z95):
    """``(d, lo, hi)``: the difference ``P(SD make) - P(DD make)`` on the same deals and its
    95 % interval by Newcombe's hybrid score method for paired proportions (his method 10,
    with the continuity-corrected correlation). ``n11`` both made, ``n10`` DD only, ``n01``
    SD only, ``n00`` neither."""
    n = n11 + n10 + n01 + n00
    if n == 0:
        return math.nan, -1.0, 1.0
    p_sd, p_dd = (n11 + n01) / n, (n11 + n10) / n
    l_sd, u_sd = wilson_interval(n11 + n01, n, z)
    l_dd, u_dd = wilson_interval(n11 + n10, n, z)
    denom = (n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00)
    a = n11 * n00 - n10 * n01
    if denom == 0:
        phi = 0.0
    elif a > n / 2:
        phi = (a - n / 2) / math.sqrt(denom)
    elif a >= 0:
        phi = 0.0
    else:
        phi = a / math.sqrt(denom)
    d = p_sd - p_dd
    lo = d - math.sqrt(
        max(0.0, (p_sd - l_sd) ** 2 - 2 * phi * (p_sd - l_sd) * (u_dd - p_dd) + (u_dd - p_dd) ** 2)
    )
    hi = d + math.sqrt(
        max(0.0, (u_sd - p_sd) ** 2 - 2 * phi * (u_sd - p_sd) * (p_dd - l_dd) + (p_dd - l_dd) ** 2)
    )
    return d, max(-1.0, lo), min(1.0, hi)


def _pairs(g: pd.DataFrame) -> tuple[int, int, int, int]:
    dd, sd = g["dd_made"].to_numpy(), g["sd_made"].to_numpy()
    return (
        int(((dd == 1) & (sd == 1)).sum()),
        int(((dd == 1) & (sd == 0)).sum()),
        int(((dd == 0) & (sd == 1)).sum()),
        int(((dd == 0) & (sd == 0)).sum()),
    )


def _decided(df: pd.DataFrame) -> pd.DataFrame:
    return df[df["dd_made"] >= 0]


def bias(df: pd.DataFrame) -> pd.DataFrame:
    """Per family: P(make) DD and SD on the same (decided) deals with 95 % Wilson intervals,
    and the paired difference SD - DD with its 95 % interval (Newcombe)."""
    rows = []
    d = _decided(df)
    for family, label in FAMILIES.items():
        g = d[d["family"] == family]
        if g.empty:
            continue
        n11, n10, n01, n00 = _pairs(g)
        n = len(g)
        dd_lo, dd_hi = wilson_interval(n11 + n10, n)
        sd_lo, sd_hi = wilson_interval(n11 + n01, n)
        diff, lo, hi = paired_difference(n11, n10, n01, n00)
        rows.append(
            {
                "family": label,
                "hands": int(g["hand_id"].nunique()),
                "deals": n,
                "dd_made": n11 + n10,
                "dd_p": (n11 + n10) / n,
                "dd_lo": dd_lo,
                "dd_hi": dd_hi,
                "sd_made": n11 + n01,
                "sd_p": (n11 + n01) / n,
                "sd_lo": sd_lo,
                "sd_hi": sd_hi,
                "diff": diff,
                "diff_lo": lo,
                "diff_hi": hi,
                "undecided": int((df[df["family"] == family]["dd_made"] < 0).sum()),
                "sd_seconds": float(df[df["family"] == family]["seconds"].mean()),
            }
        )
    return pd.DataFrame(rows)


NULL_FAMILIES = ("misere", "open_misere", "piek")  # no-trick contracts; the rest take tricks
GROUP_LABELS = {True: "pooled null contracts", False: "pooled trick contracts"}


def calibration(df: pd.DataFrame) -> pd.DataFrame:
    """Per family: ``a = P(SD make | DD make)`` and ``b = P(SD make | DD fail)`` with their
    counts and 95 % Wilson intervals (:func:`~analyser.analysis.calibration.calibration_row`).

    A family whose panel has no deal in a condition (strong alone hands nearly never fail
    DD) borrows that rate from its group — the trick contracts or the null contracts
    (misère, open misère, piek) of the study pooled; ``a_from`` / ``b_from`` say which."""
    rows = []
    d = _decided(df)
    null = d["family"].isin(NULL_FAMILIES)
    groups = {k: _pairs(d[null == k]) for k in (True, False)}
    for family, label in FAMILIES.items():
        g = d[d["family"] == family]
        if g.empty:
            continue
        group = family in NULL_FAMILIES
        row = calibration_row(label, *_pairs(g), fallback=groups[group])
        for x in ("a_from", "b_from"):
            row[x] = GROUP_LABELS[group] if row[x] == "group" else row[x]
        rows.append(row | {"key": family})
    return pd.DataFrame(rows)


def calibration_curve(cal: pd.DataFrame, points: int = 11) -> pd.DataFrame:
    """The map of every family on a grid of DD probabilities, for the chart."""
    rows = []
    for r in cal.to_dict("records"):
        for p in np.linspace(0.0, 1.0, points):
            est, lo, hi = real_play(p, r)
            rows.append({"family": r["family"], "dd_p": p, "p": est, "lo": lo, "hi": hi})
    return pd.DataFrame(rows)


def calibration_file(cfg: StudyConfig):
    """Where :func:`summarise` writes the calibration: ``<data_dir>/<name>_calibration.json``."""
    return cfg.data_dir / f"{cfg.name}_calibration.json"


def write_calibration(cal: pd.DataFrame, df: pd.DataFrame, cfg: StudyConfig) -> None:
    """The calibration table as JSON, with the study's seed, samples, key and counts."""
    families = {}
    for r in cal.to_dict("records"):
        families[r.pop("key")] = {
            k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in r.items()
        }
    doc = {
        "what": "single-dummy calibration of double-dummy make-probabilities (rikken study "
        "single_dummy): real-play P ~= P_dd * a + (1 - P_dd) * b per family",
        "study": cfg.name,
        "key": cfg.key,
        "seed": cfg["seed"],
        "samples": cfg["samples"],
        "deals": int(len(_decided(df))),
        "families": families,
    }
    path = calibration_file(cfg)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        write_text_atomic(path, text)


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables for the report; also writes the calibration file."""
    cal = calibration(df)
    write_calibration(cal, df, cfg)
    return {
        "bias": bias(df),
        "calibration": cal.drop(columns="key"),
        "curve": calibration_curve(cal),
    }


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """The study compares two kinds of play, not a bid/pass verdict: nothing to score."""
    return []


# --------------------------------------------------------------------------- report

INTRO = (
    "Study 9. Per contract family a panel of North hands the book would bid "
    "(rik and beter rik: G-RIK-01; alone 7-9: book count 7..9 with alone_ok; solo: book count "
    "13; misère: no red flags and at most 3 holes; open misère: G-OPEN-03; piek: G-PIEK-02; "
    "malheur: three aces), each on a few uniform deals, North declaring and on lead. Each deal "
    "is scored double-dummy by the solver and played out single-dummy by PIMC players "
    "(analyser.single_dummy: each player samples worlds from what he has seen and plays the "
    "card best on average); the open misère hand is public from trick 1. Unlike the other "
    "studies, the single-dummy column is not double-dummy."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The study's report section: its charts, tables and readings (written under
    ``folder``). Not part of the study's code hash: editing it never re-solves."""
    from analyser.report.blocks import Block, charts, pct, table_block

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
        table_block("DD and SD make-rates per family", bias, folder, "single_dummy_bias"),
        Block("Calibration: from double-dummy to real play", cal_reading, png=curve_png),
        table_block("Calibration per family", cal, folder, "single_dummy_calibration"),
        Block("The guideline studies in this light", relook),
    ]
