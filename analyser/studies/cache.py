"""Study results on disk: Parquet tables keyed on the study's parameters and code, each
verified before it is used.

The key (:attr:`StudyConfig.key`) hashes the parameters, the package version and the code
hash (:attr:`StudyConfig.code`: the source of the study's module and of the code it runs,
see :mod:`~analyser.studies.codehash`). So a rerun loads the cached table only when neither
the parameters nor that code changed; after an edit to the study, the guidelines, the
sampler, the rules or the solver it solves again.

* the finished table: ``<data_dir>/<name>.parquet``; its Parquet metadata records the
  parameters, the package version, the code hash and the key. A rerun whose key (and code
  hash) match loads the table instead of solving.
* finished chunks of a run in progress: ``<data_dir>/cache/<name>-<key>/part-0003.parquet``.
  Each part is written as soon as its hands are solved, so an interrupted run resumes from
  the parts already there (the same key: the same parameters and code). The folder is
  removed once the finished table is written.

Every table and part has a checksum file beside it, ``<file>.sha256`` (the SHA-256 of the
file's bytes, in the format ``sha256sum -c`` reads), and its Parquet pages carry CRC
checksums. Before a table or part is used: its bytes must match the recorded SHA-256, it must
decode with every page checksum verified, and its values must lie in their columns' domains
(:mod:`~analyser.studies.domains`). One that fails is named in one line on stderr ("cache:
data/x.parquet failed verification (…); solving it again") and solved again, never used.

Every write is atomic (a temporary file beside the destination, fsync, rename): a stop
leaves the old file or the new one, never half of one; ``--force`` keeps the old table until
the new one replaces it.
"""

from __future__ import annotations

import io
import json
import pathlib
import re
import shutil
import sys

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analyser.errors import RikkenError
from analyser.files import (
    keep_elsewhere,
    os_reason,
    sha256_hex,
    write_bytes_atomic,
    write_text_atomic,
)
from analyser.studies.config import StudyConfig
from analyser.studies.domains import domain_problem

META_KEY = b"rikken_study"
CHECKSUM_SUFFIX = ".sha256"
_CHECKSUM_LINE = re.compile(r"([0-9a-f]{64})  (\S+)\n")


class VerificationError(Exception):
    """A cached table or part that may not be used; the message says why."""


def _parquet_bytes(df: pd.DataFrame, meta: dict | None = None) -> bytes:
    """``df`` as Parquet file bytes, with page checksums and ``meta`` in the metadata."""
    table = pa.Table.from_pandas(df, preserve_index=False)
    if meta is not None:
        extra = {META_KEY: json.dumps(meta, sort_keys=True).encode()}
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, write_page_checksum=True)
    return sink.getvalue().to_pybytes()


def checksum_path(path: pathlib.Path) -> pathlib.Path:
    """The checksum file beside the table or part ``path``."""
    return path.with_name(path.name + CHECKSUM_SUFFIX)


def _write_verified(data: bytes, path: pathlib.Path) -> None:
    """Write the Parquet bytes ``data`` to ``path`` and their checksum beside it, each
    atomically. A stop between the two leaves a pair that fails verification (solved again),
    never a pair that passes with the wrong content."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(path, data)
    write_text_atomic(checksum_path(path), f"{sha256_hex(data)}  {path.name}\n")


def _atomic_write(df: pd.DataFrame, path: pathlib.Path, meta: dict | None = None) -> None:
    _write_verified(_parquet_bytes(df, meta), path)


def read_verified(path: pathlib.Path) -> tuple[pd.DataFrame, dict | None]:
    """The table at ``path`` and its study metadata, after checking its bytes against the
    recorded SHA-256 and decoding it with every page checksum verified. Raises
    :class:`VerificationError` when the checksum is missing or differs, or the file cannot be
    read or decoded."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise VerificationError(f"cannot be read: {os_reason(exc)}") from None
    try:
        recorded = checksum_path(path).read_text(encoding="ascii")
    except FileNotFoundError:
        raise VerificationError("no checksum recorded") from None
    except (OSError, UnicodeDecodeError):
        raise VerificationError("its checksum file cannot be read") from None
    match = _CHECKSUM_LINE.fullmatch(recorded)
    if match is None or match.group(2) != path.name:
        raise VerificationError("its checksum file is damaged")
    if sha256_hex(data) != match.group(1):
        raise VerificationError("SHA-256 differs from the one recorded")
    try:
        table = pq.read_table(io.BytesIO(data), page_checksum_verification=True)
        raw = (table.schema.metadata or {}).get(META_KEY)
        meta = json.loads(raw) if raw is not None else None
        df = table.to_pandas()
    except Exception as exc:  # noqa: BLE001 - any decoding failure means "do not use it"
        raise VerificationError(f"cannot be decoded: {type(exc).__name__}") from None
    return df, meta


def read_meta(path: str | pathlib.Path) -> dict | None:
    """The study metadata recorded in a result file (None if it has none)."""
    meta = pq.read_schema(path).metadata or {}
    return json.loads(meta[META_KEY]) if META_KEY in meta else None


def shown(path: pathlib.Path) -> str:
    """``path`` as a message shows it: relative to the working folder when under it."""
    try:
        return str(path.relative_to(pathlib.Path.cwd()))
    except ValueError:
        return str(path)


def report_failure(path: pathlib.Path, why: str) -> None:
    """The one line on stderr for a table or part that failed verification."""
    print(f"cache: {shown(path)} failed verification ({why}); solving it again", file=sys.stderr)


class StudyCache:
    """Finished table and in-progress parts of one study configuration."""

    def __init__(self, cfg: StudyConfig):
        self.cfg = cfg
        self.table_path = cfg.data_dir / f"{cfg.name}.parquet"
        self.parts_dir = cfg.data_dir / "cache" / f"{cfg.name}-{cfg.key}"

    def meta(self) -> dict:
        """What the finished table records about its origin."""
        return {
            "study": self.cfg.name,
            "kind": self.cfg.kind,
            "key": self.cfg.key,
            "version": self.cfg.version,
            "code": self.cfg.code,
            "params": dict(self.cfg.params),
            "config": str(self.cfg.path),
        }

    def load(self) -> pd.DataFrame | None:
        """The finished table if it was made with these parameters, version and code and
        passes verification, else None (a failure is reported on stderr)."""
        if not self.table_path.exists():
            return None
        try:
            df, meta = read_verified(self.table_path)
        except VerificationError as exc:
            report_failure(self.table_path, str(exc))
            return None
        if not meta or meta.get("key") != self.cfg.key or meta.get("code") != self.cfg.code:
            return None  # another configuration's table: solved again, no failure
        problem = domain_problem(df, self.cfg)
        if problem is not None:
            report_failure(self.table_path, problem)
            return None
        return df

    def part_path(self, i: int) -> pathlib.Path:
        """Where part ``i`` of a run in progress is kept."""
        return self.parts_dir / f"part-{i:04d}.parquet"

    def load_part(self, i: int) -> pd.DataFrame | None:
        """Part ``i`` if an earlier (possibly interrupted) run finished it and it passes
        verification, else None (a failure is reported on stderr)."""
        path = self.part_path(i)
        if not path.exists():
            return None
        try:
            df, _ = read_verified(path)
        except VerificationError as exc:
            report_failure(path, str(exc))
            return None
        problem = domain_problem(df)
        if problem is not None:
            report_failure(path, problem)
            return None
        return df

    def save_part(self, i: int, df: pd.DataFrame) -> None:
        """Write part ``i`` atomically, with its checksum. A part that cannot be written is
        said on stderr and the run goes on: the part is in memory and goes into the table."""
        try:
            _atomic_write(df, self.part_path(i))
        except OSError as exc:
            print(
                f"cache: could not save {shown(self.part_path(i))} ({os_reason(exc)}); "
                "going on without it (a stop now would lose that chunk)",
                file=sys.stderr,
            )

    def finish(self, df: pd.DataFrame) -> None:
        """Write the finished table with its metadata and checksum (replacing the old one
        only once the new one is complete) and drop the parts. When the table cannot be
        written, it is kept in the system's temporary folder and a :class:`RikkenError`
        names that file (the parts stay, so a rerun also resumes from them)."""
        data = _parquet_bytes(df, self.meta())
        try:
            _write_verified(data, self.table_path)
        except OSError as exc:
            kept = keep_elsewhere(data, self.table_path.name)
            raise RikkenError(
                f"cache: could not write {shown(self.table_path)} "
                f"({os_reason(exc)}); the finished table is kept in {kept}"
            ) from None
        shutil.rmtree(self.parts_dir, ignore_errors=True)
        try:
            self.parts_dir.parent.rmdir()  # only when no other study's parts are left
        except OSError:
            pass
