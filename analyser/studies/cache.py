"""Study results on disk: Parquet tables keyed on the study's parameters and code.

The key (:attr:`StudyConfig.key`) hashes the parameters, the package version and the code
hash (:attr:`StudyConfig.code`: the source of the study's module and of the code it runs,
see :mod:`~analyser.studies.codehash`). So a rerun loads the cached table only when neither
the parameters nor that code changed; after an edit to the study, the guidelines, the
sampler, the rules or the solver it solves again.

* the finished table: ``<data_dir>/<name>.parquet``; its Parquet metadata records the
  parameters, the package version, the code hash and the key. A rerun whose key (and code
  hash) match loads the table instead of solving.
* finished chunks of a run in progress: ``<data_dir>/cache/<name>-<key>/part-0003.parquet``.
  Each part is written atomically (temporary file, then rename) as soon as its hands are
  solved, so an interrupted run resumes from the parts already there (the same key: the same
  parameters and code). The folder is removed once the finished table is written.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from analyser.studies.config import StudyConfig

META_KEY = b"rikken_study"


def _atomic_write(df: pd.DataFrame, path: pathlib.Path, meta: dict | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(df, preserve_index=False)
    if meta is not None:
        extra = {META_KEY: json.dumps(meta, sort_keys=True).encode()}
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), **extra})
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def read_meta(path: str | pathlib.Path) -> dict | None:
    """The study metadata recorded in a result file (None if it has none)."""
    meta = pq.read_schema(path).metadata or {}
    return json.loads(meta[META_KEY]) if META_KEY in meta else None


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
        """The finished table if it was made with these parameters, version and code, else
        None."""
        if not self.table_path.exists():
            return None
        try:
            meta = read_meta(self.table_path)
        except (OSError, pa.ArrowException):
            return None
        if not meta or meta.get("key") != self.cfg.key or meta.get("code") != self.cfg.code:
            return None
        return pd.read_parquet(self.table_path)

    def part_path(self, i: int) -> pathlib.Path:
        return self.parts_dir / f"part-{i:04d}.parquet"

    def load_part(self, i: int) -> pd.DataFrame | None:
        """Part ``i`` if an earlier (possibly interrupted) run finished it."""
        path = self.part_path(i)
        if not path.exists():
            return None
        try:
            return pd.read_parquet(path)
        except (OSError, pa.ArrowException):
            return None  # a damaged part is simply solved again

    def save_part(self, i: int, df: pd.DataFrame) -> None:
        """Write part ``i`` atomically."""
        _atomic_write(df, self.part_path(i))

    def finish(self, df: pd.DataFrame) -> None:
        """Write the finished table with its metadata and drop the parts."""
        _atomic_write(df, self.table_path, self.meta())
        shutil.rmtree(self.parts_dir, ignore_errors=True)
        try:
            self.parts_dir.parent.rmdir()  # only when no other study's parts are left
        except OSError:
            pass

    def clear(self) -> None:
        """Forget cached results of this configuration (``--force``)."""
        shutil.rmtree(self.parts_dir, ignore_errors=True)
        if self.table_path.exists():
            self.table_path.unlink()
