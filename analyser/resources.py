"""The files the tool reads at run time that are not code: the default studies (``sims/``)
and the single-dummy calibration (``data/single_dummy_calibration.json``).

One source of truth: the repository's ``sims/`` and ``data/`` folders. A wheel carries a copy
of them inside the package (``analyser/bundled/``, copied by ``setup.py`` at build time), so
an installed tool is the whole tool. :func:`shipped_dir` finds the checkout's folder when the
package runs from a source checkout (an editable install, ``PYTHONPATH``) and the bundled copy
(through :mod:`importlib.resources`) when it runs from an installed wheel.
"""

from __future__ import annotations

import importlib.resources
import pathlib

PACKAGE_DIR = pathlib.Path(__file__).resolve().parent
CHECKOUT_DIR = PACKAGE_DIR.parent
BUNDLED = "bundled"
# the folders a wheel carries, with the files of each (setup.py copies exactly these)
SHIPPED = {
    "sims": ("*.toml", "full/*.toml"),
    "data": ("single_dummy_calibration.json", "real_play/real_play_calibration.json"),
}


def in_checkout() -> bool:
    """Whether the package runs from a source checkout (its folder sits beside
    pyproject.toml and sims/), rather than from an installed wheel."""
    return (CHECKOUT_DIR / "pyproject.toml").is_file() and (CHECKOUT_DIR / "sims").is_dir()


def bundled_root() -> pathlib.Path:
    """The folder inside the installed package that holds the shipped copies (it exists
    only in an installed wheel)."""
    return pathlib.Path(str(importlib.resources.files("analyser") / BUNDLED))


def shipped_dir(folder: str) -> pathlib.Path:
    """The folder ``folder`` (``"sims"`` or ``"data"``) as the tool reads it: the source
    checkout's when running from one, else the copy inside the installed package."""
    if folder not in SHIPPED:
        raise ValueError(f"{folder!r} is not shipped with the package")
    if in_checkout():
        return CHECKOUT_DIR / folder
    return bundled_root() / folder


def shipped_file(folder: str, name: str) -> pathlib.Path:
    """A file of a shipped folder, e.g. ``shipped_file("data", "single_dummy_calibration.json")``
    (the path may not exist: the reader decides what a missing file means)."""
    return shipped_dir(folder) / name


def is_bundled(path: pathlib.Path) -> bool:
    """Whether ``path`` lies inside the installed package's bundled copies (where nothing
    may be written)."""
    return pathlib.Path(path).resolve().is_relative_to(bundled_root().resolve())
