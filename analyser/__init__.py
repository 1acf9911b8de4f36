"""rikken-analyser: double-dummy Monte-Carlo analysis of Rikken bids.

``from analyser import analyse, misere`` gives the Python API (:mod:`analyser.api`,
docs/api.md). It is loaded on first use, so that ``import analyser`` stays cheap (the
command line imports the package for its version before it knows what it will run).
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# the names the API module lends the package, loaded on first access (PEP 562)
_API = ("analyse", "misere", "Result")


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module("analyser.api"), name)
    raise AttributeError(f"module 'analyser' has no attribute {name!r}")


__all__ = ["Result", "__version__", "analyse", "misere"]
