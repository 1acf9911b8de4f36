"""Piket (docs/piket.md, PK-01 … PK-16): two players, 32 cards, an exchange, declarations
and twelve tricks without trumps.

The modules own one thing each: :mod:`.rules` the rules as data, :mod:`.cards` the 32-card
encoding and the hand reader, :mod:`.declarations` the declarations (point, sequences, sets,
carte blanche, repic), :mod:`.solver` the exact trick-play solver (pic included), and
:mod:`.exchange` the exchange advisor behind ``rikken analyse --game piket``.
"""
