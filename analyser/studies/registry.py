"""Which studies exist: every module of :mod:`analyser.studies` that declares one.

A study is one module plus its TOML file. The module declares ``KEYS`` (its own parameters,
each with its check, besides config.COMMON_KEYS), optionally ``FAMILY`` (the rule-set family
it plays, default ``rikken``), optionally ``CUT_ONLY`` (True when its hands' deals can be
drawn under the ``cut_only`` deal model, docs/deal_model.md; else a sentence saying why not),
and the functions of the study protocol: ``plan``, ``cost``,
``solve_hands``, ``summarise``, ``classifiers`` (analyser.studies.runner) and
``report_blocks`` with its ``INTRO`` (the report section). Adding a study is adding such a
module and a TOML file whose ``kind`` is the module's name; nothing else is edited.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from types import ModuleType

PACKAGE = "analyser.studies"
PROTOCOL = ("plan", "cost", "solve_hands", "summarise", "classifiers", "report_blocks")
DEFAULT_FAMILY = "rikken"


@functools.cache
def study_kinds() -> dict[str, str]:
    """{kind: module name} of every study module, in name order."""
    import analyser.studies as package

    found = {}
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
        if info.ispkg:
            continue
        name = f"{PACKAGE}.{info.name}"
        module = importlib.import_module(name)
        if isinstance(getattr(module, "KEYS", None), dict):
            missing = [f for f in (*PROTOCOL, "INTRO") if not hasattr(module, f)]
            if missing:
                raise TypeError(f"study module {name} lacks {', '.join(missing)}")
            found[info.name] = name
    return found


def study_module(kind: str) -> ModuleType:
    """The module of study ``kind`` (KeyError for an unknown kind)."""
    return importlib.import_module(study_kinds()[kind])


def study_family(kind: str) -> str:
    """The rule-set family study ``kind`` plays."""
    return getattr(study_module(kind), "FAMILY", DEFAULT_FAMILY)


def study_cut_only(kind: str) -> bool | str:
    """True when study ``kind`` takes ``deal_model = "cut_only"``; else why it does not."""
    return getattr(study_module(kind), "CUT_ONLY", "its deals are not drawn hand by hand")
