"""Hand analysis: every bid's double-dummy make-probability and expected score for one hand.

* :mod:`.bids` — the bids a hand can make under a rule set, scores per trick count (seats
  and places relative to the dealer: :mod:`analyser.seats`);
* :mod:`.positions` — solver questions over the sampled deals, each position solved once;
* :mod:`.evaluate` — :func:`analyse_hand`: sampling, batched solving, choices of trump and card;
* :mod:`.choice` — the book's tie-break orders and the malheur partner's trump (G-MAL-07);
* :mod:`.recommend` — opening bid and competitive limit;
* :mod:`.real_play` — estimated real play from the single-dummy calibration
  (:mod:`.calibration`);
* :mod:`.misere` — why a misère fails (forced winning card) beside the worst-case hole test;
* :mod:`.report_format` — table, JSON and CSV output (the JSON schema is documented there).

The Wilson interval and the other shared statistics are :mod:`analyser.stats`.
"""
