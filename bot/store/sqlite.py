"""The SQLite backend: one file, checks before opening, PRAGMAs, migrations, and its threads.

The embedded default: WAL mode, so readers never wait for the one writer; a writer thread commits
writes queued together in one transaction (group commit) and reader threads read beside it
(``bot.store.worker``). The schema is built by the numbered SQL files in ``data/migrations/``;
``PRAGMA user_version`` records how many have been applied, so an older database upgrades in place.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import shutil
import sqlite3
from collections.abc import Iterable, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from bot.files import prepare_database_file
from bot.store.database import APPLICATION, Database, Params, Row, Tx
from bot.store.errors import StoreError
from bot.store.migrations import Migration, load_migrations
from bot.store.worker import Job, Worker

log = logging.getLogger("bot.store")

SQLITE_MAGIC = b"SQLite format 3\x00"
READERS = 2  # reader threads (each its own connection) beside the writer
STATEMENT_CACHE = 256  # prepared statements kept per connection
STARTUP_BUSY_MS = 2000  # start-up may wait a little for another program's lock
WRITER_BUSY_MS = 100  # then the writer retries with backoff itself (bot.store.worker)

# SQLite's primary result codes that mean "not now" rather than "never".
_TRANSIENT = {5: "locked", 6: "locked", 8: "read-only", 10: "disk error", 13: "full", 14: "cannot open"}


def transient_reason(err: BaseException) -> str | None:
    """Why a SQLite error is worth retrying (locked, read-only, full, disk error), or None."""
    code = getattr(err, "sqlite_errorcode", None)
    if not isinstance(err, sqlite3.Error) or code is None:
        return None
    return _TRANSIENT.get(code & 0xFF)


class SQLiteTx(Tx):
    """A transaction on one SQLite connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        super().__init__()
        self._conn = conn

    def _all(self, sql: str, params: Params) -> list[Row]:
        rows: list[Row] = self._conn.execute(sql, params).fetchall()
        return rows

    def _one(self, sql: str, params: Params) -> Row | None:
        row: Row | None = self._conn.execute(sql, params).fetchone()
        return row

    def _run(self, sql: str, params: Params) -> None:
        self._conn.execute(sql, params)

    def _change(self, sql: str, params: Params) -> int:
        return self._conn.execute(sql, params).rowcount

    def _insert(self, sql: str, params: Params) -> int:
        rowid = self._conn.execute(sql, params).lastrowid
        if rowid is None:
            raise StoreError(f"{sql!r} inserted no row")
        return rowid

    def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._conn.executemany(sql, rows)


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


class SQLiteWorker(Worker):
    """A thread with its own SQLite connection."""

    def __init__(self, name: str, conn: sqlite3.Connection, **common: Any) -> None:
        super().__init__(name, **common)
        self.conn = conn

    def _commit_group(self, live: list[Job]) -> None:
        conn = self.conn
        conn.execute("BEGIN IMMEDIATE")
        for job in live:
            job.result, job.error = None, None
            conn.execute("SAVEPOINT job")
            tx = SQLiteTx(conn)
            try:
                job.result = job.fn(tx, *job.args)
                conn.execute("RELEASE job")
            except sqlite3.Error as err:
                if transient_reason(err) is not None or not conn.in_transaction:
                    raise  # the whole group is retried (SQLite may have rolled it all back)
                conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
                job.error = self._failed(err)
            except Exception as err:
                conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
                job.error = err
            finally:
                tx.end()
        conn.execute("COMMIT")

    def _run_read(self, job: Job) -> None:
        tx = SQLiteTx(self.conn)
        try:
            self.conn.execute("BEGIN")
            job.result = job.fn(tx, *job.args)
            self.conn.execute("COMMIT")
        finally:
            tx.end()

    def _run_raw(self, job: Job) -> Any:
        return job.fn(self.conn, *job.args)

    def _transient(self, err: BaseException) -> str | None:
        return transient_reason(err)

    def _is_database_error(self, err: BaseException) -> bool:
        return isinstance(err, sqlite3.Error)

    def _reset(self) -> None:
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                log.exception("the database %s could not roll back", self.label)

    def _failed(self, err: BaseException) -> StoreError:
        # Callers catch one exception type; the SQLite error stays attached as __cause__.
        failure = StoreError(f"the database {self.label} failed: {err} (nothing of this change was saved)")
        failure.__cause__ = err
        return failure


class SQLiteDatabase(Database):
    """SQLite through one writer thread and a few reader threads. ``await SQLiteDatabase.open(path)``."""

    backend = "sqlite"

    def __init__(self, label: str) -> None:
        super().__init__(label)
        self._conns: list[sqlite3.Connection] = []

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrations_dir: Traversable | None = None,
        integrity_check: bool = True,
        readers: int = READERS,
    ) -> SQLiteDatabase:
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
        db._conns.append(conn)
        common: dict[str, Any] = {"loop": asyncio.get_running_loop(), "stats": db.stats, "label": label}
        threads = [SQLiteWorker("tricknight-store-writer", conn, jobs=db._write_jobs, **common)]
        if not memory and readers > 0:
            try:
                conns = await asyncio.to_thread(lambda: [db._open_reader() for _ in range(readers)])
            except BaseException:
                conn.close()
                raise
            db._conns += conns
            db._read_jobs = queue.SimpleQueue()
            threads += [
                SQLiteWorker(f"tricknight-store-reader-{n}", c, jobs=db._read_jobs, **common)
                for n, c in enumerate(conns)
            ]
        db._start(list(threads))
        return db

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
        tx = SQLiteTx(conn)  # nobody else has the database yet: no transaction needed to look
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

    async def _before_close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            # Lets SQLite refresh its planner statistics when they are stale; cheap.
            await self.on_writer(lambda conn: conn.execute("PRAGMA optimize"))

    def _disconnect(self) -> None:
        for conn in self._conns:
            conn.close()
