"""Registry of sub-commands: each lives in its own module and is added to the group here."""

from analyser.cli import main

# Each command module defines a click command; keep one line per command.
COMMAND_MODULES: list[str] = [
    "hand",
    "dd",
    "analyse",
    "misere",
    "study",
    "report",
    "warmup",
    "serve",
    "batch",
]


def _load() -> None:
    import importlib

    for name in COMMAND_MODULES:
        module = importlib.import_module(f"analyser.cli.{name}")
        main.add_command(module.command)


_load()
