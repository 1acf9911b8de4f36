"""Study 13, real play: how often does a hand make its bid when single-dummy players play it,
as a function of the double-dummy make-probability the analysis shows for it?

**Panel.** Per contract family a seeded panel of North hands from the family's design (as
Study 9: uniform hands for rik, low-weighted hands for misère, strong hands with book count
7..9 for alone, ...), *not* filtered by the book's guideline: the hands that decide "bid or
pass" are the borderline ones. Each hand's double-dummy P(make) ``p_dd`` is estimated on
``dd_deals`` deals (North declares and leads, the contract as Study 9 plays it); a hand with
``p_dd`` outside ``P_LOW``..``P_HIGH`` (0.15..0.95) gets no further deals. A hand inside plays
``deals_per_hand`` other deals single-dummy (:mod:`analyser.single_dummy`, ``samples`` worlds
per decision, ``decision_nodes`` per decision), drawn among the deals on which the others'
passes in the uncontested auction of the bid (North bids it, the others pass) are the book
bidding model's calls (:func:`analyser.auction.inference.opening_auction`; North's own hand
need not support the bid by the book), and the players draw their worlds consistent with
the whole auction: the others believe the model, so their worlds give North a hand that
supports his bid. A bid that cannot open the auction under the rules (beter rik and alone
are raises over a rik) is played on uniform deals without inference (``auction = 0``).
Every ``plain_every``-th deal of the others is also played without the auction's inference:
the inference's effect, paired on the same deals. Each played deal is
also solved double-dummy (the paired make).

**Strata.** ``strata`` adds panels that spend the play where a curve's band is widest: each a
family, its fit and check hands, and ranges its hands must fall in (a hand feature's values,
filtering the design; a narrower range of ``p_dd``, in which its hands are played). Every
range is an input of the curve, so the fit, which conditions on them, stays unbiased.

**Curve.** Per family a logistic curve ``P(real make) = 1 / (1 + exp(-(a + b logit(p_dd))))``
fitted to the played deals by maximum likelihood, its 95 % band from the cluster-robust
covariance (deals clustered within hands) by the delta method; ``max_half_width`` is the
band's widest half-width over the range of ``p_dd`` the panel covers. A second panel drawn
with another seed (``panel = "check"``) is held back: per bin of ``p_dd`` its observed make
rate (with a cluster interval) against the curve's prediction.

:func:`summarise` writes ``<data_dir>/<name>_calibration.json`` with the seed, the sizes, the
worlds and node budget per decision and the study's code key.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from analyser.analysis.play_panel import FEATURE_LABELS, hand_features, in_design
from analyser.cards import mask_to_cards
from analyser.errors import RikkenError
from analyser.progress import Progress
from analyser.single_dummy import PlayOptions, play_deal
from analyser.studies import hands as gen
from analyser.studies.common import hand_frame, renumber
from analyser.studies.config import StudyConfig, int_in
from analyser.studies.single_dummy import (
    DECLARER,
    FAMILIES,
    _candidates,
    _family_counts,
    contract_for,
    double_dummy,
)
from analyser.studies.solve import deals_for_hand

if TYPE_CHECKING:
    import pathlib

    from analyser.report.model import Block
    from analyser.studies.runner import StudyResult

P_LOW, P_HIGH = 0.15, 0.95  # the double-dummy range the curve covers
# why deal_model = "cut_only" does not apply (docs/deal_model.md)
CUT_ONLY = (
    "it calibrates single-dummy play (with the auction's inference, whose worlds assume a "
    "shuffled pack) against double-dummy play on uniform deals"
)


def _strata(v) -> str | None:
    """The check of ``strata``: a list of tables, each a family, its ``hands`` and
    ``check_hands``, and the ranges its hands must fall in: ``p_dd = [lo, hi]`` (inside
    P_LOW..P_HIGH) and any hand feature of :data:`FEATURE_LABELS` as ``name = [lo, hi]``."""
    if not isinstance(v, list):
        return f"must be a list of tables (family, hands, check_hands, ranges), got {v!r}"
    for i, s in enumerate(v):
        where = f"item {i + 1}"
        if not isinstance(s, dict):
            return f"{where} must be a table, got {s!r}"
        if s.get("family") not in FAMILIES:
            return f"{where} needs a family among {', '.join(FAMILIES)}, got {s.get('family')!r}"
        for key in ("hands", "check_hands"):
            err = int_in(0, 1_000_000)(s.get(key))
            if err:
                return f"{where} needs {key!r}: {err}"
        for key, span in s.items():
            if key in ("family", "hands", "check_hands"):
                continue
            if key != "p_dd" and key not in FEATURE_LABELS:
                known = ", ".join(["p_dd", *FEATURE_LABELS])
                return f"{where} has unknown range {key!r} (known: {known})"
            ok = (isinstance(span, list) and len(span) == 2
                  and all(isinstance(x, int | float) and not isinstance(x, bool) for x in span)
                  and span[0] <= span[1])  # fmt: skip
            if not ok:
                return f"{where}: {key!r} must be [lo, hi] with lo <= hi, got {span!r}"
            if key == "p_dd" and not P_LOW <= span[0] < span[1] <= P_HIGH:
                return f"{where}: 'p_dd' must lie inside {P_LOW}..{P_HIGH}, got {span!r}"
    return None


KEYS = {
    "hands_per_family": _family_counts,
    "check_hands_per_family": _family_counts,
    "samples": int_in(1, 1000),
    "decision_nodes": int_in(0, 10**12),
    "dd_deals": int_in(4, 100_000),
    "max_nodes": int_in(0, 10**12),
    "plain_every": int_in(0, 1_000_000),
    "strata": _strata,
}
BATCH = 4096
MAX_BATCHES = 400
SD_STREAM = 0x5EED_0F_5D  # the played deals' stream, apart from the p_dd estimate's
AUCTION_DRAWS = 64  # candidate deals per played deal drawn to find one the auction allows
CONTRACT_IDS = {
    "rik": "rik",
    "beter_rik": "beter_rik",
    "solo": "solo",
    "misere": "misere",
    "open_misere": "open_misere",
    "piek": "piek",
    "malheur": "malheur",
}


# --------------------------------------------------------------------------- the panel


def plan(cfg: StudyConfig) -> pd.DataFrame:
    """Per family the fit panel (``hands_per_family``) and the held-back check panel
    (``check_hands_per_family``, another stream of the seed), hands in the family's design;
    then each of the ``strata`` (:func:`_stratum`). Every hand carries the range of p_dd in
    which it is played (``play_lo``, ``play_hi``) and its stratum (-1: none)."""
    frames = []
    for panel, key, label in (
        ("fit", "hands_per_family", 13),
        ("check", "check_hands_per_family", 14),
    ):
        wanted = cfg[key]
        for k, family in enumerate(FAMILIES):
            n = int(wanted.get(family, 0))
            if n == 0:
                continue
            masks = _draw(family, n, (cfg["seed"], label, k))
            frame = hand_frame(masks, cfg["seed"], 0, family=family, panel=panel)
            frames.append(frame.assign(_order=np.arange(n) / n))
    for i, stratum in enumerate(cfg["strata"]):
        frames += _stratum(cfg["seed"], i, stratum)
    # families interleaved (each spread evenly over the run), so that a run stopped part-way
    # has covered every family in proportion
    both = pd.concat(frames, ignore_index=True).sort_values("_order", kind="stable")
    for column, default in (("play_lo", P_LOW), ("play_hi", P_HIGH), ("stratum", -1)):
        both[column] = both[column].fillna(default) if column in both else default
    both["stratum"] = both["stratum"].astype(np.int64)
    return renumber([both.drop(columns="_order")], cfg["seed"])


def _draw(family: str, n: int, labels: tuple[int, ...], keep=None) -> np.ndarray:
    """The first ``n`` candidates of the family's design (and of ``keep``, a filter of
    masks) from the seeded streams ``labels + (batch,)``."""
    picked: list[int] = []
    for b in range(MAX_BATCHES):
        cand = _candidates(family, gen.stream(*labels, b), BATCH)
        ok = in_design(family, cand)
        if keep is not None:
            ok &= keep(cand)
        picked += cand[ok].tolist()
        if len(picked) >= n:
            break
    if len(picked) < n:
        raise RikkenError(
            f"real_play: only {len(picked)} of {n} {family} hands found in the design"
        )
    return np.array(picked[:n], dtype=np.int64)


def _stratum(seed: int, i: int, s: dict) -> list[pd.DataFrame]:
    """The fit and check hands of stratum ``i``: hands of its family's design whose features
    lie in its ranges, played where their p_dd lies in its ``p_dd`` range. A stratum spends
    the play where a curve's band is widest (the ends of its range of p_dd, the rare values
    of a feature); the curve stays unbiased, as every range is one of the curve's own
    inputs (p_dd, or a feature the curve may use) and the fit conditions on them."""
    family = s["family"]
    lo, hi = s.get("p_dd", [P_LOW, P_HIGH])
    spans = {k: v for k, v in s.items() if k in FEATURE_LABELS}

    def keep(masks: np.ndarray) -> np.ndarray:
        feats = hand_features(masks) if spans else {}
        ok = np.ones(masks.size, dtype=bool)
        for name, (a, b) in spans.items():
            ok &= (feats[name] >= a) & (feats[name] <= b)
        return ok

    out = []
    for panel, key, label in (("fit", "hands", 15), ("check", "check_hands", 16)):
        n = int(s[key])
        if n == 0:
            continue
        masks = _draw(family, n, (seed, label, i), keep)
        frame = hand_frame(masks, seed, 0, family=family, panel=panel)
        out.append(frame.assign(_order=np.arange(n) / n, play_lo=lo, play_hi=hi, stratum=i))
    return out


def cost(cfg: StudyConfig, hands: pd.DataFrame) -> int:
    """One unit per played deal (the double-dummy estimate is cheap beside it)."""
    return len(hands) * cfg["deals_per_hand"]


# --------------------------------------------------------------------------- solving


def _contract_id(family: str, contract) -> str:
    if family == "alone":
        return f"alone_{contract.target}"
    return CONTRACT_IDS[family]


# The double-dummy estimate stops after this many deals when none of them made: most hands
# of the open misère, piek and solo designs never make, and their full estimate would cost
# more than the whole play of the hands in range (a hand of P = 0.15 is stopped so 27% of
# the time: the low end of the range is covered a little more thinly)
DD_FIRST = 8


def _p_dd(family: str, mask: int, seed: int, cfg: StudyConfig) -> tuple[float, int]:
    """The hand's double-dummy P(make) on ``dd_deals`` deals (the deals over the node budget
    left out; only DD_FIRST when none of those made) and the deals counted."""
    deals = deals_for_hand(mask, cfg["dd_deals"], seed)
    made = []
    for i in range(len(deals)):
        if i == DD_FIRST and max(made) <= 0:
            break
        c = contract_for(family, deals[i], cfg["rules"])
        made.append(int(double_dummy(c, deals[i : i + 1], cfg["rules"], cfg["max_nodes"])[0]))
    made = np.array(made)
    ok = made >= 0
    return (float(made[ok].mean()) if ok.any() else math.nan), int(ok.sum())


def _played_deals(family: str, mask: int, seed: int, cfg: StudyConfig):
    """The deals to play (the auction allows them) and the auction's inference."""
    from analyser.auction.inference import opening_auction

    n = cfg["deals_per_hand"]
    raw = deals_for_hand(mask, n * AUCTION_DRAWS, seed ^ SD_STREAM)
    bid = _contract_id(family, contract_for(family, raw[0], cfg["rules"]))
    try:
        inference = opening_auction(cfg["rules"], bid, 1)
    except RikkenError:
        # a bid that cannot open the auction (beter rik, alone: raises over a rik): no
        # uncontested auction to infer from; played on the deals as drawn, without inference
        return raw[:n], None
    # the others' calls must be the model's for their hands; the declarer's own hand need
    # not support the bid by the book (the panel is not the guideline's), but the others
    # believe the model, so their worlds give him a hand that does
    ok = np.flatnonzero(inference.accepts(DECLARER, raw))
    return raw[ok[:n]], inference


def solve_hands(cfg: StudyConfig, hands: pd.DataFrame, progress: Progress | None) -> pd.DataFrame:
    """Per (hand, played deal): the hand's p_dd, the deal's double-dummy answer, the
    single-dummy outcome with the auction's inference and (every ``plain_every``-th deal)
    without it. A hand whose p_dd lies outside its range (P_LOW..P_HIGH, or its stratum's)
    gives one row with ``deal = -1``."""
    from analyser.rules import parse_ruleset
    from analyser.solver import Solver

    rs = parse_ruleset(cfg["rules"])
    solver = Solver()
    n = cfg["deals_per_hand"]
    rows = []
    for r in hands.itertuples():
        seed = int(r.deal_seed)
        p_dd, dd_n = _p_dd(r.family, int(r.mask), seed, cfg)
        base = {"hand_id": r.hand_id, "hand": r.hand, "mask": r.mask, "deal_seed": r.deal_seed,
                "family": r.family, "panel": r.panel, "p_dd": p_dd, "dd_n": dd_n,
                "stratum": r.stratum}  # fmt: skip
        if not r.play_lo <= p_dd <= r.play_hi:
            rows.append(base | _empty_play())
            if progress is not None:
                progress.advance(n)
            continue
        deals, inference = _played_deals(r.family, int(r.mask), seed, cfg)
        if len(deals) == 0:  # the others' passes are too rare around this hand
            rows.append(base | _empty_play())
            if progress is not None:
                progress.advance(n)
            continue
        informed = PlayOptions(
            cfg["samples"], cfg["decision_nodes"], rs.called_card_may_be_discarded,
            inference=inference,
        )  # fmt: skip
        plain = PlayOptions(cfg["samples"], cfg["decision_nodes"], rs.called_card_may_be_discarded)
        for i in range(len(deals)):
            hands4 = [mask_to_cards(int(m)) for m in deals[i]]
            contract = contract_for(r.family, deals[i], cfg["rules"])
            dd = int(double_dummy(contract, deals[i : i + 1], cfg["rules"], cfg["max_nodes"])[0])
            t0 = time.perf_counter()
            sd = play_deal(hands4, contract, informed, seed, i, solver=solver)
            sd_plain = -1
            every = cfg["plain_every"]
            if every and inference is not None and (int(r.hand_id) * n + i) % every == 0:
                sd_plain = int(play_deal(hands4, contract, plain, seed, i, solver=solver).made)
            rows.append(
                base
                | {
                    "deal": i,
                    "dd_made": dd,
                    "sd_made": int(sd.made),
                    "sd_plain": sd_plain,
                    "decisions": sd.decisions,
                    "limited": sd.limited,
                    "uninformed": sd.uninformed,
                    "auction": int(inference is not None),
                    "seconds": time.perf_counter() - t0,
                }
            )
        if progress is not None:
            progress.advance(n)
    return pd.DataFrame(rows)


def _empty_play() -> dict:
    return {"deal": -1, "dd_made": -1, "sd_made": -1, "sd_plain": -1, "decisions": 0,
            "limited": 0, "uninformed": 0, "auction": 0, "seconds": 0.0}  # fmt: skip


def calibration_file(cfg: StudyConfig):
    """Where :func:`summarise` writes the curves: ``<data_dir>/<name>_calibration.json``."""
    return cfg.data_dir / f"{cfg.name}_calibration.json"


def summarise(df: pd.DataFrame, cfg: StudyConfig) -> dict[str, pd.DataFrame]:
    """The study's tables (:func:`analyser.studies.real_play_fit.summary`); also writes the
    calibration file (module docstring)."""
    from analyser.studies.real_play_fit import summary

    return summary(df, cfg, (P_LOW, P_HIGH), calibration_file(cfg))


def classifiers(df: pd.DataFrame, cfg: StudyConfig) -> list[dict]:
    """The study measures play, not a bid/pass verdict: nothing to score."""
    return []


INTRO = (
    "Study 13. The figure a player reads first in `rikken analyse` and `rikken misere` is the "
    "estimated real play: the double-dummy P(make) mapped through a curve per contract family, "
    "measured by playing hands single-dummy (each player sees his own hand, the cards played "
    "and the open hands, and draws his worlds consistent with the auction). This section shows "
    "the shipped curves with their 95% bands, the held-back panel against them and the "
    "auction's inference effect, all from the shipped calibration "
    "(data/real_play/real_play_calibration.json, made by sims/full/real_play.toml); then this "
    "run's small confirming sample, played afresh, against the shipped curves. Single-dummy "
    "figures throughout, unlike the other studies."
)


METHOD_NOTE = (
    "Seats: North holds the studied hand, bids first (the others pass, by the book bidding "
    "model) and leads to trick 1. The double-dummy P(make) of a hand is its estimate on "
    "dd_deals deals; every make rate of this section is single-dummy (PIMC players, samples "
    "worlds a decision, decision_nodes a decision), on other deals of the same hands."
)


def report_blocks(res: StudyResult, folder: pathlib.Path) -> list[Block]:
    """The shipped curves, their check and inference effect, and this run's confirming sample
    against them."""
    from analyser.analysis import play_curve
    from analyser.studies.real_play_report import confirming_blocks, shipped_blocks

    cal = play_curve.load()
    return shipped_blocks(cal, folder) + confirming_blocks(res, cal, folder)
