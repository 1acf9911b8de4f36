"""Study and suite files as the CLI finds them: ``sims/x.toml`` works from any folder.

A path that exists is used as given. A relative ``sims/...`` path that does not exist in the
working directory is the shipped copy (:func:`analyser.resources.shipped_dir`): the source
checkout's sims/ folder, or the copy inside an installed wheel. A study or suite read from
inside the installed package writes its results to data/ and reports/ of the working
directory, never into the package.
"""

from __future__ import annotations

import dataclasses
import pathlib

from analyser.resources import bundled_root, is_bundled, shipped_dir

SIMS = "sims"


def resolve(path: pathlib.Path) -> pathlib.Path:
    """``path``, or the shipped copy of a ``sims/...`` path missing from the working
    directory (``path`` itself when there is none: the reader reports it missing)."""
    path = pathlib.Path(path)
    if path.exists() or path.is_absolute() or not path.parts or path.parts[0] != SIMS:
        return path
    shipped = shipped_dir(SIMS).joinpath(*path.parts[1:])
    return shipped if shipped.exists() else path


def studies_folder(folder: pathlib.Path) -> pathlib.Path:
    """The folder ``rikken study list`` reads: ``folder``, or the shipped sims/ for a
    ``sims`` missing from the working directory."""
    return resolve(folder)


def _out(path: pathlib.Path) -> pathlib.Path:
    """An output folder of a bundled study, moved from the package to the working
    directory (bundled/data -> ./data, bundled/reports -> ./reports)."""
    try:
        return pathlib.Path.cwd() / path.resolve().relative_to(bundled_root().resolve())
    except ValueError:
        return path  # an absolute folder named in the TOML: as written


def _rebased_study(cfg):
    if not is_bundled(cfg.path):
        return cfg
    return dataclasses.replace(cfg, data_dir=_out(cfg.data_dir), report_dir=_out(cfg.report_dir))


def load_study(path: pathlib.Path):
    """:func:`analyser.studies.load_study` of the resolved path, writing outside the package."""
    from analyser.studies import load_study as load

    return _rebased_study(load(resolve(path)))


def load_suite(path: pathlib.Path):
    """:func:`analyser.studies.load_suite` of the resolved path, writing outside the package."""
    from analyser.studies import load_suite as load

    suite = load(resolve(path))
    if not is_bundled(suite.path):
        return suite
    studies = tuple(_rebased_study(cfg) for cfg in suite.studies)
    return dataclasses.replace(suite, studies=studies, report_dir=_out(suite.report_dir))
