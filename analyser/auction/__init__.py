"""Analysis at the table: the calls made so far, what they say about the other hands, and
what this seat should call (the question a player asks: "seat 1 bid rik and seat 2
passed; I am seat 3 ...").

* :mod:`~analyser.auction.calls` — reading ``--auction 'rik pas beter rik'`` (Dutch and
  English call names) and replaying it under the rule set.
* :mod:`~analyser.auction.model` — bidding models: the call a player makes at his turn as a
  function of his hand (:class:`BookModel`, the book's coded guidelines).
* :mod:`~analyser.auction.conditioned` — deals drawn uniformly among those on which every
  earlier call is the model's call (rejection), with the acceptance rate.
* :mod:`~analyser.auction.decision` — the expected score of each legal call when the
  auction ends there (a pass lets the standing bid play).
"""

from analyser.auction.calls import Turn, call_names, parse_calls, read_auction, readings, replay
from analyser.auction.model import MODELS, BiddingModel, BookModel, aces_of, get_model

__all__ = [
    "MODELS",
    "BiddingModel",
    "BookModel",
    "Turn",
    "aces_of",
    "call_names",
    "get_model",
    "parse_calls",
    "read_auction",
    "readings",
    "replay",
]
