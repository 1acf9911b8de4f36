"""The search state as a few named tuples, passed whole from the entry points to the search.

numba compiles a named tuple to a struct of its members, so a function takes the state in a
handful of parameters instead of one per array or number, and a reader sees which values
belong together. The search unpacks Rules, Root and Memory once per search; the per-node
tuples go to helpers compiled inline into the search, where they cost no argument passing.
Same nodes and answers on every fingerprint set as with separate parameters; the time per
node was the same within the noise of a shared two-core machine (bridge exact counts, rik
``>=8`` and exact, paired runs against the separate-parameter version).

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
  search), ``killer`` (the move-ordering array, layout.LEAD_KILLER and CUT_CACHE),
  ``stats`` (int64[N_STATS] counters) and ``evict_limit`` (> 0: the search gives up once
  it has replaced more than that many of its own entries, for a larger table; 0: never).

Inside the search, per node:

* ``node`` (int64[depths, layout.N_COLS]), an array rather than a tuple: the search's values
  per depth (the moves' count and the next one to try, the card played and who played it, the
  trick's winner so far, the counted tricks, the W gathered, the trick start's Address, ...),
  one row per depth, so a node's values lie together.
* Turn: where the node stands in its trick. ``d`` (its depth: the row of the move arrays),
  ``p`` (the seat to move), ``pos`` (0..3, its place in the trick), ``lead_suit`` (-1 on
  lead), ``wseat``/``wbit`` (who wins the trick so far and with which card; ``p`` and 0 on
  lead), ``table`` (the cards already played to the trick, a mask) and ``alive`` (the cards
  in hands plus ``table``).
* Moves: the per-depth move arrays. ``mv`` and ``run`` (int64[depths, 14]: per depth the
  moves, one card per run of equivalent cards, and each run's mask) and ``wt`` (int64[14],
  the ordering weights of the node being ordered).
* Hints: what move ordering learned besides the cards. ``killer`` (Memory.killer: history,
  lead killers, cut-off cache), ``tt_move`` (the table's best move) and ``cut_move`` (the
  cut-off cache's card), -1 for none.
* TableView: the transposition table as a search uses it (analyser/solver/table.py). ``tt``,
  ``tb``, ``tagw`` (its check bytes seen as uint64 words), ``topw`` (its top-slot words,
  table.B_TOP) and ``gen`` (the generation).
* Address: a trick start's place in the table. ``key`` and ``aux`` (shape and side
  conditions), ``tag`` (the check byte), ``c0``/``c1`` (the owners of the cards), ``base``
  and ``base_top`` (its two buckets).
* Result: what a node proved, for the table. ``w``/``wb`` (the two-sided set of cards that
  decided it), ``won`` (it reached beta), ``rel`` (its value in future tricks: a lower bound
  when won, else an upper bound), ``move`` (the move that cut off, or -1).

The joined misère search (joined_misere.py) has its own, smaller state:

* JoinedAsk: the question. ``x`` (the declarer asked about), ``decl`` (the declarers' seat
  mask), ``need`` (NEED_MISERE / NEED_PIEK), ``rule`` (the switch several_declarers),
  ``model`` (what a co-declarer may do) and ``ctx`` (all of them packed, for the table key).
* JoinedTrick: the trick a node plays to. ``leader``, ``pos`` (cards played to it),
  ``ls`` (the suit led, -1 on lead), ``top``/``topseat`` (its highest card so far and who
  played it), ``cnt`` (the tricks per seat, packed) and ``table`` (the cards on the table).

The goal family (FAM_T, FAM_E) and the null window ``beta`` stay separate parameters of the
search: the callers pass the family as a literal, so numba compiles a search specialised for
each family (a member of a named tuple is never a literal).
"""

from __future__ import annotations

from collections import namedtuple

Rules = namedtuple("Rules", "trump side_max side_cnt goal called_bit holder discard_ok")
Root = namedtuple("Root", "hands leader pend trick n_trick force")
Memory = namedtuple("Memory", "tt tb gen killer stats evict_limit")
Turn = namedtuple("Turn", "d p pos lead_suit wseat wbit table alive")
Moves = namedtuple("Moves", "mv run wt")
Hints = namedtuple("Hints", "killer tt_move cut_move")
TableView = namedtuple("TableView", "tt tb tagw topw gen")
Address = namedtuple("Address", "key aux tag c0 c1 base base_top")
Result = namedtuple("Result", "w wb won rel move")
JoinedAsk = namedtuple("JoinedAsk", "x decl need rule model ctx")
JoinedTrick = namedtuple("JoinedTrick", "leader pos ls top topseat cnt table")
