"""The `rikken` command line."""

from __future__ import annotations

import click

from analyser import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, prog_name="rikken")
def main() -> None:
    """Double-dummy strategy analyser for Rikken (the Dutch/Flemish 4-player trick-taking game).

    Hands are written as players write them: Dutch ranks (A H V B 10..2) or English
    (A K Q J T..2), suits as symbols or letters, e.g. '♠AHV1098 ♥104 ♦A10 ♣752',
    'S:AKQT98 H:T4 D:AT C:752' or 'AKQT98.T4.AT.752' (PBN order spades.hearts.diamonds.clubs).

    Every probability this tool prints is double-dummy (all hands visible) unless stated.
    """


def _register() -> None:
    """Attach every sub-command (imported here so `rikken --help` lists them all)."""
    from analyser.cli import commands  # noqa: F401


_register()
