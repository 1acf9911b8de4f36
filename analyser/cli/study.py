"""`rikken study run SIM.toml` / `rikken study list`: population studies of the guidelines."""

from __future__ import annotations

import pathlib

import click

from analyser.cli.common import user_errors


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
@click.option("--quiet", is_flag=True, help="No progress line on stderr.")
@user_errors
def run(sim: pathlib.Path, force: bool, quiet: bool) -> None:
    """Run the study defined in SIM (a study TOML file, e.g. sims/misere.toml)."""
    # imported here so that `rikken --help` does not load numba, pandas or matplotlib
    from analyser.report.sections import study_section
    from analyser.studies import load_study, run_study

    cfg = load_study(sim)
    res = run_study(cfg, force=force, quiet=quiet)
    section = study_section(res, cfg.report_dir)
    how = (
        "loaded from the cache"
        if res.from_cache
        else f"{res.positions} positions solved in {res.seconds:.0f} s"
        + (f", {res.parts_reused} finished chunks reused" if res.parts_reused else "")
    )
    click.echo(f"{cfg.name}: {len(res.table)} rows, {how}")
    click.echo(f"data: {cfg.data_dir / (cfg.name + '.parquet')}")
    click.echo(f"charts and tables: {cfg.report_dir / cfg.name}")
    for block in section.blocks:
        if block.png is not None and block.reading:
            click.echo(f"- {block.title}: {block.reading}")


@command.command("list")
@click.argument("folder", type=click.Path(file_okay=False, path_type=pathlib.Path), default="sims")
@user_errors
def list_studies(folder: pathlib.Path) -> None:
    """List the study files in FOLDER (default sims/) with their kind and size."""
    from analyser.studies import load_study
    from analyser.studies.config import ConfigError

    files = sorted(folder.glob("*.toml"))
    if not files:
        raise ConfigError(f"{folder}: no TOML files")
    for path in files:
        try:
            cfg = load_study(path)
        except ConfigError as exc:
            if "is a suite" in str(exc):
                click.echo(f"{path}: suite")
                continue
            raise
        click.echo(
            f"{path}: {cfg.kind}, seed {cfg['seed']}, {cfg['deals_per_hand']} deals per hand, "
            f"key {cfg.key}"
        )
