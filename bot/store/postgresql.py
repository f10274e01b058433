"""The PostgreSQL backend: a server that several Trick Night processes share.

Selected by a ``postgresql://`` URL in ``TRICKNIGHT_DATABASE``. The store keeps the same design as
on SQLite (``bot.store.worker``): plain functions of a ``Tx`` run on the store's threads, one writer
thread that commits the writes queued together in one transaction (group commit), reader threads
beside it. So the driver is psycopg 3 in its synchronous form: each thread owns one connection,
which is what a pool would hand it, and reconnects by itself.

What a shared server adds, and how it is met:

- **Dialect.** Repositories write ``?`` and ``:name`` placeholders; ``PostgresTx`` turns them into
  psycopg's (``translate``). Rows answer by position and by name as ``sqlite3.Row`` does, and the
  ``numeric`` results of ``SUM``/``AVG`` come back as ``int`` or ``float``, as SQLite gives them.
- **Faults.** A dropped connection, a server restarting or unreachable, a conflict with another
  process: the group is rolled back and retried with back-off until its callers' deadline, with one
  log line when it starts and one when the database answers again.
- **A commit whose answer was lost.** Each group writes a unique key into ``store_commits`` in the
  same transaction; when the connection drops during COMMIT, the writer reconnects and looks for
  the key: found, the group committed and its callers get their results; not found, it is retried.
  Nothing is written twice, nothing acknowledged is lost.
- **Migrations** (``data/migrations/postgresql/``) run at start under an advisory lock, so two
  processes starting together migrate once; the schema version is a row of ``tricknight_meta``.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import queue
import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from importlib.resources.abc import Traversable
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg.adapt import Loader
from psycopg.pq import TransactionStatus

from bot.store.database import APPLICATION, Database, Params, Row, Tx, redacted
from bot.store.errors import StoreError, StoreUnavailable
from bot.store.migrations import Migration, load_migrations, migrations_dir
from bot.store.worker import BACKOFF_MAX, Job, Worker

log = logging.getLogger("bot.store")

READERS = 2  # reader threads (each its own connection) beside the writer
CONNECT_TIMEOUT = 5  # seconds for one connection attempt
MIGRATION_LOCK = 0x7472_6963_6B6E  # pg_advisory_lock key while migrating ("tricknight"-ish)
COMMIT_KEYS_KEPT = 24 * 3600.0  # seconds a group's commit key is kept for the lost-answer check
PRUNE_EVERY = 1000  # groups between two prunings of old commit keys
STARTUP_BACKOFF_MAX = 30.0  # seconds between attempts to reach the server at start


@functools.lru_cache(maxsize=2048)
def translate(sql: str) -> str:
    """The repositories' SQL (``?`` and ``:name`` placeholders) in psycopg's (``%s``, ``%(name)s``,
    and ``%%`` for a literal ``%``). Quoted text, quoted names and comments are left alone, and so
    is PostgreSQL's ``::type`` cast."""
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        char = sql[i]
        if char in "'\"":
            end = i + 1
            while end < n:
                if sql[end] == char:
                    if end + 1 < n and sql[end + 1] == char:  # a doubled quote inside the text
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i : end + 1].replace("%", "%%"))
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = n if end < 0 else end
            out.append(sql[i:end].replace("%", "%%"))
            i = end
        elif char == "?":
            out.append("%s")
            i += 1
        elif char == "%":
            out.append("%%")
            i += 1
        elif char == ":" and sql.startswith("::", i):
            out.append("::")
            i += 2
        elif char == ":" and i + 1 < n and (sql[i + 1].isalpha() or sql[i + 1] == "_"):
            end = i + 1
            while end < n and (sql[end].isalnum() or sql[end] == "_"):
                end += 1
            out.append(f"%({sql[i + 1 : end]})s")
            i = end
        else:
            out.append(char)
            i += 1
    return "".join(out)


class PostgresRow:
    """A row that answers by position and by column name, like ``sqlite3.Row``."""

    __slots__ = ("_index", "_names", "_values")

    def __init__(self, values: Sequence[Any], index: dict[str, int], names: list[str]) -> None:
        self._values = tuple(values)
        self._index = index
        self._names = names

    def __getitem__(self, key: int | str) -> Any:
        if isinstance(key, str):
            try:
                return self._values[self._index[key]]
            except KeyError:
                raise IndexError(f"no column named {key!r}") from None
        return self._values[key]

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PostgresRow):
            return self._values == other._values
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def keys(self) -> list[str]:
        return list(self._names)

    def __repr__(self) -> str:
        return f"PostgresRow({dict(zip(self._names, self._values, strict=True))!r})"


def _row_factory(cursor: Any) -> Any:
    names = [column.name for column in cursor.description or ()]
    index: dict[str, int] = {}
    for position, name in enumerate(names):
        index.setdefault(name, position)  # the first of two same-named columns, as SQLite

    def make(values: Sequence[Any]) -> PostgresRow:
        return PostgresRow(values, index, names)

    return make


class _NumberLoader(Loader):
    """``numeric`` (what ``SUM`` of a bigint and ``AVG`` give) as ``int`` or ``float``."""

    def load(self, data: Any) -> int | float:
        value = Decimal(bytes(data).decode())
        return int(value) if value == value.to_integral_value() else float(value)


class PostgresTx(Tx):
    """A transaction on one PostgreSQL connection."""

    __slots__ = ("_conn",)

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        super().__init__()
        self._conn = conn

    def _execute(self, sql: str, params: Params) -> psycopg.Cursor[Any]:
        if not params:
            return self._conn.execute(sql)
        return self._conn.execute(translate(sql), params)

    def _all(self, sql: str, params: Params) -> list[Row]:
        rows: list[Row] = self._execute(sql, params).fetchall()
        return rows

    def _one(self, sql: str, params: Params) -> Row | None:
        row: Row | None = self._execute(sql, params).fetchone()
        return row

    def _run(self, sql: str, params: Params) -> None:
        self._execute(sql, params)

    def _change(self, sql: str, params: Params) -> int:
        return self._execute(sql, params).rowcount

    def _insert(self, sql: str, params: Params) -> int:
        row = self._execute(f"{sql} RETURNING id", params).fetchone()
        if row is None:
            raise StoreError(f"{sql!r} inserted no row")
        return int(row[0])

    def _executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with self._conn.cursor() as cursor:
            cursor.executemany(translate(sql), list(rows))


def _transient_reason(err: BaseException, conn: psycopg.Connection[Any] | None) -> str | None:
    """Why a PostgreSQL failure is worth retrying, or None."""
    if not isinstance(err, psycopg.Error):
        return None
    if isinstance(err, pg_errors.TransactionRollback):  # serialization failure, deadlock
        return "conflict"
    if isinstance(err, pg_errors.ReadOnlySqlTransaction):  # e.g. a standby not yet promoted
        return "read-only"
    if isinstance(err, pg_errors.DiskFull):
        return "full"
    if isinstance(err, psycopg.OperationalError) or conn is None or conn.closed or conn.broken:
        return "connection lost" if conn is not None else "unreachable"
    return None


def connect(url: str) -> psycopg.Connection[Any]:
    """One connection in autocommit mode (transactions are begun explicitly), rows as
    ``PostgresRow``, ``numeric`` as numbers; TCP keepalives find a dead server within a minute."""
    conn = psycopg.connect(
        url,
        autocommit=True,
        connect_timeout=CONNECT_TIMEOUT,
        keepalives=1,
        keepalives_idle=20,
        keepalives_interval=5,
        keepalives_count=4,
        application_name="tricknight",
    )
    conn.row_factory = _row_factory
    conn.adapters.register_loader("numeric", _NumberLoader)
    return conn


class PostgresWorker(Worker):
    """A thread with its own PostgreSQL connection, made again whenever it breaks."""

    def __init__(self, name: str, url: str, conn: psycopg.Connection[Any] | None, **common: Any) -> None:
        super().__init__(name, **common)
        self.url = url
        self.conn = conn
        self._groups = 0

    def _connection(self) -> psycopg.Connection[Any]:
        if self.conn is None or self.conn.closed or self.conn.broken:
            self._drop()
            self.conn = connect(self.url)
        return self.conn

    def _drop(self) -> None:
        if self.conn is not None:
            try:
                self.conn.close()
            except psycopg.Error:
                log.debug("closing a broken connection failed", exc_info=True)
            self.conn = None

    def _commit_group(self, live: list[Job]) -> None:
        conn = self._connection()
        conn.execute("BEGIN")
        # Alone in its group a write needs no savepoint: its failure rolls back the transaction,
        # which is its own (two round trips fewer, for the commonest case: one click's write).
        alone = len(live) == 1
        for job in live:
            job.result, job.error = None, None
            if not alone:
                conn.execute("SAVEPOINT job")
            tx = PostgresTx(conn)
            try:
                job.result = job.fn(tx, *job.args)
                if not alone:
                    conn.execute("RELEASE job")
            except psycopg.Error as err:
                if _transient_reason(err, conn) is not None:
                    raise  # the whole group is retried
                job.error = self._failed(err)
                if alone:
                    conn.execute("ROLLBACK")
                    return
                conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
            except Exception as err:
                job.error = err
                if alone:
                    conn.execute("ROLLBACK")
                    return
                conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
            finally:
                tx.end()
        key = uuid.uuid4().hex
        now = time.time()
        self._groups += 1
        if self._groups % PRUNE_EVERY == 0:
            conn.execute("DELETE FROM store_commits WHERE at < %s", (now - COMMIT_KEYS_KEPT,))
        try:
            # The commit key and COMMIT in one round trip (a simple query, so the values are written
            # in: a hex key and a float, nothing that needs quoting).
            commit = f"INSERT INTO store_commits (key, at) VALUES ('{key}', {now!r}); COMMIT"  # noqa: S608
            conn.execute(commit.encode())
        except psycopg.OperationalError as err:
            # The server may have committed and only its answer been lost: look before retrying.
            found = self._committed(key, max(job.deadline for job in live), err)
            if found is None:
                outcome = StoreUnavailable(
                    f"the database {self.label} lost its connection while committing and could not be "
                    "asked again whether the change was saved",
                    "connection lost",
                )
                outcome.__cause__ = err
                for job in live:
                    job.result, job.error = None, outcome
                return
            if not found:
                raise
            log.warning("the database %s lost its connection at commit; the change was saved", self.label)

    def _committed(self, key: str, deadline: float, err: BaseException) -> bool | None:
        """Whether the group with ``key`` committed (asked on a new connection, retried until
        ``deadline``); None if the server could not be asked in time."""
        self._drop()
        wait = 0.05
        while True:
            try:
                conn = self._connection()
                return (
                    conn.execute("SELECT 1 FROM store_commits WHERE key = %s", (key,)).fetchone() is not None
                )
            except psycopg.OperationalError as again:
                self._drop()
                if time.monotonic() + wait > deadline:
                    log.warning("the database %s: could not ask whether a commit was saved (%s)",
                                self.label, again)  # fmt: skip
                    return None
                time.sleep(wait)
                wait = min(BACKOFF_MAX, wait * 2)

    def _run_read(self, job: Job) -> None:
        conn = self._connection()
        tx = PostgresTx(conn)
        try:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            job.result = job.fn(tx, *job.args)
            conn.execute("COMMIT")
        finally:
            tx.end()

    def _run_raw(self, job: Job) -> Any:
        return job.fn(self._connection(), *job.args)

    def _transient(self, err: BaseException) -> str | None:
        return _transient_reason(err, self.conn)

    def _is_database_error(self, err: BaseException) -> bool:
        return isinstance(err, psycopg.Error)

    def _reset(self) -> None:
        conn = self.conn
        if conn is None:
            return
        if conn.closed or conn.broken:
            self._drop()
            return
        if conn.info.transaction_status != TransactionStatus.IDLE:
            try:
                conn.execute("ROLLBACK")
            except psycopg.Error:
                self._drop()

    def _failed(self, err: BaseException) -> StoreError:
        failure = StoreError(f"the database {self.label} failed: {err} (nothing of this change was saved)")
        failure.__cause__ = err
        return failure


def postgresql_migrations(folder: Traversable | None = None) -> list[Migration]:
    """PostgreSQL's migrations: ``postgresql/`` beside SQLite's (or in ``folder`` itself)."""
    base = migrations_dir() if folder is None else folder
    nested = base / "postgresql"
    return load_migrations(nested if nested.is_dir() else base)


class PostgresDatabase(Database):
    """PostgreSQL through one writer thread and a few reader threads.
    ``await PostgresDatabase.open(url)``."""

    backend = "postgresql"

    def __init__(self, label: str, url: str) -> None:
        super().__init__(label)
        self.url = url
        self._workers: list[PostgresWorker] = []

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrations_dir: Traversable | None = None,
        readers: int = READERS,
        wait: float = 0.0,
    ) -> PostgresDatabase:
        """Connect, check that the database is Trick Night's (or empty), bring its schema up to
        date under the migration lock, and start the threads.

        A server that cannot be reached is tried again with back-off for ``wait`` seconds (each
        attempt logged), then ``StoreError`` says so. Raises ``StoreError`` too for a database of
        another program or one written by a newer Trick Night, which are left untouched.
        """
        migrations = await asyncio.to_thread(postgresql_migrations, migrations_dir)
        db = cls(redacted(url), url)
        conn = await db._reach(wait)
        try:
            await asyncio.to_thread(db._prepare, conn, migrations)
            conns = await asyncio.to_thread(lambda: [connect(url) for _ in range(readers)])
        except psycopg.Error as err:
            conn.close()
            raise StoreError(f"could not open the database {db.path}: {err}") from None
        except BaseException:
            conn.close()
            raise
        common: dict[str, Any] = {"loop": asyncio.get_running_loop(), "stats": db.stats, "label": db.path}
        db._workers = [PostgresWorker("tricknight-store-writer", url, conn, jobs=db._write_jobs, **common)]
        if readers:
            db._read_jobs = queue.SimpleQueue()
            db._workers += [
                PostgresWorker(f"tricknight-store-reader-{n}", url, c, jobs=db._read_jobs, **common)
                for n, c in enumerate(conns)
            ]
        db._start(list(db._workers))
        return db

    async def _reach(self, wait: float) -> psycopg.Connection[Any]:
        """A first connection, tried again with back-off for up to ``wait`` seconds."""
        give_up = time.monotonic() + wait
        pause, attempt = 0.5, 1
        while True:
            try:
                return await asyncio.to_thread(connect, self.url)
            except psycopg.OperationalError as err:
                reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                if time.monotonic() + pause > give_up:
                    raise StoreError(
                        f"the database {self.path} cannot be reached ({reason}). Check that the server "
                        "runs and TRICKNIGHT_DATABASE names it."
                    ) from None
                log.warning("the database %s cannot be reached (attempt %d: %s); trying again in %.0f s",
                            self.path, attempt, reason, pause)  # fmt: skip
                await asyncio.sleep(pause)
                pause, attempt = min(STARTUP_BACKOFF_MAX, pause * 2), attempt + 1

    def _prepare(self, conn: psycopg.Connection[Any], migrations: list[Migration]) -> None:
        """Check the owner and version, then migrate, all under the migration lock."""
        latest = migrations[-1].version
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            version = self._version(conn)
            if version > latest:
                raise StoreError(
                    f"{self.path} was written by a newer Trick Night (schema {version}, this version "
                    f"knows {latest}). Upgrade Trick Night, or set TRICKNIGHT_DATABASE to another "
                    "database; the database was left untouched."
                )
            for migration in migrations[version:]:
                self._migrate(conn, migration)
                version = migration.version
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
        self.schema_version = version

    def _version(self, conn: psycopg.Connection[Any]) -> int:
        tables = {
            row[0]
            for row in conn.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            ).fetchall()
        }
        if not tables:
            return 0
        owner = None
        if "tricknight_meta" in tables:
            found = conn.execute("SELECT value FROM tricknight_meta WHERE key = 'application'").fetchone()
            owner = found[0] if found else None
        if owner != APPLICATION:
            some = ", ".join(sorted(tables)[:5])
            raise StoreError(
                f"{self.path} is not a Trick Night database (it holds tables of something else: {some}). "
                "It was left untouched: point TRICKNIGHT_DATABASE at an empty database or Trick Night's."
            )
        found = conn.execute("SELECT value FROM tricknight_meta WHERE key = 'schema_version'").fetchone()
        if found is None:
            raise StoreError(f"{self.path} is a damaged Trick Night database (no schema version)")
        return int(found[0])

    def _migrate(self, conn: psycopg.Connection[Any], migration: Migration) -> None:
        # The schema change and the new version commit together: a crash mid-upgrade leaves the
        # previous version, which the next start upgrades again.
        try:
            with conn.transaction():
                conn.execute(migration.sql.encode())
                conn.execute(
                    "INSERT INTO tricknight_meta (key, value) VALUES ('schema_version', %s)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (str(migration.version),),
                )
        except psycopg.Error as err:
            reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise StoreError(
                f"could not upgrade {self.path} to schema {migration.version} ({migration.name}): {reason}. "
                f"The database stays at schema {migration.version - 1}."
            ) from None

    async def _before_close(self) -> None:
        """Nothing to tidy: the server keeps its own statistics."""

    def _disconnect(self) -> None:
        for worker in self._workers:
            worker._drop()
