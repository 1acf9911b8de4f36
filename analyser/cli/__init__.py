"""The `rikken` command line."""

from __future__ import annotations

import os
import sys

import click

from analyser import __version__
from analyser.cli.common import EXIT_INTERRUPTED

# exit code of a run whose output went to a pipe closed early (`rikken ... | head -1`): 128 +
# SIGPIPE, what a shell reports for a program the signal ended, as cat or grep would be
EXIT_BROKEN_PIPE = 141

# click >= 8.2 signals "a group without its command: show the help" as a usage error
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class OneLineErrors(click.Group):
    """The `rikken` group: a usage error (bad input) is one line on stderr, with where the
    command's help is, and exit code 2 - not click's usage block above it."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Run the command line; in standalone mode every usage error is one line."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except _NO_ARGS_IS_HELP as exc:
            # a group called without a command shows its help, as click does
            exc.show()
            sys.exit(exc.exit_code)
        except click.UsageError as exc:
            where = exc.ctx.command_path if exc.ctx is not None else "rikken"
            message = one_line(exc.format_message())
            click.echo(f"Error: {message} (see '{where} --help')", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"Error: {one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            # Ctrl-C before a step of the sample finished (click turns it into Abort)
            click.echo("Aborted!", err=True)
            sys.exit(EXIT_INTERRUPTED)
        try:
            # what print() left in the buffer goes now, while a closed pipe can still be caught
            sys.stdout.flush()
        except BrokenPipeError:
            quiet_broken_pipe()
        # --help, --version and ctx.exit(code) come back as their exit code
        sys.exit(rv if isinstance(rv, int) else 0)

    def make_context(self, info_name, args, parent=None, **extra):
        """Read the group's own arguments (``rikken --help`` is written here)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            quiet_broken_pipe()

    def invoke(self, ctx: click.Context):
        """Run the sub-command; output into a closed pipe ends the run quietly."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            quiet_broken_pipe()


def one_line(message: str) -> str:
    """``message`` on one line: line breaks (from a library's message) become spaces."""
    return " ".join(message.split("\n")).replace("\r", " ")


def quiet_broken_pipe() -> None:
    """The reader of our output went away (``| head -1``): stop without a message or a
    traceback and exit :data:`EXIT_BROKEN_PIPE`. Standard output is pointed at /dev/null
    first, so that Python's final flush of what is still buffered does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (e.g. under a test runner)
        pass
    sys.exit(EXIT_BROKEN_PIPE)


@click.group(
    cls=OneLineErrors,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
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
