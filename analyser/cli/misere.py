"""`rikken misere HAND`: P(misère) in its three forms and why the closed misère fails.

The output (table, JSON, CSV) is :mod:`analyser.output.misere`'s; the JSON schema is
``docs/schemas/misere.schema.json``.
"""

from __future__ import annotations

import click

from analyser.api import MISERE_PLAYS
from analyser.cli.common import (
    MAX_COUNT,
    SEAT,
    ShownDefault,
    applies_only,
    common_options,
    deal_model_option,
    new_seed,
    on,
    play_option,
    sampling_options,
    stopped_early,
    turned_option,
    user_errors,
    was_given,
)
from analyser.seats import PLACES


def _explain_max() -> str:
    from analyser.analysis.misere import EXPLAIN_MAX

    return str(EXPLAIN_MAX)


# where an option applies (analyser.cli.common.refuse_ignored): the CSV rows (the forced
# cards) name no card in a language
APPLIES = {"--lang": [on("--format", "table", "json")]}


@click.command("misere")
@click.argument("hand", nargs=-1, required=True)
@click.option(
    "--seat",
    type=SEAT,
    default=PLACES[0],
    show_default=True,
    help="Seat relative to the dealer: 1 = left of the dealer (leads trick 1), 4 = the dealer.",
)
@sampling_options()
@click.option(
    "--explain",
    cls=ShownDefault,
    type=click.IntRange(min=0, max=MAX_COUNT),
    default=None,
    shown=_explain_max,
    help="Explain at most N failing deals, the first in sample order (0 = skip the failure "
    "analysis).",
)
@turned_option
@click.option(
    "--with-seat",
    "with_seat",
    type=SEAT,
    multiple=True,
    help="And if the player at this seat (1..4) plays misère too? Adds the joined misère: "
    "P(make) of each declarer, P(all make) and your expected score by the rule set's "
    "table. Give it twice for three declarers.",
)
@deal_model_option
@play_option(
    MISERE_PLAYS,
    "Which P(make) and E[score] come first. real-play: the double-dummy figure mapped "
    "through the calibration of single-dummy play (Study 13; where it does not apply, the "
    "double-dummy figure, marked dd, and why). double-dummy: every hand seen.",
)
@click.option("--quiet", is_flag=True, help="No progress line on stderr.")
@common_options()
@user_errors
@applies_only(APPLIES)
def command(
    hand: tuple[str, ...],
    seat: int,
    with_seat: tuple[int, ...],
    deals: int | None,
    precision: float | None,
    max_deals: int | None,
    explain: int | None,
    turned: int | None,
    deal_model: str,
    play: str,
    quiet: bool,
    seed: int | None,
    ruleset,
    lang: str,
    fmt: str,
) -> None:
    """Should HAND bid misère? P(misère), P(open misère), P(praatje) and why it fails.

    The other 39 cards are sampled (uniformly, seeded; --deal-model cut_only: as they lie
    after an unshuffled deal, R-DEAL-06) and all three forms are solved
    double-dummy on the same deals. By default the sample grows until every probability is
    known to within ±0.05 (95%), at most 1000 deals; --deals N fixes it. Ctrl-C prints the
    figures of the deals of the steps finished (20, 50, 100, ...; exit code 130). For the
    failing deals of the closed misère (the first 100, --explain) it lists the card the
    declarer is forced to win his first trick with (suit, card, share of the deals
    explained), beside the book's worst-case hole test per suit (G-MIS-02).

    Double-dummy play is not a real table: the defenders of a closed misère do not see the
    declarer's cards, and the hand makes far more often at the table. So P(make) and E[score]
    come first as the estimated real play (the double-dummy P(make) through the curve of
    Study 13, where single-dummy players drew worlds that fit the auction; its range carries
    the curve's band and the sample's interval), with the double-dummy figure beside it (DD
    %). Praatje is played double-dummy at the table (the defenders confer, every hand open):
    its figure is both. --play double-dummy shows the double-dummy figures only.

    Every search runs under a node budget (2,000,000 nodes): a position that needs more is
    given up, and the figures it touches become ranges (P(make) low-high, E[score] low..high;
    the output counts these positions). A progress line (stderr, terminals only) shows the
    deals done and the time left; --quiet hides it. The same seed gives the same output.

    Under --rules wiezen --turned CARD is required (the dealer's face-up card, which lies
    with the dealer, seat 4, in every deal); the forms are miserie and miserie op tafel.

    \b
    Examples:
      rikken misere '♠B62 ♥9742 ♦853 ♣642' --seat 2 --seed 1
      rikken misere '♠B62 ♥9742 ♦853 ♣642' --seat 2 --deals 200 --format json
      rikken misere '♠B62 ♥9742 ♦853 ♣642' --seat 2 --with-seat 3 --seed 1

    --with-seat T (once or twice) adds the joined misère: the players at T play misère too.
    Each declarer is solved against the three others (a co-declarer plays under when the
    trick would sink him and he can); the end of play follows the rule set (book: each is
    settled at his own trick; iwwa2024: play stops at the first failure).
    """
    # imported here so that `rikken --help` does not load numba
    from analyser.api import misere
    from analyser.cli.warmup import compile_notice
    from analyser.output import emit

    if not was_given("seed"):
        seed = new_seed()
    compile_notice()
    values = locals()
    # the API takes the options given, as click read them; the rest keep their defaults
    given = {
        name: values["ruleset" if name == "rules" else name]
        for name in ("seat", "with_seat", "deals", "precision", "max_deals", "explain")
        + ("turned", "deal_model", "play", "rules", "lang")
        if was_given("ruleset" if name == "rules" else name)
    }
    result = misere(" ".join(hand), seed=seed, quiet=quiet, **given)
    emit(result.value, fmt, lang)
    stopped_early(*result.parts, missing=result.missing)
