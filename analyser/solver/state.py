"""The search state as a few named tuples, passed whole from the entry points to the search.

numba compiles a named tuple to a struct of its members, so a function takes the state in a
handful of parameters instead of one per array or number, and a reader sees which values
belong together. The search unpacks them once per search, not per node: the code of its loop
and of the helpers it inlines is the same as with separate parameters (same nodes, same
answers on every fingerprint set).

* Rules: what holds for the whole search. ``trump`` (0..3, NT), ``side_max`` (int64[4], 1 for
  each seat of the MAX side), ``side_cnt`` (int64[4], 1 for each seat whose tricks are
  counted), ``goal`` (FAM_E: the tricks the lone declarer needs in all; 0 for trick goals),
  ``called_bit`` (the called card as a bit, -1 for none or one already played) and
  ``holder`` (its seat, -1), ``discard_ok`` (the called card may be discarded).
* Root: the position a search starts from. ``hands`` (int64[4], the cards still held),
  ``leader`` (of the current trick), ``pend`` (1 while the called card is still owed),
  ``trick`` (int64[3], the cards already on the table from ``leader`` on) and ``n_trick``
  (how many), ``force`` (the card the seat to move must play first, -1 for a free choice).
* Memory: what one worker's searches share and keep between them. ``tt``/``tb`` (the
  transposition table, analyser.solver.table), ``gen`` (the table generation of this
  search), ``killer`` (the move-ordering array, layout.LEAD_KILLER and CUT_CACHE) and
  ``stats`` (int64[N_STATS] counters).

The goal family (FAM_T, FAM_E) and the null window ``beta`` stay separate parameters of the
search: the callers pass the family as a literal, so numba compiles a search specialised for
each family (a member of a named tuple is never a literal).
"""

from __future__ import annotations

from collections import namedtuple

Rules = namedtuple("Rules", "trump side_max side_cnt goal called_bit holder discard_ok")
Root = namedtuple("Root", "hands leader pend trick n_trick force")
Memory = namedtuple("Memory", "tt tb gen killer stats")
