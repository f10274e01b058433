"""The SQLite file: checks before opening, PRAGMAs, migrations, and transactions on the store's threads.

A transaction is a plain function of a ``Tx``: ``await db.read(fn, *args)`` runs ``fn(tx, *args)``
in a read transaction on a reader thread, ``await db.write(fn, *args)`` in a write transaction on
the writer thread (see ``bot.store.worker``: writes queued together commit together, each in its
own savepoint). The function runs in one go on that thread, so it cannot await anything.

Rule for everything built on ``Database``: code that runs inside a transaction takes a ``tx``
argument and uses only it; it never calls ``db.read()`` or ``db.write()`` itself (that would wait
for its own thread for ever; ``Database`` refuses it with a ``RuntimeError`` instead). A write
commits everything its function did together or nothing: an exception raised by the function
rolls back its changes alone and reaches the caller. A caller cancelled while its write runs does
not stop it: the change commits whole (or not at all), never in part.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, TypeVar

from bot.files import prepare_database_file
from bot.store.errors import StoreError
from bot.store.migrations import Migration, load_migrations
from bot.store.worker import Job, Stats, Worker, transient_reason

APPLICATION = "tricknight"
SQLITE_MAGIC = b"SQLite format 3\x00"
READERS = 2  # reader threads (each its own connection) beside the writer
WRITE_DEADLINE = 2.0  # seconds a write may keep retrying a locked/full/read-only database
READ_DEADLINE = 2.0
STATEMENT_CACHE = 256  # prepared statements kept per connection
STARTUP_BUSY_MS = 2000  # start-up may wait a little for another program's lock
WRITER_BUSY_MS = 100  # then the writer retries with backoff itself (bot.store.worker)

Params = Sequence[Any] | Mapping[str, Any]

# How long a write may keep retrying a locked, full or read-only database, for the code running
# now (a ContextVar, so each task can have its own: a click less than Discord's 3 s, a computer
# turn less, as it is simply tried again later). ``with write_patience(seconds):`` sets it.
_patience: ContextVar[float] = ContextVar("store_write_patience", default=WRITE_DEADLINE)


@contextlib.contextmanager
def write_patience(seconds: float) -> Iterator[None]:
    """Writes inside this block give up after ``seconds`` of a locked, full or read-only database."""
    token = _patience.set(seconds)
    try:
        yield
    finally:
        _patience.reset(token)


T = TypeVar("T")


class Tx:
    """The statements of one transaction, run on the store's thread.

    Valid only while its transaction function runs: afterwards every call raises ``StoreError``.
    """

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn: sqlite3.Connection | None = conn

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("this transaction is over (a tx was kept past its function)")
        return self._conn

    def end(self) -> None:
        self._conn = None

    def all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return self._connection().execute(sql, params).fetchall()

    def one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._connection().execute(sql, params).fetchone()
        return row

    def value(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row of a query that always returns a row."""
        row = self.one(sql, params)
        if row is None:
            raise StoreError(f"the database returned nothing for {sql!r} (is it damaged?)")
        return row[0]

    def run(self, sql: str, params: Params = ()) -> int | None:
        """Execute one statement; returns the new row's id for an INSERT."""
        return self._connection().execute(sql, params).lastrowid

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._connection().executemany(sql, rows)


MIN_FREE_BYTES = 1 << 20  # below this much free disk space the database cannot safely grow


def check_file(given: str | Path) -> Path:
    """Before SQLite sees the file: make its folder, refuse anything that is not SQLite, and say so
    plainly when the file or its folder cannot be written or the disk is full."""
    path = Path(given).expanduser().absolute()
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a database file")
    try:
        prepare_database_file(path)  # folder 0700 and file 0600 when new (bot/files.py)
        if path.exists() and path.stat().st_size > 0:
            with path.open("rb") as handle:
                header = handle.read(len(SQLITE_MAGIC))
        else:
            header = None  # missing or empty: SQLite makes a new database there
        free = shutil.disk_usage(path.parent).free
    except OSError as err:
        raise StoreError(f"cannot use {path} as the database: {err.strerror or err}") from None
    if header is not None and header != SQLITE_MAGIC:
        raise StoreError(
            f"{path} is not a Trick Night database (it is not an SQLite file at all). "
            "It was left untouched: move it away or set TRICKNIGHT_DATABASE to another path."
        )
    if path.exists() and not os.access(path, os.W_OK):
        raise StoreError(startup_message(str(path), "read-only"))
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise StoreError(
            f"{path.parent} (the database's folder) is read-only for this user: SQLite keeps its "
            f"-wal and -shm files beside {path.name}. Fix the folder's permissions, or set "
            "TRICKNIGHT_DATABASE to another path."
        )
    if free < MIN_FREE_BYTES:
        raise StoreError(startup_message(str(path), "full"))
    return path


def startup_message(label: str, reason: str | None, err: BaseException | None = None) -> str:
    """What to tell the person starting the bot about a database that cannot be used."""
    if reason == "locked":
        return (
            f"{label} is locked by another program (another Trick Night, or a tool that has it "
            "open). It was left untouched: close that program, then start again."
        )
    if reason == "read-only":
        return (
            f"{label} is read-only for this user: Trick Night must write the file and its folder "
            "(for the -wal and -shm files). Fix the permissions, or set TRICKNIGHT_DATABASE to "
            "another path. The database was left untouched."
        )
    if reason == "full":
        return (
            f"the disk holding {label} is full: free some space, then start again. The database "
            "was left untouched."
        )
    if reason in ("disk error", "cannot open"):
        return f"{label} could not be read or written ({err}): check the disk and the file's folder."
    return (
        f"{label} is not a Trick Night database or is damaged ({err}). It was left in place: "
        "restore a backup, move it away, or set TRICKNIGHT_DATABASE to another path."
    )


class Database:
    """SQLite through one writer thread and a few reader threads. ``await Database.open(path)``.

    ``await db.read(fn, *args)`` and ``await db.write(fn, *args)`` run ``fn(tx, *args)`` as one
    transaction and return its result (see the module docstring for the rule they follow).
    ``stats`` holds the waits and group sizes for benches.
    """

    def __init__(self, label: str) -> None:
        self.path = label
        self.schema_version = 0
        self.stats = Stats()
        self._writer: Worker | None = None
        self._readers: list[Worker] = []
        self._read_jobs: queue.SimpleQueue[Job | None] | None = None
        self._idents: set[int] = set()
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations_dir: Traversable | None = None,
        integrity_check: bool = True,
        readers: int = READERS,
    ) -> Database:
        """Open (or create) the database at ``path`` and bring its schema up to date.

        ``":memory:"`` gives a private in-memory database (for tests; its reads go through the
        writer, as other connections cannot see it). Raises ``StoreError`` if the file is not a
        Trick Night database, is damaged, locked by another program, read-only, on a full disk,
        or was written by a newer Trick Night. ``integrity_check`` runs SQLite's quick_check first
        (about a second per million results), so damage anywhere in the file stops start-up
        instead of surfacing mid-game.
        """
        migrations = await asyncio.to_thread(load_migrations, migrations_dir)
        memory = str(path) == ":memory:"
        label = ":memory:" if memory else str(await asyncio.to_thread(check_file, path))
        db = cls(label)
        conn = await asyncio.to_thread(db._open_writer, migrations, integrity_check)
        loop = asyncio.get_running_loop()
        common: dict[str, Any] = {"loop": loop, "stats": db.stats, "label": label, "make_tx": Tx}
        db._writer = Worker("tricknight-store-writer", conn, **common)
        if not memory and readers > 0:
            try:
                conns = await asyncio.to_thread(lambda: [db._open_reader() for _ in range(readers)])
            except BaseException:
                conn.close()
                raise
            db._read_jobs = queue.SimpleQueue()
            db._readers = [
                Worker(f"tricknight-store-reader-{n}", c, jobs=db._read_jobs, **common)
                for n, c in enumerate(conns)
            ]
        for worker in db._workers():
            worker.start()
            assert worker.ident is not None
            db._idents.add(worker.ident)
        return db

    def _workers(self) -> list[Worker]:
        return ([self._writer] if self._writer else []) + self._readers

    # ----- opening (on a worker thread, before the workers start) -----------------------------------------
    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, cached_statements=STATEMENT_CACHE
            )
        except sqlite3.Error as err:
            raise StoreError(startup_message(self.path, transient_reason(err), err)) from None
        conn.row_factory = sqlite3.Row
        return conn

    def _open_writer(self, migrations: list[Migration], integrity_check: bool) -> sqlite3.Connection:
        conn = self._connect()
        try:
            conn.execute(f"PRAGMA busy_timeout = {STARTUP_BUSY_MS:d}")
            self._prepare(conn, migrations, integrity_check=integrity_check)
            conn.execute(f"PRAGMA busy_timeout = {WRITER_BUSY_MS:d}")
        except BaseException:
            conn.close()
            raise
        return conn

    def _open_reader(self) -> sqlite3.Connection:
        conn = self._connect()
        conn.execute(f"PRAGMA busy_timeout = {STARTUP_BUSY_MS:d}")
        conn.execute("PRAGMA query_only = ON")
        return conn

    def _prepare(
        self, conn: sqlite3.Connection, migrations: list[Migration], *, integrity_check: bool
    ) -> None:
        latest = migrations[-1].version
        tx = Tx(conn)  # nobody else has the database yet: no transaction needed to look
        try:
            # Look before writing anything: WAL mode and migrations both change the file.
            version = int(tx.value("PRAGMA user_version"))
            tables = {row[0] for row in tx.all("SELECT name FROM sqlite_master WHERE type = 'table'")}
            tables = {name for name in tables if not name.startswith("sqlite_")}
            if tables or version:
                self._check_owner(tx, tables, version)
            if version > latest:
                raise StoreError(
                    f"{self.path} was written by a newer Trick Night (schema {version}, this version "
                    f"knows {latest}). Upgrade Trick Night, or set TRICKNIGHT_DATABASE to another file; "
                    "the database was left untouched."
                )
            if integrity_check and tables:
                problems = [row[0] for row in tx.all("PRAGMA quick_check(3)")]
                if problems != ["ok"]:
                    raise StoreError(
                        f"{self.path} is a damaged Trick Night database ({'; '.join(problems)}). It was "
                        "left in place: restore a backup, or move it away to start a new one."
                    )
            mode = tx.value("PRAGMA journal_mode = WAL")
            if mode not in ("wal", "memory"):
                raise StoreError(f"{self.path}: SQLite refused WAL mode (journal mode is {mode})")
            # NORMAL is safe with WAL: a killed process loses nothing committed (only power loss can
            # drop the newest transactions), and commits do not wait for an fsync.
            tx.run("PRAGMA synchronous = NORMAL")
            tx.run("PRAGMA foreign_keys = ON")
            for migration in migrations[version:]:
                self._migrate(conn, migration)
                version = migration.version
        except sqlite3.Error as err:
            raise StoreError(startup_message(self.path, transient_reason(err), err)) from None
        finally:
            tx.end()
        self.schema_version = version

    def _check_owner(self, tx: Tx, tables: set[str], version: int) -> None:
        """Refuse a database that some other program made, or one of ours without a version."""
        owner = None
        if "tricknight_meta" in tables:
            row = tx.one("SELECT value FROM tricknight_meta WHERE key = 'application'")
            owner = row[0] if row else None
        if owner != APPLICATION:
            some = ", ".join(sorted(tables)[:5]) or "no tables"
            raise StoreError(
                f"{self.path} is not a Trick Night database (it is an SQLite database of "
                f"something else: {some}; schema {version}). It was left untouched: move it "
                "away or set TRICKNIGHT_DATABASE to another path."
            )
        if version == 0:
            raise StoreError(f"{self.path} is a damaged Trick Night database (no schema version)")

    def _migrate(self, conn: sqlite3.Connection, migration: Migration) -> None:
        # The schema change and the new user_version commit together, so a crash mid-upgrade
        # leaves the previous version, which the next start upgrades again.
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sql}\n;\nPRAGMA user_version = {migration.version:d};\nCOMMIT;"
        )
        try:
            conn.executescript(script)
        except sqlite3.Error as err:
            if conn.in_transaction:
                conn.rollback()
            reason = transient_reason(err)
            if reason is not None:
                raise StoreError(startup_message(self.path, reason, err)) from None
            raise StoreError(
                f"could not upgrade {self.path} to schema {migration.version} ({migration.name}): {err}. "
                f"The database stays at schema {migration.version - 1}."
            ) from None

    # ----- transactions ------------------------------------------------------------------------------------
    def read(self, fn: Callable[..., T], *args: Any) -> Coroutine[Any, Any, T]:
        """Run ``fn(tx, *args)`` in a read transaction (a consistent snapshot of committed data)."""
        self._refuse_nesting()
        return self._submit("read", fn, args, READ_DEADLINE, self._read_jobs)

    def write(
        self, fn: Callable[..., T], *args: Any, deadline: float | None = None
    ) -> Coroutine[Any, Any, T]:
        """Run ``fn(tx, *args)`` in a write transaction; returns once it is committed (durable).

        A locked, full or read-only database is retried for up to ``deadline`` seconds (default:
        the ``write_patience`` in force), then ``StoreUnavailable`` is raised and nothing of the
        change is saved.
        """
        self._refuse_nesting()
        return self._submit("write", fn, args, _patience.get() if deadline is None else deadline, None)

    def on_writer(self, fn: Callable[..., T], *args: Any) -> Coroutine[Any, Any, T]:
        """Run ``fn(connection, *args)`` on the writer's thread outside any transaction, after the
        writes queued before it (connection settings, maintenance, fault tests)."""
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
        if self._closed or self._writer is None:
            raise StoreError("the store is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        (jobs or self._writer.jobs).put(Job(kind, fn, args, future, time.monotonic() + deadline))
        return await future

    async def close(self) -> None:
        """Finish the work queued so far, then close the database (safe to call twice)."""
        if self._closed or self._writer is None:
            return
        with contextlib.suppress(sqlite3.Error):
            # Lets SQLite refresh its planner statistics when they are stale; cheap.
            await self.on_writer(lambda conn: conn.execute("PRAGMA optimize"))
        self._closed = True
        self._writer.jobs.put(None)
        for _ in self._readers:
            assert self._read_jobs is not None
            self._read_jobs.put(None)
        workers = self._workers()

        def finish() -> None:
            for worker in workers:
                worker.join()
                worker.conn.close()

        await asyncio.to_thread(finish)
