"""Writing results safely: atomic writes, output paths checked before the work, and a place
to keep a result whose destination failed.

* :func:`atomic_writer` (and :func:`write_bytes_atomic`, :func:`write_text_atomic`): the
  file is written under a temporary name in the same folder, flushed to disk (fsync) and
  renamed over the destination (``os.replace``), so a reader never sees half a file and a
  stop (Ctrl-C, a crash, a full disk) leaves the old file as it was.
* :func:`check_output_dir` and :func:`check_output_file`: an output path is refused before
  any solving starts (one line, exit 2) when it is empty, names a file where a folder is
  wanted (or the reverse), cannot be created or is not writable. Writability is tested by
  creating a file there, since permission bits say nothing for root or a read-only mount.
* :func:`keep_elsewhere`: when writing the finished result fails after all, it goes to a
  file in the system's temporary folder, and the message names that file.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib
import tempfile
from collections.abc import Iterator
from typing import IO

from analyser.errors import RikkenError

# the process's umask, read once (reading it means setting it): a new file gets the usual
# permissions, not mkstemp's owner-only ones
_UMASK = os.umask(0o022)
os.umask(_UMASK)


class OutputPathError(RikkenError):
    """An output path that cannot be written (the CLI prints it, exit 2)."""


def _fsync_dir(folder: pathlib.Path) -> None:
    """Make a rename in ``folder`` durable (where the system allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a folder; the rename itself is atomic
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_writer(path: str | os.PathLike, mode: str = "wb", **kwargs) -> Iterator[IO]:
    """Open a temporary file beside ``path`` for writing (``mode`` 'w' or 'wb', ``kwargs``
    as for :func:`open`); when the block ends without an error the file is synced and renamed
    over ``path``; on an error (KeyboardInterrupt included) it is removed and ``path`` is
    left as it was."""
    path = pathlib.Path(path)
    try:
        wanted = path.stat().st_mode & 0o7777  # an existing file keeps its mode
    except OSError:
        wanted = 0o666 & ~_UMASK
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, mode, **kwargs) as fh:
            os.fchmod(fh.fileno(), wanted)
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (:func:`atomic_writer`)."""
    with atomic_writer(path, "wb") as fh:
        fh.write(data)


def write_text_atomic(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (:func:`atomic_writer`)."""
    with atomic_writer(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(text)


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` as 64 lowercase hex digits."""
    return hashlib.sha256(data).hexdigest()


def os_reason(exc: OSError) -> str:
    """What an OSError says in a one-line message: its system text ('Permission denied'),
    else the whole error."""
    return exc.strerror or str(exc)


def check_output_dir(path: str | os.PathLike, what: str) -> pathlib.Path:
    """The folder ``path`` (``what`` names it in the message, e.g. '--out' or 'data_dir'),
    created if missing, after checking that something can be written there. Raises
    :class:`OutputPathError` (one line) when the path is empty, is a file, lies under a file,
    cannot be created or is not writable."""
    if str(path) == "":
        raise OutputPathError(f"{what}: an empty path is not a folder")
    folder = pathlib.Path(path)
    if folder.exists() and not folder.is_dir():
        raise OutputPathError(f"{what} {folder}: is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputPathError(
            f"{what} {folder}: the folder cannot be created ({os_reason(exc)})"
        ) from None
    try:
        with tempfile.TemporaryFile(dir=folder, prefix=".rikken-write-check-"):
            pass
    except OSError as exc:
        raise OutputPathError(f"{what} {folder}: cannot write there ({os_reason(exc)})") from None
    return folder


def check_output_file(path: str | os.PathLike, what: str) -> pathlib.Path:
    """The file ``path`` to be written: not empty, not a folder, in a folder that exists (or
    is created) and is writable (:func:`check_output_dir`). An existing file is left as it
    is until the result replaces it."""
    if str(path) == "":
        raise OutputPathError(f"{what}: an empty path is not a file name")
    target = pathlib.Path(path)
    if target.is_dir():
        raise OutputPathError(f"{what} {target}: is a folder, not a file")
    if target.parent.exists() and not target.parent.is_dir():
        raise OutputPathError(f"{what} {target}: {target.parent} is a file, not a folder")
    check_output_dir(target.parent, what)
    if target.exists() and not os.access(target, os.W_OK):
        raise OutputPathError(f"{what} {target}: the file is not writable")
    return target


def keep_elsewhere(data: bytes, name: str) -> pathlib.Path:
    """Write ``data`` to a new file in the system's temporary folder whose name ends with
    ``name``; return its path (for a message saying where a result was kept)."""
    fd, tmp = tempfile.mkstemp(prefix="rikken-", suffix=f"-{name}")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    return pathlib.Path(tmp)


def keep_folder_elsewhere(name: str) -> pathlib.Path:
    """A new folder in the system's temporary folder, for a result (a report) whose own
    folder could not be written."""
    return pathlib.Path(tempfile.mkdtemp(prefix=f"rikken-{name}-"))
