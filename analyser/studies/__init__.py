"""Population studies of the book's bidding guidelines against double-dummy play.

A study is defined by a TOML file in ``sims/`` (:mod:`~analyser.studies.config`), draws its
hands from a stated seeded design (:mod:`~analyser.studies.hands`), solves their deals with the
double-dummy solver (:mod:`~analyser.studies.solve`) and stores a tidy Parquet table keyed by
the hash of its parameters and of its code (:mod:`~analyser.studies.cache`,
:mod:`~analyser.studies.codehash`); :func:`run_study` ties it together.

A study is one module plus its TOML file: the module declares its parameters, plan, what each
chunk solves, its summary and its report section, and :mod:`~analyser.studies.registry`
finds it. Studies: :mod:`~analyser.studies.rik_minimum` (G-RIK-01/02, G-ACE-02),
:mod:`~analyser.studies.alone` (G-ALN-03..05), :mod:`~analyser.studies.misere` (G-MIS-02..06,
G-OPEN-03, G-PRAAT-02), :mod:`~analyser.studies.piek` (G-PIEK-02..05),
:mod:`~analyser.studies.malheur` (G-MAL-07), :mod:`~analyser.studies.wiezen_ask`,
:mod:`~analyser.studies.auction` and :mod:`~analyser.studies.deal_model`. Chunks run in
process or as Dask tasks (:mod:`~analyser.studies.cluster`). :mod:`~analyser.studies.report`
builds the report's sections from the studies.
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
