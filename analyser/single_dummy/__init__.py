"""Single-dummy play: every player sees only what a real player sees (perfect-information
Monte Carlo, PIMC).

At each turn the player to move draws up to ``samples`` worlds from his own knowledge
(:mod:`analyser.worlds`: his hand, the cards played, the suits each seat showed out of, the
public cards), values each of his legal cards in each world with the double-dummy solver
(:func:`analyser.solver.card_values`), and plays the card with the best count for his side:

* trick contracts (``>=K``): the worlds in which his side still reaches its goal (the
  declarer side wants it high, the defenders low); ties are broken by the count for one trick
  more (the declarer side's overtrick, the defenders' extra undertrick), then by the lowest
  card;
* misère and piek: the worlds in which the lone declarer still makes it, ties to the lowest
  card.

How a decision is kept cheap and bounded (equivalent cards, worlds in sequence, the yes/no
question first, a warm table, every layout when few remain, a node budget per decision) is
:mod:`analyser.single_dummy.decide`'s; the play loop and the claim that ends a deal early are
:mod:`analyser.single_dummy.play`'s.

Who is on which side is part of the world: at rik the called card's holder is the partner,
and until that card falls only the partner himself knows who he is; each other player's
worlds place the card with some seat, and so pick a partner, as the true deal would. The
same goes for the tricks the declarer side has won so far.

Known weaknesses, inherited from PIMC: *strategy fusion* (each world is solved as if the
player could see it, so a card that is best in every world separately may be a guess in
reality, and a safety play that wins in all worlds at once is not seen) and *no inference
from the others' play* beyond the suits they showed out of (no signals, no reading of a
defender's choice of card). Both make single-dummy play somewhat weaker than a good human;
it is a floor for real play, where double-dummy is a ceiling.

Every draw comes from the seed: the worlds of turn ``t`` of deal ``i`` are worlds
``t * samples ...`` of the stream of (seed, i), so a deal plays the same way each time, in
any process.
"""

from analyser.single_dummy.contract import (
    KIND_GE,
    KIND_MISERE,
    KIND_PIEK,
    PlayContract,
    PlayedDeal,
)
from analyser.single_dummy.decide import DEFAULT_DECISION_NODES, Inference, PlayOptions
from analyser.single_dummy.play import misere_claim, play_deal

__all__ = [
    "DEFAULT_DECISION_NODES",
    "KIND_GE",
    "KIND_MISERE",
    "KIND_PIEK",
    "PlayContract",
    "Inference",
    "PlayOptions",
    "PlayedDeal",
    "misere_claim",
    "play_deal",
]
