"""Population studies of the book's bidding guidelines against double-dummy play (issue 5).

A study is defined by a TOML file in ``sims/`` (:mod:`~analyser.studies.config`), draws its
hands from a stated seeded design (:mod:`~analyser.studies.hands`), solves their deals with the
double-dummy solver (:mod:`~analyser.studies.solve`) and stores a tidy Parquet table keyed by
the hash of its parameters and of its code (:mod:`~analyser.studies.cache`,
:mod:`~analyser.studies.codehash`); :func:`run_study` ties it together.

Studies (one module each): :mod:`~analyser.studies.rik_minimum` (G-RIK-01/02, G-ACE-02),
:mod:`~analyser.studies.alone` (G-ALN-03..05), :mod:`~analyser.studies.misere` (G-MIS-02..06,
G-OPEN-03, G-PRAAT-02), :mod:`~analyser.studies.piek` (G-PIEK-02..05) and
:mod:`~analyser.studies.malheur` (G-MAL-07).
"""

from analyser.studies.config import (
    ConfigError,
    StudyConfig,
    SuiteConfig,
    load_study,
    load_suite,
    study_from_dict,
)
from analyser.studies.runner import StudyResult, run_study

__all__ = [
    "ConfigError",
    "StudyConfig",
    "StudyResult",
    "SuiteConfig",
    "load_study",
    "load_suite",
    "run_study",
    "study_from_dict",
]
