"""The store's threads: one writer that commits queued writes in groups, and readers beside it.

Each thread owns one connection and runs whole transactions (plain functions of a ``Tx``) in one
go, so a transaction never spans turns of the event loop and holds the database only while the
database works. This module holds what every backend's threads share: the jobs, the figures, the
loop that groups writes, and the back-off; ``bot.store.sqlite`` and ``bot.store.postgresql`` say
how a group is committed and which failures are worth retrying.

Group commit: the writer takes every write queued while it was busy and runs them in one
transaction, each inside its own SAVEPOINT (a write that fails is rolled back alone and its caller
gets the error; the others go on). One COMMIT then makes the whole group durable, and only then is
each caller answered. A transient failure (a file locked by another program, a full disk, a
server that cannot be reached) rolls the group back and retries it with backoff until each job's
deadline; a job whose deadline passes fails with ``StoreUnavailable``.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.store.errors import StoreError, StoreUnavailable

log = logging.getLogger("bot.store")

MAX_GROUP = 64  # writes per transaction at most: keeps one group's commit short
BACKOFF_FIRST, BACKOFF_MAX = 0.02, 0.5  # seconds between retries of a transient failure

UNAVAILABLE = {
    "locked": "is locked by another program",
    "read-only": "cannot be written (the file or its folder is read-only)",
    "full": "cannot grow: the disk is full",
    "disk error": "could not be read or written (the disk reported an error)",
    "cannot open": "cannot be opened (it was moved or its folder is gone)",
    "unreachable": "cannot be reached (the server is down, restarting or refusing connections)",
    "connection lost": "lost its connection in the middle of a transaction",
    "conflict": "met a conflicting transaction of another process",
}


def unavailable(label: str, reason: str, err: BaseException | None = None) -> StoreUnavailable:
    failure = StoreUnavailable(f"the database {label} {UNAVAILABLE[reason]}", reason)
    failure.__cause__ = err
    return failure


@dataclass(eq=False)
class Job:
    """One transaction (or, for ``kind == "raw"``, a function of the bare connection) to run."""

    kind: str  # "write", "read" or "raw"
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    deadline: float  # time.monotonic() after which a transient failure is given up
    queued: float = field(default_factory=time.monotonic)
    result: Any = None
    error: BaseException | None = None


class Stats:
    """Figures for benches and logs: how long jobs wait for their thread, group sizes, retries."""

    KEEP = 20_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self._lock:
            self.write_wait: collections.deque[float] = collections.deque(maxlen=self.KEEP)
            self.read_wait: collections.deque[float] = collections.deque(maxlen=self.KEEP)
            self.groups: collections.deque[int] = collections.deque(maxlen=self.KEEP)
            self.writer_busy = 0.0
            self.retries = 0
            self.unavailable = 0
            self.since = time.monotonic()

    def waited(self, kind: str, seconds: float) -> None:
        with self._lock:
            (self.write_wait if kind == "write" else self.read_wait).append(seconds)

    def group(self, size: int, busy: float) -> None:
        with self._lock:
            self.groups.append(size)
            self.writer_busy += busy

    def snapshot(self) -> dict[str, Any]:
        """Waits in milliseconds (p50/p99/max), transactions, writes per transaction, busy share."""
        with self._lock:
            elapsed = max(1e-9, time.monotonic() - self.since)
            out: dict[str, Any] = {}
            for name, values in (("write wait", self.write_wait), ("read wait", self.read_wait)):
                ordered = sorted(values)
                if ordered:
                    p50, p99 = (ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.99))
                    out[name] = f"p50 {1000 * p50:.2f} p99 {1000 * p99:.2f} max {1000 * ordered[-1]:.1f} ms"
            groups = list(self.groups)
            out["commits"] = len(groups)
            out["writes per commit"] = f"{sum(groups) / len(groups):.2f}" if groups else "-"
            out["writer busy"] = f"{100 * self.writer_busy / elapsed:.1f}%"
            out["retries"] = self.retries
            out["given up"] = self.unavailable
            return out


def _settle(done: list[Job]) -> None:
    for job in done:
        if job.future.done():
            continue  # the caller was cancelled; the outcome is in the database (or not) all the same
        if job.error is not None:
            job.future.set_exception(job.error)
        else:
            job.future.set_result(job.result)


class Worker(threading.Thread, abc.ABC):
    """One connection and the thread that runs its jobs (from ``jobs``; ``None`` there ends it).

    A backend says how a group of writes commits (``_commit_group``), how a read runs
    (``_run_read``), which failures are transient (``_transient``: a reason from ``UNAVAILABLE``,
    or None for a failure that retrying cannot mend) and how the connection is put right after a
    failure (``_reset``).
    """

    def __init__(
        self,
        name: str,
        *,
        loop: asyncio.AbstractEventLoop,
        stats: Stats,
        label: str,
        jobs: queue.SimpleQueue[Job | None] | None = None,
    ) -> None:
        super().__init__(name=name, daemon=True)
        self.loop = loop
        self.stats = stats
        self.label = label
        self.jobs: queue.SimpleQueue[Job | None] = jobs if jobs is not None else queue.SimpleQueue()
        self._held: Job | None = None
        self._failing: str | None = None  # the reason of the outage being retried, for one log line

    # ----- what a backend provides -------------------------------------------------------------------
    @abc.abstractmethod
    def _commit_group(self, live: list[Job]) -> None:
        """Run each job's function in its own savepoint of one transaction, then commit; a job's
        own failure goes to ``job.error``, a failure of the whole group is raised."""

    @abc.abstractmethod
    def _run_read(self, job: Job) -> None:
        """Run the job's function in a read transaction; sets ``job.result`` or raises."""

    @abc.abstractmethod
    def _run_raw(self, job: Job) -> Any:
        """Run the job's function on the bare connection and return its result."""

    @abc.abstractmethod
    def _transient(self, err: BaseException) -> str | None:
        """Why ``err`` is worth retrying (a key of ``UNAVAILABLE``), or None."""

    @abc.abstractmethod
    def _reset(self) -> None:
        """Leave no transaction open after a failure (or drop a connection that broke)."""

    @abc.abstractmethod
    def _is_database_error(self, err: BaseException) -> bool:
        """Whether ``err`` came from the database driver (it then reaches callers as ``StoreError``;
        anything else a transaction function raised reaches them as it is)."""

    @abc.abstractmethod
    def _failed(self, err: BaseException) -> StoreError:
        """The error a caller gets for a failure that retrying cannot mend."""

    # ----- the thread -------------------------------------------------------------------------------
    def run(self) -> None:
        while True:
            job = self._held if self._held is not None else self.jobs.get()
            self._held = None
            if job is None:
                return
            if job.kind == "write":
                group = [job]
                while len(group) < MAX_GROUP:
                    try:
                        extra = self.jobs.get_nowait()
                    except queue.Empty:
                        break
                    if extra is None or extra.kind != "write":
                        self._held = extra  # reads and raw jobs run after this group commits
                        if extra is None:
                            self.jobs.put(None)
                        break
                    group.append(extra)
                self._write(group)
            elif job.kind == "read":
                self._read(job)
            else:
                self._raw(job)

    def _deliver(self, done: list[Job]) -> None:
        with contextlib.suppress(RuntimeError):  # a closed event loop: nobody is waiting any more
            self.loop.call_soon_threadsafe(_settle, done)

    def _write(self, group: list[Job]) -> None:
        started = time.monotonic()
        live = [job for job in group if not job.future.cancelled()]
        for job in live:
            self.stats.waited("write", started - job.queued)
        attempt = 0
        while live:
            try:
                self._commit_group(live)
                self._recovered()
                break
            except Exception as err:
                reason = self._transient(err)  # before the reset, which may drop a broken connection
                self._reset()
                if reason is None:
                    failure = self._failed(err)
                    for job in live:
                        job.error = failure
                    break
                live = self._back_off(live, reason, err, attempt)
                attempt += 1
        self.stats.group(len(group), time.monotonic() - started)
        self._deliver(group)

    def _read(self, job: Job) -> None:
        started = time.monotonic()
        self.stats.waited("read", started - job.queued)
        attempt = 0
        live = [job]
        while live:
            job.result, job.error = None, None
            try:
                self._run_read(job)
                self._recovered()
                break
            except Exception as err:
                reason = self._transient(err)  # before the reset, which may drop a broken connection
                self._reset()
                if reason is None:
                    job.error = self._failed(err) if self._is_database_error(err) else err
                    break
                live = self._back_off(live, reason, err, attempt)
                attempt += 1
        self._deliver([job])

    def _raw(self, job: Job) -> None:
        try:
            job.result = self._run_raw(job)
        except BaseException as err:
            job.error = err
        self._deliver([job])

    def _back_off(self, live: list[Job], reason: str, err: BaseException, attempt: int) -> list[Job]:
        """Fail the jobs whose deadline comes before the next try, sleep, and return the rest."""
        if self._failing is None:
            log.warning("the database %s %s (%s): retrying", self.label, UNAVAILABLE[reason], err)
        self._failing = reason
        wait = min(BACKOFF_MAX, BACKOFF_FIRST * 2**attempt)
        now = time.monotonic()
        keep = []
        for job in live:
            if job.deadline <= now + wait or job.future.cancelled():
                job.error = unavailable(self.label, reason, err)
                self.stats.unavailable += 1
            else:
                keep.append(job)
        if keep:
            self.stats.retries += 1
            time.sleep(wait)
        return keep

    def _recovered(self) -> None:
        if self._failing is not None:
            log.warning("the database %s answers again", self.label)
            self._failing = None
