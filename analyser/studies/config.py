"""Study definitions: one TOML file per study (every parameter), suites listing study files.

A study file::

    kind = "misere"              # which study: a module of analyser.studies (registry.py)
    name = "misere"              # names its data file and report folder
    title = "Misère"
    seed = 20240505
    rules = "book"               # a rule-set string, as --rules
    deals_per_hand = 16
    chunk_hands = 64             # hands per cached part (finished parts survive an interrupt)
    deal_model = "uniform"       # optional: "cut_only" draws each hand's deals as an
                                 # unshuffled table deals them (docs/deal_model.md)
    ...                          # the kind's own keys, all required

A study file may start from another and change only some keys (the large versions in
``sims/full/`` change only the sizes)::

    extends = "../misere.toml"
    name = "misere_full"
    hands_per_bucket = 1000

A suite file (``sims/default.toml``) lists study files and where the report goes::

    title = "..."
    studies = ["rik_minimum.toml", "alone.toml"]
    report_dir = "../reports"

Paths are relative to the TOML file that names them; ``data_dir`` (default ``../data``) and
``report_dir`` (default ``../reports``) are optional. Anything wrong — unreadable TOML, an
unknown or missing key, a value of the wrong type or range — raises :class:`ConfigError`
naming the file and the key.

:attr:`StudyConfig.key`, the key of the study's cached results
(:mod:`~analyser.studies.cache`), hashes the parameters, the package version and
:attr:`StudyConfig.code`: the hash of the source of the study's module and of the code it
runs (:func:`analyser.studies.codehash.code_hash`), so editing that code invalidates the cache.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from analyser import __version__
from analyser.errors import RikkenError, file_name_error
from analyser.studies.codehash import code_hash

SEAT_NAMES = ("N", "E", "S", "W")


class ConfigError(RikkenError, ValueError):
    """A study or suite TOML file is unreadable or has a bad, unknown or missing key."""


# --------------------------------------------------------------------------- value checks

Check = Callable[[Any], str | None]  # returns an error text, None when the value is fine


def int_in(lo: int, hi: int) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return f"must be an integer, got {v!r}"
        if not lo <= v <= hi:
            return f"must be in {lo}..{hi}, got {v}"
        return None

    return check


def float_in(lo: float, hi: float) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int | float):
            return f"must be a number, got {v!r}"
        if not lo <= v <= hi:
            return f"must be in {lo}..{hi}, got {v}"
        return None

    return check


def text(v: Any) -> str | None:
    return None if isinstance(v, str) and v else f"must be a non-empty string, got {v!r}"


def file_name(v: Any) -> str | None:
    """A name that becomes a file or folder name (data/<name>.parquet, reports/<name>/)."""
    return file_name_error(v)


def int_list(lo: int, hi: int, min_len: int = 1) -> Check:
    item = int_in(lo, hi)

    def check(v: Any) -> str | None:
        if not isinstance(v, list) or len(v) < min_len:
            return f"must be a list of at least {min_len} integers, got {v!r}"
        for x in v:
            err = item(x)
            if err:
                return f"item {x!r} {err}"
        if len(set(v)) != len(v):
            return "must not repeat a value"
        return None

    return check


def int_pairs(lo: int, hi: int, max_sum: int) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, list) or not v:
            return f"must be a list of [a, b] integer pairs, got {v!r}"
        for p in v:
            if (
                not isinstance(p, list)
                or len(p) != 2
                or any(isinstance(x, bool) or not isinstance(x, int) for x in p)
            ):
                return f"item {p!r} must be a pair [a, b] of integers"
            if not (lo <= p[0] <= hi and lo <= p[1] <= hi and p[0] + p[1] <= max_sum):
                return f"item {p!r} needs both in {lo}..{hi} and a + b <= {max_sum}"
        return None

    return check


def seat_list(v: Any) -> str | None:
    if not isinstance(v, list) or not v or any(s not in SEAT_NAMES for s in v):
        return f"must be a list of seats from {list(SEAT_NAMES)}, got {v!r}"
    if len(set(v)) != len(v):
        return "must not repeat a seat"
    return None


def _rules(v: Any) -> str | None:
    from analyser.analysis.bids import check_analysed
    from analyser.rules import parse_ruleset

    if not isinstance(v, str):
        return f"must be a rule-set string such as 'book', got {v!r}"
    try:
        check_analysed(parse_ruleset(v), "rikken study")
    except RikkenError as exc:
        return str(exc)
    return None


# The family of rule sets (analyser.rules.contracts.FAMILIES) each kind of study plays: the
# guideline studies are the book's (rikken); wiezen_ask studies the wiezen ask (§7.4).


def _deal_model(v: Any) -> str | None:
    return None if v in ("uniform", "cut_only") else f"must be 'uniform' or 'cut_only', got {v!r}"


COMMON_KEYS: dict[str, Check] = {
    "kind": text,
    "name": file_name,
    "title": text,
    "seed": int_in(0, 2**63 - 1),
    "rules": _rules,
    "deals_per_hand": int_in(1, 100_000),
    "chunk_hands": int_in(1, 1_000_000),
}
OPTIONAL_PATHS = {"data_dir": "../data", "report_dir": "../reports"}
# optional parameters with their default (a parameter like any other once read: in the
# cache key and the report's parameter line)
OPTIONAL_KEYS: dict[str, tuple[Any, Check]] = {"deal_model": ("uniform", _deal_model)}


@dataclass(frozen=True)
class StudyConfig:
    """One validated study definition. ``params`` holds every parameter (kind included); the
    cache ``key`` hashes them together with the package ``version`` and ``code``, the hash of
    the study's code (:func:`~analyser.studies.codehash.code_hash` of its module; computed
    when not given)."""

    path: pathlib.Path
    params: Mapping[str, Any]
    data_dir: pathlib.Path
    report_dir: pathlib.Path
    version: str = __version__
    code: str = ""
    key: str = field(init=False)

    def __post_init__(self) -> None:
        if not self.code:
            from analyser.studies.registry import study_kinds

            object.__setattr__(self, "code", code_hash(study_kinds()[self.kind]))
        blob = json.dumps(
            {"params": dict(self.params), "version": self.version, "code": self.code},
            sort_keys=True,
        )
        object.__setattr__(self, "key", hashlib.sha256(blob.encode()).hexdigest()[:12])

    @property
    def kind(self) -> str:
        return str(self.params["kind"])

    @property
    def name(self) -> str:
        return str(self.params["name"])

    def __getitem__(self, key: str) -> Any:
        return self.params[key]

    def with_params(self, **changes: Any) -> StudyConfig:
        """A copy with some parameters changed (validated again)."""
        raw = {**self.params, **changes}
        return study_from_dict(raw, self.path, self.data_dir, self.report_dir)


@dataclass(frozen=True)
class SuiteConfig:
    """A list of studies and the report's title and folder."""

    path: pathlib.Path
    title: str
    studies: tuple[StudyConfig, ...]
    report_dir: pathlib.Path


# A study or suite file is a page of keys: anything larger is not one (and /dev/zero ends).
MAX_TOML_BYTES = 1 << 20


def _read_toml(path: pathlib.Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_TOML_BYTES + 1)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a directory, not a TOML file") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from None
    except ValueError:  # a NUL in the path
        raise ConfigError(f"{str(path)!r}: not a valid file name") from None
    if len(data) > MAX_TOML_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_TOML_BYTES >> 20} MiB, not a study file")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text (a TOML file is UTF-8)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: nested too deeply") from None


def study_from_dict(
    raw: Mapping[str, Any],
    path: pathlib.Path,
    data_dir: pathlib.Path | None = None,
    report_dir: pathlib.Path | None = None,
) -> StudyConfig:
    """Validate a study's key/value table (as read from ``path``) into a :class:`StudyConfig`."""
    where = str(path)
    raw = dict(raw)
    kind = raw.get("kind")
    from analyser.studies.registry import study_kinds, study_module

    if not isinstance(kind, str) or kind not in study_kinds():
        raise ConfigError(
            f"{where}: key 'kind' must be one of {', '.join(study_kinds())}, got {kind!r}"
        )
    schema = {**COMMON_KEYS, **{k: c for k, (_, c) in OPTIONAL_KEYS.items()},
              **study_module(kind).KEYS}  # fmt: skip
    for key, (default, _) in OPTIONAL_KEYS.items():
        raw.setdefault(key, default)
    dirs = {}
    for key, default in OPTIONAL_PATHS.items():
        value = raw.pop(key, default)
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{where}: key '{key}' must be a path string, got {value!r}")
        dirs[key] = (path.parent / value).resolve()
    unknown = sorted(set(raw) - set(schema))
    if unknown:
        raise ConfigError(
            f"{where}: unknown key {unknown[0]!r} for a {kind} study "
            f"(known: {', '.join(sorted(schema))})"
        )
    missing = [k for k in schema if k not in raw]
    if missing:
        raise ConfigError(f"{where}: missing key {missing[0]!r}")
    for key, check in schema.items():
        err = check(raw[key])
        if err:
            raise ConfigError(f"{where}: key '{key}' {err}")
    _cross_checks(raw, where)
    return StudyConfig(
        path=path,
        params={k: raw[k] for k in schema},
        data_dir=data_dir or dirs["data_dir"],
        report_dir=report_dir or dirs["report_dir"],
    )


def _cross_checks(raw: Mapping[str, Any], where: str) -> None:
    from analyser.rules import parse_ruleset
    from analyser.studies.registry import study_cut_only, study_family

    if raw["deal_model"] == "cut_only" and study_cut_only(raw["kind"]) is not True:
        raise ConfigError(
            f"{where}: key 'deal_model' cannot be 'cut_only' for a {raw['kind']} study: "
            f"{study_cut_only(raw['kind'])}"
        )

    need = study_family(raw["kind"])
    family = parse_ruleset(raw["rules"]).family.name
    if family != need:
        raise ConfigError(
            f"{where}: key 'rules' {raw['rules']!r} plays the {family} family; a "
            f"{raw['kind']} study needs a rule set of the {need} family"
        )
    pairs = [("high_min", "high_max"), ("count_min", "count_max"), ("min_holes", "max_holes")]
    for lo, hi in pairs:
        if lo in raw and raw[lo] > raw[hi]:
            raise ConfigError(f"{where}: key '{lo}' must not exceed '{hi}'")


def _check_paths(raw: Mapping[str, Any], path: pathlib.Path) -> None:
    """A path key holding a NUL cannot name a file (the OS refuses it with a ValueError)."""
    for key in (*OPTIONAL_PATHS, "extends", "report_dir", "studies"):
        values = raw.get(key)
        for value in values if isinstance(values, list) else [values]:
            if isinstance(value, str) and "\x00" in value:
                raise ConfigError(f"{path}: key {key!r} holds a NUL character: {value!r}")


def _read_study(path: pathlib.Path, seen: tuple[pathlib.Path, ...] = ()) -> dict[str, Any]:
    """A study file's keys, with ``extends = "OTHER.toml"`` resolved: the other file's keys
    (itself possibly extending a third), overridden by this file's. Path keys are made
    absolute relative to the file that sets them."""
    raw = _read_toml(path)
    _check_paths(raw, path)
    if "studies" in raw:
        raise ConfigError(f"{path}: is a suite (it lists studies); give one study file")
    for key in OPTIONAL_PATHS:
        if isinstance(raw.get(key), str) and raw[key]:
            raw[key] = str((path.parent / raw[key]).resolve())
    base = raw.pop("extends", None)
    if base is None:
        return raw
    if not isinstance(base, str) or not base:
        raise ConfigError(f"{path}: key 'extends' must be the path of another study file")
    other = (path.parent / base).resolve()
    if other in seen or other == path.resolve():
        raise ConfigError(f"{path}: 'extends' goes round in a circle")
    return {**_read_study(other, (*seen, path.resolve())), **raw}


def load_study(path: str | pathlib.Path) -> StudyConfig:
    """Read and validate one study TOML file (``extends`` another: see :func:`_read_study`)."""
    path = pathlib.Path(path)
    return study_from_dict(_read_study(path), path)


def load_suite(path: str | pathlib.Path) -> SuiteConfig:
    """Read a suite TOML file and every study file it lists."""
    path = pathlib.Path(path)
    raw = _read_toml(path)
    _check_paths(raw, path)
    allowed = {"title", "studies", "report_dir"}
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise ConfigError(
            f"{path}: unknown key {unknown[0]!r} in a suite (known: {', '.join(sorted(allowed))})"
        )
    files = raw.get("studies")
    if not isinstance(files, list) or not files or not all(isinstance(f, str) for f in files):
        raise ConfigError(f"{path}: key 'studies' must be a non-empty list of study file paths")
    title = raw.get("title", "Rikken bidding guidelines against double-dummy play")
    if not isinstance(title, str):
        raise ConfigError(f"{path}: key 'title' must be a string")
    report_dir = raw.get("report_dir", "../reports")
    if not isinstance(report_dir, str) or not report_dir:
        raise ConfigError(f"{path}: key 'report_dir' must be a path string")
    studies = tuple(load_study(path.parent / f) for f in files)
    names = [s.name for s in studies]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ConfigError(f"{path}: two studies share the name {dup[0]!r}")
    return SuiteConfig(path, title, studies, (path.parent / report_dir).resolve())
