"""The rik family: rik and beter rik, the partner being the holder of the called card.

For every trump and every legal called card (:func:`analyser.rules.called_card`) a ``>=8``
question per deal; the partner is the holder of the called card. The rikker names trump and
card before he sees the other hands, so one (trump, card) is chosen per hand: the highest
make-probability on the sample (exact ties: the book's G-RIK-02 / G-ACE-02 order). With the
adaptive sample a (trump, card) stops taking deals once it can no longer be the choice: its
interval lies below the leader's, or on the same deals it is not better than the leader by
more than the precision (95 %, McNemar's paired comparison). Only that choice gets exact
trick counts (on the subsample), and only when it makes on some deal (else the expected
score is an upper bound, see the note). Beter rik chooses among the hearts calls; its
positions are those of rik in hearts (solved once). A called card that is its holder's only
card of its suit carries no duty when the rule set lets it be discarded, so it is solved as
the position without a called card (provably the same). All calls of a trump are asked in
one batch, where the calls of a deal that name the same partner are solved one after the
other on one table. Rik and beter rik are separate questions of the adaptive sample.
"""

from __future__ import annotations

import numpy as np

from analyser.analysis.bids import BidSpec
from analyser.analysis.choice import call_preference, trump_preference
from analyser.analysis.families.registry import Family, register
from analyser.analysis.families.sample import SampleView, expected_score, never_made
from analyser.analysis.results import Alternative, BidResult
from analyser.notation import format_strain
from analyser.rules import RIK_TARGET, called_card
from analyser.stats import Estimate, paired_gain_upper

FAMILY_RIK = "rik"
TAG_RIK = "rik"


@register
class RikFamily(Family):
    """Rik and beter rik (module docstring)."""

    name = FAMILY_RIK
    kinds = ("rik",)
    tag = TAG_RIK
    order = 10
    labelled_notes = True
    shows_runners_up = True

    def batches(self, specs: list[BidSpec]) -> list[list[BidSpec]]:
        """One batch: rik and beter rik share the positions of rik in hearts."""
        return [specs]

    def evaluate(self, sample: SampleView, specs: list[BidSpec]) -> dict[str, BidResult]:
        """Choose the (trump, called card) of each bid and make its figures."""
        answers, setup, dropped = _answers(sample, specs)
        est = {k: Estimate.of_answers(v) for k, v in answers.items()}

        def key(k):
            return (
                est[k].p_low,
                trump_preference(sample.hand, k[0]),
                call_preference(sample.hand, *k),
            )

        if sample.prune:
            _prune(sample, specs, answers, est, dropped, key)
        out = {}
        for spec in specs:
            cands = [k for k in answers if k[0] in spec.strains]
            # the choice is among the pairs still sampled (all of them with a fixed sample)
            ranked = sorted(cands, key=lambda k: (k not in dropped, *key(k)), reverse=True)
            out[spec.id] = _result(sample, spec, ranked, answers, est, setup)
        return out


def _answers(sample: SampleView, specs: list[BidSpec]):
    """The ``>=8`` answers of every (trump, call) of the bids, their (declarer side, called
    card) per deal, and the pairs adaptive sampling dropped (pair -> deals it kept)."""
    leader = specs[0].leader
    # adaptive sampling drops a (trump, call) that can no longer be the choice: it keeps the
    # deals it had (sample.memo[memo_key]: pair -> deals)
    memo_key = "dropped " + " ".join(s.id for s in specs)
    dropped: dict[tuple[int, int], int] = sample.memo.setdefault(memo_key, {})
    answers: dict[tuple[int, int], np.ndarray] = {}
    setup: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    for trump in sorted({t for s in specs for t in s.strains}):
        calls = called_card(sample.ruleset, sample.hand, trump)
        for c in calls:
            partner = sample.partner_of(c)
            setup[(trump, c)] = (sample.me | (1 << partner), sample.effective_called(c, partner))
        for c in [c for c in calls if (trump, c) in dropped]:
            # answered before: read from the store, nothing is solved
            k = dropped[(trump, c)]
            decl, called = setup[(trump, c)]
            answers[(trump, c)] = sample.store.at_least(
                sample.all[:k], trump, leader, decl[:k], called[:k], RIK_TARGET, TAG_RIK
            )
        calls = [c for c in calls if (trump, c) not in dropped]
        if not calls:
            continue
        # every call of this trump in one question: the store groups a deal's calls that
        # name the same partner, and the solver lets them share its table
        idx = np.tile(sample.all, len(calls))
        decl = np.concatenate([setup[(trump, c)][0] for c in calls])
        called = np.concatenate([setup[(trump, c)][1] for c in calls])
        ok = sample.store.at_least(idx, trump, leader, decl, called, RIK_TARGET, TAG_RIK)
        for k, c in enumerate(calls):
            answers[(trump, c)] = ok[k * sample.n : (k + 1) * sample.n]
    return answers, setup, dropped


def _prune(sample: SampleView, specs, answers, est, dropped, key) -> None:
    """Drop (into ``dropped``) the pairs that can no longer be the choice of any bid."""
    # a pair that can no longer be the choice of any bid takes no more deals: its interval
    # lies wholly below the leader's, or - compared on the same deals, which is sharper when
    # two pairs make on mostly the same deals - it is not better than the leader by more
    # than the precision (95 %). The pair chosen is then, with 95 % confidence, within the
    # precision of the best one, the margin its own P(make) has.
    keep = set()
    for spec in specs:
        cands = sorted(
            (k for k in answers if k[0] in spec.strains),
            key=lambda k: (k not in dropped, *key(k)),
            reverse=True,
        )
        if not cands:
            continue
        lead = cands[0]
        keep.add(lead)
        for k in cands[1:]:
            if k in dropped or est[k].interval[1] < est[lead].interval[0]:
                continue
            if answers[k].size == answers[lead].size and (
                paired_gain_upper(answers[k], answers[lead]) < sample.prune
            ):
                continue
            keep.add(k)
    for k in answers:
        if k not in keep and k not in dropped:
            dropped[k] = answers[k].size


def _result(sample: SampleView, spec: BidSpec, ranked, answers, est, setup) -> BidResult:
    """The row of ``spec`` with its chosen pair ``ranked[0]`` (the others: alternatives)."""
    leader = spec.leader
    trump, c = ranked[0]
    decl, called = setup[(trump, c)]
    ok = answers[(trump, c)]
    notes: list[str] = []
    hist, hist_deals = None, 0
    if est[(trump, c)].made == 0 and est[(trump, c)].unknown == 0 and spec.target >= RIK_TARGET:
        # the rik fails on every deal (known from the >=8 answers): no trick counts
        expected, ci, notes = never_made(spec, RIK_TARGET, f"{format_strain(trump, 'en')} trump")
    else:
        counted = sample.counted(ok)
        lo, hi = sample.trick_ranges(sample.all, trump, leader, decl, called, TAG_RIK, False)
        # a deal whose >=8 question was given up would give up its count too: its known
        # bounds stand for it
        m = counted & (ok >= 0)
        lo[m], hi[m] = sample.trick_ranges(
            sample.all[m], trump, leader, decl[m], called[m], TAG_RIK
        )
        expected, ci = expected_score(spec, ok, counted, lo, hi)
        hist, hist_deals = sample.hist(lo, hi)
    return BidResult(
        spec=spec,
        trump=trump,
        called=c,
        estimate=est[(trump, c)],
        expected_score=expected,
        expected_score_ci=ci,
        tricks_hist=hist,
        tricks_hist_deals=hist_deals,
        alternatives=[Alternative(k[0], k[1], est[k]) for k in ranked[1:]],
        notes=notes,
        score_is_bound=hist is None,
    )
