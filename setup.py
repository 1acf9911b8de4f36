"""Packaging is declared in pyproject.toml; this file adds one build step.

The tool reads two things at run time that live outside the package in the repository: the
default studies (sims/*.toml) and the single-dummy calibration (data/). A wheel copies them
into analyser/bundled/ so that a plain `pip install .` is the whole tool
(analyser/resources.py finds them). The repository's folders stay the one source of truth.
"""

import pathlib

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = pathlib.Path(__file__).resolve().parent
# kept equal to analyser.resources.SHIPPED (tests/test_install.py checks the wheel)
SHIPPED = {
    "sims": ("*.toml", "full/*.toml"),
    "data": ("single_dummy_calibration.json", "real_play/real_play_calibration.json"),
}


class BuildPyWithShippedFiles(build_py):
    """build_py, then copy the shipped files into the built package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's folders directly
        for folder, patterns in SHIPPED.items():
            for pattern in patterns:
                for src in sorted((ROOT / folder).glob(pattern)):
                    rel = src.relative_to(ROOT / folder)
                    dest = pathlib.Path(self.build_lib, "analyser", "bundled", folder, rel)
                    self.mkpath(str(dest.parent))
                    self.copy_file(str(src), str(dest))


setup(cmdclass={"build_py": BuildPyWithShippedFiles})
