"""A progress line on stderr for long runs: shown only to a person (a terminal), only after
the run has taken a couple of seconds, and never with --quiet.

The same steps can go to a listener instead (the web app pushes them to the page): a thread
that runs an analysis inside :func:`watching` has every :class:`Progress` it creates report
to the listener, quiet or not. The listener may raise KeyboardInterrupt to stop the run
there, exactly as a Ctrl-C does (the analyses keep the figures of the steps finished).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator

# what a listener receives: {"label", "done", "total"} and, once the sample's size is known,
# "deals", "expected", "limit" (the figures of the progress line)
Listener = Callable[[dict], None]

# the listener of the current thread; a Progress keeps the one of the thread that created it,
# since the solver's helper threads advance it too
_local = threading.local()


@contextlib.contextmanager
def watching(listener: Listener) -> Iterator[None]:
    """Within the block, every :class:`Progress` created by this thread also reports each
    step to ``listener`` (a dict per step, see :data:`Listener`)."""
    before = getattr(_local, "listener", None)
    _local.listener = listener
    try:
        yield
    finally:
        _local.listener = before


class Progress:
    """Counts work done out of ``total`` and redraws one stderr line at most 5 times a second.

    Use as a context manager; ``advance(k)`` after each piece of work.
    """

    def __init__(self, total: int, label: str, quiet: bool = False, delay: float = 2.0):
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self.enabled = not quiet and sys.stderr.isatty()
        self.delay = delay
        self.start = time.monotonic()
        self.last_draw = 0.0
        self.drawn = False
        self.deals: tuple[int, int, int] | None = None
        self.listener: Listener | None = getattr(_local, "listener", None)

    def __enter__(self) -> Progress:
        return self

    def advance(self, k: int = 1) -> None:
        """Record ``k`` more units of work and redraw if due."""
        self.done += k
        self._tell()
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or now - self.last_draw < 0.2:
            return
        self.last_draw = now
        self._draw(now)

    def set_status(self, deals: int, expected: int, limit: int) -> None:
        """Show the sample's progress instead of the positions: ``deals`` done, about
        ``expected`` needed in all (at most ``limit``); the time left is estimated from the
        time per deal so far."""
        self.deals = (int(deals), int(expected), int(limit))
        self._tell()
        if self.enabled and time.monotonic() - self.start >= self.delay:
            self._draw(time.monotonic())

    def set_total(self, total: int) -> None:
        """Change the expected amount of work (e.g. when a run extends its sample)."""
        self.total = max(int(total), 1)

    def _tell(self) -> None:
        """Report the state to the listener, if any (it may raise KeyboardInterrupt)."""
        if self.listener is None:
            return
        event = {"label": self.label, "done": self.done, "total": self.total}
        if self.deals is not None:
            event.update(zip(("deals", "expected", "limit"), self.deals, strict=True))
        self.listener(event)

    def _draw(self, now: float) -> None:
        if self.deals is not None:
            done, expected, limit = self.deals
            elapsed = now - self.start
            eta = elapsed / done * max(expected - done, 0) if done else 0.0
            sys.stderr.write(
                f"\r{self.label}: {done} deals done, about {expected} needed (at most "
                f"{limit}), {elapsed:4.0f}s elapsed, ~{eta:4.0f}s left   "
            )
            sys.stderr.flush()
            self.drawn = True
            return
        frac = min(self.done / self.total, 1.0)
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        elapsed = now - self.start
        eta = elapsed * (1 - frac) / frac if frac > 0 else 0.0
        sys.stderr.write(
            f"\r{self.label} [{bar}] {self.done}/{self.total} "
            f"{elapsed:5.0f}s elapsed, ~{eta:4.0f}s left "
        )
        sys.stderr.flush()
        self.drawn = True

    def __exit__(self, *exc) -> None:
        if self.drawn:
            sys.stderr.write("\r" + " " * 100 + "\r")
            sys.stderr.flush()
