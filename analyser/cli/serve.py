"""`rikken serve`: the web app on this machine (docs/web.md)."""

from __future__ import annotations

import click

from analyser.cli.common import MAX_WORKERS, user_errors

# the defaults are the web app's (analyser.web), repeated here so that `rikken --help` does
# not import the web framework; tests/test_web.py checks that they agree
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
DEFAULT_TIME_LIMIT = 600.0


@click.command("serve")
@click.option(
    "--host",
    default=DEFAULT_HOST,
    show_default=True,
    help="Address to listen on. The default is this machine only; another address (e.g. "
    "0.0.0.0) opens the page to the network.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=DEFAULT_PORT, show_default=True)
@click.option(
    "--jobs",
    type=click.IntRange(1, MAX_WORKERS),
    default=None,
    help="Analyses run at once (default: one per core); as many more wait, and a request "
    "beyond that is refused until one finishes.",
)
@click.option(
    "--time-limit",
    "time_limit",
    type=click.FloatRange(min=1),
    default=DEFAULT_TIME_LIMIT,
    show_default=True,
    help="Seconds an analysis may run; then it stops as with Ctrl-C, keeping the figures "
    "of the steps finished.",
)
@user_errors
def command(host: str, port: int, jobs: int | None, time_limit: float) -> None:
    """Run the web page: enter a hand (typed or clicked), the seat, the rules, the turned
    card and the bids made, and get the bid table with bars, the recommendation and the
    trick distribution, in Dutch or English; also the whist, klaverjas and piket advisors.

    \b
    Open http://127.0.0.1:8765/ (the address printed) in a browser; Ctrl-C stops the server.
    The page's address holds its state: /?hand=...&seat=2&seed=1 runs that analysis.
    """
    from analyser.web import serve

    click.echo(f"rikken serve: http://{host}:{port}/ (Ctrl-C stops)", err=True)
    serve(host=host, port=port, jobs=jobs, time_limit=time_limit)
