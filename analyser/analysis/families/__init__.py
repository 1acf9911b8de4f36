"""Contract families: how the hand analysis evaluates each kind of bid on the sampled deals.

A *family* is one way of turning a contract into solver questions: who the declaring side is
per deal, which trump and partner card the declarer chooses, what is asked of the
:class:`~analyser.analysis.positions.PositionStore`, and how the answers become a
:class:`~analyser.analysis.results.BidResult` (make-probability, expected score with its
interval, trick distribution, alternatives and notes). The sampling loop
(:mod:`analyser.analysis.evaluate`) knows no family: it asks the registry
(:mod:`.registry`) which family evaluates each contract kind and hands each family its bids.

The families, one module each:

* :mod:`.rik` — rik and beter rik (partner: the holder of the called card);
* :mod:`.alone` — every lone trick target (alone, solo, abondance);
* :mod:`.null` — misère and piek in every form;
* :mod:`.malheur` — malheur (partner: the holder of the 4th ace or the named king);
* :mod:`.vragen` — wiezen's ask and go along (W-07, W-08);
* :mod:`.troel` — wiezen's troel and troela (W-04, W-05).

**Adding a bid.** A new contract kind is defined in :mod:`analyser.rules` (its kind, target,
terms and scoring). If an existing family evaluates it, add the kind to that family's
``kinds`` (the alone and null families take the rules' ``LONE_KINDS`` and ``NULL_KINDS``, so
a new lone or misère/piek kind needs no change here at all). Otherwise write one new module
in this package::

    from analyser.analysis.families.registry import Family, register

    FAMILY_X = "x"

    @register
    class XFamily(Family):
        name = FAMILY_X          # BidSpec.family of its bids
        kinds = ("x",)           # the contract kinds it evaluates (each kind in one family)
        tag = "x"                # its solver work in the reports (seconds, positions)
        order = 70               # evaluation order, and the order of the tags in reports

        def evaluate(self, sample, specs):
            ...                  # -> {spec.id: BidResult}

and override, where the defaults do not fit, :meth:`~.registry.Family.strains` (the trump
choices; default the rules' ``trump_choices``), :meth:`~.registry.Family.question` (which
bids settle together under adaptive sampling; default each bid alone),
:meth:`~.registry.Family.batches` (which bids are evaluated in one call; default each alone)
and :meth:`~.registry.Family.hand_notes` (notes on the hand as a whole). The registry imports
every module of this package the first time it is asked, so the new module needs no import
line anywhere else. :mod:`.sample` holds what every family shares: the per-call view of the
sample and the figures made from trick ranges (the exact-count subsample, the stratified
expected score, the trick distribution, the bound of a bid that never makes).
"""
