"""The SQLite file: checks before opening, PRAGMAs, migrations, one lock, and transactions.

Rule for everything built on ``Database``: code that runs inside a transaction takes a ``tx``
argument and uses only it; it never enters ``db.read()`` or ``db.write()`` again. The lock is an
``asyncio.Lock``, which is not reentrant, so a nested ``read()``/``write()`` would wait for itself
for ever; ``Database`` refuses one with a ``RuntimeError`` instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite

from bot.files import prepare_database_file
from bot.store.errors import StoreError
from bot.store.migrations import Migration, load_migrations

APPLICATION = "tricknight"
SQLITE_MAGIC = b"SQLite format 3\x00"

Params = Sequence[Any] | Mapping[str, Any]


class Tx:
    """The statements of one transaction (or of start-up, before anyone else holds the database).

    Valid only inside the ``async with`` that made it: afterwards every call raises ``StoreError``.
    """

    __slots__ = ("_conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn: aiosqlite.Connection | None = conn

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StoreError("this transaction is over (a tx was kept past its async with)")
        return self._conn

    def end(self) -> None:
        self._conn = None

    async def all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await self._connection().execute_fetchall(sql, params))

    async def one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self.all(sql, params)
        return rows[0] if rows else None

    async def value(self, sql: str, params: Params = ()) -> Any:
        """The first column of the first row of a query that always returns a row."""
        row = await self.one(sql, params)
        if row is None:
            raise StoreError(f"the database returned nothing for {sql!r} (is it damaged?)")
        return row[0]

    async def run(self, sql: str, params: Params = ()) -> int | None:
        """Execute one statement; returns the new row's id for an INSERT."""
        async with self._connection().execute(sql, params) as cursor:
            return cursor.lastrowid

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._connection().executemany(sql, rows)


def check_file(given: str | Path) -> Path:
    """Before SQLite sees the file: make its folder, and refuse anything that is not SQLite."""
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
    except OSError as err:
        raise StoreError(f"cannot use {path} as the database: {err.strerror or err}") from None
    if header is not None and header != SQLITE_MAGIC:
        raise StoreError(
            f"{path} is not a Trick Night database (it is not an SQLite file at all). "
            "It was left untouched: move it away or set TRICKNIGHT_DATABASE to another path."
        )
    return path


class Database:
    """One SQLite connection, used under one lock. Open with ``await Database.open(path)``.

    ``async with db.read() as tx`` and ``async with db.write() as tx`` run statements through a
    ``Tx``; a write commits everything inside it together or nothing (also when cancelled). Code
    inside a transaction takes the ``tx`` and never re-enters ``read()``/``write()``: the
    ``asyncio.Lock`` is not reentrant (see the module docstring).
    """

    def __init__(self, conn: aiosqlite.Connection, label: str) -> None:
        self._conn: aiosqlite.Connection | None = conn
        self._lock = asyncio.Lock()
        self._holder: asyncio.Task[Any] | None = None
        self.path = label
        self.schema_version = 0

    @classmethod
    async def open(
        cls, path: str | Path, *, migrations_dir: Traversable | None = None, integrity_check: bool = True
    ) -> Database:
        """Open (or create) the database at ``path`` and bring its schema up to date.

        ``":memory:"`` gives a private in-memory database (for tests). Raises ``StoreError`` if the
        file is not a Trick Night database, is damaged, or was written by a newer Trick Night.
        ``integrity_check`` runs SQLite's quick_check first (about a second per million results),
        so damage anywhere in the file stops start-up instead of surfacing mid-game.
        """
        migrations = await asyncio.to_thread(load_migrations, migrations_dir)
        if str(path) == ":memory:":
            target = label = ":memory:"
        else:
            target = label = str(await asyncio.to_thread(check_file, path))
        try:
            conn = await aiosqlite.connect(target, isolation_level=None)
        except sqlite3.Error as err:
            raise StoreError(f"cannot open the database {label}: {err}") from None
        conn.row_factory = sqlite3.Row
        db = cls(conn, label)
        try:
            await db._prepare(conn, migrations, integrity_check=integrity_check)
        except BaseException:
            await conn.close()
            raise
        return db

    async def _prepare(
        self, conn: aiosqlite.Connection, migrations: list[Migration], *, integrity_check: bool
    ) -> None:
        latest = migrations[-1].version
        tx = Tx(conn)  # nobody else has the database yet: no lock, no transaction needed to look
        try:
            # Look before writing anything: WAL mode and migrations both change the file.
            version = int(await tx.value("PRAGMA user_version"))
            tables = {row[0] for row in await tx.all("SELECT name FROM sqlite_master WHERE type = 'table'")}
            tables = {name for name in tables if not name.startswith("sqlite_")}
            if tables or version:
                await self._check_owner(tx, tables, version)
            if version > latest:
                raise StoreError(
                    f"{self.path} was written by a newer Trick Night (schema {version}, this version "
                    f"knows {latest}). Upgrade Trick Night, or set TRICKNIGHT_DATABASE to another file; "
                    "the database was left untouched."
                )
            if integrity_check and tables:
                problems = [row[0] for row in await tx.all("PRAGMA quick_check(3)")]
                if problems != ["ok"]:
                    raise StoreError(
                        f"{self.path} is a damaged Trick Night database ({'; '.join(problems)}). It was "
                        "left in place: restore a backup, or move it away to start a new one."
                    )
            mode = await tx.value("PRAGMA journal_mode = WAL")
            if mode not in ("wal", "memory"):
                raise StoreError(f"{self.path}: SQLite refused WAL mode (journal mode is {mode})")
            # NORMAL is safe with WAL: a killed process loses nothing committed (only power loss can
            # drop the newest transactions), and commits do not wait for an fsync.
            await tx.run("PRAGMA synchronous = NORMAL")
            await tx.run("PRAGMA foreign_keys = ON")
            await tx.run("PRAGMA busy_timeout = 5000")
            for migration in migrations[version:]:
                await self._migrate(conn, migration)
                version = migration.version
        except sqlite3.DatabaseError as err:
            raise StoreError(
                f"{self.path} is not a Trick Night database or is damaged ({err}). It was left in "
                "place: restore a backup, move it away, or set TRICKNIGHT_DATABASE to another path."
            ) from None
        finally:
            tx.end()
        self.schema_version = version

    async def _check_owner(self, tx: Tx, tables: set[str], version: int) -> None:
        """Refuse a database that some other program made, or one of ours without a version."""
        owner = None
        if "tricknight_meta" in tables:
            row = await tx.one("SELECT value FROM tricknight_meta WHERE key = 'application'")
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

    async def _migrate(self, conn: aiosqlite.Connection, migration: Migration) -> None:
        # The schema change and the new user_version commit together, so a crash mid-upgrade
        # leaves the previous version, which the next start upgrades again.
        script = (
            f"BEGIN IMMEDIATE;\n{migration.sql}\n;\nPRAGMA user_version = {migration.version:d};\nCOMMIT;"
        )
        try:
            await conn.executescript(script)
        except sqlite3.Error as err:
            if conn.in_transaction:
                await conn.rollback()
            raise StoreError(
                f"could not upgrade {self.path} to schema {migration.version} ({migration.name}): {err}. "
                f"The database stays at schema {migration.version - 1}."
            ) from None

    async def close(self) -> None:
        """Close the database (safe to call twice)."""
        async with self._lock:
            if self._conn is None:
                return
            with contextlib.suppress(sqlite3.Error):
                # Lets SQLite refresh its planner statistics when they are stale; cheap.
                await self._conn.execute("PRAGMA optimize")
            await self._conn.close()
            self._conn = None

    @contextlib.asynccontextmanager
    async def _locked(self) -> AsyncIterator[aiosqlite.Connection]:
        task = asyncio.current_task()
        if task is not None and task is self._holder:
            raise RuntimeError("read()/write() entered inside a transaction: pass its tx down instead")
        async with self._lock:
            if self._conn is None:
                raise StoreError("the store is closed")
            self._holder = task
            try:
                yield self._conn
            finally:
                self._holder = None

    @contextlib.asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """Statements that only read. They take the lock too, so they never see another coroutine's
        half-done transaction."""
        async with self._locked() as conn:
            tx = Tx(conn)
            try:
                yield tx
            except sqlite3.Error as err:
                raise self._failure(err, "") from err
            finally:
                tx.end()

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        """One transaction: everything inside commits together or not at all."""
        async with self._locked() as conn:
            if conn.in_transaction:
                # Left open by a writer cancelled during its rollback; nothing of it was committed.
                await conn.rollback()
            tx = Tx(conn)
            try:
                await conn.execute("BEGIN IMMEDIATE")
                yield tx
                await conn.execute("COMMIT")
            except BaseException as err:
                if conn.in_transaction:
                    await conn.rollback()
                if isinstance(err, sqlite3.Error):
                    raise self._failure(err, " (nothing of this change was saved)") from err
                raise
            finally:
                tx.end()

    def _failure(self, err: sqlite3.Error, note: str) -> StoreError:
        # Callers catch one exception type; the SQLite error stays attached as __cause__.
        return StoreError(f"the database {self.path} failed: {err}{note}")
