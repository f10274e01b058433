"""What every store backend offers the repositories: transactions as plain functions of a ``Tx``.

A transaction is a plain function of a ``Tx``: ``await db.read(fn, *args)`` runs ``fn(tx, *args)``
in a read transaction on one of the store's threads, ``await db.write(fn, *args)`` in a write
transaction (writes queued together commit together, each in its own savepoint). The function runs
in one go on that thread, so it cannot await anything. The SQL the repositories write is one
dialect that SQLite and PostgreSQL both read (``?`` and ``:name`` placeholders; each backend's
``Tx`` turns them into its driver's), so no repository branches on the backend.

Rule for everything built on ``Database``: code that runs inside a transaction takes a ``tx``
argument and uses only it; it never calls ``db.read()`` or ``db.write()`` itself (that would wait
for its own thread for ever; ``Database`` refuses it with a ``RuntimeError`` instead). A write
commits everything its function did together or nothing: an exception raised by the function
rolls back its changes alone and reaches the caller. A caller cancelled while its write runs does
not stop it: the change commits whole (or not at all), never in part. A write returns once it is
committed (durable), never before.

The backends: ``bot.store.sqlite`` (one file; the embedded default) and ``bot.store.postgresql``
(a server shared by several processes).
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import queue
import threading
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

from bot.store.errors import StoreError
from bot.store.worker import Job, Stats

APPLICATION = "tricknight"
WRITE_DEADLINE = 2.0  # seconds a write may keep retrying a database that does not answer
READ_DEADLINE = 2.0

Params = Sequence[Any] | Mapping[str, Any]
T = TypeVar("T")

# How long a write may keep retrying a database that does not take writes, for the code running
# now (a ContextVar, so each task can have its own: a click less than Discord's 3 s, a computer
# turn less, as it is simply tried again later). ``with write_patience(seconds):`` sets it.
_patience: ContextVar[float] = ContextVar("store_write_patience", default=WRITE_DEADLINE)


@contextlib.contextmanager
def write_patience(seconds: float) -> Iterator[None]:
    """Writes inside this block give up after ``seconds`` of a database that does not answer."""
    token = _patience.set(seconds)
    try:
        yield
    finally:
        _patience.reset(token)


def redacted(url: str) -> str:
    """The URL without its password, in the user part or as a ``password=`` parameter (for logs,
    ``tricknight check`` and error messages)."""
    parts = urlsplit(url)
    query = "&".join(
        item for item in parts.query.split("&") if item and not item.lower().startswith("password=")
    )
    netloc = parts.netloc
    if parts.password is not None:
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        netloc = f"{parts.username}@{host}" if parts.username else host
        if parts.port is not None:
            netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


class Row(Protocol):
    """A result row: by position (``row[0]``) or by column name (``row["id"]``); ``keys()``."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def __len__(self) -> int: ...

    def keys(self) -> list[str]: ...


class Tx(abc.ABC):
    """The statements of one transaction, run on the store's thread.

    Valid only while its transaction function runs: afterwards every call raises ``StoreError``.
    The methods are the API (``db.write(Tx.run, sql, params)`` works for every backend); each
    backend implements the ``_``-prefixed ones.
    """

    __slots__ = ("_live",)

    def __init__(self) -> None:
        self._live = True

    def end(self) -> None:
        self._live = False

    def _check(self) -> None:
        if not self._live:
            raise StoreError("this transaction is over (a tx was kept past its function)")

    def all(self, sql: str, params: Params = ()) -> list[Row]:
        self._check()
        return self._all(sql, params)

    def one(self, sql: str, params: Params = ()) -> Row | None:
        self._check()
        return self._one(sql, params)

    def value(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row of a query that always returns a row."""
        row = self.one(sql, params)
        if row is None:
            raise StoreError(f"the database returned nothing for {sql!r} (is it damaged?)")
        return row[0]

    def run(self, sql: str, params: Params = ()) -> None:
        """Execute one statement."""
        self._check()
        self._run(sql, params)

    def change(self, sql: str, params: Params = ()) -> int:
        """Execute one INSERT, UPDATE or DELETE; returns how many rows it changed."""
        self._check()
        return self._change(sql, params)

    def insert(self, sql: str, params: Params = ()) -> int:
        """Execute one INSERT into a table with an ``id`` column; returns the new row's id."""
        self._check()
        return self._insert(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._check()
        self._executemany(sql, rows)

    @abc.abstractmethod
    def _all(self, sql: str, params: Params) -> list[Row]: ...

    @abc.abstractmethod
    def _one(self, sql: str, params: Params) -> Row | None: ...

    @abc.abstractmethod
    def _run(self, sql: str, params: Params) -> None: ...

    @abc.abstractmethod
    def _change(self, sql: str, params: Params) -> int: ...

    @abc.abstractmethod
    def _insert(self, sql: str, params: Params) -> int: ...

    @abc.abstractmethod
    def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


class Database(abc.ABC):
    """One database through a writer thread and reader threads (the backend's ``open`` makes them).

    ``await db.read(fn, *args)`` and ``await db.write(fn, *args)`` run ``fn(tx, *args)`` as one
    transaction and return its result (see the module docstring for the rule they follow).
    ``stats`` holds the waits and group sizes for benches.
    """

    backend: str = ""
    """``"sqlite"`` or ``"postgresql"``."""

    def __init__(self, label: str) -> None:
        self.path = label
        """Where the database is, fit to print: a file's path, or a server's URL without password."""
        self.schema_version = 0
        self.stats = Stats()
        self._write_jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._read_jobs: queue.SimpleQueue[Job | None] | None = None
        self._threads: list[threading.Thread] = []
        self._idents: set[int] = set()
        self._closed = False

    def _start(self, threads: list[threading.Thread]) -> None:
        self._threads = threads
        for thread in threads:
            thread.start()
            assert thread.ident is not None
            self._idents.add(thread.ident)

    def read(self, fn: Callable[..., T], *args: Any) -> Coroutine[Any, Any, T]:
        """Run ``fn(tx, *args)`` in a read transaction (a consistent snapshot of committed data)."""
        self._refuse_nesting()
        return self._submit("read", fn, args, READ_DEADLINE, self._read_jobs)

    def write(
        self, fn: Callable[..., T], *args: Any, deadline: float | None = None
    ) -> Coroutine[Any, Any, T]:
        """Run ``fn(tx, *args)`` in a write transaction; returns once it is committed (durable).

        A database that does not take writes (locked, full or read-only; a server that cannot be
        reached) is retried for up to ``deadline`` seconds (default: the ``write_patience`` in
        force), then ``StoreUnavailable`` is raised and nothing of the change is saved.
        """
        self._refuse_nesting()
        return self._submit("write", fn, args, _patience.get() if deadline is None else deadline, None)

    def on_writer(self, fn: Callable[..., T], *args: Any) -> Coroutine[Any, Any, T]:
        """Run ``fn(connection, *args)`` on the writer's thread outside any transaction, after the
        writes queued before it (connection settings, maintenance, fault tests). The connection is
        the backend driver's own."""
        self._refuse_nesting()
        return self._submit("raw", fn, args, 0.0, None)

    def _refuse_nesting(self) -> None:
        if threading.get_ident() in self._idents:
            raise RuntimeError("read()/write() entered inside a transaction: pass its tx down instead")

    async def _submit(
        self,
        kind: str,
        fn: Callable[..., T],
        args: tuple[Any, ...],
        deadline: float,
        jobs: queue.SimpleQueue[Job | None] | None,
    ) -> T:
        if self._closed or not self._threads:
            raise StoreError("the store is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        (jobs or self._write_jobs).put(Job(kind, fn, args, future, time.monotonic() + deadline))
        return await future

    async def close(self) -> None:
        """Finish the work queued so far, then close the database (safe to call twice)."""
        if self._closed or not self._threads:
            return
        await self._before_close()
        self._closed = True
        self._write_jobs.put(None)
        readers = len(self._threads) - 1
        for _ in range(readers):
            assert self._read_jobs is not None
            self._read_jobs.put(None)
        threads = self._threads

        def finish() -> None:
            for thread in threads:
                thread.join()
            self._disconnect()

        await asyncio.to_thread(finish)

    @abc.abstractmethod
    async def _before_close(self) -> None:
        """Maintenance while the threads still run (e.g. SQLite's ``PRAGMA optimize``)."""

    @abc.abstractmethod
    def _disconnect(self) -> None:
        """Close every connection (the threads have ended)."""

    def describe(self) -> str:
        """One line for logs and ``tricknight check``: backend, where, schema (never a password)."""
        return f"{self.backend} {self.path} (schema {self.schema_version})"
