"""Every example hand in the help texts (and in the README and docs/cli.md) is a full 13-card
hand.

Except the documents' examples for the games with their own 32-card pack (a command line with
``--game klaverjas`` or ``--game piket``): those must be a hand of that game, read by the
game's own reader (8 cards for klaverjas, 12 for piket).

The examples are pulled from the rendered ``--help`` output of every command and sub-command
of the ``rikken`` group (walked recursively, so a new command is covered without editing this
file), and checked with the tool itself: ``rikken hand EXAMPLE --format json``.
"""

from __future__ import annotations

import json
import pathlib
import re

import click
import pytest
from click.testing import CliRunner

from analyser.cli import main
from analyser.errors import RikkenError

ROOT = pathlib.Path(__file__).resolve().parents[1]
# the documents whose command lines are checked: the first page and the command manual
EXAMPLE_DOCS = (ROOT / "README.md", ROOT / "docs" / "cli.md")

# A quoted stretch of text made only of what a hand (or a PBN deal) is written with: suit
# symbols (with an optional emoji variation selector), suit and seat letters (English and
# Dutch), ranks (A K Q J T / A H V B, 10..2), and the separators ':' '.' '-' and spaces.
# Anything with a lower-case letter, a comma or a bracket (prose, option values, a "book's"
# apostrophe) cannot match, so only examples are picked up.
_QUOTED = re.compile("['`\"]([♠♥♦♣\ufe0fABCDHJKQRSTVNEWOZ0-9:.\\- ]+)['`\"]")
# Dotted PBN also appears unquoted (``rikken hand AKQT98.T4.AT.752``).
_DOTTED = re.compile(r"(?<![\w.])((?:[AKQJT2-9]*|-)(?:\.(?:[AKQJT2-9]*|-)){3})(?!\w|\.\w)")
# A PBN deal: a seat, a colon and four dotted hands.
_DOTTED_HAND = r"[^\s.]*(?:\.[^\s.]*){3}"
_DEAL = re.compile(rf"^[NESWOZ]:{_DOTTED_HAND}(?:\s+{_DOTTED_HAND}){{3}}$")
# Help rendered this wide is not wrapped, so no example is split at a line end or a hyphen.
WIDE = {"terminal_width": 10_000, "max_content_width": 10_000}


def example_hands(text: str) -> list[str]:
    """The hand (and deal) examples in ``text``, in order of appearance, without repeats."""
    flat = " ".join(text.split())  # wrapped lines joined
    found = [m.strip() for m in _QUOTED.findall(flat)]
    found += _DOTTED.findall(_QUOTED.sub(" ", flat))  # unquoted dotted PBN
    out: list[str] = []
    for s in found:
        if len(s.replace(" ", "")) >= 8 and s not in out:  # not a lone letter such as 'NT'
            out.append(s)
    return out


def command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The argument prefix of the group itself and of every (sub-)command below it."""
    paths = [prefix]
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            paths += command_paths(cmd, prefix + (name,))
        else:
            paths.append(prefix + (name,))
    return paths


def help_text(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(main, [*path, "--help"], **WIDE)
    assert result.exit_code == 0, result.output
    return result.output


def help_examples() -> list[tuple[str, str]]:
    """(command, example) for every example hand in every command's ``--help``."""
    out = []
    for path in command_paths(main):
        for example in example_hands(help_text(path)):
            out.append((" ".join(("rikken",) + path), example))
    return out


# games whose hands are not 13 cards of the 52, and the pattern of their command lines
_OWN_DECK = re.compile(r"--game (klaverjas|piket)\b")


def _docs_text() -> str:
    return "\n".join(doc.read_text(encoding="utf-8") for doc in EXAMPLE_DOCS)


def game_examples() -> list[tuple[str, str]]:
    """(game, example) for the documents' command lines of the games with their own pack."""
    out = []
    for line in _docs_text().splitlines():
        m = _OWN_DECK.search(line)
        if m:
            out += [(m.group(1), e) for e in example_hands(line) if (m.group(1), e) not in out]
    return out


def doc_examples() -> list[str]:
    own = {e for _, e in game_examples()}
    return [e for e in example_hands(_docs_text()) if e not in own]


def check_game_example(game: str, example: str) -> None:
    """The game's own reader takes ``example`` as a hand of that game."""
    from analyser.games.klaverjas.analysis import hand_from_52
    from analyser.games.piket.cards import parse_piket_hand
    from analyser.notation import parse_hand

    if game == "piket":
        assert len(parse_piket_hand(example)) == 12, example
    else:
        assert len(hand_from_52(parse_hand(example, None))) == 8, example


def check_example(example: str) -> None:
    """The tool reads ``example`` as 13 cards (a deal: four hands of 13)."""
    if _DEAL.match(example):
        from analyser.notation import parse_deal

        assert all(len(h) == 13 for h in parse_deal(example)), example
        return
    result = CliRunner().invoke(main, ["hand", example, "--format", "json"])
    assert result.exit_code == 0, f"{example!r}: {result.output.strip()}"
    assert len(json.loads(result.output)["cards"]) == 13, example


def test_extraction_finds_the_known_examples():
    """Guard against a vacuous test: the extractor sees the examples written today."""
    main_help = example_hands(help_text(()))
    assert main_help == ["♠AHV1098 ♥104 ♦A10 ♣752", "S:AKQT98 H:T4 D:AT C:752", "AKQT98.T4.AT.752"]
    assert ("analyse",) in command_paths(main) and ("study", "run") in command_paths(main)
    assert len(help_examples()) >= 8
    hand_help = dict(help_examples())  # the last example of each command
    assert hand_help["rikken hand"] == "AKQT98.T4.AT.752"
    # 12-card and misspelt examples are still picked up (so that they fail the check)
    assert example_hands("e.g. '♠AHV1098 ♥104 ♦A10\n  ♣75', or AKQT98.T4.AT.75.") == [
        "♠AHV1098 ♥104 ♦A10 ♣75",
        "AKQT98.T4.AT.75",
    ]
    assert example_hands("the book's rule, 'N:hand hand', 'NT', 'book:min_alone=8'") == []
    deal = "N:AKQT98.T4.AT.752 J7.AK9.KQ98.K643 6.QJ87.76543.Q98 5432.6532.J2.AJT"
    assert example_hands(f"a deal '{deal}'") == [deal] and _DEAL.match(deal)
    check_example(deal)


@pytest.mark.parametrize(("command", "example"), help_examples())
def test_help_example_is_a_full_hand(command, example):
    check_example(example)


@pytest.mark.parametrize("example", doc_examples())
def test_doc_example_is_a_full_hand(example):
    check_example(example)


@pytest.mark.parametrize(("game", "example"), game_examples())
def test_doc_example_of_a_32_card_game_is_its_hand(game, example):
    check_game_example(game, example)


def test_the_32_card_games_have_doc_examples():
    # guards against a vacuous check: both games' examples are found
    assert {g for g, _ in game_examples()} == {"klaverjas", "piket"}
    with pytest.raises(RikkenError):
        check_game_example("klaverjas", "♠AHV1098 ♥104 ♦A10 ♣752")


def test_a_twelve_card_example_would_fail():
    with pytest.raises(AssertionError, match="found 12"):
        check_example("♠AHV1098 ♥104 ♦A10 ♣75")
