"""`rikken report`: run the default (or given) suite of studies and write the report."""

from __future__ import annotations

import pathlib

import click

from analyser.cli.common import ShownDefault, user_errors, was_given

DEFAULT_CONFIG = pathlib.Path("sims") / "default.toml"


@click.command("report")
@click.option(
    "--config",
    "config",
    type=click.Path(dir_okay=False, path_type=pathlib.Path),
    default=None,
    cls=ShownDefault,
    shown=str(DEFAULT_CONFIG),
    help="Suite TOML listing the study files (a sims/ path missing from the working "
    "directory is the one shipped with the tool).",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False),  # a str: pathlib would read '' as '.'
    default=None,
    cls=ShownDefault,
    shown="the suite's report_dir, reports/",
    help="Folder for index.html, index.md and the charts.",
)
@click.option("--force", is_flag=True, help="Ignore cached study results and solve again.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@user_errors
def command(config: pathlib.Path | None, out: str | None, force: bool, quiet: bool) -> None:
    """Run every study of a suite (cached results are reused) and write the bidding-advice
    report: reports/index.html (self-contained) and reports/index.md (charts beside it).

    All figures are double-dummy. `make report` runs this with the defaults.
    """
    from analyser.cli.shipped import load_suite
    from analyser.cli.warmup import compile_notice
    from analyser.files import check_output_dir
    from analyser.studies.report import build_report

    if out is not None:
        out = check_output_dir(out, "--out")  # before any solving; '' is refused
    suite = load_suite(config if was_given("config") else DEFAULT_CONFIG)
    compile_notice()
    log = None if quiet else (lambda line: click.echo(line, err=True))
    if log is not None:
        # said up front: the first study's line comes only when it is done
        data = sorted({str(cfg.data_dir) for cfg in suite.studies})
        log(
            f"{len(suite.studies)} studies of {suite.path}; results in {', '.join(data)}, "
            f"report in {out or suite.report_dir}"
        )
    files = build_report(suite, out, force=force, quiet=quiet, log=log)
    click.echo(f"wrote {files.html} and {files.markdown} in {files.seconds:.0f} s")
