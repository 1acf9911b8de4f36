"""`rikken study run SIM.toml` / `rikken study list`: population studies of the guidelines."""

from __future__ import annotations

import pathlib

import click

from analyser.cli.common import MAX_WORKERS, along, applies_only, user_errors, was_given
from analyser.errors import RikkenError

MAX_TIMEOUT = 7 * 24 * 3600.0  # --scheduler-timeout: a week; a longer wait is a mistake


@click.group("study")
def command() -> None:
    """Population studies of the book's bidding guidelines (double-dummy).

    Each study is defined by a TOML file in sims/ holding every parameter (hands, deals per
    hand, seed, rule set, strata); its results go to data/<name>.parquet and its charts and
    tables to reports/<name>/. A rerun with the same parameters and the same code (the study's
    own and what it runs: guidelines, sampler, rules, solver) loads the cached results; an
    interrupted run resumes from its finished chunks.
    """


@command.command("run")
@click.argument("sim", type=click.Path(dir_okay=False, path_type=pathlib.Path))
@click.option("--force", is_flag=True, help="Ignore cached results and solve again.")
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Solve the chunks on an existing Dask cluster, e.g. tcp://host:8786 (start it with "
    "`dask scheduler` and `dask worker ADDRESS --nthreads 1` on each machine).",
)
@click.option(
    "--scheduler-timeout",
    "scheduler_timeout",
    type=click.FloatRange(min=0, min_open=True, max=MAX_TIMEOUT),
    default=60.0,
    show_default=True,
    metavar="SECONDS",
    help="With --scheduler: how long to wait for the scheduler to answer and for its first "
    "worker; after that the run stops with one line naming the address.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=MAX_WORKERS),
    default=None,
    help="Solve the chunks on a Dask LocalCluster of N worker processes on this machine.",
)
@click.option(
    "--deal-model",
    "deal_model",
    type=click.Choice(["uniform", "cut_only"]),
    default=None,
    help="Draw each hand's deals under this deal model instead of the file's deal_model key "
    "(default uniform; cut_only: as a table that does not shuffle deals them, "
    "docs/deal_model.md). A model other than the file's runs as <name>_<model>, so its data "
    "and report folder do not replace the file's.",
)
@click.option("--quiet", is_flag=True, help="No progress line on stderr.")
@user_errors
@applies_only({"--scheduler-timeout": [along("--scheduler")]})
def run(
    sim: pathlib.Path,
    force: bool,
    scheduler: str | None,
    scheduler_timeout: float,
    workers: int | None,
    deal_model: str | None,
    quiet: bool,
) -> None:
    """Run the study defined in SIM (a study TOML file, e.g. sims/misere.toml).

    By default the chunks are solved in this process (the solver uses every core). With
    --workers N or --scheduler ADDRESS each chunk is a Dask task; finished chunks go to the
    same cache as they arrive (an interrupted run resumes), and the same seed gives the same
    table however many workers solve it."""
    # imported here so that `rikken --help` does not load numba, pandas or matplotlib
    from analyser.cli.shipped import load_study
    from analyser.cli.warmup import compile_notice
    from analyser.studies import run_study
    from analyser.studies.cluster import parse_scheduler
    from analyser.studies.report import write_study_section
    from analyser.studies.runner import check_outputs

    cfg = load_study(sim)
    if deal_model is not None and deal_model != cfg["deal_model"]:
        cfg = cfg.with_params(deal_model=deal_model, name=f"{cfg.name}_{deal_model}")
    if was_given("scheduler") and was_given("workers"):
        raise RikkenError("give either --scheduler ADDRESS or --workers N, not both")
    where = None if scheduler is None else parse_scheduler(scheduler, scheduler_timeout)
    check_outputs(cfg)  # before the solving: a folder that cannot be written would waste it
    compile_notice()
    res = run_study(cfg, force=force, quiet=quiet, scheduler=where, workers=workers)
    section, folder, failure = write_study_section(res, cfg.report_dir)
    how = (
        "loaded from the cache"
        if res.from_cache
        else f"{res.positions} positions solved in {res.seconds:.0f} s"
        + (f", {res.parts_reused} finished chunks reused" if res.parts_reused else "")
    )
    click.echo(f"{cfg.name}: {len(res.table)} rows, {how}; deal model {cfg['deal_model']}")
    click.echo(f"data: {cfg.data_dir / (cfg.name + '.parquet')}")
    click.echo(f"charts and tables: {folder / cfg.name}")
    for block in section.blocks:
        if block.png is not None and block.reading:
            click.echo(f"- {block.title}: {block.reading}")
    if failure:
        raise RikkenError(failure)


@command.command("list")
@click.argument("folder", type=click.Path(file_okay=False, path_type=pathlib.Path), default="sims")
@user_errors
def list_studies(folder: pathlib.Path) -> None:
    """List the study files in FOLDER (default sims/; the studies shipped with the tool when
    the working directory has no sims/) with their kind and size."""
    from analyser.cli.shipped import studies_folder
    from analyser.studies import load_study
    from analyser.studies.config import ConfigError

    # shipped files are shown as sims/x.toml: the path `rikken study run` takes anywhere
    shown = folder
    folder = studies_folder(folder)
    files = sorted(folder.glob("*.toml"))
    if not files:
        raise ConfigError(f"{folder}: no TOML files")
    for path in files:
        try:
            cfg = load_study(path)
        except ConfigError as exc:
            if "is a suite" in str(exc):
                click.echo(f"{shown / path.name}: suite")
                continue
            raise
        click.echo(
            f"{shown / path.name}: {cfg.kind}, seed {cfg['seed']}, "
            f"{cfg['deals_per_hand']} deals per hand, deal model {cfg['deal_model']}, "
            f"key {cfg.key}"
        )
