"""Hand analysis: every bid's double-dummy make-probability and expected score for one hand.

* :mod:`.bids` — a bid as the evaluation sees it, scores per trick count (seats and places
  relative to the dealer: :mod:`analyser.seats`);
* :mod:`.positions` — solver questions over the sampled deals, each position solved once;
* :mod:`.evaluate` — :func:`analyse_hand`: the sampling loop over every bid of the hand;
* :mod:`.families` — one module per contract family (rik, alone, misère/piek, malheur, the
  wiezen bids) behind a registry by contract kind: its questions, choices of trump and card,
  figures and notes;
* :mod:`.choice` — the book's tie-break orders and the malheur partner's trump (G-MAL-07);
* :mod:`.recommend` — opening bid and competitive limit;
* :mod:`.headline` — the figure shown first: the estimated real play, the double-dummy
  P(make) through the single-dummy calibration curve (:mod:`.play_curve`, for the hands of
  :mod:`.play_panel`); :mod:`.calibration` — Study 9's older two-constant calibration;
* :mod:`.misere` — ``rikken misere``: the misère forms and the worst-case hole test;
  :mod:`.misere_line` — why a misère fails (the forced winning card of each failing deal);

Their table, JSON and CSV output is :mod:`analyser.output`'s (JSON schemas: docs/schemas/).
The Wilson interval and the other shared statistics are :mod:`analyser.stats`.
"""
